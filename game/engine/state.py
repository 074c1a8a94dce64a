"""A round's state declared once: each field with how it is copied, written and shown.

`Round` declares every field of its state in its class body, one line each::

    suit: str | None = state(plain=Plain.SUIT, view="suit", start=None)

(its type; how a clone copies it, `Copy`, shared by default; how a position writes it as
plain data, `Plain`; the `PlayerView` field that shows it as it is; the value a new round
starts with; what rounds saved before the field existed hold). `declared` makes the
class from those lines (a slotted class) and derives from them, once per class:

* ``clone``, the round's starting values (`start_fields`), restoring it from its fields'
  values (`restored`: what a position and a determinization build), the view's fields
  (`view_values`, for `Match.view`) and reading them back (`values_from_view`, for
  `game.engine.determinize`). Each is generated as straight-line code, one line per
  field, as fast as writing it by hand: clones, views and determinizations are the
  Hard player's inner loops, where a loop over the fields costs several times as much;
* the fields a position holds, in order (`positional`), each with its `Plain` kind:
  `game.engine.snapshot` has one writer and one checked reader per kind, and
  `game.saves.format1` one conversion of a format-1 round's value per kind;
* its state as a dict (`saved_state`): pickling and equality.

A new field is then one line in `Round` plus the code that really uses it (CONTRIBUTING.md,
"Add a round field").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from typing import Any, Final, TypeVar

_KEY: Final = "huit.state"

T = TypeVar("T")


class Copy(Enum):
    """How a clone (a search's copy of the round) takes a field."""

    SHARED = "shared"  # an immutable value (a number, a card, an enum, a result): shared
    LIST = "list"  # a list the round changes in place (a pile): copied
    PER_SEAT = "per_seat"  # one list per seat (the hands): each copied
    MAP = "map"  # a dict the round changes (seat -> turn): copied
    GENERATOR = "generator"  # the random generator: the one the clone is given, or one seeded from it
    DERIVED = "derived"  # computed from the rules (the card table): shared; recomputed when restored
    CACHE = "cache"  # remembered until the state changes (the legal actions): empty in a copy


class Plain(Enum):
    """How a position writes a field as plain data and checks it on reading
    (`game.engine.snapshot` holds one writer and one reader per kind)."""

    NUMBER = "number"  # the deal's number, from 1
    SEAT = "seat"
    MAYBE_SEAT = "seat?"
    HANDS = "hands"  # one list of card codes per seat
    CARDS = "cards"  # a list of card codes
    MAYBE_CARD = "card?"
    SUIT = "suit?"  # a suit of the deck, or None
    DIRECTION = "direction"  # 1 or -1
    PHASE = "phase"
    FOLLOW = "follow?"
    DRAWN = "drawn"  # cards drawn this turn: up to the deck's size
    PENALTY = "penalty"  # cards a pending penalty makes draw
    RUN = "run"  # the rank number a run goes on with: 0 to 15
    BOOL = "bool"
    EXPOSED = "exposed"  # seat -> turn, written as [[seat, turn], ...]
    TURN = "turn"  # the turn's number
    PASSES = "passes"  # passes in a row: up to the number of seats
    RESULT = "result?"  # a round's result, or None


@dataclass(frozen=True)
class StateField:
    """One field of a round's state: its ``name``, how a clone copies it (``copy``), how a
    position writes it (``plain``; None: a position does not hold it, the match gives it),
    the `PlayerView` field that shows it as it is (``view``; None: hidden, or shown in a way
    of its own that `Match.view` and `round_from_view` write by hand), the value a new round
    starts with (``start``; MISSING: `Round.__init__` sets it from its arguments) and the value
    rounds saved before the field existed hold (``before``; MISSING: every saved round has it)."""

    name: str
    copy: Copy
    plain: Plain | None
    view: str | None
    start: object
    before: object


# Each declared class's fields, and the code made from them (filled by `declared`).
_DECLARED: Final[dict[type[Any], tuple[StateField, ...]]] = {}
_MADE: Final[dict[type[Any], _Made]] = {}


def state(copy: Copy = Copy.SHARED, *, plain: Plain | None = None, view: str | None = None,
          start: object = MISSING, before: object = MISSING) -> Any:
    """Declare a field of a `declared` class (see `StateField` for the arguments).

    Raises:
        ValueError: a list or dict that would not start empty, or a view name that is no name.
    """
    if view is not None and not view.isidentifier():
        raise ValueError(f"a view field is named as an attribute, not {view!r}")
    if copy in (Copy.LIST, Copy.MAP, Copy.PER_SEAT) and start is not MISSING and start not in ([], {}):
        raise ValueError("a list or a dict starts empty, or is set by __init__")
    spec = {"copy": copy, "plain": plain, "view": view, "start": start, "before": before}
    return field(metadata={_KEY: spec})


def state_of(cls: type[Any]) -> tuple[StateField, ...]:
    """The fields a `declared` class declares, in order.

    Raises:
        KeyError: ``cls`` is not a `declared` class.
    """
    return _DECLARED[cls]


# What a clone's line for a field of each kind copies (``s``: the original, ``rng``: the given one).
_CLONE: Final[dict[Copy, str]] = {
    Copy.SHARED: "s.{0}",
    Copy.LIST: "s.{0}[:]",
    Copy.PER_SEAT: "[h[:] for h in s.{0}]",
    Copy.MAP: "s.{0}.copy()",
    Copy.GENERATOR: "rng if rng is not None else Random(s.{0}.random())",
    Copy.DERIVED: "s.{0}",
    Copy.CACHE: "None",
}
# How a view holds a field of each kind (``{0}``: the field's value), and how it is read back.
_TO_VIEW: Final[dict[Copy, str]] = {
    Copy.LIST: "tuple({0})", Copy.PER_SEAT: "tuple(tuple(h) for h in {0})",
    Copy.MAP: "tuple(sorted({0}.items()))",
}
_FROM_VIEW: Final[dict[Copy, str]] = {
    Copy.LIST: "list({0})", Copy.PER_SEAT: "[list(h) for h in {0}]", Copy.MAP: "dict({0})",
}


@dataclass(frozen=True)
class _Made:
    """The code `declared` makes for one class from its fields."""

    saved: frozenset[str]  # the fields that make the state (neither derived nor cached)
    state: Callable[[Any], dict[str, Any]]  # those fields' values by name, in order (`saved_state`)
    start: Callable[[Any], None]
    restore: Callable[[Any, Mapping[str, object]], None]
    to_view: Callable[[Any], dict[str, Any]]
    from_view: Callable[[Any], dict[str, Any]]


def declared(derive: Callable[[Any], Mapping[str, object]]) -> Callable[[type[T]], type[T]]:
    """A class decorator: the class with `state` fields as slots, and ``clone`` derived from
    them. ``derive(obj)`` gives the `Copy.DERIVED` fields' values from the others (on restoring)."""

    def make(cls: type[T]) -> type[T]:
        made: Any = dataclass(init=False, repr=False, eq=False, slots=True, match_args=False)(cls)
        own = tuple(StateField(name=f.name, **f.metadata[_KEY]) for f in fields(made))
        _DECLARED[made] = own
        _MADE[made] = _make_code(made, own, derive)
        clone = _compose("clone", ["s", "rng=None"], ["o = new(cls)"] + [
            f"o.{f.name} = {_CLONE[f.copy].format(f.name)}" for f in own] + ["return o"],
            {"new": object.__new__, "cls": made, "Random": random.Random})
        clone.__qualname__ = f"{made.__qualname__}.clone"
        clone.__module__ = made.__module__
        clone.__doc__ = "An independent copy (for searches), drawing its shuffles from ``rng`` if given."
        made.clone = clone
        return made  # type: ignore[no-any-return]

    return make


def _make_code(cls: type[Any], own: tuple[StateField, ...],
               derive: Callable[[Any], Mapping[str, object]]) -> _Made:
    """Straight-line code for each derivation, one line per field: a loop over the fields with
    ``getattr`` and ``setattr`` costs several times as much, and clones, views and
    determinizations are a search's inner loops."""
    namespace: dict[str, Any] = {"derive": derive, "refuse": _refuse, "cls": cls}
    saved = [f for f in own if f.copy not in (Copy.DERIVED, Copy.CACHE)]
    namespace["SAVED"] = frozenset(f.name for f in saved)
    start = []
    for f in own:
        if f.start is not MISSING:
            namespace[f"start_{f.name}"] = f.start
            start.append(f"o.{f.name} = " + (repr(f.start) if isinstance(f.start, list | dict)
                                              else f"start_{f.name}"))
    restore = ["if v.keys() != SAVED:", "    refuse(cls, v)"]
    restore += [f"o.{f.name} = v[{f.name!r}]" for f in saved]
    restore += ["d = derive(o)"]
    restore += [f"o.{f.name} = d[{f.name!r}]" for f in own if f.copy is Copy.DERIVED]
    restore += [f"o.{f.name} = None" for f in own if f.copy is Copy.CACHE]
    state = "return {" + ", ".join(f"{f.name!r}: o.{f.name}" for f in saved) + "}"
    views = [f for f in own if f.view is not None]
    to_view = "return {" + ", ".join(
        f"{f.view!r}: " + _TO_VIEW.get(f.copy, "{0}").format(f"o.{f.name}") for f in views) + "}"
    from_view = "return {" + ", ".join(
        f"{f.name!r}: " + _FROM_VIEW.get(f.copy, "{0}").format(f"v.{f.view}") for f in views) + "}"
    return _Made(
        saved=namespace["SAVED"],
        state=_compose("state", ["o"], [state], namespace),
        start=_compose("start", ["o"], start or ["pass"], namespace),
        restore=_compose("restore", ["o", "v"], restore, namespace),
        to_view=_compose("to_view", ["o"], [to_view], namespace),
        from_view=_compose("from_view", ["v"], [from_view], namespace),
    )


def _compose(name: str, args: list[str], body: list[str], namespace: dict[str, Any]) -> Callable[..., Any]:
    """The function ``name(args)`` whose body is ``body``'s lines, made once per declared class."""
    source = f"def {name}({', '.join(args)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(source, namespace)  # noqa: S102  # code made from a class's own declaration, never from data
    made: Callable[..., Any] = namespace.pop(name)
    return made


def _refuse(cls: type[Any], values: Mapping[str, object]) -> None:
    wanted = _MADE[cls].saved
    missing, extra = sorted(wanted - set(values)), sorted(str(k)[:20] for k in set(values) - wanted)
    raise TypeError(f"a {cls.__name__}'s state lacks {missing or '-'}, has unknown {extra or '-'}")


def start_fields(obj: object) -> None:
    """Set every field of ``obj`` that declares a ``start`` to it (lists and dicts new)."""
    _MADE[type(obj)].start(obj)


def saved_state(obj: object) -> dict[str, Any]:
    """The fields of ``obj`` that make its state, by name (neither derived nor cached): what
    pickling keeps and equality compares (straight-line code made once, see `_make_code`: every
    pickling and comparison of a round reads it, some 55 µs a time as a loop over the fields)."""
    return _MADE[type(obj)].state(obj)


def restore(obj: object, values: Mapping[str, object]) -> None:
    """Set ``obj``'s state from ``values`` (as `saved_state` gives them), then its derived fields;
    its cached ones are emptied.

    Raises:
        TypeError: ``values`` lacks a field of the state, or names one it does not have.
    """
    _MADE[type(obj)].restore(obj, values)


def restored(cls: type[T], values: Mapping[str, object]) -> T:
    """A new ``cls`` whose state is ``values`` (see `restore`), built without ``__init__``."""
    obj = object.__new__(cls)
    _MADE[cls].restore(obj, values)
    return obj


def positional(cls: type[Any]) -> tuple[StateField, ...]:
    """The fields a position holds, in the order it writes them (those with a `Plain` kind)."""
    return tuple(f for f in state_of(cls) if f.plain is not None)


def view_values(obj: object) -> dict[str, Any]:
    """The view's fields that show ``obj``'s fields as they are, by the view's names (lists as
    tuples, a dict as its sorted pairs)."""
    return _MADE[type(obj)].to_view(obj)


def values_from_view(cls: type[Any], view: object) -> dict[str, Any]:
    """The fields of ``cls`` a view shows as they are, read back from ``view`` (the inverse of
    `view_values`), by the fields' names."""
    return _MADE[cls].from_view(view)
