"""The scenes' seams hold: a scene opens another by its registered name, never by importing it;
it sees the App through `SceneApp`, never the concrete `App`; it reads no JSON and no raw key
code (the keymap does); and the registry names every scene, each opened name being one of them.
Each rule fails with the file and line that breaks it.

Reading no JSON means: no ``json``, ``game.net.protocol`` or ``game.net.wire`` import; no
connection's ``poll()`` (its messages come as types, ``poll_messages()``); no message's
``source`` (the object it was read from); and no field of the protocol read from a dict by name
(``message["type"]``, ``seat.get("name")``): the messages and their rows (`game.net.replies`)
read the server's JSON once, leniently. A scene's own maps (its text fields, ``entries``; the
player's ``settings``) are no messages."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path
from typing import Final

import pygame
import pytest

from game.client import keymap, registry
from game.client.intents import TableCommand
from game.client.keymap import Nav
from game.client.scene import Scene
from game.engine import Accept, CallLastCard, Challenge, Draw, EndTurn, Pass
from game.net import replies
from game.net.messages import CLIENT_MESSAGES, SERVER_MESSAGES
from tests.test_layering import ROOT, imports_of

SCENES_PACKAGE: Final = "game.client.scenes"
OPENERS: Final = frozenset({"push", "replace"})  # the App's ways to open a scene by name
JSON_MODULES: Final = ("json", "game.net.protocol", "game.net.wire")  # where JSON is read and written
RAW_READERS: Final = frozenset({"read_message", "from_server"})  # text or a JSON object → a message
PROTOCOL_FIELDS: Final = frozenset(
    {"type"} | {f.name for cls in SERVER_MESSAGES.values() for f in cls.wire_fields()}
    | {f.name for row in (replies.SeatRow, replies.ListedRoom, replies.RankRow, replies.RankedGame)
       for f in dataclasses.fields(row)})
"""The names of the server's messages' fields and of their rows' (a room's seats, a listing's rooms,
a leaderboard's rows, a history's games)."""
OWN_MAPS: Final = frozenset({"entries", "settings"})  # a scene's text fields, the player's settings


def _scene_modules(root: Path) -> list[Path]:
    return sorted(p for p in (root / "game" / "client" / "scenes").glob("*.py") if p.name != "__init__.py")


def _raw_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) for every pygame key code or modifier read directly (``pygame.K_v``,
    ``pygame.KMOD_CTRL``, ``from pygame import K_v``, ``pygame.locals``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith(("K_", "KMOD_")):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pygame"):
            found += [(node.lineno, alias.name) for alias in node.names
                      if alias.name.startswith(("K_", "KMOD_")) or alias.name == "*"
                      or node.module == "pygame.locals"]
    return found


def _names_in(node: ast.AST) -> set[str]:
    """The names and attributes an expression goes through (``self.app.settings`` → self, app, settings)."""
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute)}


def _raw_json_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for every read of a server's JSON (a connection's ``poll()``, a message's
    ``source``, a reader of raw messages imported, a protocol field read from a dict by name) and
    every message built as a dict (``{"type": "join", ...}``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        key, receiver = None, None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "poll" and not node.args:
                found.append((node.lineno, "calls poll() for raw JSON (take poll_messages(): types)"))
            elif (node.func.attr in ("get", "pop") and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)):
                key, receiver = node.args[0].value, node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(
                node.slice.value, str):
            key, receiver = node.slice.value, node.value
        elif isinstance(node, ast.Dict) and any(
                isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant)
                and v.value in CLIENT_MESSAGES.keys() | SERVER_MESSAGES.keys()
                for k, v in zip(node.keys, node.values, strict=True)):
            found.append((node.lineno, "builds a message as a dict (build its type: game.net.messages)"))
        elif isinstance(node, ast.Attribute) and node.attr == "source":
            found.append((node.lineno, "reads a message's source JSON (read its fields)"))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"imports {alias.name} (the connection reads messages as types)")
                      for alias in node.names if alias.name in RAW_READERS]
        if key in PROTOCOL_FIELDS and receiver is not None and not _names_in(receiver) & OWN_MAPS:
            found.append((node.lineno, f"reads the field {key!r} of raw JSON (read the message's type)"))
    return found


APP_MODULES = ("game.client.app", "game.client.launch")  # the concrete App, and what starts it


def scene_seam_problems(root: Path) -> list[str]:
    """Every break of the scenes' seams under ``root``'s ``game/client/scenes``, as ``file:line: what``."""
    out: list[str] = []
    for path in _scene_modules(root):
        where = path.relative_to(root).as_posix()
        for line, target in imports_of(path, root):
            if target == SCENES_PACKAGE or target.startswith(SCENES_PACKAGE + "."):
                out.append(f"{where}:{line}: imports the scene module {target} (open it by name: app.push)")
            elif any(target == m or target.startswith(m + ".") for m in APP_MODULES):
                out.append(f"{where}:{line}: imports the concrete App (a scene sees a SceneApp)")
            elif any(target == module or target.startswith(module + ".") for module in JSON_MODULES):
                out.append(f"{where}:{line}: imports {target} (a scene reads messages, not JSON)")
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in _raw_keys(tree):
            out.append(f"{where}:{line}: reads the raw key {name} (ask game.client.keymap)")
        out += [f"{where}:{line}: {what}" for line, what in _raw_json_reads(tree)]
    return out


def opened_names(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, name) for every ``app.push("Name", ...)`` / ``app.replace("Name", ...)`` in the client."""
    found: list[tuple[str, int, str]] = []
    for path in sorted((root / "game" / "client").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in OPENERS and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            receiver = node.func.value
            if (isinstance(receiver, ast.Name) and receiver.id == "app") or (
                    isinstance(receiver, ast.Attribute) and receiver.attr == "app"):
                found.append((path.relative_to(root).as_posix(), node.lineno, node.args[0].value))
    return found


def test_no_scene_imports_another_scene_the_app_or_json_or_reads_a_raw_key():
    problems = scene_seam_problems(ROOT)
    assert problems == [], "scenes against their seams:\n" + "\n".join(problems)


@pytest.mark.parametrize(("source", "expected"), [
    ("from .table import TableScene\n", "menu.py:1: imports the scene module game.client.scenes.table"),
    ("def f():\n    from game.client.scenes import lobby\n",
     "menu.py:2: imports the scene module game.client.scenes"),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..app import App\n",
     "menu.py:3: imports the concrete App"),
    ("import json\n", "menu.py:1: imports json"),
    ("\nfrom json import loads\n", "menu.py:2: imports json"),
    ("from game.net.wire import view_from_json\n", "menu.py:1: imports game.net.wire"),
    ("from game.net.protocol import decode\n", "menu.py:1: imports game.net.protocol"),
    ("from game.net.client import read_message\n", "menu.py:1: imports read_message"),
    ("def f(c):\n    return c.poll()\n", "menu.py:2: calls poll() for raw JSON"),
    ("def f(m):\n    return m.source\n", "menu.py:2: reads a message's source JSON"),
    ("def f(m):\n    return m[\"type\"] == \"lobby\"\n", "menu.py:2: reads the field 'type' of raw JSON"),
    ("def f(seat):\n    return seat.get(\"name\")\n", "menu.py:2: reads the field 'name' of raw JSON"),
    ("def f(self):\n    return self.room[\"seats\"]\n", "menu.py:2: reads the field 'seats' of raw JSON"),
    ("def f(row):\n    return row.get(\"rank\", 0)\n", "menu.py:2: reads the field 'rank' of raw JSON"),
    ("def f(c):\n    c.send({\"type\": \"unqueue\"})\n", "menu.py:2: builds a message as a dict"),
    ("import pygame\nESC = pygame.K_ESCAPE\n", "menu.py:2: reads the raw key K_ESCAPE"),
    ("from pygame import KMOD_CTRL\n", "menu.py:1: reads the raw key KMOD_CTRL"),
])
def test_a_scene_against_its_seams_is_reported_with_its_file_and_line(tmp_path, source, expected):
    scenes = tmp_path / "game" / "client" / "scenes"
    scenes.mkdir(parents=True)
    (scenes / "__init__.py").write_text("", encoding="utf-8")
    allowed = ("import pygame\nfrom ..gui import GuiScene\nfrom ..scene import SceneApp\n"
               "def f(self, m):\n    self.entries.get(\"name\")\n"
               "    self.app.settings.last_options[\"name\"]\n"
               "    return m.poll_messages(), m.name, {\"type\": 1}\n")
    (scenes / "table.py").write_text(allowed, encoding="utf-8")
    assert scene_seam_problems(tmp_path) == []
    (scenes / "menu.py").write_text(source, encoding="utf-8")
    problems = scene_seam_problems(tmp_path)
    assert len(problems) == 1 and problems[0].startswith("game/client/scenes/" + expected), problems


def test_the_online_screens_helpers_build_and_read_messages_as_types_too():
    path = ROOT / "game" / "client" / "joining.py"  # what the lobby, the server's lobby and the form share
    found = _raw_json_reads(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    assert found == [], "\n".join(f"joining.py:{line}: {what}" for line, what in found)


def test_the_table_scenes_input_reads_no_raw_key_and_imports_no_scene_either():
    path = ROOT / "game" / "client" / "table_input.py"  # the table scene's input, mixed into it
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = [f"table_input.py:{line}: reads the raw key {name}" for line, name in _raw_keys(tree)]
    found += [f"table_input.py:{line}: imports {target}" for line, target in imports_of(path, ROOT)
              if target == SCENES_PACKAGE or target.startswith(SCENES_PACKAGE + ".")]
    assert found == [], "\n".join(found)


def test_every_registered_name_is_a_scene_of_its_module():
    for name, (module, cls) in registry.SCENES.items():
        found = registry.scene_class(name)
        assert inspect.isclass(found) and issubclass(found, Scene), name
        assert found.__module__ == f"{SCENES_PACKAGE}.{module}" and found.__name__ == cls, name


def test_every_scene_module_registers_its_scenes():
    registered = {(module, cls) for module, cls in registry.SCENES.values()}
    for path in _scene_modules(ROOT):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)
                   and node.name.endswith("Scene")]
        assert classes, f"{path.name} holds no scene: only scenes live in game/client/scenes"
        for cls in classes:
            assert (path.stem, cls) in registered, f"{path.name}: {cls} is not in registry.SCENES"


def test_every_scene_opened_by_name_is_registered():
    opened = opened_names(ROOT)
    assert len({name for _, _, name in opened}) >= 15  # the scan sees the scenes' openings
    unknown = [f"{where}:{line}: opens {name!r}" for where, line, name in opened
               if name not in registry.SCENES]
    assert unknown == [], "names no scene is registered under:\n" + "\n".join(unknown)


def test_an_unknown_scene_name_is_refused_by_name():
    with pytest.raises(registry.UnknownScene, match="'Lobbby'"):
        registry.scene_class("Lobbby")


def _key(key: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)


def test_the_keymap_turns_the_table_keys_into_its_intents():
    expected = {pygame.K_d: Draw(), pygame.K_p: Pass(), pygame.K_e: EndTurn(), pygame.K_c: CallLastCard(),
                pygame.K_l: Challenge(), pygame.K_a: Accept(), pygame.K_h: TableCommand.HINT,
                pygame.K_u: TableCommand.UNDO, pygame.K_o: TableCommand.AUTOPILOT,
                pygame.K_m: TableCommand.MOVES, pygame.K_n: TableCommand.DENOUNCE,
                pygame.K_ESCAPE: TableCommand.PAUSE, pygame.K_LEFT: Nav.LEFT, pygame.K_SPACE: Nav.ACTIVATE}
    assert {key: keymap.table_key(_key(key)) for key in expected} == expected
    assert keymap.table_key(_key(pygame.K_z)) is None


def test_the_keymap_shares_enter_space_and_esc_but_a_text_field_keeps_space():
    enter = [keymap.nav(_key(k)) for k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)]
    assert enter == [Nav.ACTIVATE] * 3
    assert keymap.nav(_key(pygame.K_ESCAPE)) is Nav.BACK and keymap.nav(_key(pygame.K_TAB)) is Nav.NEXT
    assert keymap.typing_end(_key(pygame.K_SPACE)) is None and keymap.typing_end(_key(pygame.K_a)) is None
    assert keymap.typing_end(_key(pygame.K_RETURN)) is Nav.ACTIVATE
    assert keymap.typing_end(_key(pygame.K_TAB)) is Nav.NEXT
    assert keymap.nav(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(0, 0), button=1)) is None


def test_the_keymap_reads_a_paste_and_the_suit_letters():
    assert keymap.is_paste(_key(pygame.K_v, pygame.KMOD_LCTRL))
    assert keymap.is_paste(_key(pygame.K_v, pygame.KMOD_LMETA))
    assert not keymap.is_paste(_key(pygame.K_v, pygame.KMOD_LCTRL | pygame.KMOD_RALT))  # AltGr+V types
    assert not keymap.is_paste(_key(pygame.K_v))
    assert [keymap.suit_key(_key(k)) for k in (pygame.K_s, pygame.K_y, pygame.K_x)] == ["S", "Y", None]
    assert keymap.toggles_fullscreen(_key(pygame.K_F11))
