"""Hostile save files are harmless: each is refused with a reason, left byte for byte as it was,
and no class of the engine has changed afterwards (read through `DataStore` and the menu's
`saved_games`, never by starting the whole app)."""

from __future__ import annotations

import importlib
import pkgutil
import threading
import types

import pytest

import game.engine
from game.client.i18n import set_language
from game.client.saving import saved_games, why
from game.engine import PRESETS, Card, Match
from game.saves import DataStore, SaveError, decode_game
from tests.hostile_pickles import HOSTILE


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
