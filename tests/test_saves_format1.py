"""Real format-1 saves (written by the format-1 code, kept in tests/data/format1) load through the
upgrade, resume exactly where they stopped, and play on to the end."""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import types
from pathlib import Path

import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.saving import saved_games, summary
from game.engine import PRESETS, Match, Status
from game.saves import DataStore, decode_game, encode_game
from game.saves.document import pack
from game.saves.games import table_to_plain

FOLDER = Path(__file__).parent / "data" / "format1"
EXPECTED = json.loads((FOLDER / "expected.json").read_text())
NAMES = sorted(EXPECTED)


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()


def facts(controller: MatchController) -> dict[str, object]:
    """Where a table stands, as make_files.py wrote it down."""
    match = controller.match
    timer = controller.driver.timer
    return {"describe": str(match), "pile": [c.code for c in match.round.pile],
            "match_rng": digest(match.rng.getstate()), "table_rng": digest(controller.rng.getstate()),
            "viewer": controller.viewer, "history": len(controller.history),
            "timer": list(timer[0]) + [timer[1]] if timer else None,
            "seats": [[s.kind, s.level, s.name] for s in controller.seats]}


def step(controller: MatchController, chooser: random.Random) -> None:
    """make_files.py's step: a person to act picks with ``chooser``; a finished deal deals again."""
    match = controller.match
    if match.status != "playing":
        if match.status == "round_over" or not match.target:
            controller.next_round()
        return
    seat = match.to_act
    if controller.seats[seat].is_human and not controller.queue:
        controller.submit(chooser.choice(match.legal_actions()), seat)
    controller.update(1 / 60)


def loaded(name: str) -> MatchController:
    table = decode_game((FOLDER / f"{name}.huit").read_bytes())
    return MatchController.from_save(table, speed=0.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_format_one_save_resumes_exactly_where_it_stopped(name):
    assert facts(loaded(name)) == EXPECTED[name]["loaded"]


@pytest.mark.parametrize("name", NAMES)
def test_a_format_one_save_goes_on_exactly_as_the_format_one_code_went_on(name):
    controller = loaded(name)
    chooser = random.Random(5)
    for _ in range(150):
        step(controller, chooser)
    assert facts(controller) == EXPECTED[name]["continued"]  # the same draws, moves and deals


@pytest.mark.parametrize("name", NAMES)
def test_a_format_one_save_plays_to_the_end_and_saves_in_format_two(name, tmp_path):
    controller = loaded(name)
    data = DataStore(tmp_path, background=False)
    mode = EXPECTED[name]["mode"]
    controller.on_change = lambda: data.games.write(mode, controller.to_save())
    chooser = random.Random(1)
    for _ in range(20000):
        if controller.match.status == Status.MATCH_OVER and controller.match.target:
            break
        if controller.match.status == Status.MATCH_OVER:  # one-deal rules: that deal was the game
            break
        step(controller, chooser)
    assert controller.match.status == Status.MATCH_OVER
    again = data.games.read(mode)
    assert again is not None and again.match == controller.match
    assert (tmp_path / f"{mode}.huit").read_bytes().startswith(b"HUIT game 2\n")


@pytest.mark.parametrize("name", NAMES)
def test_an_upgraded_save_saved_again_resumes_identically(name):
    controller = loaded(name)
    table = decode_game(encode_game(controller.to_save()))
    assert "position" in table_to_plain(table)["start"]  # it starts from where format 1 stopped
    again = MatchController.from_save(table, speed=0.0)
    assert facts(again) == facts(controller)
    a, b = random.Random(3), random.Random(3)
    for _ in range(100):
        step(controller, a)
        step(again, b)
    assert again.match == controller.match and again.history == controller.history


def test_the_upgrade_loses_the_undo_steps_and_nothing_else():
    table = decode_game((FOLDER / "solo_classic.huit").read_bytes())  # saved with three undo steps
    assert table.undo == [] and table.undo_turn is None
    controller = MatchController.from_save(table, speed=0.0)
    assert not controller.can_undo
    chooser = random.Random(2)
    while not controller.can_undo:  # a turn played after the upgrade can be taken back
        step(controller, chooser)
    assert controller.undo()


def format1_file(controller: MatchController) -> bytes:
    """What the format-1 code wrote for ``controller``: its nine fields pickled, engine objects and all."""
    payload = {"match": controller.match,
               "seats": [{"kind": s.kind, "level": s.level, "name": s.name} for s in controller.seats],
               "rng": controller.rng.getstate(), "viewer": controller.viewer, "undo": [],
               "history": list(controller.history), "queue": list(controller.queue),
               "timer": controller.driver.timer, "settled": controller.settled}
    return pack("game", 1, pickle.dumps(payload, protocol=5))


@pytest.mark.parametrize("preset", ["classic", "colors", "action"])
def test_computers_relearn_the_deal_from_the_format_one_history(preset):
    seats = [SeatConfig("human"), SeatConfig("computer", "medium"), SeatConfig("computer", "medium")]
    live = MatchController(Match(PRESETS[preset], 3, 6), seats, rng=random.Random(6), speed=0.0)
    chooser = random.Random(6)
    for _ in range(400):
        if live.match.round.turn_no > 15 or live.match.status != Status.PLAYING:
            break
        step(live, chooser)
    upgraded = MatchController.from_save(decode_game(format1_file(live)), speed=0.0)
    assert upgraded.match == live.match and upgraded.history == live.history
    for seat, player in live.driver.players.items():
        assert vars(upgraded.driver.players[seat].knowledge.get(seat)) == vars(player.knowledge.get(seat))


def test_the_menu_shows_an_upgraded_save(tmp_path):
    (tmp_path / "solo.huit").write_bytes((FOLDER / "solo_points_second_deal.huit").read_bytes())
    (tmp_path / "hotseat.huit").write_bytes((FOLDER / "hotseat_colors.huit").read_bytes())
    app = types.SimpleNamespace(store=DataStore(tmp_path, background=False))
    games = saved_games(app)
    assert [(g.mode, g.problem) for g in games] == [("solo", None), ("hotseat", None)]
    assert games[0].line == summary("solo", games[0].payload)
    assert games[0].line.startswith("Points game, round 2, you 0")
    assert games[1].line.startswith("Same device: Colours, round 1")
