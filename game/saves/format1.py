"""Format-1 saves, upgraded: pickled engine objects read as stubs, turned into format-2 data.

Format 1 (until format 2) pickled the `Match` itself, the round's events, queued
actions and whole pickled matches as undo steps. `unpickler.stub_loads` reads such a
file without touching a real class (every object is a `Stub` of its class's name,
its arguments and its state); `upgrade` then reads those stubs field by field,
type before value, and writes the format-2 payload (`games`) they stand for. Format 1
holds no seed and no log, so the upgraded game starts from its position
(`game.engine.snapshot`: the match's generator state is part of it, so the next draws
are the same) with an empty log, and its deal's events become the position's events,
from which computer players learn the deal again.

What is lost: the undo steps (taking back a turn played before the upgrade). The
first deal's opening events of the match, which nothing reads once a game is under
way, are not kept either. Everything else resumes exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING
from typing import Any, Final

from game.engine import OPTION_NAMES, PRESETS, RulesError, preset
from game.engine.options import OPTIONS
from game.engine.round import ROUND_STATE
from game.engine.rules import rule_fields
from game.engine.snapshot import EVENT_NAMES, rules_to_plain
from game.engine.state import Plain

from .errors import SaveError
from .unpickler import origin

ENGINE: Final = "game.engine."
FIELDS: Final = ("match", "seats", "rng", "viewer", "undo", "history", "queue", "timer", "settled")

# Actions by class name: their notation, from the state of their record (the dataclass fields).
_VERBS: Final[dict[str, str]] = {
    "Draw": "draw", "Pass": "pass", "CallLastCard": "card", "Challenge": "challenge", "Accept": "accept",
    "EndTurn": "end", "TimeOut": "timeout",
}
# Options added since format 1: a format-1 rule set's ``exposed`` lacks them.
_NEWER_OPTIONS: Final = frozenset({"pair_scores", "counter_clockwise"})


class _Bad(Exception):
    """A record that is not what format 1 wrote there."""


def upgrade(value: Any) -> dict[str, Any]:
    """The format-2 payload of a format-1 one read by `unpickler.stub_loads`.

    Raises:
        SaveError: ``invalid``, naming the first field that is not what format 1 wrote.
    """
    try:
        return _payload(value)
    except _Bad as exc:
        raise SaveError("invalid", detail=f"format 1: {exc}"[:120]) from None
    except (RulesError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise SaveError("invalid", detail=f"format 1: {type(exc).__name__}"[:120]) from None


# ---- reading records -----------------------------------------------------------------------------------
def _is(value: Any, module: str, name: str) -> bool:
    return origin(value) == (ENGINE + module, name)


def _record(value: Any, module: str, name: str, what: str) -> Any:
    if not _is(value, module, name):
        raise _Bad(f"{what}: not a {name}")
    return value


def _state_dict(value: Any, module: str, name: str, what: str) -> dict[str, Any]:
    state = _record(value, module, name, what).state
    if type(state) is not dict or not all(type(k) is str for k in state):
        raise _Bad(f"{what} has no fields")
    return state


def _state_list(value: Any, module: str, name: str, what: str) -> list[Any]:
    """The field values of a frozen dataclass with slots (its pickled state is their list)."""
    record = _record(value, module, name, what)
    state = record.state
    if state is None and not record.args:
        return []  # a dataclass with no fields
    if type(state) is not list:
        raise _Bad(f"{what} has no fields")
    return state


def _plain(value: Any, what: str, depth: int = 0) -> Any:
    """A value made of plain types only (ints, strs, bools, None, floats, lists and tuples of them)."""
    if value is None or type(value) in (int, str, bool, float):
        return value
    if type(value) in (list, tuple) and depth < 4:
        return [_plain(v, what, depth + 1) for v in value]
    raise _Bad(f"{what} holds something else than plain values")


def _enum(value: Any, module: str, name: str, what: str) -> str:
    """An enum member's value (older saves hold the plain string)."""
    if type(value) is str:
        return value
    record = _record(value, module, name, what)
    if len(record.args) != 1 or type(record.args[0]) is not str:
        raise _Bad(f"{what}: not a {name}")
    return str(record.args[0])


def _card(value: Any, what: str = "a card") -> str:
    record = _record(value, "cards", "Card", what)
    if len(record.args) != 1 or type(record.args[0]) is not str or len(record.args[0]) > 5:
        raise _Bad(f"{what} is not a card")
    return str(record.args[0])


def _maybe_card(value: Any, what: str) -> str | None:
    return None if value is None else _card(value, what)


def _cards(value: Any, what: str) -> list[str]:
    if type(value) not in (list, tuple) or len(value) > 216:
        raise _Bad(f"{what} is not a list of cards")
    return [_card(card, what) for card in value]


def _generator(value: Any, what: str) -> Any:
    """A `random.Random`'s state (what ``getstate`` gave)."""
    if origin(value) != ("random", "Random"):
        raise _Bad(f"{what} is not a random generator")
    return _plain(value.state, what)


# ---- the payload -----------------------------------------------------------------------------------------
def _payload(value: Any) -> dict[str, Any]:
    if type(value) is not dict or set(value) != set(FIELDS):
        raise _Bad("not the nine fields of a format-1 save")
    match = _state_dict(value["match"], "match", "Match", "match")
    rules = _rules(match.get("rules"))
    players = match.get("players")
    if type(players) is not int:
        raise _Bad("the number of players")
    position = _position(match, players)
    history = value["history"]
    if type(history) is not list:
        raise _Bad("the history is not a list")
    position["events"] = [_event(event, i) for i, event in enumerate(history)]
    seats = value["seats"]
    if type(seats) is not list or not all(type(s) is dict for s in seats):
        raise _Bad("seats")
    return {
        "rules": rules_to_plain(rules), "players": players, "start": {"position": position}, "log": [],
        "seats": [_seat(s) for s in seats],
        "viewer": value["viewer"], "rng": _plain(value["rng"], "the table's generator"),
        "timer": _plain(value["timer"], "the timer"),
        "undo": [], "undo_turn": None,  # undo steps were whole pickled matches: they are not kept
        "queue": [_queued(item) for item in _list(value["queue"], "the queue")],
        "settled": value["settled"],
    }


def _seat(seat: dict[Any, Any]) -> tuple[Any, Any, Any]:
    """A seat as (kind, level, name); a person's level means nothing, and may be anything in format 1."""
    from .games import LEVELS  # games reads format 1 through this module: import it late

    kind, level = seat.get("kind"), seat.get("level")
    if kind == "human" and level not in LEVELS:
        level = "medium"
    return kind, level, seat.get("name")


def _list(value: Any, what: str) -> list[Any]:
    if type(value) is not list:
        raise _Bad(f"{what} is not a list")
    return value


def _rules(value: Any) -> Any:
    """The preset with options these rules are (older saves lack the newer fields: the preset has them)."""
    state = _state_dict(value, "rules", "Rules", "the rules")
    name = state.get("name")
    if type(name) is not str or name not in PRESETS:
        raise _Bad("the rules are not a preset")
    base = PRESETS[name]
    options = {k: v for k, v in state.items() if k in OPTION_NAMES and k in base.exposed}
    if state.get("pairs") is True and "pair_scores" not in state:
        options["pair_scores"] = False  # pair play then counted each seat's own score
    for option in OPTIONS:  # options added since, as format 1 played them (colours went clockwise)
        if option.before is not None and option.name in base.exposed and option.name not in state:
            options[option.name] = option.before
    rules = preset(name, options)
    known = set(rule_fields())
    for field, given in state.items():
        if field == "exposed" and isinstance(given, frozenset):
            given = given | (rules.exposed & _NEWER_OPTIONS)  # never offered then, offered now
        if field not in known or getattr(rules, field) != given:
            raise _Bad(f"the rules' {field[:30]} is not the {name} preset's")
    return rules


def _result(value: Any, what: str) -> dict[str, Any]:
    items = _state_list(value, "scoring", "RoundResult", what)
    if len(items) != 7:
        raise _Bad(f"{what} is not a round's result")
    winner, winners, blocked, tie, points, hands, totals = items
    if type(hands) not in (list, tuple):
        raise _Bad(f"{what}'s hands")
    return {"winner": _plain(winner, what), "winners": _plain(winners, what), "blocked": blocked, "tie": tie,
            "points": _plain(points, what), "hands": [_cards(h, what) for h in hands],
            "totals": _plain(totals, what)}


def _position(match: dict[str, Any], players: int) -> dict[str, Any]:
    """The snapshot layout of a format-1 match's fields."""
    rnd = _state_dict(match.get("round"), "round", "Round", "the round")
    if rnd.get("rng") is not match.get("rng"):
        raise _Bad("the round draws from another generator than the match")
    out: dict[str, Any] = {}
    for field in ROUND_STATE:
        if field.plain is None:
            continue  # the match's: a position does not hold it
        if field.name in rnd:
            out[field.name] = _ROUND_PLAIN.get(field.plain, _plain_field)(rnd[field.name], field.name)
        elif field.before is not MISSING:
            out[field.name] = field.before  # a round written before the field existed
        else:
            raise _Bad(f"the round has no {field.name}")
    results = _list(match.get("results"), "the results")
    return {
        "first_seat": _plain(match.get("first_seat"), "the first seat"),
        "rng": _generator(match.get("rng"), "the match's generator"),
        "scores": _plain(match.get("scores"), "the scores"),
        "results": [_result(r, f"result {i}") for i, r in enumerate(results)],
        "status": _enum(match.get("status"), "phases", "Status", "the status"),
        "winners": _plain(match.get("winners"), "the winners"), "round": out,
    }


def _plain_field(value: Any, name: str) -> Any:
    return _plain(value, f"the round's {name}")


def _hands(value: Any, name: str) -> list[list[str]]:
    if type(value) is not list:
        raise _Bad("the hands")
    return [_cards(hand, "a hand") for hand in value]


def _exposed(value: Any, name: str) -> list[list[Any]]:
    if type(value) is not dict:
        raise _Bad("the seats that may be denounced")
    return [[_plain(seat, "exposed"), _plain(turn, "exposed")] for seat, turn in value.items()]


_ROUND_PLAIN: Final[dict[Plain, Callable[[Any, str], Any]]] = {
    Plain.HANDS: _hands,
    Plain.CARDS: lambda v, name: _cards(v, "the draw pile" if name == "pile" else f"the {name} pile"),
    Plain.MAYBE_CARD: lambda v, name: _maybe_card(v, f"the round's {name}"),
    Plain.PHASE: lambda v, name: _enum(v, "phases", "Phase", "the phase"),
    Plain.FOLLOW: lambda v, name: None if v is None else _enum(v, "phases", "Follow", "the turn's follow-up"),
    Plain.EXPOSED: _exposed,
    Plain.RESULT: lambda v, name: None if v is None else _result(v, "the round's result"),
}
"""How a format-1 round's field of each `Plain` kind becomes the position's (the others: `_plain_field`)."""


def _event(value: Any, index: int) -> tuple[Any, ...]:
    what = f"event {index}"
    kind = origin(value)
    if kind is None or kind[0] != ENGINE + "events" or kind[1] not in EVENT_NAMES:
        raise _Bad(f"{what} is not an event")
    items = _state_list(value, "events", kind[1], what)
    convert: dict[str, Callable[[Any], Any]] = {
        "CardsDrawn": lambda v: [v[0], v[1], _enum(v[2], "events", "DrawReason", what),
                                 None if v[3] is None else _cards(v[3], what)],
        "StartCard": lambda v: [_card(v[0], what)],
        "StartCardReturned": lambda v: [_card(v[0], what)],
        "CardPlayed": lambda v: [v[0], _card(v[1], what)],
        "PlayAgain": lambda v: [v[0], _enum(v[1], "phases", "Follow", what)],
        "RoundEnded": lambda v: [_result(v[0], what)],
    }
    fields = convert[kind[1]](items) if kind[1] in convert else items
    return (kind[1], *(_plain(f, what) if not isinstance(f, dict) else f for f in fields))


def _queued(item: Any) -> tuple[Any, str]:
    if type(item) is not tuple or len(item) != 2:
        raise _Bad("a queued action")
    seat, action = item
    kind = origin(action)
    if kind is None or kind[0] != ENGINE + "actions":
        raise _Bad("a queued action is not an action")
    name = kind[1]
    if name in _VERBS:
        return _plain(seat, "a queued seat"), _VERBS[name]
    fields = _state_list(action, "actions", name, "a queued action")
    if name == "Play" and len(fields) == 1:
        return _plain(seat, "a queued seat"), f"play {_card(fields[0])}"
    if name in ("ChooseSuit", "Denounce") and len(fields) == 1 and type(fields[0]) in (str, int):
        verb = "suit" if name == "ChooseSuit" else "denounce"
        return _plain(seat, "a queued seat"), f"{verb} {fields[0]}"
    raise _Bad("a queued action is not an action")
