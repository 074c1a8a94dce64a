"""Hostile save files are harmless: each is refused with a reason, left byte for byte as it was,
and no class of the engine has changed afterwards (read through `DataStore` and the menu's
`saved_games`, never by starting the whole app)."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import random
import threading
import types
from pathlib import Path

import pytest

import game.engine
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import set_language
from game.client.saving import saved_games, why
from game.engine import PRESETS, Card, Match, Status
from game.saves import DataStore, SaveError, decode_game, plain_dumps
from game.saves.document import pack
from game.saves.games import FORMAT, table_to_plain

FORMAT1 = Path(__file__).parent / "data" / "format1"


# ---- the engine's classes, before and after --------------------------------------------------------
def engine_classes() -> dict[str, dict[str, object]]:
    """Every class defined in game.engine's modules, with what its namespace holds (dicts and lists
    by value too, so a class attribute changed in place shows)."""
    out = {}
    for info in pkgutil.iter_modules(game.engine.__path__, "game.engine."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == info.name:
                out[f"{info.name}.{name}"] = {
                    key: (id(item), dict(item) if isinstance(item, dict) else
                          list(item) if isinstance(item, list) else None)
                    for key, item in vars(value).items()}
    return out


@pytest.fixture
def untouched_engine():
    """Fails the test if any engine class changed while it ran."""
    before = engine_classes()
    yield
    assert engine_classes() == before, "an engine class was changed"


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


@pytest.fixture(scope="module")
def hostile_files() -> dict[str, bytes]:
    return {what: make() for what, make in HOSTILE.items()}


def read_in_time(read, seconds: float = 60.0):
    """Call ``read`` on a thread; what it returned or raised. Fails only if it never returns (a hang)."""
    out: dict[str, object] = {}

    def run():
        try:
            out["value"] = read()
        except BaseException as exc:  # noqa: BLE001  # handed back to the test
            out["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "reading the file never ends"
    return out


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_a_hostile_save_is_refused_with_a_reason_and_kept(tmp_path, hostile_files, untouched_engine, what):
    data = hostile_files[what]
    path = tmp_path / "solo.huit"
    path.write_bytes(data)
    out = read_in_time(lambda: DataStore(tmp_path, background=False).games.read("solo"))
    error = out.get("error")
    assert isinstance(error, SaveError), out
    assert error.key in ("unsafe", "malformed", "invalid", "illegal_log") and str(error)
    assert path.read_bytes() == data


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_the_menu_says_why_a_hostile_save_cannot_be_continued(tmp_path, hostile_files, untouched_engine,
                                                               what):
    data = hostile_files[what]
    (tmp_path / "solo.huit").write_bytes(data)
    (tmp_path / "hotseat.huit.bak").write_bytes(data)  # a backup is read too: hostile as well
    (tmp_path / "hotseat.huit").write_bytes(b"HUIT game 2\n{}\n")
    app = types.SimpleNamespace(store=DataStore(tmp_path, background=False))
    out = read_in_time(lambda: saved_games(app))
    games = out.get("value")
    assert isinstance(games, list), out
    assert [(g.mode, g.payload, g.backup) for g in games] == [("solo", None, None), ("hotseat", None, None)]
    for saved in games:
        assert saved.problem is not None
        assert why(saved.problem) and not why(saved.problem).startswith("save.why")
        set_language("fr")
        assert why(saved.problem) != str(saved.problem)  # said in French
        set_language("en")
    assert (tmp_path / "solo.huit").read_bytes() == data
    assert (tmp_path / "hotseat.huit.bak").read_bytes() == data


def test_the_reasons_name_what_is_wrong(hostile_files):
    def key(what):
        try:
            decode_game(hostile_files[what])
        except SaveError as exc:
            return exc.key
        return None

    assert key("f2 Card._interned = {}") == key("f2 a GLOBAL opcode") == "unsafe"
    assert key("f2 memo reuse") == key("f2 hash bomb") == key("f2 deep nesting") == "malformed"
    assert key("f1 hash bomb") == key("f2 a hand of 1M cards") == "malformed"
    assert key("f2 a log that does not replay") == "illegal_log"
    assert key("f2 a log entry of the wrong type") == key("f1 pending = -5") == "invalid"


def test_a_format_one_build_on_a_class_changes_nothing_and_the_game_still_starts(untouched_engine):
    for what in ("f1 Card._interned = {}", "f1 Rules.check_players = None on a real save",
                 "f1 Match.apply = None"):
        with pytest.raises(SaveError):
            decode_game(HOSTILE[what]())
    assert Card("7H").code == "7H"
    match = Match(PRESETS["classic"], 2, 1)  # New game works
    match.apply(match.legal_actions()[0])
