"""``python -m tools.protocol_schema``: docs/protocol.schema.json, a JSON Schema of every message.

Derived from the message types of `game.net.messages` (their fields, the fields' types
and the limits declared with them), never written by hand: another client (a browser,
a bot) can be written and checked against it. tests/test_protocol_schema.py fails when
the committed file is not what this writes.

Nested values the types keep as JSON (a view, events, a room's seats, listings) are
plain objects and arrays here; docs/protocol.md describes their shapes.
"""

from __future__ import annotations

import argparse
import functools
import json
import operator
import types
import typing
from pathlib import Path
from typing import Any

from game.net import messages as m
from game.net.message_fields import Message, field_types

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"
SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean",
                           type(None): "null"}


def type_schema(annotation: Any) -> dict[str, Any]:
    """The JSON Schema of a field's declared type."""
    if annotation is Any:
        return {}
    if annotation in SCALARS:
        return {"type": SCALARS[annotation]}
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return {"$ref": f"#/$defs/{annotation.__name__}"}
    if isinstance(annotation, types.UnionType):
        options = [type_schema(a) for a in typing.get_args(annotation)]
        if all(set(o) == {"type"} for o in options):
            return {"type": [o["type"] for o in options]}
        return {"anyOf": options}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (list, tuple):
        return {"type": "array", "items": type_schema(args[0])}
    if origin is dict:
        values = type_schema(args[1])
        return {"type": "object", **({"additionalProperties": values} if values else {})}
    raise TypeError(f"no JSON Schema for {annotation!r}")


def _sent(annotation: Any) -> Any:
    """A type without its None."""
    if isinstance(annotation, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return functools.reduce(operator.or_, kept)
    return annotation


def message_schema(cls: type[Message]) -> dict[str, Any]:
    """One message: its ``type``, ``v`` (2) and fields; those always sent are required."""
    declared = field_types(cls)
    properties: dict[str, Any] = {}
    required = []
    if cls.TYPE:
        properties["type"] = {"const": cls.TYPE}
        required.append("type")
    for f in cls.wire_fields():
        annotation = declared[f.name]
        if cls.DIRECTION != "server" or f.metadata.get("omit", True):
            annotation = _sent(annotation)  # None there means "left out" (or refused), never null
        schema = type_schema(annotation)
        limits = f.metadata.get("limits", {})
        properties[f.name] = {**schema, **limits}
        if not f.metadata.get("omit", True):
            required.append(f.name)
    if cls.TYPE:
        properties["v"] = {"const": 2}
        required.append("v")
    return {"description": " ".join((cls.__doc__ or "").split()), "type": "object",
            "properties": properties, "required": required}


def build() -> dict[str, Any]:
    """The whole schema: a client's messages, a server's, and the values they share."""
    definitions = {"SeatRequest": message_schema(m.SeatRequest)}
    client = {f"client_{kind}": message_schema(cls) for kind, cls in m.CLIENT_MESSAGES.items()}
    server = {f"server_{kind}": message_schema(cls) for kind, cls in m.SERVER_MESSAGES.items()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Huit online protocol, version 2",
        "description": "Every message of protocol 2 (docs/protocol.md), both directions. Written by "
                       "python -m tools.protocol_schema from game/net/messages.py: do not edit by hand.",
        "$defs": {**definitions, **client, **server,
                  "client": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in client]},
                  "server": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in server]}},
        "anyOf": [{"$ref": "#/$defs/client"}, {"$ref": "#/$defs/server"}],
    }


def text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the schema (to ``--output``, docs/protocol.schema.json by default)."""
    parser = argparse.ArgumentParser(prog="python -m tools.protocol_schema",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where to write it (%(default)s)")
    args = parser.parse_args(argv)
    args.output.write_text(text(), encoding="utf-8")
    print(f"{args.output}: {len(m.CLIENT_MESSAGES)} client and {len(m.SERVER_MESSAGES)} server messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
