"""Replay a deal from a JSON scenario and print where it stands: ``python -m game.replay FILE``.

The scenario (any key but ``preset`` may be left out)::

    {"preset": "duel", "options": {...}, "seats": 2, "deck": ["7H", ...], "rest": "shuffled",
     "seed": 0, "first": 0, "actions": ["play 7H", "draw", "suit S", "2: denounce 0"]}

``deck`` is top first: dealt one card at a time round the table from the first
player, then the next card starts the discard pile and the rest is the draw pile.
A deck that lists fewer cards than the rule set's is refused, naming the missing
cards, unless ``rest`` says what follows them: ``"shuffled"`` (the missing cards,
shuffled from the seed: a real deck whose top is set by hand) or ``"none"`` (a game of
the listed cards only). An action acts for the seat to act; ``"N: action"`` acts for
seat N (a denounce out of turn). When a round ends and actions remain, the next round
is dealt (shuffled from the seed). The output is one JSON object (see `outcome`).

Card codes and actions are exact: written as the notation writes them (``7H``, not
``7h``, ``7 H`` or ``10H``; ``play 7H``, not ``Play 7h``); anything else is refused with
the exact form to write. A UTF-8 byte-order mark at the start of the file (Windows'
Notepad writes one) is ignored, and a note on standard error says so.

Exit codes: 0 done; 2 a malformed file (the message says what is wrong) or an
illegal action (the message names its index, counting from 0, and the reason), always
one line on standard error. Every field is checked by kind, then by value; ``null`` is
not a way to leave a field out. A file over 1 MiB, a number of more than 20 digits
(a seed is 0 to 2**64 - 1) or an action over 64 characters is refused.
"""

from __future__ import annotations

import codecs
import json
import random
import sys
from collections import Counter
from typing import Any, Final

from game.cli import CommandParser, print_out, shown
from game.engine import (
    OPTION_NAMES,
    OPTIONS,
    PRESETS,
    Card,
    IllegalAction,
    Match,
    Rules,
    RulesError,
    Status,
    deck_for,
    parse_action,
    parse_card,
    preset,
)
from game.engine.actions import Action

KEYS = {"preset", "options", "seats", "deck", "rest", "seed", "first", "actions"}
RESTS: Final = ("shuffled", "none")
"""What ``rest`` may say follows a deck that lists fewer cards than the rule set's."""
MISSING_SHOWN: Final = 6
"""Missing cards a refused short deck names (the rest are counted)."""
BOM_NOTE: Final = "note: a UTF-8 byte-order mark at the start of the file was ignored"
MAX_BYTES: Final = 1 << 20
"""The largest scenario read (1 MiB: some 100,000 actions); a bigger file is refused unread."""
MAX_DIGITS: Final = 20
"""Digits of the longest number a scenario may hold (a seed is at most 2**64 - 1)."""
MAX_SEED: Final = 2**64 - 1
MAX_ACTION: Final = 64
"""Characters of the longest action string (``"12: denounce 11"`` has 15)."""
MAX_CARD: Final = 8
"""Characters of the longest card code (``Rskip`` has 5)."""


class ScenarioError(ValueError):
    """The scenario file is not one we can play; the message says what is wrong."""


class LongNumber:
    """A number in the file with more than `MAX_DIGITS` digits: kept as its length, never converted
    (Python refuses ints past 4,300 digits and spends quadratic time below that)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits:,} digits"


def _number(text: str) -> int | LongNumber:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else LongNumber(digits)


def _as_json(value: object) -> str:
    if isinstance(value, LongNumber):
        return repr(value)
    return json.dumps(value, ensure_ascii=False, default=repr)


def _shown(value: object) -> str:
    """A value of the file for a message, as JSON writes it (``null``, ``true``), cut short."""
    return shown(value, write=_as_json)


def read_json(text: str) -> Any:
    """The JSON value of ``text``; numbers too long to be any field are kept as `LongNumber`.

    Raises:
        ScenarioError: not JSON, or nested deeper than the parser goes.
    """
    try:
        return json.loads(text, parse_int=_number)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"is not valid JSON: {exc}") from None
    except RecursionError:  # the decoder's own guard: a scenario is three levels deep
        raise ScenarioError("is not a scenario: its JSON is nested too deeply") from None


def _whole(data: dict[str, Any], key: str, default: int) -> int:
    """Field ``key`` as a whole number (true and false are not numbers): its kind, not its range."""
    value = data.get(key, default)
    if type(value) is not int:
        raise ScenarioError(f'"{key}" must be a whole number, not {_shown(value)}')
    return value


def _rules(data: dict[str, Any]) -> Rules:
    name = data.get("preset")
    if not isinstance(name, str):
        raise ScenarioError(f'"preset" must be a preset name such as "duel", not {_shown(name)}')
    if name not in PRESETS:
        raise ScenarioError(f"unknown preset {shown(name)}; presets are: {', '.join(PRESETS)}")
    options = data.get("options", {})
    if type(options) is not dict:
        raise ScenarioError(f'"options" must be an object of option names to values, not {_shown(options)}')
    declared = {o.name: o for o in OPTIONS}
    for option, value in options.items():
        if option not in declared:
            raise ScenarioError(f"unknown option {shown(option)}; options are: {', '.join(OPTION_NAMES)}")
        kind = declared[option]
        if type(value) is not (bool if kind.kind == "bool" else int):  # the engine checks the range
            expected = "true or false" if kind.kind == "bool" else \
                f"a whole number from {kind.low} to {kind.high}"
            raise ScenarioError(f"option {option} must be {expected}, not {_shown(value)}")
    try:
        return preset(name, options)
    except RulesError as exc:
        raise ScenarioError(str(exc)) from None


def _deck(data: dict[str, Any], rules: Rules, seed: int) -> list[Card] | None:
    rest = data.get("rest")
    if "rest" in data and rest not in RESTS:
        raise ScenarioError(f'"rest" must be "shuffled" or "none", not {_shown(rest)}')
    if "deck" not in data:
        if "rest" in data:
            raise ScenarioError('"rest" says what follows the cards of "deck": give "deck" too')
        return None
    deck = data["deck"]
    if type(deck) is not list or not all(type(c) is str for c in deck):
        raise ScenarioError(f'"deck" must be a list of card codes such as "7H", not {_shown(deck)}')
    full = deck_for(rules.deck)
    if len(deck) > len(full):
        raise ScenarioError(f"deck: the {rules.deck} deck has {len(full)} cards; this one lists "
                            f"{len(deck):,}")
    cards = []
    for index, code in enumerate(deck):
        try:
            if len(code) > MAX_CARD:
                raise ValueError(f"not a card: {shown(code)}")
            card = parse_card(code)
        except ValueError as exc:
            raise ScenarioError(f"deck: {exc}") from None
        if card.code != code:
            raise ScenarioError(f"deck[{index}]: {shown(code)} is not a card code as the rules write it; "
                                f"write {card.code!r} (codes are exact: see docs/rules.md)")
        cards.append(card)
    missing = list((Counter(full) - Counter(cards)).elements())
    if not missing or rest == "none" or Counter(cards) - Counter(full):
        return cards  # (a card more than the deck holds: the engine's check names it)
    if rest == "shuffled":
        random.Random(seed).shuffle(missing)
        return cards + missing
    named = ", ".join(card.code for card in missing[:MISSING_SHOWN])
    more = f" and {len(missing) - MISSING_SHOWN:,} more" if len(missing) > MISSING_SHOWN else ""
    raise ScenarioError(f"deck: the {rules.deck} deck has {len(full)} cards; this one lists {len(deck)} "
                        f"(missing {named}{more}): list them, or add \"rest\": \"shuffled\" or \"none\" "
                        "(docs/replay.md)")


def _actions(data: dict[str, Any]) -> list[str]:
    actions = data.get("actions", [])
    if type(actions) is not list or not all(type(a) is str for a in actions):
        raise ScenarioError('"actions" must be a list of action strings such as "play 7H", '
                            f"not {_shown(actions)}")
    for index, text in enumerate(actions):
        if len(text) > MAX_ACTION:
            raise ScenarioError(f"action {index} ({shown(text)}): an action has at most "
                                f"{MAX_ACTION} characters")
    return actions


def load_scenario(data: Any) -> tuple[Match, list[str]]:
    """Build the match a scenario describes and return it with its action strings.

    Every field is checked by kind before its value, and a field given as ``null`` is
    refused (leave a field out to take its default).

    Raises:
        ScenarioError: a missing or malformed field, an unknown preset or option, or a
            deck the rules cannot deal.
    """
    if type(data) is not dict:
        raise ScenarioError("the scenario must be a JSON object")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        named = ", ".join(shown(k) for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise ScenarioError(f"unknown keys [{named}]; expected some of {sorted(KEYS)}")
    rules = _rules(data)
    seats = _whole(data, "seats", rules.min_players)
    try:
        rules.check_players(seats)
    except RulesError as exc:
        raise ScenarioError(f'"seats": {exc}') from None
    seed = _whole(data, "seed", 0)
    if not 0 <= seed <= MAX_SEED:
        raise ScenarioError(f'"seed" must be a whole number from 0 to {MAX_SEED} (2**64 - 1), not {seed}')
    first = data.get("first")
    if "first" in data and type(first) is not int:
        raise ScenarioError(f'"first" must be a seat number, not {_shown(first)}')
    deck = _deck(data, rules, seed)
    actions = _actions(data)
    try:
        match = Match(rules, seats, seed, deck=deck, first=first)
    except RulesError as exc:
        raise ScenarioError(str(exc)) from None
    return match, actions


def parse_step(text: str) -> tuple[int | None, Action]:
    """Split ``"2: denounce 0"`` into (2, action); a plain action has no seat.

    Raises:
        ValueError: not an action in the replay notation.
    """
    seat = None
    if ":" in text:
        head, _, text = text.partition(":")
        if not head.strip().isdigit():
            raise ValueError(f"bad seat {head.strip()!r} before ':'")
        seat = int(head)
    action = parse_action(text)
    if str(action) != text.strip():  # the engine forgives case; a scenario is exact
        raise ValueError(f"write it as the notation does: {str(action)!r}")
    return seat, action


def run_actions(match: Match, actions: list[str]) -> None:
    """Apply the actions in order, dealing the next round when one ends.

    Raises:
        IllegalAction: with the index and text of the first action that fails.
    """
    for index, text in enumerate(actions):
        try:
            if match.status != Status.PLAYING:
                match.next_round()
            seat, action = parse_step(text)
            if seat is not None and not 0 <= seat < match.players:
                raise IllegalAction(f"There is no seat {seat} at this table.")
            match.apply(action, seat, events=False)
        except (IllegalAction, ValueError) as exc:
            raise IllegalAction(f"action {index} ({text!r}): {exc}") from None  # short: see MAX_ACTION


def outcome(match: Match) -> dict[str, Any]:
    """Where the match stands, as the replay prints it."""
    r = match.round
    playing = match.status == Status.PLAYING
    legal = sorted(str(a) for a in match.legal_actions()) if playing else []
    result = None
    if r.result is not None:
        result = {"winner": r.result.winner, "blocked": r.result.blocked,
                  "tie": r.result.tie, "points": list(r.result.points)}
    return {
        "status": str(match.status),
        "to_act": r.to_act if playing else None,
        "legal": legal,
        "hands": [[c.code for c in hand] for hand in r.hands],
        "top": r.top.code,
        "suit": r.suit,
        "draw_pile": len(r.pile),
        "direction": r.direction,
        "scores": list(match.scores),
        "result": result,
    }


def read_scenario(name: str) -> str:
    """The text of scenario file ``name`` (``-``: standard input), read up to `MAX_BYTES`, as it is
    (a UTF-8 byte-order mark at its start is kept: `without_bom`).

    Raises:
        ScenarioError: unreadable, larger than `MAX_BYTES`, or not UTF-8.
    """
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(name, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"{name} is larger than {MAX_BYTES >> 20} MiB: not a scenario")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ScenarioError(f"{name} is UTF-16 text (its byte-order mark says so): save it as UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{name} is not valid JSON: it is not UTF-8 text ({exc.reason} "
                            f"at byte {exc.start})") from None


def without_bom(text: str) -> tuple[str, bool]:
    """``text`` without the UTF-8 byte-order mark it may start with, and whether it did."""
    return (text[1:], True) if text.startswith("\ufeff") else (text, False)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code."""
    parser = CommandParser(prog="python -m game.replay", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="a JSON scenario ('-' for standard input)")
    args = parser.parse_args(argv)
    try:
        text = read_scenario(args.file)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    text, bom = without_bom(text)
    if bom:
        print(f"{args.file}: {BOM_NOTE}", file=sys.stderr)
    try:
        data = read_json(text)
    except ScenarioError as exc:
        print(f"{args.file} {exc}", file=sys.stderr)
        return 2
    try:
        match, actions = load_scenario(data)
        run_actions(match, actions)
    except ScenarioError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    except IllegalAction as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return 0 if print_out(json.dumps(outcome(match))) else 1


if __name__ == "__main__":
    sys.exit(main())
