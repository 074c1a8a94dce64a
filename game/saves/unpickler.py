"""Pickles that cannot do anything: a save file is data, never code, and never a weapon.

A pickle is a small program: it can name any importable callable (and a ``BUILD`` on
a class sets attributes on the class itself), reuse one object anywhere through its
memo (a few hundred bytes can then make a structure whose hashing never ends), and
nest as deep as it likes. So no save is unpickled before `scan` has read every
opcode with `pickletools.genops` and refused:

- any opcode not on the reader's list (`PLAIN` for format 2 admits only what plain data
  needs: dicts, lists, tuples, strings, whole numbers, floats, booleans and None);
- any opcode that names or calls something (``GLOBAL``, ``STACK_GLOBAL``, ``REDUCE``,
  ``BUILD``, ``NEWOBJ``, ``INST``, ``OBJ``, ``PERSID``, ``EXT1`` …), unless the reader
  admits them (`RECORDS`, for format 1, below);
- memo reuse (format 2 has no memo at all: `plain_dumps` writes in fast mode), and
  structures deeper than the reader's bound or larger than its size cap, counting
  shared parts each time they appear (a "hash bomb" is refused before it is built);
- bodies larger than the reader's cap, and bytes after the end.

Then `plain_loads` unpickles with an unpickler whose `find_class` admits no class at
all. Format-1 saves held pickled engine objects; `stub_loads` reads them with
`StubUnpickler`, whose `find_class` hands out a fresh throwaway type (a `Stub`)
for each name, never a real class: a ``REDUCE`` or ``NEWOBJ`` only builds a stub
holding its arguments, a ``BUILD`` only stores the state in that stub (or fails, on a
class), so nothing of the game can change, whatever the file says.
"""

from __future__ import annotations

import io
import pickle
import pickletools
from dataclasses import dataclass
from typing import Any, ClassVar, Final


class UnsafePickle(pickle.UnpicklingError):
    """A pickle that names or calls something (the file is refused, nothing ran)."""


class MalformedPickle(pickle.UnpicklingError):
    """A pickle not built as a save is: an opcode saves never use, memo reuse, too deep or
    too large (the file is refused before anything is built)."""


class DamagedPickle(MalformedPickle):
    """Bytes that are not a whole pickle: cut short, garbled, or with bytes after the end."""


NAMING: Final = frozenset({
    "GLOBAL", "STACK_GLOBAL", "INST", "OBJ", "REDUCE", "BUILD", "NEWOBJ", "NEWOBJ_EX",
    "EXT1", "EXT2", "EXT4", "PERSID", "BINPERSID",
})
"""Opcodes that name a global, call something or set state: code, in a pickle."""

_PLAIN_OPS: Final = frozenset({
    "PROTO", "FRAME", "STOP", "MARK", "NONE", "NEWTRUE", "NEWFALSE", "BININT", "BININT1", "BININT2",
    "LONG1", "BINFLOAT", "SHORT_BINUNICODE", "BINUNICODE", "EMPTY_LIST", "APPEND", "APPENDS",
    "EMPTY_DICT", "SETITEM", "SETITEMS", "EMPTY_TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "TUPLE",
})
_MEMO_OPS: Final = frozenset({"MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT", "GET", "BINGET", "LONG_BINGET"})


@dataclass(frozen=True)
class Limits:
    """What one kind of save may hold: its opcodes, its size, its depth, its expanded size."""

    ops: frozenset[str]
    max_bytes: int
    max_ops: int  # opcodes read before giving up (the scan's own time is bounded by it)
    max_depth: int
    max_nodes: int  # values in the structure, a shared one counted each time it appears


PLAIN: Final = Limits(_PLAIN_OPS, max_bytes=2 << 20, max_ops=150_000, max_depth=12, max_nodes=1 << 20)
"""Format 2: plain data, no memo. A 7-seat game at the end of a 700-action deal is 12 kB and
about 3,500 opcodes; a save upgraded from format 1 is 7 deep, one from a seed 5. The longest
log a save holds (`games.REBASE_AT`, 10,000 entries) is about 30,000 opcodes, a position's
events at most 100,000."""

RECORDS: Final = Limits(
    _PLAIN_OPS | _MEMO_OPS | {"GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD", "NEWOBJ", "NEWOBJ_EX",
                              "SHORT_BINBYTES", "BINBYTES", "EMPTY_SET", "ADDITEMS", "FROZENSET",
                              "POP", "POP_MARK", "DUP"},
    max_bytes=16 << 20, max_ops=150_000, max_depth=16, max_nodes=1 << 20)
"""Format 1: the pickled engine objects of older saves (memo reuse is how they share cards,
rules and generators). Measured on real ones: 10 deep at most (a round's result inside an
event inside the history), 17,000 values once shared ones are counted for a 7-seat game at
the end of a 700-action deal (16,600 opcodes); a long deal's history adds about six per event."""


class _Node:
    """A value the scan has seen built: what it holds (nothing for a scalar), and how deep it is
    as far as the scan knows yet (`_measure` has the last word: a memo entry may grow later)."""

    __slots__ = ("children", "depth")

    def __init__(self, children: list[_Node] | None = None, depth: int = 1) -> None:
        self.children: list[_Node] = children if children is not None else []
        self.depth: int = depth


def _deepest(nodes: list[_Node]) -> int:
    deepest = 0
    for node in nodes:
        if node.depth > deepest:
            deepest = node.depth
    return deepest


_LEAF: Final = _Node(depth=0)

# What each opcode does to the scan's stack: (what, how many values it takes).
_PUSH, _EMPTY, _MARK, _MAKE, _MAKE_MARK, _ADD, _ADD_MARK = 0, 1, 2, 3, 4, 5, 6
_MEMOIZE, _PUT, _GET, _POP, _POP_MARK, _DUP, _STOP, _NOTHING = 7, 8, 9, 10, 11, 12, 13, 14
_EFFECTS: Final[dict[str, tuple[int, int]]] = {
    **{op: (_PUSH, 0) for op in ("NONE", "NEWTRUE", "NEWFALSE", "BININT", "BININT1", "BININT2", "LONG1",
                                 "BINFLOAT", "SHORT_BINUNICODE", "BINUNICODE", "SHORT_BINBYTES", "BINBYTES")},
    **{op: (_EMPTY, 0) for op in ("EMPTY_LIST", "EMPTY_DICT", "EMPTY_SET", "EMPTY_TUPLE", "GLOBAL")},
    "MARK": (_MARK, 0),
    "TUPLE1": (_MAKE, 1), "TUPLE2": (_MAKE, 2), "TUPLE3": (_MAKE, 3), "STACK_GLOBAL": (_MAKE, 2),
    "REDUCE": (_MAKE, 2), "NEWOBJ": (_MAKE, 2), "NEWOBJ_EX": (_MAKE, 3),
    "TUPLE": (_MAKE_MARK, 0), "FROZENSET": (_MAKE_MARK, 0),
    "APPEND": (_ADD, 1), "SETITEM": (_ADD, 2), "BUILD": (_ADD, 1),
    "APPENDS": (_ADD_MARK, 0), "SETITEMS": (_ADD_MARK, 0), "ADDITEMS": (_ADD_MARK, 0),
    "MEMOIZE": (_MEMOIZE, 0), "PUT": (_PUT, 0), "BINPUT": (_PUT, 0), "LONG_BINPUT": (_PUT, 0),
    "GET": (_GET, 0), "BINGET": (_GET, 0), "LONG_BINGET": (_GET, 0),
    "POP": (_POP, 0), "POP_MARK": (_POP_MARK, 0), "DUP": (_DUP, 0), "STOP": (_STOP, 0),
    "PROTO": (_NOTHING, 0), "FRAME": (_NOTHING, 0),
}
MAX_STACK: Final = 20_000
"""Values a pickle may leave waiting on its stack (the pickler hands lists over 1,000 at a time)."""


def scan(body: bytes, limits: Limits) -> None:
    """Read every opcode of ``body`` and refuse what ``limits`` do not admit, building nothing.

    Raises:
        UnsafePickle: an opcode that names or calls something, not admitted here.
        MalformedPickle: another opcode not admitted, memo reuse where there is no memo,
            too many opcodes, a structure too deep or too large, a body too large.
        DamagedPickle: bytes that do not parse as a pickle, or bytes after its end.
    """
    if len(body) > limits.max_bytes:
        raise MalformedPickle(f"{len(body)} bytes, more than {limits.max_bytes}")
    effects = {op: _EFFECTS[op] for op in limits.ops}
    max_ops, max_depth = limits.max_ops, limits.max_depth
    stack: list[_Node | None] = []  # None: a MARK
    push = stack.append
    memo: dict[int, _Node] = {}
    shared = False  # a value pushed twice (DUP): the structure may be a graph, not a tree
    root: _Node | None = None
    end = -1
    problem: MalformedPickle | None = None  # once found, only a naming opcode could be worse
    try:
        for count, (op, arg, pos) in enumerate(pickletools.genops(body)):
            effect = effects.get(op.name)
            if effect is None:
                if op.name in NAMING:
                    raise UnsafePickle(f"opcode {op.name} at byte {pos}")
                problem = problem or MalformedPickle(f"opcode {op.name} at byte {pos}")
                continue
            if problem is not None:
                continue
            what, taken = effect
            if what == _PUSH:
                push(_LEAF)
                continue
            if count >= max_ops or len(stack) > MAX_STACK:
                raise MalformedPickle(f"more than {max_ops} operations, or {MAX_STACK} values waiting")
            if what in (_MAKE, _MAKE_MARK):
                items = _pop(stack, taken) if what == _MAKE else _pop_mark(stack)
                depth = 1 + _deepest(items)
                if depth > max_depth:
                    raise MalformedPickle(f"nested deeper than {max_depth}")
                push(_Node(items, depth))
            elif what in (_ADD, _ADD_MARK):
                items = _pop(stack, taken) if what == _ADD else _pop_mark(stack)
                top = _top(stack)
                top.children.extend(items)
                depth = 1 + _deepest(items)
                if depth > top.depth:
                    if depth > max_depth:
                        raise MalformedPickle(f"nested deeper than {max_depth}")
                    top.depth = depth
            elif what == _EMPTY:
                push(_Node())
            elif what == _MARK:
                push(None)
            elif what == _MEMOIZE:
                memo[len(memo)] = _top(stack)
            elif what == _PUT:
                memo[_index(arg)] = _top(stack)
            elif what == _GET:
                if _index(arg) not in memo:
                    raise MalformedPickle(f"a memo entry that was never stored, at byte {pos}")
                push(memo[_index(arg)])
            elif what == _POP:
                if not stack:
                    raise MalformedPickle("POP on an empty stack")
                stack.pop()
            elif what == _POP_MARK:
                _pop_mark(stack)
            elif what == _DUP:
                push(_top(stack))
                shared = True
            elif what == _STOP:
                (root,) = _pop(stack, 1)
                if stack:
                    raise MalformedPickle("values left over at the end")
                end = (pos or 0) + 1
            # _NOTHING (PROTO, FRAME) changes nothing the scan tracks
    except (ValueError, TypeError, KeyError, IndexError, EOFError, UnicodeDecodeError) as exc:
        raise problem or DamagedPickle(f"a damaged pickle ({type(exc).__name__})") from None
    except MalformedPickle as exc:
        problem = problem or exc
    if problem is not None:
        raise problem
    if root is None or end != len(body):
        raise DamagedPickle("a damaged pickle (no end, or bytes after it)")
    if memo or shared:  # else a tree: the depth is exact already, its size bounded by the opcodes
        _measure(root, limits)


def _index(arg: Any) -> int:
    if type(arg) is not int:
        raise MalformedPickle("a memo index that is not a number")
    return arg


def _top(stack: list[_Node | None]) -> _Node:
    top = stack[-1] if stack else None
    if top is None:
        raise MalformedPickle("an operation on a missing value")
    return top


def _pop(stack: list[_Node | None], count: int) -> list[_Node]:
    if len(stack) < count:
        raise MalformedPickle("an operation on missing values")
    items = stack[len(stack) - count:]
    del stack[len(stack) - count:]
    if any(item is None for item in items):
        raise MalformedPickle("a mark where a value should be")
    return items  # type: ignore[return-value]  # no None left


def _pop_mark(stack: list[_Node | None]) -> list[_Node]:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is None:
            items = stack[i + 1:]
            del stack[i:]
            return items  # type: ignore[return-value]  # the mark was the last None above
    raise MalformedPickle("a mark that was never set")


def _measure(root: _Node, limits: Limits) -> None:
    """Refuse a structure deeper than ``limits.max_depth`` or larger, shared parts counted each
    time they appear, than ``limits.max_nodes`` (or one that holds itself). Iterative: the
    depth is bounded before it is walked."""
    sizes: dict[int, int] = {}
    path = {id(root)}
    todo = [(root, iter(root.children))]
    while todo:
        node, children = todo[-1]
        for child in children:
            key = id(child)
            if key in sizes:
                continue
            if key in path:
                raise MalformedPickle("a value that holds itself")
            if not child.children:
                sizes[key] = 1
                continue
            if len(todo) >= limits.max_depth:
                raise MalformedPickle(f"nested deeper than {limits.max_depth}")
            path.add(key)
            todo.append((child, iter(child.children)))
            break
        else:
            todo.pop()
            path.discard(id(node))
            size = 1 + sum(sizes[id(c)] for c in node.children)
            if size > limits.max_nodes:
                raise MalformedPickle(f"more than {limits.max_nodes} values once shared parts are counted")
            sizes[id(node)] = size


# ---- format 2: plain data ------------------------------------------------------------------------
class _NoClasses(pickle.Unpickler):
    """An unpickler that admits no global at all (the scan already refused them)."""

    def find_class(self, module: str, name: str) -> Any:
        """Refuse every name.

        Raises:
            UnsafePickle: always.
        """
        raise UnsafePickle(f"the file refers to {module:.40}.{name:.40}; saves refer to nothing")

    def persistent_load(self, pid: Any) -> Any:
        """Refuse persistent ids.

        Raises:
            UnsafePickle: always.
        """
        raise UnsafePickle("the file uses persistent ids")


def plain_dumps(value: Any) -> bytes:
    """Pickle plain data with no memo (fast mode): nothing is written twice by reference, so
    `plain_loads` can refuse any memo opcode."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=4)
    pickler.fast = True  # no memo: shared values are written out each time
    pickler.dump(value)
    return out.getvalue()


def plain_loads(body: bytes) -> Any:
    """The plain data in ``body``, after `scan` with `PLAIN`.

    Raises:
        UnsafePickle, MalformedPickle: see `scan`.
    """
    scan(body, PLAIN)
    try:
        return _NoClasses(io.BytesIO(body)).load()
    except (pickle.UnpicklingError, ValueError, TypeError, EOFError, MemoryError) as exc:
        raise DamagedPickle(f"a damaged pickle ({type(exc).__name__})") from None


# ---- format 1: stubs of engine objects ---------------------------------------------------------
class Stub:
    """What a format-1 pickle built where it named a class: the name (``origin``), the arguments
    it was called with (``args``, ``kwargs``) and the state a ``BUILD`` gave it (``state``).

    Each name gets a fresh subclass per load (`StubUnpickler.find_class`), so nothing a
    pickle does to it reaches a real class.
    """

    __slots__ = ("args", "kwargs", "state")
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    state: Any
    origin: ClassVar[tuple[str, str]] = ("", "")

    def __new__(cls, *args: Any, **kwargs: Any) -> Stub:
        record = object.__new__(cls)
        record.args, record.kwargs, record.state = args, kwargs, None
        return record

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Nothing: `__new__` kept the arguments."""

    def __setstate__(self, state: Any) -> None:
        """Keep the state a ``BUILD`` gives (on a stub; on its class it fails, harmlessly)."""
        self.state = state

    def __repr__(self) -> str:
        return f"Stub({self.origin[0]}.{self.origin[1]})"


def origin(value: Any) -> tuple[str, str] | None:
    """The (module, name) a stub stands for; None for anything that is not a stub."""
    return type(value).origin if isinstance(value, Stub) else None


class StubUnpickler(pickle.Unpickler):
    """An unpickler whose globals are throwaway `Stub` types: it builds stubs, never objects."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file)
        self._types: dict[tuple[str, str], type[Stub]] = {}

    def find_class(self, module: str, name: str) -> Any:
        """A fresh `Stub` type standing for ``module.name`` (the same one within this load)."""
        key = (str(module)[:80], str(name)[:80])
        made = self._types.get(key)
        if made is None:
            made = self._types[key] = type("Stub", (Stub,), {"__slots__": (), "origin": key})
        return made

    def persistent_load(self, pid: Any) -> Any:
        """Refuse persistent ids.

        Raises:
            UnsafePickle: always.
        """
        raise UnsafePickle("the file uses persistent ids")


def stub_loads(body: bytes) -> Any:
    """The values of a format-1 pickle, every object of a class as a `Stub`, after `scan`
    with `RECORDS`.

    Raises:
        UnsafePickle, MalformedPickle: see `scan`; a ``BUILD`` on a class, or any other
            operation that fails on stubs, is a `DamagedPickle`.
    """
    scan(body, RECORDS)
    try:
        return StubUnpickler(io.BytesIO(body)).load()
    except UnsafePickle:
        raise
    except (pickle.UnpicklingError, ValueError, TypeError, AttributeError, EOFError, MemoryError) as exc:
        raise DamagedPickle(f"it does not unpickle ({type(exc).__name__})") from None
