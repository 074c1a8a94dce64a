"""Hostile save files, made by hand: pickles that BUILD onto classes, hash bombs, engine objects
in states no game reaches, bodies that break the format-2 scan, logs that do not replay.

`HOSTILE` maps a name to a maker; tests/test_saves_hostile.py reads each through the data
store and the menu's list of saved games, tests/test_hostile_files.py starts the real game
on some of them.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

from game.client.controller import MatchController, SeatConfig
from game.engine import PRESETS, Card, Match, Status
from game.saves import decode_game, plain_dumps
from game.saves.document import pack
from game.saves.games import FORMAT, table_to_plain

FORMAT1 = Path(__file__).parent / "data" / "format1"


# ---- writing pickles by hand ---------------------------------------------------------------------
def text(value: str) -> bytes:
    """SHORT_BINUNICODE."""
    data = value.encode()
    return b"\x8c" + bytes([len(data)]) + data


def name(module: str, attr: str) -> bytes:
    """GLOBAL."""
    return b"c" + module.encode() + b"\n" + attr.encode() + b"\n"


PROTO, EMPTY_DICT, SETITEM, BUILD, NONE, POP, STOP = b"\x80\x04", b"}", b"s", b"b", b"N", b"0", b"."


def build_on_class(module: str, attr: str, field: str, value: bytes) -> bytes:
    """A pickle that BUILDs ``field = value`` onto the class ``module.attr`` itself, then yields it."""
    return PROTO + name(module, attr) + EMPTY_DICT + text(field) + value + SETITEM + BUILD + STOP


def build_then_real_save(body: bytes) -> bytes:
    """``Rules.check_players = None`` BUILT on the class, then a real format-1 save, as one pickle."""
    attack = (name("game.engine.rules", "Rules") + EMPTY_DICT + text("check_players") + NONE + SETITEM
              + BUILD + POP)
    assert body[:2] == b"\x80\x05"
    return PROTO + attack + body[2:]


def hash_bomb() -> bytes:
    """A dict keyed by a tuple nested 60 deep whose two children are the same memo entry: hashing it
    takes 2**60 steps, in under 400 bytes."""
    chain = b"N\x94"  # None, MEMOIZE 0
    for i in range(60):
        chain += b"h" + bytes([i]) + b"h" + bytes([i]) + b"\x86\x94"  # BINGET i twice, TUPLE2, MEMOIZE
    return PROTO + EMPTY_DICT + chain + b"\x88" + SETITEM + STOP  # {bomb: True}


# ---- real games to damage ------------------------------------------------------------------------
def real_table(preset: str = "points", seed: int = 2) -> MatchController:
    kinds = ["human", "easy", "medium", "easy"]
    seats = [SeatConfig("human")] + [SeatConfig("computer", k) for k in kinds[1:]]
    controller = MatchController(Match(PRESETS[preset], 4, seed), seats, rng=random.Random(seed), speed=0.0)
    chooser = random.Random(seed)
    for _ in range(40):
        match = controller.match
        if match.status != Status.PLAYING:
            break
        if controller.seats[match.to_act].is_human and not controller.queue:
            controller.submit(chooser.choice(match.legal_actions()), match.to_act)
        controller.update(1 / 60)
    return controller


def format1_body(change=None) -> bytes:
    """A format-1 body as the format-1 code wrote it (the 9 fields pickled, engine objects and all),
    with ``change`` made to the match first."""
    controller = real_table()
    match = controller.match
    if change is not None:
        change(match)
    payload = {"match": match, "seats": [{"kind": s.kind, "level": s.level, "name": s.name}
                                         for s in controller.seats],
               "rng": controller.rng.getstate(), "viewer": 0, "undo": [], "history": controller.history,
               "queue": [], "timer": None, "settled": False}
    return pickle.dumps(payload, protocol=5)


def format2_payload(from_position: bool = False) -> dict:
    """A real format-2 payload (from a seed, or from a position as an upgraded save holds)."""
    if from_position:
        return table_to_plain(decode_game((FORMAT1 / "solo_points_second_deal.huit").read_bytes()))
    return table_to_plain(real_table().to_save())


def f1(body: bytes) -> bytes:
    return pack("game", 1, body)


def f2(payload_or_body) -> bytes:
    body = payload_or_body if isinstance(payload_or_body, bytes) else plain_dumps(payload_or_body)
    return pack("game", FORMAT, body)


def changed(payload: dict, change) -> dict:
    change(payload)
    return payload


def position_round(payload: dict) -> dict:
    return payload["start"]["position"]["round"]


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def more_cards(match):
    match.round.hands[0].extend([Card("7H")] * 10**6)


def set_attr(field, value):
    return lambda match: setattr(match, field, value)


def set_round(field, value):
    return lambda match: setattr(match.round, field, value)


HOSTILE = {
    # BUILD on a class: the format-1 reader builds stubs, the format-2 reader admits no name
    "f1 Card._interned = {}": lambda: f1(build_on_class("game.engine.cards", "Card", "_interned", b"}")),
    "f2 Card._interned = {}": lambda: f2(build_on_class("game.engine.cards", "Card", "_interned", b"}")),
    "f1 Rules.check_players = None on a real save": lambda: f1(
        build_then_real_save(_real_format1_body())),
    "f2 Rules.check_players = None": lambda: f2(
        build_on_class("game.engine.rules", "Rules", "check_players", NONE)),
    "f1 Match.apply = None": lambda: f1(build_on_class("game.engine.match", "Match", "apply", NONE)),
    "f2 Match.apply = None": lambda: f2(build_on_class("game.engine.match", "Match", "apply", NONE)),
    # structures that cost more to build or hash than to write
    "f1 hash bomb": lambda: f1(hash_bomb()),
    "f2 hash bomb": lambda: f2(hash_bomb()),
    # engine objects of the right classes in a state no game reaches
    "f1 pending = -5": lambda: f1(format1_body(set_round("pending", -5))),
    "f2 pending = -5": lambda: f2(changed(format2_payload(True),
                                          lambda p: position_round(p).__setitem__("pending", -5))),
    "f1 the pile a dict": lambda: f1(format1_body(set_round("pile", {Card("7H"): 1}))),
    "f2 the pile a dict": lambda: f2(changed(format2_payload(True),
                                             lambda p: position_round(p).__setitem__("pile", {"7H": 1}))),
    "f1 rules a dict": lambda: f1(format1_body(set_attr("rules", {"name": "points"}))),
    "f2 rules a dict of fields": lambda: f2(changed(format2_payload(), lambda p: p.__setitem__(
        "rules", {"name": "points", "check_players": None}))),
    "f1 a hand of 1M cards": lambda: f1(format1_body(more_cards)),
    "f2 a hand of 1M cards": lambda: f2(changed(format2_payload(True), lambda p: position_round(p)["hands"][0]
                                                .extend(["7H"] * 10**6))),
    # the format-2 scan
    "f2 a GLOBAL opcode": lambda: f2(PROTO + name("builtins", "list") + b")" + b"R" + STOP),
    "f2 memo reuse": lambda: f2(pickle.dumps(format2_payload(), protocol=4)),
    "f2 deep nesting": lambda: f2(changed(format2_payload(), lambda p: p.__setitem__("timer", nested(40)))),
    "f2 100,000 deep": lambda: f2(PROTO + b"]" * 100_000 + b"a" * 99_999 + STOP),
    # the log
    "f2 a log that does not replay": lambda: f2(changed(format2_payload(), lambda p: p["log"].insert(
        3, p["log"][2]))),
    "f2 a log entry of the wrong type": lambda: f2(changed(format2_payload(), lambda p: p["log"].__setitem__(
        3, (p["log"][3][0], 7)))),
    "f2 a log entry a float seat": lambda: f2(changed(format2_payload(), lambda p: p["log"].__setitem__(
        3, (1.0, p["log"][3][1])))),
    "f2 a log of a million entries": lambda: f2(changed(format2_payload(), lambda p: p.__setitem__(
        "log", [(0, "draw")] * 10**6))),
}


def _real_format1_body() -> bytes:
    data = (FORMAT1 / "solo_classic.huit").read_bytes()
    return data.split(b"\n", 2)[2]
