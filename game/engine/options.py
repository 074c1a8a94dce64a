"""The house rules players may change, declared once: `OPTIONS`.

Each `Option` names a field of `Rules` (the names are promised: players type them,
settings and saves store them), says whether it is a switch or a number, the range a
number may take, what 0 means for it, and the values the new-game form steps through.
`Rules` validates options against this declaration, the new-game form lists and steps
them in its order, and the translations label each one and say its 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from .errors import RulesError


class Zero(StrEnum):
    """What 0 means for a number option (the form shows it in words)."""

    OFF = "off"  # the rule is not used (no turn timer, no target per player)
    AUTO = "auto"  # the preset decides by the number of players (cards dealt)
    NO_LIMIT = "no_limit"  # no limit (draws per turn, with "draw until you can play")
    ONE_ROUND = "one_round"  # the match is one deal (no target score)


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule: a `Rules` field of kind ``bool`` (on/off) or ``int`` (``low``–``high``).

    ``zero`` says what 0 means for a number; ``steps`` are the values the new-game form
    offers in turn (any value in range is valid). ``before``: for an option added after games
    and rooms were first stored, the value a rule set stored without it was played with (it is
    read back with that value, so an old game replays as it was played; see
    `snapshot.stored_rules`)."""

    name: str
    kind: Literal["bool", "int"]
    low: int = 0
    high: int = 1
    zero: Zero | None = None
    steps: tuple[int, ...] = ()
    before: bool | int | None = None

    def check(self, value: object) -> None:
        """Refuse a value of the wrong kind or out of range.

        Raises:
            RulesError: naming the option and what was expected.
        """
        if self.kind == "bool":
            if type(value) is not bool:
                raise RulesError(f"option {self.name} must be true or false, not {value!r}")
        elif type(value) is not int or not self.low <= value <= self.high:
            raise RulesError(f"option {self.name} must be a whole number from {self.low} to "
                             f"{self.high}, not {value!r}")


def _switch(name: str, before: bool | None = None) -> Option:
    return Option(name, "bool", before=before)


def _number(name: str, high: int, zero: Zero, steps: tuple[int, ...]) -> Option:
    return Option(name, "int", 0, high, zero, steps)


OPTIONS: Final[tuple[Option, ...]] = (
    _number("hand_size", 30, Zero.AUTO, (0, 3, 4, 5, 6, 7, 8, 10, 12)),
    _switch("draw_until_playable"),
    _switch("draw_when_playable"),
    _number("max_draws", 108, Zero.NO_LIMIT, (0, 1, 2, 3, 5)),
    _switch("reshuffle"),
    _switch("twos_draw_two"),
    _switch("queen_spades_draw_five"),
    _switch("jacks_skip"),
    _switch("aces_reverse"),
    _switch("stacking"),
    _switch("last_card_call"),
    _switch("challenge_wild_four"),
    _switch("twin_card"),
    _switch("runs"),
    _switch("counter_clockwise", before=False),
    _number("turn_seconds", 600, Zero.OFF, (0, 5, 10, 15, 20, 30, 60)),
    _number("target", 1_000_000, Zero.ONE_ROUND, (0, 50, 100, 150, 200, 250, 300, 500, 1000)),
    _number("target_per_player", 100_000, Zero.OFF, (0, 25, 50, 100)),
    _switch("pairs"),
    _switch("pair_scores"),
    _switch("undo"),
)
"""Every house rule, in the order the rules text and the new-game form show them."""

OPTION_BY_NAME: Final[dict[str, Option]] = {option.name: option for option in OPTIONS}
"""`OPTIONS` by name."""
