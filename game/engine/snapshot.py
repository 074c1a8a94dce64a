"""A match's position as plain data, and back, checked field by field.

Plain data is what any file format can hold: dicts with string keys, lists, tuples,
strings, whole numbers, floats, booleans and ``None``. `to_plain` writes where a match
stands (and, given them, the events of its deal so far, which computer players learn
the deal from); `from_plain` reads it back into a `Match` and refuses anything a game
could not have reached: every field is checked by type, then by value (cards belong
to the rules' deck and the hands, the draw pile and the discard pile hold exactly that
deck; seats, phase, status, a pending penalty, the direction and the scores agree
with one another; the events tell the same hands and discard pile), and finally every
seat's view and the legal actions must work. The match remembers the position as its
beginning, so `Match.rewound` can rebuild it.

`rules_to_plain` and `rules_from_plain` write a rule set as its preset and options.

The layout (cards are their codes; events are their name, then their fields in order)::

    {"first_seat": None, "rng": (3, (…625 whole numbers…), None),
     "scores": [0, 56], "results": [RESULT, …], "status": "playing", "winners": [],
     "round": {"number": 2, "dealer": 0, "first": 1, "hands": [["7C", "9C"], ["QH"]],
               "pile": [...], "discard": [...], "suit": "D", "direction": 1, "to_act": 1,
               "phase": "play", "drawn": 0, "last_drawn": None, "played": False,
               "follow": None, "follow_suit": None, "run_next": 0, "pending": 0,
               "pending_by": None, "bluff_by": None, "called": False, "exposed": [],
               "turn_no": 7, "passes": 0, "result": None, "start_choice": False,
               "explicit": False},
     "events": [("RoundStarted", 2, 0, 1, 1, 5), ("CardsDrawn", 0, 5, "deal", ["7C", …]), …]}

    RESULT = {"winner": 1, "winners": [1], "blocked": False, "tie": False,
              "points": [0, 56], "hands": [["KH", …], []], "totals": [56, 0]}
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, fields
from enum import StrEnum
from typing import Any, Final

from . import events as ev
from .cards import Card, card_of
from .effects import CardTable, card_table
from .errors import RulesError
from .match import Match
from .options import OPTIONS
from .phases import CHALLENGE_PHASE, OVER, PENALTY, SUIT, Follow, Phase, Status
from .round import Round, restored_round
from .rules import PRESETS, Rules, preset
from .scoring import RoundResult, hand_total, match_winners
from .state import Plain, positional

MAX_NUMBER: Final = 100_000
"""The highest deal number a position may hold."""
MAX_TURNS: Final = 10_000_000
MAX_SCORE: Final = 10**9
MAX_EVENTS: Final = 20_000
"""The most events of one deal a position may carry (a long deal has a few thousand)."""

_POSITIONAL: Final = positional(Round)
ROUND_FIELDS: Final = tuple(f.name for f in _POSITIONAL)
"""The fields of a position's round, in order: the round's own declaration (`Round`, `Plain`)."""
_REQUIRED_KEYS: Final = frozenset(f.name for f in _POSITIONAL if f.before is MISSING)
_ROUND_KEYS: Final = frozenset(ROUND_FIELDS)
MATCH_FIELDS: Final = ("first_seat", "rng", "scores", "results", "status", "winners", "round", "events")
RESULT_FIELDS: Final = ("winner", "winners", "blocked", "tie", "points", "hands", "totals")

# What each event's fields are, in order: how they are written and checked.
_EVENT_KINDS: Final[dict[str, tuple[type[ev.Event], tuple[str, ...]]]] = {
    "RoundStarted": (ev.RoundStarted, ("number", "seat", "seat", "direction", "count")),
    "CardsDrawn": (ev.CardsDrawn, ("seat", "count", "reason", "cards?")),
    "StartCard": (ev.StartCard, ("card",)),
    "StartCardReturned": (ev.StartCardReturned, ("card",)),
    "CardPlayed": (ev.CardPlayed, ("seat", "card")),
    "SuitChosen": (ev.SuitChosen, ("seat", "suit")),
    "Reshuffled": (ev.Reshuffled, ("count",)),
    "Passed": (ev.Passed, ("seat",)),
    "TurnSkipped": (ev.TurnSkipped, ("seat",)),
    "DirectionChanged": (ev.DirectionChanged, ("direction",)),
    "PenaltyPending": (ev.PenaltyPending, ("seat", "count")),
    "TurnStarted": (ev.TurnStarted, ("seat",)),
    "PlayAgain": (ev.PlayAgain, ("seat", "follow")),
    "LastCardCalled": (ev.LastCardCalled, ("seat",)),
    "Denounced": (ev.Denounced, ("seat", "seat")),
    "Challenged": (ev.Challenged, ("seat", "seat", "bool")),
    "TimedOut": (ev.TimedOut, ("seat",)),
    "RoundEnded": (ev.RoundEnded, ("result",)),
    "MatchEnded": (ev.MatchEnded, ("seats", "scores")),
}
EVENT_NAMES: Final = tuple(_EVENT_KINDS)
"""The events a position may carry, by name."""


# ---- rules ---------------------------------------------------------------------------------------
def rules_to_plain(rules: Rules) -> dict[str, Any]:
    """``{"preset": "points", "options": {"jacks_skip": True, …}}``.

    Raises:
        RulesError: ``rules`` is not a preset with options (a rule set built by hand).
    """
    plain = {"preset": rules.name, "options": rules.options()}
    if rules_from_plain(plain) != rules:
        raise RulesError(f"the {rules.name} rules are not a preset with options")
    return plain


def stored_rules(data: object) -> object:
    """Rules read back from a store (a saved game, a server's stored room) as they were written:
    ``{"preset": …, "options": {…}}`` with every option the preset offered then. An option added
    since (`Option.before` set) that the preset offers but the data lacks takes the value the game
    was played with, not today's default (a colours game saved before ``counter_clockwise`` goes on
    clockwise). Anything else is returned as it is, for `rules_from_plain` to judge."""
    if not isinstance(data, dict) or type(data.get("options")) is not dict:
        return data
    name = data.get("preset")
    known = PRESETS.get(name) if isinstance(name, str) else None
    if known is None:
        return data
    options = data["options"]
    older = {option.name: option.before for option in OPTIONS
             if option.before is not None and option.name in known.exposed and option.name not in options}
    return {**data, "options": {**options, **older}} if older else data


def rules_from_plain(data: object) -> Rules:
    """The rules `rules_to_plain` wrote.

    Raises:
        RulesError: not a known preset with valid options.
    """
    if not isinstance(data, dict) or set(data) != {"preset", "options"}:
        raise RulesError("rules are {\"preset\": NAME, \"options\": {...}}")
    name, options = data["preset"], data["options"]
    if type(name) is not str or name not in PRESETS:
        raise RulesError(f"unknown preset {name!r:.40}")
    if not isinstance(options, dict) or not all(type(k) is str for k in options):
        raise RulesError("rules options are a table of option names")
    return preset(name, options)


# ---- writing -------------------------------------------------------------------------------------
def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


def result_to_plain(result: RoundResult) -> dict[str, Any]:
    """A round's result as plain data."""
    return {"winner": result.winner, "winners": list(result.winners), "blocked": result.blocked,
            "tie": result.tie, "points": list(result.points),
            "hands": [_codes(hand) for hand in result.hands], "totals": list(result.totals)}


def _value_to_plain(value: object) -> object:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, RoundResult):
        return result_to_plain(value)
    if isinstance(value, tuple):
        return [_value_to_plain(v) for v in value]
    return value


def event_to_plain(event: ev.Event) -> tuple[Any, ...]:
    """An event as ``(name, field, …)``.

    Raises:
        RulesError: not one of the engine's events.
    """
    name = type(event).__name__
    if name not in _EVENT_KINDS or _EVENT_KINDS[name][0] is not type(event):
        raise RulesError(f"not an engine event: {event!r:.60}")
    return (name, *(_value_to_plain(getattr(event, f.name)) for f in fields(event)))


_WRITERS: Final[dict[Plain, Callable[[Any], object]]] = {
    Plain.HANDS: lambda hands: [_codes(hand) for hand in hands],
    Plain.CARDS: _codes,
    Plain.MAYBE_CARD: lambda card: None if card is None else card.code,
    Plain.PHASE: lambda phase: phase.value,
    Plain.FOLLOW: lambda follow: None if follow is None else follow.value,
    Plain.EXPOSED: lambda exposed: [[seat, turn] for seat, turn in exposed.items()],
    Plain.RESULT: lambda result: None if result is None else result_to_plain(result),
}
"""How a round's field of each `Plain` kind is written; the others are plain already."""


def to_plain(match: Match, events: Sequence[ev.Event] = ()) -> dict[str, Any]:
    """Where ``match`` stands, as plain data; ``events``: its deal's events so far (unredacted)."""
    r = match.round
    rnd = {}
    for f in _POSITIONAL:
        value = getattr(r, f.name)
        write = _WRITERS.get(f.plain)  # type: ignore[arg-type]  # a positional field has a kind
        rnd[f.name] = value if write is None else write(value)
    return {
        "first_seat": match.first_seat, "rng": match.rng.getstate(), "scores": list(match.scores),
        "results": [result_to_plain(result) for result in match.results],
        "status": match.status.value, "winners": list(match.winners), "round": rnd,
        "events": [event_to_plain(event) for event in events],
    }


# ---- reading: the checks -------------------------------------------------------------------------
def _bad(path: str, what: str, value: object) -> RulesError:
    return RulesError(f"{path} must be {what}, not {value!r:.60}")


def _int(value: object, path: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad(path, f"a whole number from {low} to {high}", value)
    return value


def _bool(value: object, path: str) -> bool:
    if type(value) is not bool:
        raise _bad(path, "true or false", value)
    return value


def _seq(value: object, path: str, most: int) -> Sequence[Any]:
    if type(value) not in (list, tuple):
        raise _bad(path, "a list", value)
    assert isinstance(value, list | tuple)
    if len(value) > most:
        raise RulesError(f"{path} holds {len(value)} items; at most {most}")
    return value


def _table(value: object, path: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if type(value) is not dict:
        raise _bad(path, "a table of fields", value)
    assert isinstance(value, dict)
    if set(value) != set(keys):
        missing = [k for k in keys if k not in value]
        extra = sorted(str(k)[:20] for k in value if k not in keys)
        raise RulesError(f"{path} lacks {', '.join(missing) or '-'}, has unknown {', '.join(extra) or '-'}")
    return value


def _choice(value: object, path: str, allowed: Sequence[str]) -> str:
    if type(value) is not str or value not in allowed:
        raise _bad(path, "one of " + ", ".join(allowed), value)
    return value


class _Reader:
    """The checks of one position: the rules and seats it must fit."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.table: CardTable = card_table(rules)
        self.deck_size = sum(self.table.deck_counts.values())

    def seat(self, value: object, path: str) -> int:
        return _int(value, path, 0, self.players - 1)

    def maybe_seat(self, value: object, path: str) -> int | None:
        return None if value is None else self.seat(value, path)

    def seats(self, value: object, path: str) -> tuple[int, ...]:
        seats = tuple(self.seat(s, f"{path}[{i}]") for i, s in enumerate(_seq(value, path, self.players)))
        if len(set(seats)) != len(seats):
            raise RulesError(f"{path} names a seat twice")
        return seats

    def card(self, value: object, path: str) -> Card:
        card = card_of(value) if type(value) is str else None
        if card is None or card not in self.table.deck_counts:
            raise _bad(path, f"a card of the {self.rules.deck} deck", value)
        return card

    def maybe_card(self, value: object, path: str) -> Card | None:
        return None if value is None else self.card(value, path)

    def cards(self, value: object, path: str) -> list[Card]:
        return [self.card(c, f"{path}[{i}]") for i, c in enumerate(_seq(value, path, self.deck_size))]

    def suit(self, value: object, path: str) -> str | None:
        return None if value is None else _choice(value, path, self.table.suits)

    def numbers(self, value: object, path: str, low: int, high: int) -> tuple[int, ...]:
        items = _seq(value, path, self.players)
        if len(items) != self.players:
            raise RulesError(f"{path} must hold one number per seat ({self.players})")
        return tuple(_int(v, f"{path}[{i}]", low, high) for i, v in enumerate(items))

    def result(self, value: object, path: str) -> RoundResult:
        data = _table(value, path, RESULT_FIELDS)
        hands_data = _seq(data["hands"], f"{path}.hands", self.players)
        if len(hands_data) != self.players:
            raise RulesError(f"{path}.hands must hold one hand per seat")
        hands = tuple(tuple(self.cards(h, f"{path}.hands[{i}]")) for i, h in enumerate(hands_data))
        result = RoundResult(
            winner=self.maybe_seat(data["winner"], f"{path}.winner"),
            winners=self.seats(data["winners"], f"{path}.winners"),
            blocked=_bool(data["blocked"], f"{path}.blocked"), tie=_bool(data["tie"], f"{path}.tie"),
            points=self.numbers(data["points"], f"{path}.points", 0, MAX_SCORE), hands=hands,
            totals=self.numbers(data["totals"], f"{path}.totals", 0, MAX_SCORE))
        if result.totals != tuple(hand_total(h, self.table.values) for h in hands):
            raise RulesError(f"{path}.totals are not the hands' values")
        if (result.winner is None) != (not result.winners) or (
                result.winner is not None and result.winner not in result.winners):
            raise RulesError(f"{path}: the winner and the winners disagree")
        return result

    def round_readers(self) -> dict[Plain, Callable[[Any, str], object]]:
        """How a round's field of each `Plain` kind is read and checked."""
        deck_size, players = self.deck_size, self.players
        phases, follows = [x.value for x in Phase], [x.value for x in Follow]
        return {
            Plain.NUMBER: lambda v, p: _int(v, p, 1, MAX_NUMBER),
            Plain.SEAT: self.seat, Plain.MAYBE_SEAT: self.maybe_seat,
            Plain.HANDS: self.hands, Plain.CARDS: self.cards, Plain.MAYBE_CARD: self.maybe_card,
            Plain.SUIT: self.suit,
            Plain.DIRECTION: lambda v, p: _choice_int(v, p, (1, -1)),
            Plain.PHASE: lambda v, p: Phase(_choice(v, p, phases)),
            Plain.FOLLOW: lambda v, p: None if v is None else Follow(_choice(v, p, follows)),
            Plain.DRAWN: lambda v, p: _int(v, p, 0, deck_size),
            Plain.PENALTY: lambda v, p: _int(v, p, 0, deck_size * 8),
            Plain.RUN: lambda v, p: _int(v, p, 0, 15),
            Plain.BOOL: _bool,
            Plain.EXPOSED: self.exposed,
            Plain.TURN: lambda v, p: _int(v, p, 0, MAX_TURNS),
            Plain.PASSES: lambda v, p: _int(v, p, 0, players),
            Plain.RESULT: lambda v, p: None if v is None else self.result(v, p),
        }

    def hands(self, value: object, path: str) -> list[list[Card]]:
        hands = _seq(value, path, self.players)
        if len(hands) != self.players:
            raise RulesError(f"{path} must hold {self.players} hands")
        return [self.cards(h, f"{path}[{i}]") for i, h in enumerate(hands)]

    def exposed(self, value: object, path: str) -> dict[int, int]:
        exposed: dict[int, int] = {}
        for i, pair in enumerate(_seq(value, path, self.players)):
            items = _seq(pair, f"{path}[{i}]", 2)
            if len(items) != 2:
                raise _bad(f"{path}[{i}]", "a seat and a turn number", pair)
            seat = self.seat(items[0], f"{path}[{i}][0]")
            if seat in exposed:
                raise RulesError(f"{path} names a seat twice")
            exposed[seat] = _int(items[1], f"{path}[{i}][1]", 0, MAX_TURNS + 1)
        return exposed

    def event(self, value: object, path: str) -> ev.Event:
        items = _seq(value, path, 6)
        if not items or type(items[0]) is not str or items[0] not in _EVENT_KINDS:
            raise _bad(path, "an event: its name, then its fields", value)
        kind, field_kinds = _EVENT_KINDS[items[0]]
        if len(items) != len(field_kinds) + 1:
            raise RulesError(f"{path}: a {items[0]} has {len(field_kinds)} fields")
        values = [self._field(k, v, f"{path}[{i + 1}]")
                  for i, (k, v) in enumerate(zip(field_kinds, items[1:], strict=True))]
        return kind(*values)

    def _field(self, kind: str, value: object, path: str) -> object:
        readers: dict[str, Callable[[object, str], object]] = {
            "seat": self.seat, "card": self.card, "suit": lambda v, p: _choice(v, p, self.table.suits),
            "number": lambda v, p: _int(v, p, 1, MAX_NUMBER),
            "count": lambda v, p: _int(v, p, 0, self.deck_size * 8),
            "direction": lambda v, p: _choice_int(v, p, (1, -1)),
            "reason": lambda v, p: ev.DrawReason(_choice(v, p, [r.value for r in ev.DrawReason])),
            "follow": lambda v, p: Follow(_choice(v, p, [f.value for f in Follow])),
            "bool": _bool, "result": self.result, "seats": self.seats,
            "scores": lambda v, p: self.numbers(v, p, 0, MAX_SCORE),
            "cards?": lambda v, p: None if v is None else tuple(self.cards(v, p)),
        }
        return readers[kind](value, path)


def _choice_int(value: object, path: str, allowed: Sequence[int]) -> int:
    if type(value) is not int or value not in allowed:
        raise _bad(path, "one of " + ", ".join(map(str, allowed)), value)
    return value


def generator_from_plain(value: object, path: str = "rng") -> random.Random:
    """A random generator in the state ``value`` (what ``getstate`` gave), checked.

    Raises:
        RulesError: not such a state (``path`` names the field).
    """
    items = _seq(value, path, 3)
    if len(items) != 3 or items[0] != 3 or type(items[0]) is not int:
        raise _bad(path, "a generator's state (3, its 625 numbers, None)", value)
    numbers = _seq(items[1], f"{path}[1]", 625)
    if len(numbers) != 625 or not all(type(n) is int and 0 <= n < 1 << 32 for n in numbers):
        raise RulesError(f"{path}[1] must hold 625 whole numbers below 2**32")
    gauss = items[2]
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise _bad(f"{path}[2]", "None or a number", gauss)
    rng = random.Random()
    try:
        rng.setstate((3, tuple(numbers), gauss))
    except (ValueError, TypeError) as exc:
        raise RulesError(f"{path}: {exc}") from None
    return rng


# ---- reading -------------------------------------------------------------------------------------
def from_plain(rules: Rules, players: int, data: object, events: list[ev.Event] | None = None) -> Match:
    """The `Match` at the position `to_plain` wrote, for ``rules`` and ``players`` seats.

    ``events``, when given, receives the deal's events the position carries. The match
    keeps ``data`` as its beginning (`Match.position`): do not change it afterwards.

    Raises:
        RulesError: a field of the wrong type or out of range, a position the game
            could not have reached, or one whose views or legal actions do not work.
    """
    rules.check_players(players)
    read = _Reader(rules, players)
    top = _table(data, "position", MATCH_FIELDS)
    match = object.__new__(Match)
    match.rules = rules
    match.players = players
    match.first_seat = read.maybe_seat(top["first_seat"], "first_seat")
    match.seed = None
    match.start_state = None
    match.first_deck = None
    match.position = dict(top)
    match.log = []
    match.rng = generator_from_plain(top["rng"], "rng")
    match.scores = list(read.numbers(top["scores"], "scores", 0, MAX_SCORE))
    results = _seq(top["results"], "results", MAX_NUMBER)
    match.results = [read.result(res, f"results[{i}]") for i, res in enumerate(results)]
    match.status = Status(_choice(top["status"], "status", [s.value for s in Status]))
    match.winners = read.seats(top["winners"], "winners")
    match.target = rules.target_for(players)
    match.start_events = []
    match.round = _round(read, match.rng, top["round"])
    told = [read.event(e, f"events[{i}]") for i, e in enumerate(_seq(top["events"], "events", MAX_EVENTS))]
    _check_match(match)
    _check_story(told, match.round)
    try:  # whatever else is wrong shows here rather than in the middle of a game
        for seat in range(players):
            match.view(seat)
            match.legal_actions(seat)
        match.legal_actions()
        str(match)
    except Exception as exc:  # noqa: BLE001  # a position that does not work is refused, never trusted
        raise RulesError(f"the position does not work ({type(exc).__name__}: {exc})") from None
    if events is not None:
        events[:] = told
    return match


def _round(read: _Reader, rng: random.Random, value: object) -> Round:
    data = _round_table(value)
    values: dict[str, object] = {"rules": read.rules, "players": read.players, "rng": rng}
    readers = read.round_readers()
    for f in _POSITIONAL:
        path = f"round.{f.name}"
        if f.name not in data:  # a round saved before the field existed
            values[f.name] = f.before
        else:
            values[f.name] = readers[f.plain](data[f.name], path)  # type: ignore[index]  # has a kind
    r = restored_round(values)
    _check_round(read, r)
    return r


def _round_table(value: object) -> Mapping[str, Any]:
    """The position's round: a table of its fields (one saved before a field existed may lack it)."""
    if type(value) is not dict:
        raise _bad("round", "a table of fields", value)
    assert isinstance(value, dict)
    if not _REQUIRED_KEYS <= value.keys() <= _ROUND_KEYS:
        return _table(value, "round", ROUND_FIELDS)  # refused: it names what is missing and unknown
    return value


def _check_round(read: _Reader, r: Round) -> None:
    """The round's fields agree with one another and with the deck."""
    counts: dict[Card, int] = {}
    for card in [c for hand in r.hands for c in hand] + r.pile + r.discard:
        counts[card] = counts.get(card, 0) + 1
    if counts != read.table.deck_counts:
        raise RulesError("the hands, the draw pile and the discard pile are not exactly the deck")
    if not r.discard:
        raise RulesError("the discard pile is empty")
    if r.dealer != (r.first - 1) % r.players:
        raise RulesError("the dealer does not sit before the first player")
    over = r.phase is OVER
    if over != (r.result is not None):
        raise RulesError("a round is over exactly when it has a result")
    if over and r.exposed:
        raise RulesError("nobody may be denounced once the round is over")
    if (r.pending > 0) != (r.pending_by is not None) or (
            r.pending_by is not None and not read.table.effects[r.pending_by].draws):
        raise RulesError("a pending penalty needs the draw card that made it, and only then")
    if r.phase in (PENALTY, CHALLENGE_PHASE) and not r.pending:
        raise RulesError(f"phase {r.phase} needs a pending penalty")
    if r.suit is None and r.phase not in (SUIT, OVER):
        raise RulesError("no suit is in force, yet nobody is to name one")
    if r.start_choice and r.phase is not SUIT:
        raise RulesError("a starting suit choice happens in the suit phase")
    if not over and r.last_drawn is not None and r.last_drawn not in r.hands[r.to_act]:
        raise RulesError("the card just drawn is not in the hand of the seat to act")
    if r.follow is None and (r.follow_suit is not None or r.run_next):
        raise RulesError("round.follow_suit and round.run_next belong to a turn that goes on")


def _check_match(match: Match) -> None:
    """The scores, the results, the status and the round agree."""
    r = match.round
    totals = [sum(res.points[s] for res in match.results) for s in range(match.players)]
    if match.scores != totals:
        raise RulesError("the scores are not the sum of the deals' points")
    over = r.phase is OVER
    if over != (match.status != Status.PLAYING):
        raise RulesError(f"status {match.status} does not fit a round in phase {r.phase}")
    if r.number != len(match.results) + (0 if over else 1):
        raise RulesError("the deal number does not follow the results")
    if over and (not match.results or match.results[-1] != r.result):
        raise RulesError("the round's result is not the latest result")
    if match.status == Status.PLAYING and match.winners:
        raise RulesError("a match being played has no winners yet")
    rules = match.rules
    won = match_winners(match.scores, match.target, rules.pairs, rules.pair_scores) if match.target else ()
    if match.status == Status.ROUND_OVER and (not match.target or match.winners or won):
        raise RulesError("a deal is over and the match goes on, yet the scores win it")
    if match.status == Status.MATCH_OVER:
        expected = won if match.target else r.result.winners if r.result is not None else ()
        if match.winners != expected or (match.target and not expected):
            raise RulesError("the match's winners are not the ones the scores make")


def _check_story(told: Sequence[ev.Event], r: Round) -> None:
    """The deal's events, when there are any, tell the round: from its start, to these hand sizes
    and this discard pile."""
    if not told:
        return
    start = told[0]
    if type(start) is not ev.RoundStarted or (start.number, start.dealer, start.first) != (
            r.number, r.dealer, r.first):
        raise RulesError("the events do not start with this deal")
    counts = [0] * r.players
    discard: list[Card] = []
    for i, event in enumerate(told):
        if type(event) is ev.RoundStarted and i:
            raise RulesError("the events hold two deals")
        if type(event) is ev.CardsDrawn:
            if event.cards is None or len(event.cards) != event.count:
                raise RulesError(f"events[{i}]: the cards drawn are not all shown")
            counts[event.seat] += event.count
        elif type(event) is ev.CardPlayed:
            counts[event.seat] -= 1
            if counts[event.seat] < 0:
                raise RulesError(f"events[{i}]: a card played from an empty hand")
            discard.append(event.card)
        elif type(event) is ev.StartCard:
            discard.append(event.card)
        elif type(event) is ev.Reshuffled:
            discard[:-1] = []
    if counts != [len(hand) for hand in r.hands] or discard != r.discard:
        raise RulesError("the events do not lead to these hands and this discard pile")
