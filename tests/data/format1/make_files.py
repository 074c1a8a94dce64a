"""Write the real format-1 saves of this folder, and what they must resume to (``expected.json``).

This script is kept to show how the files were made; it only runs against the code that
wrote format 1 (commit 340b33a, before format 2), from the root of such a checkout::

    git worktree add /tmp/huit-format1 340b33a
    cd /tmp/huit-format1 && PYTHONPATH=$PWD python tests/data/format1/make_files.py OUTDIR

Each file is what ``DataStore.games.write`` wrote for a table in the middle of a game.
``expected.json`` says, per file, where the game stands once loaded by that code, and where
it stands after the same seeded continuation (``continue_game``): a resumed game
must go on identically, with the same next draws.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
from pathlib import Path

from game.client.controller import MatchController, SeatConfig
from game.engine import PRESETS, Match
from game.saves import DataStore

CONTINUE_STEPS = 150
CHOOSER_SEED = 5


def seats(kinds: list[str]) -> list[SeatConfig]:
    return [SeatConfig("human", name=f"P{i}") if k == "human" else SeatConfig("computer", k)
            for i, k in enumerate(kinds)]


def table(preset: str, kinds: list[str], seed: int) -> MatchController:
    match = Match(PRESETS[preset], len(kinds), seed)
    return MatchController(match, seats(kinds), rng=random.Random(seed), speed=0.0)


def step(controller: MatchController, chooser: random.Random) -> None:
    """One step: a human to act picks a legal action with ``chooser``; a finished deal deals again."""
    match = controller.match
    if match.status != "playing":
        if match.status == "round_over" or not match.target:
            controller.next_round()
        return
    seat = match.to_act
    if controller.seats[seat].is_human and not controller.queue:
        controller.submit(chooser.choice(match.legal_actions()), seat)
    controller.update(1 / 60)


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()


def facts(controller: MatchController) -> dict[str, object]:
    """Where a table stands, as plain JSON."""
    match = controller.match
    return {"describe": str(match), "pile": [c.code for c in match.round.pile],
            "match_rng": digest(match.rng.getstate()), "table_rng": digest(controller.rng.getstate()),
            "viewer": controller.viewer, "history": len(controller.history),
            "timer": list(controller.driver.timer[0]) + [controller.driver.timer[1]]
            if controller.driver.timer else None,
            "seats": [[s.kind, s.level, s.name] for s in controller.seats]}


def continue_game(controller: MatchController) -> None:
    chooser = random.Random(CHOOSER_SEED)
    for _ in range(CONTINUE_STEPS):
        step(controller, chooser)


def solo_classic() -> MatchController:
    """Classic, one person and two computers, mid-round with three turns to undo."""
    controller = table("classic", ["human", "easy", "medium"], 7)
    chooser = random.Random(11)
    while len(controller._undo) < 3 or controller.match.to_act != 0:
        step(controller, chooser)
    assert controller.match.status == "playing" and controller.match.round.number == 1
    return controller


def hotseat_colors() -> MatchController:
    """Colors, two people and a computer, stopped on a pending suit choice or draw penalty."""
    controller = table("colors", ["human", "human", "medium"], 21)
    chooser = random.Random(3)
    while not (controller.match.status == "playing" and controller.match.round.phase in ("suit", "penalty")
               and controller.seats[controller.match.to_act].is_human and controller.match.round.turn_no > 4):
        step(controller, chooser)
    return controller


def solo_action_timer() -> MatchController:
    """Action, one person and two computers, the person's turn clock running (6.5 s left)."""
    controller = table("action", ["human", "medium", "easy"], 5)
    chooser = random.Random(2)
    for _ in range(40):
        step(controller, chooser)
    while not (controller.match.status == "playing" and controller.match.to_act == 0
               and not controller.queue):
        step(controller, chooser)
    for _ in range(7):
        controller.update(0.5)
    assert controller.timer_left is not None and abs(controller.timer_left - 6.5) < 1e-9
    return controller


def solo_points_second_deal() -> MatchController:
    """Points, one person and three computers, a few turns into the second deal."""
    controller = table("points", ["human", "medium", "easy", "medium"], 8)
    chooser = random.Random(4)
    while controller.match.round.number < 2 or controller.match.round.turn_no < 6:
        step(controller, chooser)
    while controller.match.to_act != 0 or controller.queue:
        step(controller, chooser)
    return controller


def solo_duel() -> MatchController:
    """Duel against a computer whose level was changed to Easy mid-round."""
    controller = table("duel", ["human", "medium"], 13)
    chooser = random.Random(9)
    for _ in range(9):
        step(controller, chooser)
    controller.set_level(1, "easy")
    return controller


SITUATIONS = {"solo_classic": ("solo", solo_classic), "hotseat_colors": ("hotseat", hotseat_colors),
              "solo_action_timer": ("solo", solo_action_timer),
              "solo_points_second_deal": ("solo", solo_points_second_deal), "solo_duel": ("solo", solo_duel)}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, (mode, make) in SITUATIONS.items():
        folder = out / "work" / name
        store = DataStore(folder, background=False)
        store.games.write(mode, make().to_save())
        shutil.copyfile(folder / f"{mode}.huit", out / f"{name}.huit")
        loaded = MatchController.from_save(DataStore(folder, background=False).games.read(mode), speed=0.0)
        before = facts(loaded)
        continue_game(loaded)
        expected[name] = {"mode": mode, "loaded": before, "continued": facts(loaded)}
    shutil.rmtree(out / "work")
    (out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
