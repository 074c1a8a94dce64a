"""`Rules`: every rule choice of a Huit game in one frozen value, and the five presets.

A preset (``duel``, ``classic``, ``points``, ``colors``, ``action``) is a value of
`Rules`. Players change a preset before a game through the option names of
docs/rules.md ("Option names"), declared in `options.OPTIONS` and fields of the same name
here: ``PRESETS["points"].with_options({"jacks_skip": True})``. Each preset exposes
the options that make sense for it (``Rules.exposed``); anything else is refused with
a message that names the option and what was expected.

The other fields describe the structure of a rule set (deck, wilds, action cards,
stacking table, scoring, whether it is ranked) and are not user-facing. Code asks
these fields what a rule set does, never its name (the name is for display).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from .cards import DECKS, deck_for
from .errors import RulesError
from .options import OPTIONS

OPTION_NAMES: Final = tuple(sorted(option.name for option in OPTIONS))
"""The user-facing option names (docs/rules.md, "Option names"), in alphabetical order."""

FIRST_PLAYER_POLICIES: Final = ("rotate", "seat0", "random")
TIMEOUT_POLICIES: Final = ("autoplay", "penalty")
SCORING_MODES: Final = ("none", "hands")
BLOCKED_SCORING: Final = ("hands", "difference")

_STANDARD_VALUES: Final = (("8", 50), ("T", 10), ("J", 10), ("Q", 10), ("K", 10), ("X", 50))
_COLOR_VALUES: Final = (("+2", 20), ("skip", 20), ("rev", 20), ("W", 50), ("W+4", 50))
_ACTION_VALUES: Final = (
    ("A", 10), ("2", 20), ("3", 30), ("4", 40), ("5", 50), ("6", 60), ("7", 70),
    ("8", 5000), ("9", 90), ("T", 200), ("Q", 500), ("J", 750), ("K", 1250), ("X", 2500),
)


@dataclass(frozen=True)
class Rules:
    """Every rule choice of a game. Presets are values; change one with `with_options`.

    Structure (not user-facing): ``deck`` (``standard``, ``double``, ``colors``),
    player range, ``hand_sizes`` (cards dealt by player count when ``hand_size`` is
    0), ``first_player`` policy, ``wild_ranks``, what the starting card does,
    the deck's own action cards (``draw_cards`` as (rank or code, cards), ``skip_ranks``,
    ``reverse_ranks``, ``again_ranks``), the ``stack_on`` table, timer policy,
    scoring and card values; ``ranking_xp`` (a finished game earns ranking experience
    points, an abandoned one costs them) and ``card_markers`` (the cards carry badges
    naming their action). Options: the option names of docs/rules.md (`options.OPTIONS`).
    """

    name: str = "custom"
    deck: str = "standard"
    min_players: int = 2
    max_players: int = 4
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 7), (3, 5))
    first_player: str = "rotate"
    wild_ranks: frozenset[str] = frozenset({"8"})
    start_returns: frozenset[str] = frozenset({"8"})
    start_effects: bool = False
    draw_cards: tuple[tuple[str, int], ...] = ()
    skip_ranks: frozenset[str] = frozenset()
    reverse_ranks: frozenset[str] = frozenset()
    again_ranks: frozenset[str] = frozenset()
    stack_on: tuple[tuple[str, tuple[str, ...]], ...] = ()
    last_card_penalty: int = 2
    timeout_policy: str = "autoplay"
    timeout_penalty: int = 1
    scoring: str = "hands"
    blocked_scoring: str = "hands"
    card_values: tuple[tuple[str, int], ...] = _STANDARD_VALUES
    ranking_xp: bool = False
    card_markers: bool = False
    exposed: frozenset[str] = field(default=frozenset(OPTION_NAMES))

    # ---- options (the names of docs/rules.md, "Option names") ----
    hand_size: int = 0
    draw_until_playable: bool = True
    draw_when_playable: bool = False
    max_draws: int = 0
    reshuffle: bool = True
    twos_draw_two: bool = False
    queen_spades_draw_five: bool = False
    jacks_skip: bool = False
    aces_reverse: bool = False
    stacking: bool = False
    last_card_call: bool = False
    challenge_wild_four: bool = False
    twin_card: bool = False
    runs: bool = False
    counter_clockwise: bool = False
    turn_seconds: int = 0
    target: int = 0
    target_per_player: int = 0
    pairs: bool = False
    pair_scores: bool = True
    undo: bool = False

    def __post_init__(self) -> None:
        if self.deck not in DECKS:
            raise RulesError(f"deck must be one of {sorted(DECKS)}, not {self.deck!r}")
        if not 2 <= self.min_players <= self.max_players:
            raise RulesError(f"player range {self.min_players}-{self.max_players} is not valid")
        for name, allowed in (
            ("first_player", FIRST_PLAYER_POLICIES), ("timeout_policy", TIMEOUT_POLICIES),
            ("scoring", SCORING_MODES), ("blocked_scoring", BLOCKED_SCORING),
        ):
            if getattr(self, name) not in allowed:
                raise RulesError(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")
        for option in OPTIONS:
            option.check(getattr(self, option.name))

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A save written before a structural field existed lacks it: the preset of the same
        # name says what it is (a custom rule set takes the field's default).
        name = state.get("name")
        known = PRESETS.get(name) if isinstance(name, str) else None
        # One set test first: every pickled copy of a match (a search's, a test's) unpickles its
        # rules, and lacks no field.
        if known is not None and not state.keys() >= _FIELD_NAMES:
            for f in fields(self):
                if f.name not in state:
                    state[f.name] = getattr(known, f.name)
        # Its fields are plain attributes (no slots, no descriptors): set at once, as a frozen
        # dataclass's own unpickling would one by one (some 30 µs a rule set).
        self.__dict__.update(state)

    # ---- options ---------------------------------------------------------------------------
    def options(self) -> dict[str, bool | int]:
        """The user-facing options this rule set exposes, by their docs/rules.md names."""
        return {name: getattr(self, name) for name in OPTION_NAMES if name in self.exposed}

    def with_options(self, options: Mapping[str, Any] | None = None, **more: Any) -> Rules:
        """A copy with some options changed ("house rules"), validated.

        Raises:
            RulesError: an option this rule set does not have, or a value of the wrong
                kind or out of range.
        """
        changes = dict(options or {})
        changes.update(more)
        for name in changes:
            if name not in OPTION_NAMES:
                raise RulesError(f"unknown option {name!r}; options are: {', '.join(OPTION_NAMES)}")
            if name not in self.exposed:
                raise RulesError(f"option {name!r} does not apply to the {self.name} rules; "
                                 f"its options are: {', '.join(sorted(self.exposed))}")
        return replace(self, **changes)

    # ---- derived ---------------------------------------------------------------------------
    def cards_per_hand(self, players: int) -> int:
        """How many cards each of ``players`` players is dealt."""
        if self.hand_size:
            return self.hand_size
        size = self.hand_sizes[0][1]
        for count, cards in self.hand_sizes:
            if players >= count:
                size = cards
        return size

    def target_for(self, players: int) -> int:
        """Points that end the match at this table (0: the match is one round)."""
        return self.target or self.target_per_player * players

    def check_players(self, players: int) -> None:
        """Refuse a player count these rules cannot seat.

        Raises:
            RulesError: too few or too many players, pairs without four, or too small a deck.
        """
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise RulesError(f"the {self.name} rules seat {self.min_players} to "
                             f"{self.max_players} players, not {players!r}")
        if self.pairs and players != 4:
            raise RulesError("pair play needs exactly four players")
        needed = self.cards_per_hand(players) * players + 1
        have = len(deck_for(self.deck))
        if needed > have:
            raise RulesError(f"{players} hands of {self.cards_per_hand(players)} need {needed} "
                             f"cards; the deck has {have}")

    def describe(self) -> str:
        """One line naming the rules and the options in force (for tables and logs)."""
        opts = ", ".join(f"{k}={_fmt(v)}" for k, v in self.options().items())
        return f"{self.name}: {opts}"


def _fmt(value: bool | int) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _exposed(*missing: str) -> frozenset[str]:
    return frozenset(OPTION_NAMES) - set(missing) - {"target_per_player"}


_STANDARD_ONLY = ("twos_draw_two", "queen_spades_draw_five", "jacks_skip", "aces_reverse")
_DECK_ONLY = ("challenge_wild_four", "twin_card", "runs", "pairs", "pair_scores")

_FIELD_NAMES: Final = frozenset(f.name for f in fields(Rules))
"""Every field of a rule set (`Rules.__setstate__`: a pickled one lacks none of them)."""

PRESETS: Final[dict[str, Rules]] = {
    "duel": Rules(
        name="duel", min_players=2, max_players=2, hand_sizes=((2, 7),), hand_size=7,
        first_player="rotate", scoring="none", exposed=_exposed(*_DECK_ONLY, "counter_clockwise"),
    ),
    "classic": Rules(
        name="classic", min_players=2, max_players=4, hand_sizes=((2, 7), (3, 5)),
        first_player="seat0", undo=True, exposed=_exposed(*_DECK_ONLY),
    ),
    "points": Rules(
        name="points", min_players=2, max_players=7, hand_sizes=((2, 7), (3, 5)),
        first_player="rotate", draw_until_playable=False, target_per_player=50,
        blocked_scoring="difference",
        exposed=_exposed(*_DECK_ONLY) | {"target_per_player"},
    ),
    "colors": Rules(
        name="colors", deck="colors", min_players=2, max_players=4, hand_sizes=((2, 7),),
        hand_size=7, first_player="random", wild_ranks=frozenset({"W", "W+4"}),
        start_returns=frozenset({"W+4"}), start_effects=True,
        draw_cards=(("+2", 2), ("W+4", 4)), skip_ranks=frozenset({"skip"}),
        reverse_ranks=frozenset({"rev"}), stack_on=(("+2", ("+2",)), ("W+4", ())),
        draw_until_playable=False, draw_when_playable=True, max_draws=1, stacking=True,
        last_card_call=True, challenge_wild_four=True, timeout_policy="autoplay",
        counter_clockwise=True, card_values=_COLOR_VALUES, ranking_xp=True,
        exposed=_exposed(*_STANDARD_ONLY),
    ),
    "action": Rules(
        name="action", deck="double", min_players=2, max_players=6, hand_sizes=((2, 10),),
        hand_size=10, first_player="random", wild_ranks=frozenset({"8", "X"}),
        start_returns=frozenset({"8", "X"}), draw_cards=(("K", 2), ("X", 4)),
        skip_ranks=frozenset({"J"}), reverse_ranks=frozenset({"Q"}),
        again_ranks=frozenset({"T"}), stack_on=(("K", ("K", "X")), ("X", ("X",))),
        draw_until_playable=False, max_draws=1, stacking=True, twin_card=True, runs=True,
        turn_seconds=10, timeout_policy="penalty", card_values=_ACTION_VALUES, card_markers=True,
        exposed=_exposed(*_STANDARD_ONLY, "pairs", "pair_scores"),
    ),
}
"""The five rule sets of docs/rules.md, by preset name."""


def preset(name: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The preset called ``name``, with ``options`` applied.

    Raises:
        RulesError: unknown preset, or a bad option (see `Rules.with_options`).
    """
    try:
        rules = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}") from None
    return rules.with_options(options) if options else rules


def rule_fields() -> tuple[str, ...]:
    """Every field name of `Rules` (structure and options)."""
    return tuple(f.name for f in fields(Rules))
