"""Replay a deal from a JSON scenario and print where it stands: ``python -m game.replay FILE``.

The scenario (any key but ``preset`` may be left out)::

    {"preset": "duel", "options": {...}, "seats": 2, "deck": ["7H", ...],
     "seed": 0, "first": 0, "actions": ["play 7H", "draw", "suit S", "2: denounce 0"]}

``deck`` is top first: dealt one card at a time round the table from the first
player, then the next card starts the discard pile and the rest is the draw pile.
An action acts for the seat to act; ``"N: action"`` acts for seat N (a denounce out
of turn). When a round ends and actions remain, the next round is dealt (shuffled
from the seed). The output is one JSON object (see `outcome`).

Exit codes: 0 done; 2 a malformed file (the message says what is wrong) or an
illegal action (the message names its index, counting from 0, and the reason), always
one line on standard error. Every field is checked by kind, then by value; ``null`` is
not a way to leave a field out. A file over 1 MiB, a number of more than 20 digits
(a seed is 0 to 2**64 - 1) or an action over 64 characters is refused.
"""

from __future__ import annotations

import json
import sys
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

KEYS = {"preset", "options", "seats", "deck", "seed", "first", "actions"}
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


def _deck(data: dict[str, Any], rules: Rules) -> list[Card] | None:
    if "deck" not in data:
        return None
    deck = data["deck"]
    if type(deck) is not list or not all(type(c) is str for c in deck):
        raise ScenarioError(f'"deck" must be a list of card codes such as "7H", not {_shown(deck)}')
    most = len(deck_for(rules.deck))
    if len(deck) > most:
        raise ScenarioError(f"deck: the {rules.deck} deck has {most} cards; this one lists {len(deck):,}")
    cards = []
    for code in deck:
        try:
            if len(code) > MAX_CARD:
                raise ValueError(f"not a card: {shown(code)}")
            cards.append(parse_card(code))
        except ValueError as exc:
            raise ScenarioError(f"deck: {exc}") from None
    return cards


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
    deck = _deck(data, rules)
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
    return seat, parse_action(text)


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
    """The text of scenario file ``name`` (``-``: standard input), read up to `MAX_BYTES`.

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
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{name} is not valid JSON: it is not UTF-8 text ({exc.reason} "
                            f"at byte {exc.start})") from None


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
