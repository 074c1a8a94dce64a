"""The frame of every protocol message: a frozen dataclass whose wire fields are declared once.

`wire` declares a field that travels (its JSON Schema limits with it), `derived` a value
read from the wire fields that never travels; `Message.encode` writes the fields in
their declared order, ``ref`` last but for ``"v": 2``, as protocol 2 always did.
`field_types` gives each field's resolved type (the schema, and reading a server's
messages by kind). The messages themselves are in `requests` and `replies`; import them
from `messages`.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .protocol import PROTOCOL

Ref = int | str | bool
"""A message's ``ref``: a string or a number (``true`` and ``false`` pass too, as they always did:
JSON's booleans are numbers to the server's check)."""


def wire(*, omit: bool = True, **limits: Any) -> Any:
    """A field on the wire. ``omit``: left out of the frame when None (else written as null);
    ``limits``: its JSON Schema bounds (``minimum``, ``maxLength``, ``enum``, ``pattern``…)."""
    return field(default=None, metadata={"omit": omit, "limits": limits})


def derived(default: Any = None) -> Any:
    """A value the server works with, read from the wire fields (never written)."""
    return field(default=default, compare=False, repr=False, metadata={"derived": True})


_LAYOUTS: dict[type[Message], tuple[tuple[str, bool], ...]] = {}


def _plain(value: Any) -> Any:
    """A value as JSON sees it (a tuple is a list; a nested message its object)."""
    if isinstance(value, Message):
        return value.to_json(version=False)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, kw_only=True)
class Message:
    """One protocol message: ``TYPE`` and its fields, ``ref`` (if it has one) last."""

    TYPE: ClassVar[str] = ""
    DIRECTION: ClassVar[str] = ""

    @classmethod
    def wire_fields(cls) -> list[dataclasses.Field[Any]]:
        """The fields written on the wire, in their order (``ref`` last)."""
        fields = [f for f in dataclasses.fields(cls) if not f.metadata.get("derived")]
        return [f for f in fields if f.name != "ref"] + [f for f in fields if f.name == "ref"]

    @classmethod
    def _layout(cls) -> tuple[tuple[str, bool], ...]:
        """Each wire field's name and whether None leaves it out (worked out once per type: the
        server writes thousands of updates a second)."""
        layout = _LAYOUTS.get(cls)
        if layout is None:
            layout = _LAYOUTS[cls] = tuple((f.name, bool(f.metadata.get("omit", True)))
                                           for f in cls.wire_fields())
        return layout

    def to_json(self, *, version: bool = True) -> dict[str, Any]:
        """The message as a JSON object (``"v": 2`` last unless ``version`` is false)."""
        out: dict[str, Any] = {"type": self.TYPE} if self.TYPE else {}
        for name, omit in self._layout():
            value = getattr(self, name)
            if value is None and omit:
                continue
            # Nested JSON goes as it is; only nested messages (a create's seats) are written out.
            nested = isinstance(value, Message) or (isinstance(value, tuple) and value
                                                    and isinstance(value[0], Message))
            out[name] = _plain(value) if nested else value
        if version:
            out["v"] = PROTOCOL
        return out

    def encode(self) -> str:
        """The frame's text: the same JSON, keys and separators the game and the server always sent."""
        return json.dumps(self.to_json())


def field_types(cls: type[Message]) -> dict[str, Any]:
    """The declared type of each of a message's fields (its annotations, resolved)."""
    cached = _TYPES.get(cls)
    if cached is None:
        cached = _TYPES[cls] = typing.get_type_hints(cls)
    return cached


_TYPES: dict[type[Message], dict[str, Any]] = {}


def fits(value: Any, annotation: Any) -> bool:
    """Whether a JSON value is of a declared type, by its outer kind (what a list or an object holds
    is for its readers to check); a bool is no number."""
    if annotation is Any:
        return True
    options = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    for option in options:
        kind = typing.get_origin(option) or option
        if option is type(None):
            if value is None:
                return True
        elif kind is tuple or kind is list:
            if isinstance(value, list):
                return True
        elif kind is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return True
        elif kind is int:
            if isinstance(value, int) and (type(value) is int or option is not int):
                return True
        elif isinstance(kind, type) and isinstance(value, kind):
            return True
    return False
