"""The flood of ``tools.loadtest --flood N`` (and ``--attack N``): connections from loopback that
send pings as fast as they can, reconnecting whenever the server closes them, in a process of
their own; what they sent, what was answered, how the server closed them, and the most one
connection got past what the rules allow it (`print_flood`)."""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from game.net.quotas import FLOOD_COOLDOWN

FLOOD_BATCH = 50  # pings a flooder sends between two looks at the clock


@dataclass
class Flood:
    """What the flooders measured."""

    sent: int = 0  # pings sent
    connections: int = 0  # connections opened
    answers: dict[str, int] = field(default_factory=dict)  # what came back, by type or error code
    closed: dict[str, int] = field(default_factory=dict)  # how the server closed them: "code reason"
    worst: float = 0.0  # the most answers of one kind a connection got past its allowance


async def flooder(url: str, flood: Flood, stop: float, rate: float) -> None:
    """One flooding connection: pings as fast as it can send them, counting what comes back; a new
    connection whenever the server closes it, until ``stop`` (``rate``: the server's ``--rate``)."""
    frame = json.dumps({"v": 2, "type": "ping"})
    while time.monotonic() < stop:
        answers = {"pong": 0, "rate_limited": 0}
        opened = time.monotonic()
        try:
            async with connect(url, max_size=1 << 20, close_timeout=1) as ws:
                flood.connections += 1
                reader = asyncio.create_task(_count_answers(ws, flood, answers))
                try:
                    while time.monotonic() < stop:
                        for _ in range(FLOOD_BATCH):
                            await ws.send(frame)
                        flood.sent += FLOOD_BATCH
                        await asyncio.sleep(0)  # let the answers be read (and the other flooders send)
                finally:
                    reader.cancel()
        except ConnectionClosed as closed:
            why = f"{closed.rcvd.code} {closed.rcvd.reason}" if closed.rcvd else "cut"
            flood.closed[why] = flood.closed.get(why, 0) + 1
        except InvalidStatus as exc:  # refused before the handshake (its address cools down)
            why = f"refused HTTP {exc.response.status_code}"
            flood.closed[why] = flood.closed.get(why, 0) + 1
            await asyncio.sleep(0.05)
        except (OSError, InvalidHandshake) as exc:
            flood.closed[type(exc).__name__] = flood.closed.get(type(exc).__name__, 0) + 1
            await asyncio.sleep(0.05)
        lived = time.monotonic() - opened
        allowed = 2 * rate + rate * lived  # what each of the two allowances gives a connection this old
        flood.worst = max(flood.worst, *(n - allowed for n in answers.values()))


def flood_process(url: str, flooders: int, duration: float, rate: float) -> Flood:
    """Run ``flooders`` for ``duration`` seconds in this process (the tool runs it in a process of
    its own, so that the flood does not slow the bots' own loop); the flood's figures."""
    figures = Flood()
    stop = time.monotonic() + duration
    # An attacker floods from a machine of their own: here, the flooders yield the CPU they share
    # with the server and the bots, so that what is measured is what the flood costs the server.
    os.nice(19)

    async def run() -> None:
        await asyncio.gather(*(flooder(url, figures, stop, rate) for _ in range(flooders)),
                             return_exceptions=True)

    asyncio.run(run())
    return figures


async def _count_answers(ws: Any, flood: Flood, answers: dict[str, int]) -> None:
    """Read a flooder's answers (so that its connection is not let go for not reading)."""
    async for text in ws:
        message = json.loads(text)
        kind = message.get("code", message["type"])
        flood.answers[kind] = flood.answers.get(kind, 0) + 1
        if kind in answers:
            answers[kind] += 1


def print_flood(flood: Flood, flooders: int, seconds: float, rate: float) -> None:
    """The flood's figures, next to what the rules allow a connection."""
    answers = ", ".join(f"{n:,} {kind}" for kind, n in sorted(flood.answers.items())) or "none"
    closed = ", ".join(f"{n} × {why}" for why, n in sorted(flood.closed.items())) or "none"
    print(f"attack, flood: {flooders} connections from loopback sent {flood.sent:,} pings in "
          f"{seconds:g} s ({flood.sent / seconds:,.0f}/s) over {flood.connections} "
          f"connections; answers: {answers}; closed or refused by the server: {closed}")
    print(f"attack, flood: the rules allow a connection {rate:g} messages a second (bursts of {2 * rate:g}), "
          f"as many more answered rate_limited, then close it (1008 flooding), and refuse its address "
          f"connections for {FLOOD_COOLDOWN:g} s (HTTP 429; loopback exempt, as here); the most one "
          f"connection got past either "
          f"allowance: {max(0.0, flood.worst):.0f}")
