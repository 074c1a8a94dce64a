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
illegal action (the message names its index, counting from 0, and the reason).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from game.engine import (
    IllegalAction,
    Match,
    RulesError,
    Status,
    parse_action,
    parse_card,
    preset,
)
from game.engine.actions import Action

KEYS = {"preset", "options", "seats", "deck", "seed", "first", "actions"}


class ScenarioError(ValueError):
    """The scenario file is not one we can play; the message says what is wrong."""


def load_scenario(data: Any) -> tuple[Match, list[str]]:
    """Build the match a scenario describes and return it with its action strings.

    Raises:
        ScenarioError: a missing or malformed field, an unknown preset or option, or a
            deck the rules cannot deal.
    """
    if not isinstance(data, dict):
        raise ScenarioError("the scenario must be a JSON object")
    unknown = set(data) - KEYS
    if unknown:
        raise ScenarioError(f"unknown keys {sorted(unknown)}; expected some of {sorted(KEYS)}")
    name = data.get("preset")
    if not isinstance(name, str):
        raise ScenarioError('"preset" must be a preset name such as "duel"')
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ScenarioError('"options" must be an object of option names to values')
    try:
        rules = preset(name, options)
    except RulesError as exc:
        raise ScenarioError(str(exc)) from None
    seats = data.get("seats", rules.min_players)
    first = data.get("first")
    seed = data.get("seed", 0)
    for key, value in (("seats", seats), ("seed", seed)):
        if type(value) is not int:
            raise ScenarioError(f'"{key}" must be a whole number, not {value!r}')
    if first is not None and type(first) is not int:
        raise ScenarioError(f'"first" must be a seat number, not {first!r}')
    deck = None
    if data.get("deck") is not None:
        if not isinstance(data["deck"], list) or not all(isinstance(c, str) for c in data["deck"]):
            raise ScenarioError('"deck" must be a list of card codes such as "7H"')
        try:
            deck = [parse_card(c) for c in data["deck"]]
        except ValueError as exc:
            raise ScenarioError(f"deck: {exc}") from None
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ScenarioError('"actions" must be a list of action strings such as "play 7H"')
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
            raise IllegalAction(f"action {index} ({text!r}): {exc}") from None


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


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m game.replay", description=__doc__.split("\n")[0])
    parser.add_argument("file", help="a JSON scenario ('-' for standard input)")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
        data = json.loads(text)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"{args.file} is not valid JSON: {exc}", file=sys.stderr)
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
    print(json.dumps(outcome(match)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
