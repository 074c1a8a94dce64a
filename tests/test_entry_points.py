"""Every entry point refuses bad input in one line: ``python main.py``, ``python main.py serve``,
``python -m game.replay`` and a ``huit://`` link, typed on the command line or pasted in the lobby.

Each refusal runs the real command in a subprocess and checks exit code 2, exactly one
non-empty line on standard error (argparse's ``PROG: error: WHAT``, without its usage
block: `game.cli.CommandParser`), no traceback, and that the child used under a second
of CPU (``RUSAGE_CHILDREN``; never the wall clock, which a loaded machine stretches).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from game.cli import shown
from game.net.client import MAX_LINK, parse_link
from game.saves.paths import DataFolderError, data_dir, make_data_dir
from tests.client_support import click, top_name

ROOT = Path(__file__).resolve().parent.parent
CPU_LIMIT = 1.0  # seconds of the child's CPU a refusal may use (each takes about 0.3 s here)
LONG_LINK = "huit://" + "a" * 100_000 + ":8765/room"
NO_USER = "~huit-no-such-user-4b1d"


@dataclass
class Done:
    code: int
    stdout: str
    stderr: str
    cpu: float


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Done:
    """Run ``python ARGS`` from the repository root, headless, with a generous timeout."""
    before = _children_cpu()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, encoding="utf-8",
                          errors="replace", input=stdin, timeout=20,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                               "PYTHONIOENCODING": "utf-8", **(env or {})})
    return Done(done.returncode, done.stdout, done.stderr, _children_cpu() - before)


def refusal(done: Done) -> str:
    """The one line a refused command printed (after checking the exit code, the line, the time)."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.code == 2, f"exit {done.code}: {done.stderr}"
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].strip(), done.stderr
    assert done.cpu < CPU_LIMIT, f"{done.cpu:.2f} s of CPU to refuse: {lines[0]}"
    return lines[0]


# ---- python -m game.replay ----------------------------------------------------------------------
def replay(tmp_path: Path, text: str) -> Done:
    path = tmp_path / "scenario.json"
    path.write_text(text, encoding="utf-8")
    return command("-m", "game.replay", str(path))


OPTIONS_OBJECT = '"options" must be an object of option names to values, not'
DUEL = '{"preset": "duel", '


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 100_000 + "]" * 100_000, "is not a scenario: its JSON is nested too deeply"),
    (DUEL + '"seed": ' + "9" * 5000 + "}", '"seed" must be a whole number, not a number of 5,000'),
    ("[" + "9" * 5000 + "]", "the scenario must be a JSON object"),
    (DUEL + '"options": null}', OPTIONS_OBJECT + " null"),
    (DUEL + '"options": false}', OPTIONS_OBJECT + " false"),
    (DUEL + '"options": 0}', OPTIONS_OBJECT + " 0"),
    (DUEL + '"seats": ' + "9" * 5000 + "}", '"seats" must be a whole number, not a number of 5,000'),
    ('{"preset": "duel", "seats": -2}', '"seats": the duel rules seat 2 to 2 players, not -2'),
    ('{"preset": "duel", "seats": true}', '"seats" must be a whole number, not true'),
    ('{"preset": "duel", "seed": -1}', '"seed" must be a whole number from 0 to 18446744073709551615'),
    ('{"preset": "duel", "seed": 1e400}', '"seed" must be a whole number, not Infinity'),
    ('{"preset": "duel", "first": null}', '"first" must be a seat number, not null'),
    (DUEL + '"deck": [1, 2, 3]}', '"deck" must be a list of card codes such as "7H", not [1, 2, 3]'),
    ('{"preset": "duel", "deck": null}', '"deck" must be a list of card codes'),
    ('{"preset": "duel", "actions": [1, 2]}', '"actions" must be a list of action strings'),
    (json.dumps({"preset": "duel", "deck": ["x" * 100_000]}), "deck: not a card: 'xxxx"),
    (json.dumps({"preset": "duel", "actions": ["play " + "x" * 100_000]}), "an action has at most 64"),
    (json.dumps({"preset": "x" * 100_000}), "unknown preset 'xxxx"),
    (json.dumps({"preset": "duel", "options": {"hand_size": "7" * 100_000}}), "option hand_size must be"),
])
def test_a_hostile_scenario_is_refused_in_one_short_line(tmp_path, text, message):
    line = refusal(replay(tmp_path, text))
    assert message in line
    assert len(line) < 300


def test_a_scenario_over_a_mebibyte_is_refused_unread(tmp_path):
    text = json.dumps({"preset": "duel", "actions": ["draw"] * 200_000})
    assert "is larger than 1 MiB" in refusal(replay(tmp_path, text))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_an_endless_file_is_refused_after_a_mebibyte():
    line = refusal(command("-m", "game.replay", "/dev/zero"))
    assert line == "/dev/zero is larger than 1 MiB: not a scenario"


def test_a_folder_given_as_the_scenario_is_refused(tmp_path):
    assert f"cannot read {tmp_path}" in refusal(command("-m", "game.replay", str(tmp_path)))


def test_a_replay_without_its_file_argument_is_one_line():
    assert refusal(command("-m", "game.replay")).startswith("python -m game.replay: error: ")


def test_a_good_scenario_still_replays(tmp_path):
    done = replay(tmp_path, json.dumps({"preset": "duel", "seats": 2, "seed": 3, "first": 0, "options": {},
                                           "actions": []}))
    assert done.code == 0, done.stderr
    assert json.loads(done.stdout)["to_act"] == 0


# ---- python main.py -----------------------------------------------------------------------------
SIZES = "argument --size: the window must be from 1024x600 to 3840x2160"


@pytest.mark.parametrize(("args", "message"), [
    (["--size", "99999999999999999999x800"], SIZES),
    (["--size", "65536x65536"], SIZES),
    (["--size", "800x600"], "the window must be from 1024x600 to 3840x2160, not '800x600'"),
    (["--size", "1280"], "argument --size: size must look like 1280x800"),
    (["--cores", "0"], "argument --cores: expected a whole number from 1 to 1024, not '0'"),
    (["--cores", "9" * 5000], "argument --cores: expected a whole number from 1 to 1024"),
    (["huit://127.0.0.1:99999/room"], "argument link: the port must be a number from 1 to 65535"),
    (["http://127.0.0.1:8765/room"], "argument link: a room link starts with huit://"),
    ([LONG_LINK], f"argument link: a room link has at most {MAX_LINK} characters; this text has 100,017"),
])
def test_a_bad_flag_or_link_of_the_game_is_refused_in_one_line(args, message):
    line = refusal(command("main.py", *args))
    assert line.startswith("python main.py: error: ") and message in line
    assert len(line) < 300


def test_a_data_folder_of_a_user_that_does_not_exist_is_refused(tmp_path):
    flag = refusal(command("main.py", "--data-dir", f"{NO_USER}/huit"))
    assert flag == (f"python main.py: error: --data-dir '{NO_USER}/huit': there is no user "
                    f"'{NO_USER[1:]}' on this computer")
    env = refusal(command("main.py", env={"HUIT_DATA_DIR": f"{NO_USER}/huit"}))
    assert env.startswith(f"python main.py: error: HUIT_DATA_DIR '{NO_USER}/huit': there is no user")


def test_a_data_folder_that_is_a_file_or_lies_under_one_is_refused(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert refusal(command("main.py", "--data-dir", str(blocker))) == \
        f"python main.py: error: the data folder '{blocker}' is a file, not a folder"
    under = refusal(command("main.py", env={"HUIT_DATA_DIR": str(blocker / "huit")}))
    assert under.endswith("cannot be made: part of its path is a file")
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc")
def test_a_data_folder_that_cannot_be_made_is_refused():
    line = refusal(command("main.py", "--data-dir", "/proc/huit"))
    assert line.startswith("python main.py: error: the data folder '/proc/huit' cannot be made: ")


def test_good_flags_of_the_game_still_pass():
    done = command("main.py", "--size", "1600x900", "--cores", "2", "huit://127.0.0.1:8765/room", "--help")
    assert done.code == 0, done.stderr
    assert "--size" in done.stdout and "1024x600 to 3840x2160" in " ".join(done.stdout.split())


def test_the_game_starts_with_good_flags_and_makes_its_data_folder(tmp_path, monkeypatch):
    from game.client import app as app_module
    from game.client import launch

    started = []
    monkeypatch.setattr(app_module.App, "run", lambda self: started.append(self.screen.get_size()))
    folder = tmp_path / "new" / "huit"
    try:
        assert launch.main(["--size", "1600×900", "--data-dir", str(folder)]) == 0
    finally:
        pygame.display.quit()
    assert started == [(1600, 900)]
    assert folder.is_dir()


def test_sizes_are_read_in_the_supported_range():
    from game.client.window import MAX_SIZE, MIN_SIZE, parse_size

    assert parse_size("1600x900") == (1600, 900)
    assert parse_size(" 1024 X 600 ") == MIN_SIZE
    assert parse_size("3840×2160") == MAX_SIZE
    for bad in ("1023x600", "3841x2160", "1_600x900", "١٦٠٠x900", "1600x900x2", "-1600x900"):
        with pytest.raises(Exception, match="size must look like|the window must be from"):
            parse_size(bad)


# ---- python main.py serve -----------------------------------------------------------------------
@pytest.mark.parametrize(("args", "message"), [
    (["--port", "99999"], "argument --port: expected a whole number from 0 to 65535, not '99999'"),
    (["--port", "-1"], "argument --port: expected a whole number from 0 to 65535, not '-1'"),
    (["--rate", "nan"], "argument --rate: expected a number from 1 to 100000, not 'nan'"),
    (["--rate", "0"], "argument --rate: expected a number from 1 to 100000, not '0'"),
    (["--rate", "-5"], "argument --rate: expected a number from 1 to 100000, not '-5'"),
    (["--rate", "inf"], "argument --rate: expected a number from 1 to 100000, not 'inf'"),
    (["--rooms-per-hour", "-1"], "argument --rooms-per-hour: expected a whole number from 1 to 10000"),
    (["--rooms-per-hour", "0"], "argument --rooms-per-hour: expected a whole number from 1 to 10000"),
    (["--think-scale", "-1"], "argument --think-scale: expected a number from 0 to 100, not '-1'"),
    (["--think-scale", "nan"], "argument --think-scale: expected a number from 0 to 100, not 'nan'"),
    (["--think-scale", "inf"], "argument --think-scale: expected a number from 0 to 100, not 'inf'"),
    (["--rate", "9" * 100_000], "argument --rate: expected a number from 1 to 100000, not '9999"),
    (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
])
def test_a_bad_flag_of_the_server_is_refused_in_one_line(args, message):
    line = refusal(command("main.py", "serve", *args))
    assert line.startswith("python main.py serve: error: ") and message in line
    assert len(line) < 300


def test_a_database_that_is_a_folder_or_not_sqlite_is_refused(tmp_path):
    folder = refusal(command("main.py", "serve", "--db", str(tmp_path)))
    assert folder == (f"python main.py serve: error: argument --db: {str(tmp_path)!r} is a folder; "
                      "--db names the rooms' SQLite file, e.g. rooms.sqlite3 in it")
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    assert refusal(command("main.py", "serve", "--db", str(text))).endswith("is not an SQLite database")
    assert text.read_text() == "not a database"


def test_the_server_refuses_a_data_folder_of_a_user_that_does_not_exist():
    line = refusal(command("main.py", "serve", "--port", "0", env={"HUIT_DATA_DIR": f"{NO_USER}/huit"}))
    assert line.startswith(f"python main.py serve: error: HUIT_DATA_DIR '{NO_USER}/huit': there is no user")


def test_good_flags_of_the_server_still_pass_and_it_serves(tmp_path):
    done = command("main.py", "serve", "--port", "0", "--rate", "20", "--think-scale", "0",
                   "--rooms-per-hour", "10000", "--help")
    assert done.code == 0, done.stderr
    db = tmp_path / "rooms.sqlite3"
    server = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--db", str(db), "--rate", "2.5", "--think-scale", "0.5"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
    finally:
        server.terminate()
        server.wait(20)
    assert line.startswith("Huit server on 127.0.0.1:") and str(db) in line


def test_the_replay_and_the_server_refuse_without_loading_pygame(tmp_path):
    scenario = tmp_path / "bad.json"
    scenario.write_text('{"preset": "duel", "options": null}')
    code = ("import sys, main\n"
            "from game import replay\n"
            f"assert replay.main([{str(scenario)!r}]) == 2\n"
            "try:\n    main.main(['serve', '--rate', 'nan'])\n"
            "except SystemExit as exit:\n    code = exit.code\n"
            "assert code == 2, code\n"
            "assert 'pygame' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 2


# ---- links --------------------------------------------------------------------------------------
def test_a_link_too_long_is_refused_by_its_length_before_it_is_read():
    for text in (LONG_LINK, "x" * (MAX_LINK + 1), "huit://h:1/" + "r" * MAX_LINK):
        started = time.process_time()
        with pytest.raises(ValueError, match=f"a room link has at most {MAX_LINK} characters"):
            parse_link(text)
        assert time.process_time() - started < CPU_LIMIT


def test_a_link_refusal_quotes_only_a_few_dozen_characters_of_it():
    for text in ("huit://" + "a" * 400 + ":8765/room", "huit://[" + "1" * 400 + "]:1/r",
                 "huit://h:" + "1" * 400 + "/r", "huit://h:1/" + "r" * 400, "x" * 400):
        with pytest.raises(ValueError) as refused:
            parse_link(text)
        assert len(str(refused.value)) < 150, str(refused.value)


def test_the_longest_real_link_is_read():
    host = ".".join(["a" * 63] * 3) + "." + "b" * 61  # a 253-character host name
    link = f"huit://{host}:65535/{'r' * 64}"
    assert len(link) <= MAX_LINK
    assert parse_link(link) == (host, 65535, "r" * 64)


def test_a_long_link_opened_in_the_game_shows_the_reason_in_the_lobby_at_once(app):
    from game.client.app import open_link

    app.go_to_menu()
    app.stack.apply_requests()
    started = time.process_time()
    open_link(app, LONG_LINK)
    app.frame(1 / 60)
    assert time.process_time() - started < CPU_LIMIT
    assert top_name(app) == "LobbyScene"
    assert f"a room link has at most {MAX_LINK} characters" in app.stack.top.message


def open_lobby_with_clipboard(app, monkeypatch, text: str):
    """The lobby, reached from the menu's "Play with a friend", with ``text`` on the clipboard."""
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: text)
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    tap_button(app, "Play with a friend")
    assert top_name(app) == "LobbyScene"
    return app.stack.top


def tap_button(app, label: str) -> None:
    """Tap the top scene's control labelled ``label``."""
    found = [c for c in app.stack.top.controls if getattr(c.element, "text", "") == label]
    assert found, f"no {label!r} on {top_name(app)}"
    click(app, found[0].element.rect.center)


def test_a_pasted_long_link_is_refused_with_the_reason_and_no_freeze(app, monkeypatch):
    scene = open_lobby_with_clipboard(app, monkeypatch, LONG_LINK)
    started = time.process_time()
    tap_button(app, "Paste")
    assert time.process_time() - started < CPU_LIMIT
    assert app.stack.top is scene
    assert scene.message == (f"That link does not work: a room link has at most {MAX_LINK} "
                             "characters; this text has 100,017")
    assert scene.entries["link"].get_text() == ""


def test_ctrl_v_in_the_link_field_pastes_through_the_same_check(app, monkeypatch):
    scene = open_lobby_with_clipboard(app, monkeypatch, LONG_LINK)
    click(app, scene.entries["link"].rect.center)
    assert scene.entries["link"].is_focused
    started = time.process_time()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_LCTRL,
                                         unicode="", scancode=0, window=None))
    app.frame(1 / 60)
    app.frame(1 / 60)
    assert time.process_time() - started < CPU_LIMIT
    assert app.stack.top is scene
    assert f"a room link has at most {MAX_LINK} characters" in scene.message
    assert scene.entries["link"].get_text() == ""


def test_a_pasted_good_link_fills_the_field_whole(app, monkeypatch):
    link = "huit://" + "h" * 200 + ":8765/room"  # longer than the field's old 200-character limit
    scene = open_lobby_with_clipboard(app, monkeypatch, f"  {link}\n")
    tap_button(app, "Paste")
    assert scene.entries["link"].get_text() == link and scene.message == ""
    click(app, scene.entries["link"].rect.center)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_LCTRL,
                                         unicode="", scancode=0, window=None))
    app.frame(1 / 60)
    assert scene.entries["link"].get_text() == link and scene.message == ""


# ---- the shared pieces ----------------------------------------------------------------------------
def test_shown_cuts_a_long_value_and_counts_it():
    assert shown("abc") == "'abc'"
    assert shown("x" * 100_000) == f"{'x' * 40!r}... (100,000 characters)"
    assert shown(list(range(100_000))).endswith("...") and len(shown(list(range(100_000)))) < 50


def test_the_data_folder_names_the_flag_or_the_variable_it_came_from(tmp_path, monkeypatch):
    with pytest.raises(DataFolderError, match=f"^--data-dir '{NO_USER}/x': there is no user"):
        data_dir(f"{NO_USER}/x")
    monkeypatch.setenv("HUIT_DATA_DIR", f"{NO_USER}/y")
    with pytest.raises(DataFolderError, match=f"^HUIT_DATA_DIR '{NO_USER}/y': there is no user"):
        data_dir()
    make_data_dir(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    make_data_dir(tmp_path / "a" / "b")  # already there: nothing to do


# ---- one rule for every window-size flag ------------------------------------------------------------
SIZE_COMMANDS = [("main.py",), ("-m", "tools.shots", "OUT"), ("-m", "tools.client_bench")]


@pytest.mark.parametrize("prog", SIZE_COMMANDS)
@pytest.mark.parametrize(("size", "message"), [
    ("800X600", "argument --size: the window must be from 1024x600 to 3840x2160, not '800X600'"),
    ("800×600", "argument --size: the window must be from 1024x600 to 3840x2160, not '800×600'"),
    ("1280*800", "argument --size: size must look like 1280x800 (x, X or × between the numbers), not "
                 "'1280*800'"),
    ("1280 800", "argument --size: size must look like 1280x800"),
    ("1280x800px", "argument --size: size must look like 1280x800"),
])
def test_every_size_flag_refuses_a_bad_size_in_one_line_by_the_same_rule(prog, size, message):
    line = refusal(command(*prog, "--size", size))
    assert line.split(": error: ", 1)[1].startswith(message)


@pytest.mark.parametrize("prog", SIZE_COMMANDS)
def test_every_size_flag_takes_x_capital_x_and_the_multiplication_sign_alike_and_says_so(prog):
    for size in ("1280x800", "1280X800", "1280×800", " 1280 × 800 "):
        # --lang zz is refused after --size was read: the one line names --lang, not the size
        done = command(*prog, "--size", size, "--lang", "zz")
        assert "--size" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    text = " ".join(command(*prog, "--help").stdout.split())
    assert "WIDTHxHEIGHT in pixels, e.g. 1600x900: whole numbers in ASCII digits, the sign x, X or ×" in text
    assert "from 1024x600 to 3840x2160" in text


def test_the_window_size_rule_reads_each_sign_to_the_same_size():
    from game.client.window import parse_size

    assert parse_size("1280x800") == parse_size("1280X800") == parse_size("1280×800") == (1280, 800)
