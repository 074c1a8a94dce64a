"""Hostile files in the data folder: the real game reaches its menu at once, says why, and keeps them.

Each case writes files into a fresh data folder and starts the real client headless in
a subprocess (`tests/hostile_support.py`): it must get to the menu (or the online lobby,
for seat keys) within the CPU budget, show the reason, leave every file as it was, and
change no engine class. Below them, the same rules one piece at a time, in process.
"""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest

from game.client.saving import why
from game.client.settings import Settings
from game.saves import DataStore, SaveError, SeatKey, Statistics, games, seatkeys, stats
from game.saves import safefile as safefile_module
from game.saves.document import MAX_DEPTH, loads_json, pack, pack_json, unpack, unpack_json
from game.saves.safefile import JSON_CAP, read_file, write_atomic
from game.saves.store import SETTINGS_FORMAT
from tests.hostile_pickles import HOSTILE
from tests.hostile_support import (
    LOBBY,
    ROOM,
    SEAT_KEY,
    TARGETS,
    Case,
    fifo,
    fingerprint,
    link_to_dev_zero,
    sparse_64_gib,
    start_game,
    twins,
    write,
)

CPU_BUDGET = 2.0
"""CPU seconds from main() to the menu drawn: CPU time, not wall time, so a busy machine cannot flake it."""
FORMATS = {"game": games.FORMAT, "settings": SETTINGS_FORMAT, "statistics": stats.FORMAT,
           "seat": seatkeys.FORMAT}
NESTED = 100_000
DIGITS = 5_000
SEAT_NESTED = 30_000  # as deep as a seat key's 64 KiB cap allows (100,000 would be refused as too large)

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes and /dev/zero are POSIX things")


def magic(kind: str) -> bytes:
    return f"HUIT {kind} {FORMATS[kind]}\n".encode()


def nested(kind: str) -> int:
    return SEAT_NESTED if kind == "seat" else NESTED


def header_of_brackets(kind: str) -> bytes:
    return magic(kind) + b"[" * nested(kind) + b"\n{}"


def header_with_a_long_size(kind: str) -> bytes:
    return magic(kind) + b'{"size": ' + b"9" * DIGITS + b', "sha256": "' + b"0" * 64 + b'"}\n{}'


def body_of_brackets(kind: str) -> bytes:
    return pack(kind, FORMATS[kind], b"[" * nested(kind) + b"]" * nested(kind))


def body_with_a_long_number(kind: str) -> bytes:
    return pack(kind, FORMATS[kind], b'{"volume": ' + b"1" * DIGITS + b"}")


def document(kind: str, value: object) -> bytes:
    return pack_json(kind, FORMATS[kind], value)


WRONG_SETTINGS = {
    "language": ["en"], "speed": ["fast"], "volume": "loud", "muted": "yes", "four_color": 1,
    "left_handed": None, "undo_allowed": [], "default_levels": "human", "last_preset": {"classic": 1},
    "last_players": [], "last_options": {"classic": ["jacks_skip"]}, "player_name": 5,
    "hotseat_levels": ["human", 3], "people_names": ["Ana", "Ben\x07"], "people_avatars": [4, "fox"],
    "servers": "host:8765", "default_server": ["host:8765"], "hand_sort": "shuffled",
    "reactions_muted": "yes", "muted_players": "everyone", "quick_preset": ["duel"],
}
WRONG_STATISTICS = {
    "records": {"classic": {"hard": {"games": "5", "wins": 1, "ties": 0, "best": None, "streak": 0,
                                     "best_streak": 0}},
                "duel": ["x"]},
    "xp": "many", "xp_history": {"a": 1},
}
SETTINGS_NAMES = ("language, speed, volume, muted, four_color, left_handed, undo_allowed, last_preset, "
                  "quick_preset, last_players, last_options, player_name, people_names, people_avatars, "
                  "servers, default_server, reactions_muted, muted_players, hand_sort, default_levels, "
                  "hotseat_levels")


def file_cases() -> list[Case]:
    """Every hostile file of issue 22, in every data file name it applies to."""
    cases = []
    if hasattr(os, "mkfifo"):
        cases += twins("a pipe", lambda kind: fifo, "it is a pipe, not a file")
        cases += twins("a link to /dev/zero", lambda kind: link_to_dev_zero, "it is a device, not a file")
    cases += twins("a 64 GiB sparse file", lambda kind: sparse_64_gib,
                   "the file is far larger than Huit ever writes")
    cases += twins("a header of 100k [", header_of_brackets, "the file is incomplete or damaged")
    cases += twins("a 5,000-digit size", header_with_a_long_size, "the file is incomplete or damaged")
    json_kinds = ("settings", "statistics", "seat")
    cases += twins("a body nested 100k deep", body_of_brackets,
                   "its contents are nested far deeper than Huit ever writes", json_kinds)
    cases += twins("a 5,000-digit number", body_with_a_long_number,
                   "it holds a number far longer than Huit ever writes", json_kinds)
    cases += twins("not an object", lambda kind: document(kind, ["fast"]),
                   "its contents are not laid out as Huit writes them", json_kinds)
    for name in ("settings.json", "settings.json.bak"):
        cases.append(Case(f"speed a list in {name}", {name: document("settings", {"speed": ["fast"]})},
                          "Some settings could not be read (speed); their defaults are in use."))
        cases.append(Case(f"every setting of the wrong type in {name}",
                          {name: document("settings", WRONG_SETTINGS)},
                          f"Some settings could not be read ({SETTINGS_NAMES}); their defaults are in use."))
    for name in ("statistics.json", "statistics.json.bak"):
        cases.append(Case(f"statistics of the wrong types in {name}",
                          {name: document("statistics", WRONG_STATISTICS)},
                          "Some statistics could not be read and are left out "
                          "(classic/hard, duel, xp, xp_history)."))
    wrong_key = {"link": ["x"], "room": ROOM, "seat": "1", "key": 5}
    cases.append(Case("a seat key of the wrong types", {f"online/{ROOM}.json": document("seat", wrong_key)},
                      SEAT_KEY.format(why="some of its values are of the wrong kind: link, seat, key"),
                      LOBBY))
    return cases


CASES = file_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hostile_file_lets_the_game_reach_its_menu_at_once_saying_why_and_keeping_it(case, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    try:
        write(folder, case.files)
    except OSError as exc:  # a file system without sparse files, say
        pytest.skip(f"cannot make this file here: {exc}")
    before = {name: fingerprint(folder / name) for name in case.files}
    shown = start_game(folder, case.screen)
    assert shown.scene == ("LobbyScene" if case.screen == LOBBY else "MenuScene")
    assert case.shows in shown.lines, "\n".join(shown.lines)
    assert shown.cpu < CPU_BUDGET
    assert shown.changed == []
    assert {name: fingerprint(folder / name) for name in case.files} == before


PICKLES = ("f1 Card._interned = {}", "f1 Rules.check_players = None on a real save", "f1 hash bomb",
           "f2 hash bomb", "f1 pending = -5", "f1 the pile a dict", "f1 rules a dict",
           "f1 a hand of 1M cards", "f2 a GLOBAL opcode")
"""The hostile pickles the issue names (tests/hostile_pickles.py), started on for real; every one of
`HOSTILE` is read in process by tests/test_saves_hostile.py."""
GAME_TARGETS = [t for t in TARGETS if t.kind == "game"]


@pytest.fixture(scope="module")
def pickles() -> dict[str, bytes]:
    return {what: HOSTILE[what]() for what in PICKLES}


@pytest.mark.parametrize("target", GAME_TARGETS, ids=[t.name for t in GAME_TARGETS])
@pytest.mark.parametrize("what", PICKLES)
def test_a_hostile_save_lets_the_game_reach_its_menu_at_once_saying_why_and_keeping_it(
        what, target, pickles, tmp_path):
    data = pickles[what]
    with pytest.raises(SaveError) as refused:
        games.decode_game(data)
    folder = tmp_path / "data"
    folder.mkdir()
    files = {**target.beside, target.name: data}
    write(folder, files)
    before = {name: fingerprint(folder / name) for name in files}
    shown = start_game(folder)
    assert shown.scene == "MenuScene"
    assert target.line.format(why=why(refused.value)) in shown.lines, "\n".join(shown.lines)
    assert shown.cpu < CPU_BUDGET
    assert shown.changed == []  # no engine class was changed in the game's process
    assert {name: fingerprint(folder / name) for name in files} == before


def test_an_empty_data_folder_shows_a_menu_without_complaints(tmp_path):
    shown = start_game(tmp_path)
    assert shown.scene == "MenuScene" and shown.changed == []
    assert not any("could not" in line for line in shown.lines)
    assert "Solo against the computer" in shown.lines


@posix_only
def test_the_reason_is_given_in_french_too(tmp_path):
    write(tmp_path, {"settings.json": fifo, "online/ROOM.json": fifo})
    shown = start_game(tmp_path, lang="fr")
    assert ("Les réglages n'ont pas pu être lus (c'est un tube, pas un fichier) ; les réglages par défaut "
            "sont utilisés.") in shown.lines
    in_lobby = start_game(tmp_path, LOBBY, lang="fr")
    assert ("Salle ROOM : la clé de cet appareil ne peut pas être lue (c'est un tube, pas un fichier)."
            in in_lobby.lines)


# ---- the safe reader ------------------------------------------------------------------------------
@posix_only
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    path = tmp_path / "settings.json"
    os.mkfifo(path)
    done: dict[str, str] = {}

    def read() -> None:
        try:
            read_file(path, JSON_CAP)
        except SaveError as exc:
            done["key"] = exc.key

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert done == {"key": "is_pipe"}


@posix_only
def test_a_link_to_a_device_is_refused_and_a_link_to_a_file_is_read(tmp_path):
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(SaveError) as caught:
        read_file(tmp_path / "zero", JSON_CAP)
    assert caught.value.key == "is_device"
    (tmp_path / "real.json").write_bytes(b"kept elsewhere")
    (tmp_path / "settings.json").symlink_to(tmp_path / "real.json")
    assert read_file(tmp_path / "settings.json", JSON_CAP) == b"kept elsewhere"


def test_a_folder_is_refused_and_a_missing_file_is_not_an_error_but_absent(tmp_path):
    (tmp_path / "solo.huit").mkdir()
    with pytest.raises(SaveError) as caught:
        read_file(tmp_path / "solo.huit", JSON_CAP)
    assert caught.value.key == "is_folder"
    with pytest.raises(FileNotFoundError):
        read_file(tmp_path / "nothing", JSON_CAP)


def test_a_file_over_its_cap_is_refused_from_its_size_without_being_read(tmp_path, monkeypatch):
    path = tmp_path / "statistics.json"
    sparse_64_gib(path)
    monkeypatch.setattr(safefile_module.os, "read", lambda fd, n: pytest.fail("read a refused file"))
    with pytest.raises(SaveError) as caught:
        read_file(path, JSON_CAP)
    assert caught.value.key == "too_large" and "far larger" in str(caught.value)


def test_a_file_growing_while_it_is_read_stops_at_its_cap_plus_one_byte(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    path.write_bytes(b"x" * 1000)
    real_fstat, asked = os.fstat, []

    def small_when_opened(fd):  # the file was small when opened, then grew
        st = real_fstat(fd)
        return os.stat_result((*st[:6], 10, *st[7:]))

    def read(fd, n):
        asked.append(n)
        return b"x" * n

    monkeypatch.setattr(safefile_module.os, "fstat", small_when_opened)
    monkeypatch.setattr(safefile_module.os, "read", read)
    with pytest.raises(SaveError) as caught:
        read_file(path, 100)
    assert caught.value.key == "too_large" and sum(asked) == 101


def test_a_file_at_its_cap_is_read_whole(tmp_path):
    path = tmp_path / "seat.json"
    path.write_bytes(b"k" * 100)
    assert read_file(path, 100) == b"k" * 100


@posix_only
def test_a_pipe_left_where_a_write_goes_never_blocks_the_writer(tmp_path):
    path = tmp_path / "settings.json"
    os.mkfifo(tmp_path / "settings.json.tmp")
    writer = threading.Thread(target=write_atomic, args=(path, b"new"), daemon=True)
    writer.start()
    writer.join(10)
    assert not writer.is_alive() and path.read_bytes() == b"new"


# ---- bounded JSON ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text,key", [
    (b"[" * NESTED, "too_deep"),
    (b'{"a":' * NESTED, "too_deep"),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "too_deep"),
    (b"1" * DIGITS, "bad_number"),
    (b"[-" + b"1" * 21 + b"]", "bad_number"),
    (b"[0." + b"1" * 40 + b"]", "bad_number"),
    (b"[1e999]", "bad_number"),
    (b"[NaN]", "bad_number"),
    (b"[-Infinity]", "bad_number"),
    (b"{not json", "damaged"),
    (b"\xff\xfe\x00", "damaged"),
])
def test_json_is_read_with_bounded_nesting_and_numbers(text, key):
    with pytest.raises(SaveError) as caught:
        loads_json(text)
    assert caught.value.key == key


def test_json_within_the_bounds_reads_as_usual():
    nested = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert loads_json(nested) is not None
    assert loads_json(b'{"volume": 0.30000000000000004, "xp": -123456789012345678}') == {
        "volume": 0.30000000000000004, "xp": -123456789012345678}


@pytest.mark.parametrize("make", [header_of_brackets, header_with_a_long_size], ids=["brackets", "digits"])
def test_a_hostile_header_line_is_damage_not_a_crash(make):
    with pytest.raises(SaveError) as caught:
        unpack(make("settings"), "settings", 1)
    assert caught.value.key == "damaged"


def test_a_version_of_five_thousand_digits_is_an_unknown_format_said_in_a_few_words():
    with pytest.raises(SaveError) as caught:
        unpack(b"HUIT settings " + b"9" * DIGITS + b"\n{}\n", "settings", 1)
    assert caught.value.key == "unknown_version" and len(str(caught.value)) < 80


def test_a_body_of_a_hostile_json_is_refused_with_its_reason():
    with pytest.raises(SaveError) as caught:
        unpack_json(body_of_brackets("statistics"), "statistics", 1, {})
    assert caught.value.key == "too_deep"


# ---- every field checked by type first ---------------------------------------------------------------
WRONG_VALUES = (["fast"], {"a": 1}, "fast-ish", 7, 0.5, None, True)


@pytest.mark.parametrize("name", sorted(WRONG_SETTINGS))
def test_each_setting_of_the_wrong_type_falls_back_to_its_default_and_is_named(name):
    default = Settings().to_json()[name]
    other = "muted" if name != "muted" else "four_color"  # a good field beside it is still read
    for wrong in WRONG_VALUES:
        if (name == "volume" and type(wrong) in (int, float) and 0 <= wrong <= 1
                or name in ("muted", "four_color", "left_handed", "undo_allowed", "reactions_muted")
                and wrong is True
                or name == "player_name" and isinstance(wrong, str)
                or name in ("people_names", "muted_players") and wrong == ["fast"]):
            continue  # a real value for that field
        settings, ignored = Settings.parse({name: wrong, other: True})
        assert settings.to_json()[name] == default, wrong
        assert ignored == [name] and getattr(settings, other) is True


def test_every_settings_field_has_a_type_check():
    assert set(WRONG_SETTINGS) == set(Settings().to_json())
    assert Settings.parse(WRONG_SETTINGS)[1] == SETTINGS_NAMES.split(", ")


def test_settings_read_in_part_are_kept_aside_before_they_are_replaced(tmp_path):
    data = DataStore(tmp_path, background=False)
    stored = document("settings", {"speed": ["fast"], "volume": 0.25})
    (tmp_path / "settings.json").write_bytes(stored)
    settings, ignored = Settings.parse(data.settings.read())
    data.settings.partly_read(ignored)
    assert settings.volume == 0.25 and ignored == ["speed"]
    data.settings.write(settings.to_json())
    assert (tmp_path / "settings.json.corrupt").read_bytes() == stored
    assert Settings.parse(DataStore(tmp_path).settings.read()) == (settings, [])


@posix_only
def test_a_pipe_where_the_settings_go_is_moved_aside_not_opened_when_they_are_written(tmp_path):
    os.mkfifo(tmp_path / "settings.json")
    data = DataStore(tmp_path, background=False)
    assert data.settings.read() is None and data.settings.problem.key == "is_pipe"
    data.settings.write(Settings(speed="fast").to_json())
    assert stat.S_ISFIFO(os.lstat(tmp_path / "settings.json.corrupt").st_mode)
    assert Settings.from_json(data.settings.read()).speed == "fast"


def test_statistics_of_the_wrong_types_are_left_out_and_named():
    statistics, dropped = Statistics.parse(WRONG_STATISTICS)
    assert statistics == Statistics() and dropped == ["classic/hard", "duel", "xp", "xp_history"]
    assert Statistics.parse({"records": [1]})[1] == ["records"]
    assert Statistics.parse({"records": {"x" * 1000: {}}})[1] == ["x" * 40 + "…"]
    good = Statistics()
    good.record("duel", "hard", "win", 12, 20)
    assert Statistics.parse(json.loads(json.dumps(good.to_json()))) == (good, [])


def test_statistics_read_in_part_are_said_and_kept_aside_before_they_are_replaced(tmp_path):
    stored = document("statistics", WRONG_STATISTICS)
    (tmp_path / "statistics.json").write_bytes(stored)
    data = DataStore(tmp_path, background=False)
    assert data.read_statistics() == Statistics()
    assert data.statistics.ignored == ["classic/hard", "duel", "xp", "xp_history"]
    data.write_statistics(Statistics(xp=10))
    assert (tmp_path / "statistics.json.corrupt").read_bytes() == stored
    assert data.read_statistics().xp == 10 and data.statistics.ignored == []


@pytest.mark.parametrize("field,wrong", [
    ("link", ["huit://x:1/ROOM"]), ("link", "h" * 401), ("room", ["ROOM"]), ("room", "OTHER"),
    ("seat", "1"), ("seat", True), ("seat", 64), ("seat", 1.0), ("key", 5), ("key", ""), ("key", "k" * 257),
])
def test_a_seat_key_of_the_wrong_type_is_refused_with_the_field_named(tmp_path, field, wrong):
    data = DataStore(tmp_path, background=False)
    good = {"link": "huit://host:8765/ROOM", "room": "ROOM", "seat": 1, "key": "secret"}
    (tmp_path / "online").mkdir()
    (tmp_path / "online" / "ROOM.json").write_bytes(document("seat", {**good, field: wrong}))
    with pytest.raises(SaveError) as caught:
        data.keys.read("ROOM")
    assert caught.value.key == "bad_fields" and caught.value.values == {"names": field}
    assert data.keys.get("ROOM") is None


@posix_only
def test_my_rooms_lists_the_readable_keys_and_says_which_cannot_be_read(tmp_path):
    data = DataStore(tmp_path, background=False)
    data.keys.remember(SeatKey("huit://host:8765/good", "good", 2, "secret"))
    os.mkfifo(tmp_path / "online" / "bad.json")
    keys, problems = data.keys.survey()
    assert [k.room for k in keys] == ["good"] and data.keys.rooms() == keys
    assert [(room, p.key) for room, p in problems] == [("bad", "is_pipe")]


@posix_only
def test_clear_data_also_removes_what_the_game_refused_to_read_but_never_a_folder(tmp_path):
    data = DataStore(tmp_path, background=False)
    os.mkfifo(tmp_path / "settings.json")
    (tmp_path / "solo.huit").symlink_to("/dev/zero")
    (tmp_path / "statistics.json").mkdir()
    (tmp_path / "online").mkdir()
    os.mkfifo(tmp_path / "online" / "ROOM.json")
    deleted = {p.name for p in data.clear()}
    assert deleted == {"settings.json", "solo.huit", "ROOM.json"}
    assert (tmp_path / "statistics.json").is_dir() and os.path.exists("/dev/zero")
