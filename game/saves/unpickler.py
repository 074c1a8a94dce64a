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
    max_depth: int
    max_nodes: int  # values in the structure, a shared one counted each time it appears


PLAIN: Final = Limits(_PLAIN_OPS, max_bytes=2 << 20, max_depth=12, max_nodes=1 << 20)
"""Format 2: plain data, no memo. A long 7-seat game is about 20 kB, 8 levels deep."""

RECORDS: Final = Limits(
    _PLAIN_OPS | _MEMO_OPS | {"GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD", "NEWOBJ", "NEWOBJ_EX",
                              "SHORT_BINBYTES", "BINBYTES", "EMPTY_SET", "ADDITEMS", "FROZENSET",
                              "POP", "POP_MARK", "DUP"},
    max_bytes=16 << 20, max_depth=16, max_nodes=1 << 20)
"""Format 1: the pickled engine objects of older saves (memo reuse is how they share cards,
rules and generators). Measured on real ones: 10 deep at most (a round's result inside an
event inside the history), 17,000 values once shared ones are counted for a 7-seat game at
the end of a 700-action deal; a long deal's history adds about six per event."""


class _Node:
    """A value the scan has seen built: what it holds (empty for a scalar)."""

    __slots__ = ("children",)

    def __init__(self, children: list[_Node] | None = None) -> None:
        self.children: list[_Node] = children if children is not None else []


_LEAF: Final = _Node()
_PUSH_LEAF: Final = frozenset({
    "NONE", "NEWTRUE", "NEWFALSE", "BININT", "BININT1", "BININT2", "LONG1", "BINFLOAT",
    "SHORT_BINUNICODE", "BINUNICODE", "SHORT_BINBYTES", "BINBYTES",
})
_PUSH_EMPTY: Final = frozenset({"EMPTY_LIST", "EMPTY_DICT", "EMPTY_SET", "EMPTY_TUPLE", "GLOBAL"})
_TUPLES: Final = {"TUPLE1": 1, "TUPLE2": 2, "TUPLE3": 3, "STACK_GLOBAL": 2, "REDUCE": 2, "NEWOBJ": 2,
                  "NEWOBJ_EX": 3}
_ADD: Final = {"APPEND": 1, "SETITEM": 2, "BUILD": 1}


def scan(body: bytes, limits: Limits) -> None:
    """Read every opcode of ``body`` and refuse what ``limits`` do not admit, building nothing.

    Raises:
        UnsafePickle: an opcode that names or calls something, not admitted here.
        MalformedPickle: another opcode not admitted, memo reuse where there is no memo,
            a structure too deep or too large, a body too large.
        DamagedPickle: bytes that do not parse as a pickle, or bytes after its end.
    """
    if len(body) > limits.max_bytes:
        raise MalformedPickle(f"{len(body)} bytes, more than {limits.max_bytes}")
    stack: list[_Node | None] = []  # None: a MARK
    memo: dict[int, _Node] = {}
    root: _Node | None = None
    end = -1
    problem: MalformedPickle | None = None  # once found, only a naming opcode could be worse
    try:
        for op, arg, pos in pickletools.genops(body):
            name = op.name
            if name not in limits.ops:
                if name in NAMING:
                    raise UnsafePickle(f"opcode {name} at byte {pos}")
                problem = problem or MalformedPickle(f"opcode {name} at byte {pos}")
            if problem is not None:
                continue
            if name in _PUSH_LEAF:
                stack.append(_LEAF)
            elif name in _PUSH_EMPTY:
                stack.append(_Node())
            elif name == "MARK":
                stack.append(None)
            elif name in _TUPLES:
                stack.append(_Node(_pop(stack, _TUPLES[name])))
            elif name in ("TUPLE", "FROZENSET"):
                stack.append(_Node(_pop_mark(stack)))
            elif name in _ADD:
                items = _pop(stack, _ADD[name])
                _top(stack).children.extend(items)
            elif name in ("APPENDS", "SETITEMS", "ADDITEMS"):
                items = _pop_mark(stack)
                _top(stack).children.extend(items)
            elif name == "MEMOIZE":
                memo[len(memo)] = _top(stack)
            elif name in ("PUT", "BINPUT", "LONG_BINPUT"):
                memo[_index(arg)] = _top(stack)
            elif name in ("GET", "BINGET", "LONG_BINGET"):
                if _index(arg) not in memo:
                    raise MalformedPickle(f"a memo entry that was never stored, at byte {pos}")
                stack.append(memo[_index(arg)])
            elif name == "POP":
                if not stack:
                    raise MalformedPickle("POP on an empty stack")
                stack.pop()
            elif name == "POP_MARK":
                _pop_mark(stack)
            elif name == "DUP":
                stack.append(_top(stack))
            elif name == "STOP":
                (root,) = _pop(stack, 1)
                if stack:
                    raise MalformedPickle("values left over at the end")
                end = (pos or 0) + 1
            # PROTO and FRAME change nothing the scan tracks
    except (ValueError, TypeError, KeyError, IndexError, EOFError, UnicodeDecodeError) as exc:
        raise problem or DamagedPickle(f"a damaged pickle ({type(exc).__name__})") from None
    except MalformedPickle as exc:
        problem = problem or exc
    if problem is not None:
        raise problem
    if root is None or end != len(body):
        raise DamagedPickle("a damaged pickle (no end, or bytes after it)")
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
