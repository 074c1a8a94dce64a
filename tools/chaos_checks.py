"""The checks of ``tools.chaos``, once every bot is done: what each bot saw against the stored
logs (and a rejoin on a random instance), and the ranking and tokens against their lines (see
`tools.chaos` for what is checked and why)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game.engine import Status
from game.net.profiles import player_id
from game.net.wire import view_to_json
from tools.instances import Cluster

if TYPE_CHECKING:
    from tools.chaos import Bot, Seen

CONNECT_TIMEOUT = 5.0


def open_store(db: str) -> Any:
    """The server's own store on ``db`` (the same code the instances run)."""
    try:
        from game.net.stores import open_store as opened  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # before the stores' chooser: SQLite only
        from game.net.sqlitestore import SQLiteRoomStore
        return SQLiteRoomStore(db)
    return opened(db)


def replayed(store: Any, room_id: str) -> tuple[Any, str]:
    """The room as its stored log rebuilds it (None and why when it cannot be)."""
    one = getattr(store, "room", None)
    if one is not None:
        try:
            room = one(room_id)
        except Exception as exc:  # noqa: BLE001 - a log the replay refuses is what is looked for
            return None, f"the replay refused it: {exc}"
        return room, "" if room is not None else "not stored"
    rooms, broken = store.load()
    for room in rooms:
        if room.room_id == room_id:
            return room, ""
    for broken_id, why in broken:
        if broken_id == room_id:
            return None, f"the replay refused it: {why}"
    return None, "not stored"


def view_of(room: Any, seat: int) -> dict[str, Any] | None:
    """A seat's view of a rebuilt room, as the wire sends it (None before the deal)."""
    if room.match is None:
        return None
    value: dict[str, Any] = json.loads(json.dumps(view_to_json(room.match.view(seat))))
    return value


def progress(view: dict[str, Any] | None) -> tuple[int, ...]:
    """How far a view is into its match: a later view of a room never comes before an earlier one."""
    if view is None:
        return (-1,)
    status = {Status.PLAYING: 0, Status.ROUND_OVER: 1, Status.MATCH_OVER: 2}.get(view["status"], 0)
    return (view["round_number"], status if status < 2 else 3, view["turn_no"], view.get("drawn", 0),
            int(view.get("played", False)))


@dataclass
class Findings:
    """What the checks found."""

    compared: int = 0
    exact: int = 0  # rooms whose whole log is kept: every view checked
    updates: int = 0  # views checked against the log's states
    stale: int = 0  # rejoins given an older view than the bot saw before
    abandoned: int = 0  # rejoins refused: a computer took the seat of a ranked game (the log says so)
    clock_turns: Counter[str] = field(default_factory=Counter)  # turns the clock played, by kind of room
    same: int = 0
    behind: int = 0
    rejoined: int = 0
    mismatches: list[str] = field(default_factory=list)
    players: int = 0
    games: int = 0
    lines: int = 0


def prefix_views(store: Any, room: Any, found: Findings, kind: str) -> list[dict[int, str]] | None:
    """Each seat's view (as canonical JSON) after each prefix of the room's stored log, from its
    first entry on: None when the store kept only the entries since a later deal (its snapshot).
    The turns the clock played in it are counted in ``found`` (by ``kind`` of room)."""
    from game.net.rooms import Room, Seat

    since = store.since(room.room_id, 0)
    if since is None or since.entries is None:
        return None
    fresh = Room(room.room_id, room.rules, [Seat.from_json(seat.to_json()) for seat in room.seats], room.seed,
                 room.first, kind=room.kind, owner=room.owner)

    def views() -> dict[int, str]:
        return {seat: _canonical(view_of(fresh, seat)) for seat in range(fresh.players)}

    states = [views()]
    for entry in since.entries:
        if entry.kind == "action" and entry.text.startswith("timeout"):
            found.clock_turns[kind] += 1
        fresh.replay([entry])
        states.append(views())
    return states


def _seats_of(bots: list[Bot], room: str) -> list[Seen]:
    return [seen for bot in bots for seen in bot.rooms if seen.room == room]


def _canonical(view: dict[str, Any] | None) -> str:
    return json.dumps(view, sort_keys=True)


def check_views(store: Any, bots: list[Bot], found: Findings) -> None:
    """Each bot's views of each room against the room its log rebuilds: the last one the same as
    the replayed room's (or behind it); where the store keeps the room's whole log, every view
    one of the log's states, and on each connection in the log's order."""
    for bot in bots:
        for seen in bot.rooms:
            room, why = replayed(store, seen.room)
            found.compared += 1
            if room is None:
                found.mismatches.append(f"{bot.name}: room {seen.room}: {why}")
                continue
            stored = view_of(room, seen.seat)
            first = seen.seat == min(s.seat for s in _seats_of(bots, seen.room))  # counts the clock's turns
            try:
                states = prefix_views(store, room, found if first else Findings(), seen.kind)
            except Exception as exc:  # noqa: BLE001 - a log the replay refuses is what is looked for
                found.mismatches.append(f"{bot.name}: room {seen.room}: the replay of its whole log refused "
                                        f"it: {type(exc).__name__}: {exc}")
                continue
            if states is not None:
                found.exact += 1
                problem = _follow(seen, [state[seen.seat] for state in states], found)
                if problem:
                    found.mismatches.append(f"{bot.name}: room {seen.room} seat {seen.seat}: {problem}")
                    continue
            if stored == seen.view:
                found.same += 1
            elif states is not None or progress(seen.view) <= progress(stored):
                found.behind += 1  # (with the whole log: _follow found it in the log, before its end)
            else:
                found.mismatches.append(f"{bot.name}: room {seen.room} seat {seen.seat}: saw "
                                        f"{_short(seen.view)}, the log gives {_short(stored)}")


def _follow(seen: Seen, states: list[str], found: Findings) -> str:
    """Where each view the bot was sent stands in the log's states: "" when each is one of them
    and, on one connection, none comes before the one sent before it; else what is wrong."""
    at: dict[str, list[int]] = {}
    for index, state in enumerate(states):
        at.setdefault(state, []).append(index)
    connection, position, last = -1, 0, 0
    for number, view in seen.views:
        found.updates += 1
        places = at.get(_canonical(view))
        if not places:
            return f"sent {_short(view)}, which no state of the room's log gives"
        if number != connection:  # a new connection: it may start anywhere (a rejoin's view)
            connection, position = number, places[0]
            found.stale += position < last
        else:
            later = [p for p in places if p >= position]
            if not later:
                return f"sent {_short(view)} after a later state of the log, on one connection"
            position = later[0]
        last = max(last, position)
    return ""


def _short(view: dict[str, Any] | None) -> str:
    if view is None:
        return "no deal"
    return (f"round {view['round_number']} {view['status']} turn {view['turn_no']} to_act {view['to_act']} "
            f"hand {len(view['hand'])} discard {view['discard'][-1:]}")


async def rejoin(store: Any, cluster: Cluster, bots: list[Bot], found: Findings, rng: random.Random) -> None:
    """Each bot back in its last room, on a random instance: the view it is given must be the
    stored room's (read before and after, in case a computer's move was on its way)."""
    for bot in bots:
        if not bot.rooms:
            continue
        seen = bot.rooms[-1]
        before, why = replayed(store, seen.room)
        if before is None or before.match is None:
            continue  # counted by check_views; no deal: no view to compare
        instance = rng.choice(cluster.instances)
        headers = {"X-Forwarded-For": bot.address} if bot.address else None
        got: dict[str, Any] | None = None
        try:
            async with connect(instance.url, max_size=1 << 20, open_timeout=CONNECT_TIMEOUT,
                               additional_headers=headers) as ws:
                if bot.key:
                    await ws.send(json.dumps({"v": 2, "type": "hello", "player": bot.key, "name": bot.name}))
                await ws.send(json.dumps({"v": 2, "type": "join", "room": seen.room, "seat": seen.seat,
                                          "key": seen.key}))
                while got is None:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=5))
                    if message["type"] == "update":
                        got = message["view"]
                    elif message["type"] == "error":
                        now, _ = replayed(store, seen.room)
                        taken = now is not None and now.seats[seen.seat].abandoned
                        if message["code"] == "abandoned" and taken:
                            found.abandoned += 1  # a computer took the seat, as the stored room says
                        else:
                            found.mismatches.append(f"{bot.name}: rejoining room {seen.room}: "
                                                    f"{message['code']}")
                        break
        except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError) as exc:
            found.mismatches.append(f"{bot.name}: rejoining room {seen.room}: {type(exc).__name__}")
            continue
        if got is None:
            continue
        after, _ = replayed(store, seen.room)
        expected = [view_of(before, seen.seat), view_of(after, seen.seat) if after is not None else None]
        found.rejoined += 1
        if got not in expected:
            found.mismatches.append(f"{bot.name}: rejoined room {seen.room} on instance {instance.index}: "
                                    f"given {_short(got)}, the log gives {_short(expected[0])}")


def check_ranking(store: Any, bots: list[Bot], found: Findings) -> None:
    """Quick-match players: ratings are the sums of their lines; wallets the grant plus their games'
    settlements; each game's stakes sum to zero; each game seen to end has one line per player."""
    from game.net.tokens import GRANT

    settled: dict[tuple[str, int], dict[str, int]] = {}
    for bot in bots:
        if not bot.key:
            continue
        player = player_id(bot.key)
        found.players += 1
        lines = store.history(player, None, 100_000)
        found.lines += len(lines)
        sums: Counter[str] = Counter()
        for line in lines:
            sums[line.preset] += line.xp
        points = store.points(player)
        for preset in set(points) | set(sums):
            if points.get(preset, 0) != sums.get(preset, 0):
                found.mismatches.append(f"{bot.name}: {preset} rating {points.get(preset, 0)}, its lines "
                                        f"add up to {sums.get(preset, 0)}")
        games = {(line.room, line.deal) for line in lines if line.games}
        for game in games:
            if game not in settled:
                settled[game] = store.settlement(*game)
        moved = sum(settled[game].get(player, 0) for game in games)
        wallet = store.wallet(player)
        held = GRANT if wallet.tokens is None else wallet.tokens
        if held != GRANT + moved:  # a run within one day of the server's clock: no top-up
            found.mismatches.append(f"{bot.name}: wallet {held}, the grant and its games give "
                                    f"{GRANT + moved}")
        for seen in bot.rooms:
            if seen.kind == "quick" and seen.over and seen.view and seen.view.get("winners"):
                count = sum(1 for line in lines if line.room == seen.room and line.games)
                if count != 1:
                    found.mismatches.append(f"{bot.name}: {count} ranked lines of the game of room "
                                            f"{seen.room}")
    found.games = len(settled)
    for game, amounts in settled.items():
        if sum(amounts.values()) != 0:
            found.mismatches.append(f"the stakes of room {game[0]} deal {game[1]} add up to "
                                    f"{sum(amounts.values())}")
