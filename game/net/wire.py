"""Engine values as JSON and back: rules, cards, actions, events, results, views.

The online protocol sends each seat its `PlayerView` and the events redacted for
it (``event.for_seat(seat)``), so what travels is only what that seat may know.
Cards use the fixed notation (``7H``, ``XJ``, ``R+2``), actions the replay notation
(``play 7H``, ``suit S``), rules a preset name and its options. `view_from_json` and
`event_from_json` rebuild real engine values, so a client draws a remote game with
the same code as a local one.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any, Final, TypeVar

from game.engine import (
    Card,
    DrawReason,
    Follow,
    Phase,
    PlayerView,
    RoundResult,
    Rules,
    Status,
    parse_action,
    parse_card,
    preset,
)
from game.engine import events as ev

_E = TypeVar("_E", bound=StrEnum)

EVENT_TYPES: Final[dict[str, type[ev.Event]]] = {
    name: value for name, value in vars(ev).items()
    if isinstance(value, type) and issubclass(value, ev.Event) and value is not ev.Event
}


class WireError(ValueError):
    """A JSON value that does not describe the engine value expected (names the field)."""


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """``{"preset": "points", "options": {...}}``."""
    return {"preset": rules.name, "options": rules.options()}


def rules_from_json(value: Any) -> Rules:
    """Rules from `rules_to_json`'s form.

    Raises:
        WireError: not a preset with valid options.
    """
    if not isinstance(value, dict) or not isinstance(value.get("preset"), str):
        raise WireError("rules must be {\"preset\": NAME, \"options\": {...}}")
    options = value.get("options", {})
    if not isinstance(options, dict):
        raise WireError("rules options must be an object")
    try:
        return preset(value["preset"], options)
    except (ValueError, TypeError) as exc:  # RulesError is a ValueError
        raise WireError(str(exc)) from None


def _card(code: Any) -> Card:
    if not isinstance(code, str):
        raise WireError(f"a card is a code like \"7H\", not {code!r}")
    try:
        return parse_card(code)
    except ValueError as exc:
        raise WireError(str(exc)) from None


def _cards(codes: Any) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise WireError("cards must be a list of codes")
    return tuple(_card(c) for c in codes)


def _named(kind: type[_E], value: Any, field: str) -> _E:
    """The member of ``kind`` whose value ``value`` is (the JSON carries the plain string)."""
    try:
        return kind(value)
    except (ValueError, TypeError):
        raise WireError(f"bad {field}: {value!r:.40}") from None


def result_to_json(result: RoundResult | None) -> dict[str, Any] | None:
    """A round's result (public once the round is over: its hands are shown)."""
    if result is None:
        return None
    return {"winner": result.winner, "winners": list(result.winners), "blocked": result.blocked,
            "tie": result.tie, "points": list(result.points),
            "hands": [[c.code for c in hand] for hand in result.hands], "totals": list(result.totals)}


def result_from_json(value: Any) -> RoundResult | None:
    """The inverse of `result_to_json`.

    Raises:
        WireError: a malformed result.
    """
    if value is None:
        return None
    try:
        return RoundResult(value["winner"], tuple(value["winners"]), bool(value["blocked"]),
                           bool(value["tie"]), tuple(value["points"]),
                           tuple(_cards(h) for h in value["hands"]), tuple(value["totals"]))
    except (KeyError, TypeError) as exc:
        raise WireError(f"bad round result: {exc}") from None


def _encode(value: Any) -> Any:
    match value:
        case Card():
            return value.code
        case RoundResult():
            return result_to_json(value)
        case StrEnum():
            return str(value)
        case tuple() | list():
            return [_encode(v) for v in value]
    return value


def event_to_json(event: ev.Event) -> dict[str, Any]:
    """``{"type": "CardPlayed", "seat": 1, "card": "7H"}`` (send ``event.for_seat(seat)`` only)."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = _encode(getattr(event, f.name))
    return out


_CARD_FIELDS: Final = {"card"}
_CARDS_FIELDS: Final = {"cards"}
_RESULT_FIELDS: Final = {"result"}
_EVENT_NAMES: Final[dict[str, type[StrEnum]]] = {"reason": DrawReason, "why": Follow}


def event_from_json(value: Any) -> ev.Event:
    """The event `event_to_json` described.

    Raises:
        WireError: an unknown event type or a bad field.
    """
    if not isinstance(value, dict) or value.get("type") not in EVENT_TYPES:
        raise WireError(f"unknown event {value!r:.80}")
    cls = EVENT_TYPES[value["type"]]
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in value:
            if f.default is dataclasses.MISSING:
                raise WireError(f"event {cls.__name__} lacks {f.name}")
            continue
        raw = value[f.name]
        if f.name in _CARD_FIELDS:
            kwargs[f.name] = _card(raw)
        elif f.name in _CARDS_FIELDS:
            kwargs[f.name] = None if raw is None else _cards(raw)
        elif f.name in _RESULT_FIELDS:
            kwargs[f.name] = result_from_json(raw)
        elif f.name in _EVENT_NAMES:
            kwargs[f.name] = _named(_EVENT_NAMES[f.name], raw, f.name)
        elif isinstance(raw, list):
            kwargs[f.name] = tuple(raw)
        else:
            kwargs[f.name] = raw
    return cls(**kwargs)


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """Everything in a seat's view, as JSON."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if f.name == "rules":
            out[f.name] = rules_to_json(value)
        elif f.name == "legal":
            out[f.name] = [str(a) for a in value]
        elif f.name == "exposed_until":
            out[f.name] = [list(pair) for pair in value]
        else:
            out[f.name] = _encode(value)
    return out


_VIEW_CARDS: Final = {"hand", "discard"}
_VIEW_CARD: Final = {"pending_by", "drawn_card"}
_VIEW_NAMES: Final[dict[str, type[StrEnum]]] = {"phase": Phase, "status": Status, "follow": Follow}


def view_from_json(value: Any) -> PlayerView:
    """The `PlayerView` `view_to_json` described.

    Raises:
        WireError: a missing or malformed field.
    """
    if not isinstance(value, dict):
        raise WireError("a view must be an object")
    kwargs: dict[str, Any] = {}
    try:
        for f in dataclasses.fields(PlayerView):
            if f.name not in value:
                if f.default is dataclasses.MISSING:
                    raise WireError(f"the view lacks {f.name}")
                continue
            raw = value[f.name]
            if f.name == "rules":
                kwargs[f.name] = rules_from_json(raw)
            elif f.name == "legal":
                kwargs[f.name] = tuple(parse_action(a) for a in raw)
            elif f.name in _VIEW_CARDS:
                kwargs[f.name] = _cards(raw)
            elif f.name in _VIEW_CARD:
                kwargs[f.name] = None if raw is None else _card(raw)
            elif f.name == "result":
                kwargs[f.name] = result_from_json(raw)
            elif f.name == "exposed_until":
                kwargs[f.name] = tuple(tuple(pair) for pair in raw)
            elif f.name in _VIEW_NAMES:
                kwargs[f.name] = None if raw is None and f.name == "follow" else _named(
                    _VIEW_NAMES[f.name], raw, f.name)
            elif isinstance(raw, list):
                kwargs[f.name] = tuple(raw)
            else:
                kwargs[f.name] = raw
    except WireError:
        raise
    except Exception as exc:  # whatever a broken or hostile server sends, the client gets a WireError
        raise WireError(f"bad view: {type(exc).__name__}: {exc}"[:200]) from None
    _check_view(kwargs)
    return PlayerView(**kwargs)


_VIEW_INTS: Final = ("seat", "players", "draw_count", "direction", "pending", "turn_no", "passes",
                     "round_number", "dealer", "first", "target", "drawn", "run_next")
_VIEW_BOOLS: Final = ("called", "played", "start_choice")


def _check_view(v: dict[str, Any]) -> None:
    """The types and ranges a table relies on (a view that passes draws without surprises)."""
    def bad(name: str) -> WireError:
        return WireError(f"bad view: {name}")

    for name in _VIEW_INTS:
        if name in v and type(v[name]) is not int:
            raise bad(name)
    for name in _VIEW_BOOLS:
        if name in v and type(v[name]) is not bool:
            raise bad(name)
    players = v["players"]
    if not 2 <= players <= 8 or not 0 <= v["seat"] < players:
        raise bad("seat")
    for name in ("hand_counts", "scores", "exposed", "winners"):
        if not isinstance(v[name], tuple):
            raise bad(name)
    for name in ("hand_counts", "scores"):
        if len(v[name]) != players or not all(type(n) is int for n in v[name]):
            raise bad(name)
    if v["to_act"] is not None and (type(v["to_act"]) is not int or not 0 <= v["to_act"] < players):
        raise bad("to_act")
    # (``phase``, ``status`` and ``follow`` were read as members of their enums above.)
    if v["suit"] is not None and not isinstance(v["suit"], str):
        raise bad("suit")
    if not all(type(s) is int and 0 <= s < players for s in (*v["exposed"], *v["winners"])):
        raise bad("exposed")
