"""The protocol's description stays the code's: docs/protocol.md's message tables list the message types,
and docs/protocol.schema.json is what ``python -m tools.protocol_schema`` writes from them today."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from game.net import messages as m
from tools import protocol_schema

DOCS = Path(__file__).resolve().parent.parent / "docs"


def table(section: str) -> dict[str, str]:
    """The rows of a table of docs/protocol.md, by each type the row's first cell names (in backquotes)."""
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in body.splitlines():
        cells = line.split(" | ")
        if not line.startswith("| `") or len(cells) < 2:
            continue
        for kind in re.findall(r"`([a-z_]+)`", cells[0]):
            rows[kind] = " | ".join(cells[1:])
    return rows


def named(row: str) -> set[str]:
    """The names a row's cells give, in backquotes or double quotes."""
    return {a or b for a, b in re.findall(r"`([a-z_]+)`|\"([a-z_]+)\"", row)}


def test_the_client_table_lists_every_client_message_and_its_fields():
    rows = table("Client → server")
    assert list(rows) == list(m.CLIENT_MESSAGES)  # the same messages, in the same order
    for kind, cls in m.CLIENT_MESSAGES.items():
        fields = {f.name for f in cls.wire_fields()} - {"ref", "request"}  # (described below the table)
        assert fields <= named(rows[kind]), kind


def test_the_server_table_lists_every_server_message_and_its_fields():
    rows = table("Server → client")
    assert sorted(rows) == sorted(m.SERVER_MESSAGES)
    for kind, cls in m.SERVER_MESSAGES.items():
        fields = {f.name for f in cls.wire_fields()} - {"ref"}  # (every reply a ref causes carries it)
        assert fields <= named(rows[kind]), kind


def test_the_committed_schema_is_what_the_tool_writes():
    committed = (DOCS / "protocol.schema.json").read_text(encoding="utf-8")
    assert committed == protocol_schema.text(), "stale: run python -m tools.protocol_schema"


def test_the_schema_names_every_message_with_its_type_and_required_fields():
    schema = json.loads((DOCS / "protocol.schema.json").read_text(encoding="utf-8"))
    definitions = schema["$defs"]
    for direction, classes in (("client", m.CLIENT_MESSAGES), ("server", m.SERVER_MESSAGES)):
        assert [ref["$ref"] for ref in definitions[direction]["oneOf"]] == [
            f"#/$defs/{direction}_{kind}" for kind in classes]
        for kind in classes:
            one = definitions[f"{direction}_{kind}"]
            assert one["properties"]["type"] == {"const": kind} and {"type", "v"} <= set(one["required"])
    assert definitions["server_update"]["properties"]["timer"]["type"] == ["number", "null"]
    assert definitions["client_queue"]["properties"]["players"] == {"type": "integer", "minimum": 2,
                                                                    "maximum": 8}


def test_the_command_writes_the_committed_schema(tmp_path):
    written = tmp_path / "schema.json"
    done = subprocess.run([sys.executable, "-m", "tools.protocol_schema", "--output", str(written)],
                          cwd=DOCS.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert written.read_text(encoding="utf-8") == (DOCS / "protocol.schema.json").read_text(encoding="utf-8")
