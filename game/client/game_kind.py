"""Quick game or Points game: the two named ways to play a rule set that scores points but
whose match is one round unless it is given a target (``classic``, ``colors``, ``action``).

A **Quick game** is the ``target`` option at 0: the first out wins, and no points are
shown anywhere (table, result, Continue line, statistics). A **Points game** is a target
above 0: the winner of each round scores, rounds follow until the target is reached, and
the points are shown wherever they carry over. The new-game form offers the two by name
(seed 002's "Partie rapide" and "Points par partie"), the target's own button right
under the choice (stepping it to "one round" is choosing the Quick game). Rule sets that
always play to a target (``points``) or never score (``duel``) have no such choice.
Plain functions over `Rules`: no pygame here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from game.engine import Rules

POINTS_TARGET: Final = 500
"""The target a Points game starts with (the colour source's game to 500) until another is chosen."""


def offers_choice(rules: Rules) -> bool:
    """Whether ``rules`` may be played either as a Quick game or as a Points game."""
    return "target" in rules.exposed and rules.scoring != "none" and not rules.target_per_player


def is_points_game(rules: Rules, players: int) -> bool:
    """Whether points carry over at this table: the match is played to a target."""
    return bool(rules.target_for(players))


def kind_key(rules: Rules, players: int) -> str:
    """The translation key naming the game's kind: ``new.points_game`` or ``new.quick_game``."""
    return "new.points_game" if is_points_game(rules, players) else "new.quick_game"


def switched(options: Mapping[str, Any], rules: Rules, players: int, remembered: int) -> dict[str, Any]:
    """The options with the other kind of game chosen: a Quick game goes to ``remembered``
    points (a target the player chose before, else `POINTS_TARGET`), a Points game to one round."""
    out = dict(options)
    out["target"] = 0 if is_points_game(rules, players) else (remembered or POINTS_TARGET)
    return out


def shown_options(names: list[str], rules: Rules, players: int) -> list[str]:
    """The house rules the form lists, of ``names`` (in order): with the choice, the target
    first (under the choice it belongs to); ``pair_scores`` only where it can count (pair
    play to a target)."""
    out = list(names)
    if offers_choice(rules) and "target" in out:
        out.remove("target")
        out.insert(0, "target")
    if "pair_scores" in out and not (rules.pairs and is_points_game(rules, players)):
        out.remove("pair_scores")
    return out
