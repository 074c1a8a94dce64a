"""Saves, settings, statistics and seat keys on disk: safe writes, safe reads, exact resumes."""

from __future__ import annotations

import os
import pickle
import random

import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.settings import Settings
from game.engine import PRESETS, Match
from game.saves import (
    DataStore,
    SavedSeat,
    SaveError,
    SaveWriter,
    SeatKey,
    Statistics,
    UnsafePickle,
    data_dir,
    decode_game,
    encode_game,
    games,
    plain_dumps,
    plain_loads,
)
from game.saves.document import pack
from game.saves.games import table_to_plain
from game.saves.safefile import write_atomic
from game.saves.unpickler import StubUnpickler, stub_loads

SEATS = {
    "duel": ["human", "medium"], "classic": ["human", "easy", "medium"],
    "points": ["human", "medium", "easy", "medium"], "colors": ["human", "easy", "medium", "easy"],
    "action": ["human", "medium", "easy"],
}


def seat_configs(kinds):
    return [SeatConfig("human") if k == "human" else SeatConfig("computer", k) for k in kinds]


def new_table(preset: str, seed: int = 1, kinds=None) -> MatchController:
    kinds = kinds or SEATS[preset]
    match = Match(PRESETS[preset], len(kinds), seed)
    return MatchController(match, seat_configs(kinds), rng=random.Random(seed), speed=0.0)


def step(controller: MatchController, chooser: random.Random) -> None:
    """One deterministic step: a human to act picks a legal action with ``chooser``."""
    match = controller.match
    if match.status != "playing":
        controller.next_round() if match.status == "round_over" or not match.target else None
        return
    seat = match.to_act
    if controller.seats[seat].is_human and not controller.queue:
        controller.submit(chooser.choice(match.legal_actions()), seat)
    controller.update(1 / 60)


def store(tmp_path) -> DataStore:
    return DataStore(tmp_path, background=False)


# ---- resuming exactly ---------------------------------------------------------------------------
@pytest.mark.parametrize("preset", sorted(SEATS))
def test_a_game_saved_mid_round_resumes_identically(preset):
    original = new_table(preset, seed=7)
    chooser = random.Random(11)
    for _ in range(60):
        step(original, chooser)
    restored = MatchController.from_save(decode_game(encode_game(original.to_save())), speed=0.0)
    assert restored.match == original.match
    assert restored.match.round.pile == original.match.round.pile  # the same next draws
    assert restored.rng.getstate() == original.rng.getstate()
    # Both go on with the same choices and end in the same state.
    chooser_a, chooser_b = random.Random(5), random.Random(5)
    for _ in range(200):
        step(original, chooser_a)
        step(restored, chooser_b)
        assert restored.match == original.match


@pytest.mark.parametrize("preset", sorted(SEATS))
def test_every_state_of_a_game_survives_a_save(preset):
    controller = new_table(preset, seed=3)
    chooser = random.Random(2)
    for _ in range(150):
        step(controller, chooser)
        payload = decode_game(encode_game(controller.to_save()))
        assert payload.match == controller.match
        assert payload.undo == controller._undo
        assert payload.history == controller.history


def test_the_pending_suit_choice_penalty_timer_and_undo_history_are_resumed():
    controller = new_table("action", seed=4, kinds=["human", "human"])
    chooser = random.Random(1)
    while controller.match.round.phase != "suit":
        step(controller, chooser)
    controller.driver.timer = ((controller.match.round.number, controller.match.round.turn_no,
                                controller.match.to_act), 4.25)
    restored = MatchController.from_save(decode_game(encode_game(controller.to_save())))
    assert restored.match.round.phase == "suit"
    assert restored.timer_left == 4.25
    assert restored.covered and restored.handoff_to == restored.match.to_act  # hot-seat: cover first
    restored.update(0.25)
    assert restored.timer_left == 4.25  # the clock waits under the cover
    restored.accept_handoff(restored.match.to_act)
    restored.update(0.25)  # then goes on from where it was
    assert restored.timer_left == pytest.approx(4.0)


def test_undo_works_after_a_resume():
    match = Match(PRESETS["classic"], 2, 9)
    controller = MatchController(match, seat_configs(["human", "medium"]), rng=random.Random(1), speed=0.0)
    chooser = random.Random(3)
    while not controller._undo:
        step(controller, chooser)
    restored = MatchController.from_save(decode_game(encode_game(controller.to_save())), speed=0.0)
    assert restored.can_undo
    assert restored.undo()
    assert restored.match.round.turn_no <= controller.match.round.turn_no


def test_computers_relearn_what_the_round_showed():
    controller = new_table("classic", seed=5, kinds=["human", "medium", "medium"])
    chooser = random.Random(4)
    for _ in range(120):
        step(controller, chooser)
    restored = MatchController.from_save(decode_game(encode_game(controller.to_save())), speed=0.0)
    for seat, player in controller.driver.players.items():
        before, after = player.knowledge.get(seat), restored.driver.players[seat].knowledge.get(seat)
        assert vars(before) == vars(after)


def test_a_level_change_is_saved(tmp_path):
    data = store(tmp_path)
    controller = new_table("duel", kinds=["human", "easy"])
    controller.on_change = lambda: data.games.write("solo", controller.to_save())
    controller.set_level(1, "hard")
    assert data.games.read("solo").seats[1].level == "hard"
    assert MatchController.from_save(data.games.read("solo")).seats[1].level == "hard"


# ---- safe files ---------------------------------------------------------------------------------
def test_the_previous_save_is_kept_as_a_backup(tmp_path):
    data = store(tmp_path)
    first, second = new_table("duel", 1), new_table("duel", 2)
    data.games.write("solo", first.to_save())
    data.games.write("solo", second.to_save())
    assert data.games.read("solo").match == second.match
    assert data.games.read("solo", backup=True).match == first.match


def test_a_kill_during_a_save_leaves_the_last_good_save_loadable(tmp_path):
    data = store(tmp_path)
    good = new_table("classic", 1)
    data.games.write("solo", good.to_save())
    newer = encode_game(new_table("classic", 2).to_save())
    (tmp_path / "solo.huit.tmp").write_bytes(newer[: len(newer) // 2])  # the process died mid-write
    (tmp_path / "solo.huit.bak.tmp").write_bytes(b"half a link")
    assert data.games.read("solo").match == good.match
    data.games.write("solo", new_table("classic", 3).to_save())  # the next save just overwrites them
    assert data.games.read("solo").match == new_table("classic", 3).match
    assert not (tmp_path / "solo.huit.tmp").exists()


def test_write_atomic_never_leaves_a_half_written_file(tmp_path, monkeypatch):
    path = tmp_path / "x.json"
    write_atomic(path, b"old")

    def crash(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_atomic(path, b"new and longer")
    assert path.read_bytes() == b"old"


def unsafe_pickles(tmp_path):
    marker = tmp_path / "pwned"

    class Runner:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    yield "code", pickle.dumps(Runner())

    class Evaluator:
        def __reduce__(self):
            return (eval, ("1+1",))

    yield "eval", pickle.dumps(Evaluator())
    yield "foreign class", pickle.dumps({"match": __import__("datetime").date(2026, 1, 1)})


@pytest.mark.parametrize("kind", ["code", "eval", "foreign class"])
def test_a_pickle_naming_anything_outside_the_game_is_refused_and_nothing_runs(tmp_path, kind):
    body = dict(unsafe_pickles(tmp_path))[kind]
    with pytest.raises(UnsafePickle):
        plain_loads(body)
    with pytest.raises(SaveError) as caught:
        decode_game(pack("game", games.FORMAT, body))
    assert caught.value.key == "unsafe"
    with pytest.raises(SaveError):  # a format-1 envelope reads it as stubs: refused, nothing runs
        decode_game(pack("game", 1, body))
    assert not (tmp_path / "pwned").exists()
    if kind == "code":  # the control: a plain unpickler would have run it
        pickle.loads(body)
        assert (tmp_path / "pwned").exists()


def test_no_name_is_admitted_and_format_one_names_are_throwaway_stubs():
    # The allow-list is gone: a save's reader admits no global at all, not even the engine's
    # classes; the format-1 reader hands out a stand-in per name, never the real class.
    for module, name in (("game.engine.match", "random.Random"), ("game.engine.cards", "parse_cards"),
                         ("game.engine.match", "Match")):
        body = b"\x80\x04c" + f"{module}\n{name}\n".encode() + b"."  # PROTO 4, GLOBAL, STOP
        with pytest.raises(UnsafePickle):
            plain_loads(body)
    stubs = StubUnpickler(__import__("io").BytesIO(b""))
    stand_in = stubs.find_class("game.engine.match", "Match")
    assert stand_in is not Match and not issubclass(stand_in, Match)
    assert stand_in.origin == ("game.engine.match", "Match")
    assert stub_loads(pickle.dumps(Match(PRESETS["duel"], 2, 1))).state["players"] == 2


def bad_files():
    good = encode_game(new_table("points", 1).to_save())
    yield "empty", b"", "empty"
    yield "truncated", good[: len(good) - 40], "damaged"
    yield "random bytes", random.Random(0).randbytes(3000), "not_a_save"
    yield "newer", pack("game", games.FORMAT + 1, b"whatever"), "newer"
    yield "unknown version", b"HUIT game x1\n{}\n", "unknown_version"
    yield "settings file", pack("settings", 1, b"{}"), "not_a_save"
    yield "flipped byte", good[:-10] + bytes([good[-10] ^ 0xFF]) + good[-9:], "damaged"
    yield "not a game", pack("game", games.FORMAT, plain_dumps({"match": 3})), "invalid"
    yield "garbage pickle", pack("game", games.FORMAT, b"\x80\x05garbage"), "invalid"


@pytest.mark.parametrize("name,data,key", list(bad_files()), ids=[b[0] for b in bad_files()])
def test_unreadable_saves_are_refused_with_a_reason_and_never_deleted(tmp_path, name, data, key):
    data_store = store(tmp_path)
    path = tmp_path / "solo.huit"
    path.write_bytes(data)
    with pytest.raises(SaveError) as caught:
        data_store.games.read("solo")
    assert caught.value.key == key
    assert str(caught.value)  # a sentence for the player
    assert path.read_bytes() == data  # untouched
    # Only a new game in that mode replaces it, keeping the unreadable file aside.
    fresh = new_table("duel")
    data_store.games.write("solo", fresh.to_save())
    assert (tmp_path / "solo.huit.corrupt").read_bytes() == data
    assert data_store.games.read("solo").match == fresh.match
    assert not (tmp_path / "solo.huit.bak").exists()  # the unreadable file is not the "good" backup


def test_old_formats_are_upgraded_step_by_step(monkeypatch):
    payload = table_to_plain(new_table("duel").to_save())
    old = dict(payload)
    old["seat_names"] = [s[2] for s in old.pop("seats")]  # an imagined format 2 layout
    data = pack("game", 2, plain_dumps(old))

    def two_to_three(value):
        value["seats"] = [("human", "medium", n) for n in value.pop("seat_names")]
        return value

    monkeypatch.setattr(games, "FORMAT", 3)
    monkeypatch.setattr(games, "UPGRADES", {**games.UPGRADES, 2: two_to_three})
    assert decode_game(data).seats[1] == SavedSeat("human", "medium", "")


# ---- settings, statistics, seat keys, the folder ------------------------------------------------------
def test_settings_round_trip_and_bad_values_fall_back_one_by_one(tmp_path):
    data = store(tmp_path)
    chosen = Settings(language="fr", speed="fast", volume=0.3, muted=True, four_color=True, left_handed=True,
                      undo_allowed=False, default_levels=["human", "hard", "easy"], last_preset="points",
                      last_players={"points": 4}, last_options={"classic": {"jacks_skip": True}})
    data.settings.write(chosen.to_json())
    back = Settings.from_json(store(tmp_path).settings.read())
    assert back.to_json() == {**chosen.to_json(), "default_levels": back.default_levels}
    assert back.default_levels[:3] == ["human", "hard", "easy"] and len(back.default_levels) == 7
    odd = Settings.from_json({"language": "xx", "speed": 3, "volume": 7, "muted": "yes", "four_color": True,
                              "last_players": {"duel": 99}, "default_levels": ["robot"]})
    assert (odd.speed, odd.volume, odd.muted, odd.four_color) == ("normal", 0.8, False, True)
    assert odd.last_players == {} and odd.default_levels[0] == "human"


def test_unreadable_settings_fall_back_to_the_backup_then_the_defaults(tmp_path):
    data = store(tmp_path)
    data.settings.write(Settings(speed="slow").to_json())
    data.settings.write(Settings(speed="fast").to_json())
    (tmp_path / "settings.json").write_bytes(b"{not json")
    again = store(tmp_path)
    assert Settings.from_json(again.settings.read()).speed == "slow"
    assert again.settings.problem is not None and again.settings.problem.key == "not_a_save"
    (tmp_path / "settings.json.bak").write_bytes(b"")
    assert store(tmp_path).settings.read() is None
    again.settings.write(Settings().to_json())
    assert (tmp_path / "settings.json.corrupt").read_bytes() == b"{not json"


def test_statistics_count_wins_ties_losses_best_scores_and_streaks(tmp_path):
    stats = Statistics()
    for outcome, score in [("win", 40), ("win", 75), ("loss", None), ("tie", None), ("win", 12)]:
        stats.record("points", "hard", outcome, score)
    rec = stats.records["points"]["hard"]
    figures = (rec.games, rec.wins, rec.ties, rec.losses, rec.best, rec.streak, rec.best_streak)
    assert figures == (5, 3, 1, 1, 75, 1, 2)
    stats.record("colors", "medium", "win", xp=40)
    stats.add_xp(-20)
    assert (stats.xp, stats.xp_history) == (20, [40, 20])
    data = store(tmp_path)
    data.write_statistics(stats)
    assert store(tmp_path).read_statistics() == stats
    with pytest.raises(ValueError):
        stats.record("duel", "easy", "victory")


def test_statistics_drop_entries_that_make_no_sense():
    raw = {"records": {"duel": {"easy": {"games": 1, "wins": 5, "ties": 0, "best": None, "streak": 0,
                                         "best_streak": 0},
                                "hard": {"games": 2, "wins": 1, "ties": 0, "best": 9, "streak": 1,
                                         "best_streak": 1}},
                       "classic": "nonsense"},
           "xp": "many", "xp_history": [1, "x", 3]}
    stats = Statistics.from_json(raw)
    assert list(stats.records) == ["duel"] and list(stats.records["duel"]) == ["hard"]
    assert stats.xp == 0 and stats.xp_history == [1, 3]


def test_seat_keys_are_kept_per_room_and_never_shown(tmp_path):
    data = store(tmp_path)
    key = SeatKey("huit://192.168.1.5:8765/abc123", "abc123", 1, "s3cret-key")
    data.keys.remember(key)
    assert data.keys.get("abc123") == key
    assert data.keys.rooms() == [key]
    assert "s3cret" not in repr(key)
    with pytest.raises(ValueError):
        data.keys.get("../settings")
    data.keys.forget("abc123")
    assert data.keys.get("abc123") is None


def test_seat_keys_come_in_the_order_their_seats_were_taken_not_by_room_id(tmp_path):
    # The lobbies show the last few as "My rooms": a room joined last must be among them
    # even when its id sorts first (issue 33's trial lost one that way).
    data = store(tmp_path)
    rooms = ["zzz", "mmm", "aaa"]  # taken in this order: the reverse of the ids' order
    for when, room in enumerate(rooms):
        data.keys.remember(SeatKey(f"huit://h:1/{room}", room, 0, "k"))
        data.writer.flush()
        stamp = 1_700_000_000 + when
        os.utime(tmp_path / "online" / f"{room}.json", (stamp, stamp))
    assert [k.room for k in data.keys.rooms()] == rooms
    assert [k.room for k in data.keys.survey()[0]][-2:] == ["mmm", "aaa"]


def test_clear_data_deletes_exactly_the_games_files(tmp_path):
    data = store(tmp_path)
    data.games.write("solo", new_table("duel", 1).to_save())
    data.games.write("solo", new_table("duel", 2).to_save())
    data.games.write("hotseat", new_table("duel", 3, kinds=["human", "human"]).to_save())
    (tmp_path / "hotseat.huit.corrupt").write_bytes(b"x")
    data.settings.write(Settings().to_json())
    data.write_statistics(Statistics())
    data.keys.remember(SeatKey("huit://h:1/r1", "r1", 0, "k"))
    (tmp_path / "rooms.sqlite3").write_bytes(b"hosted rooms")
    (tmp_path / "rooms.sqlite3-wal").write_bytes(b"")
    foreign = [tmp_path / "notes.txt", tmp_path / "solo.huit.old", tmp_path / "online" / "readme.txt"]
    for path in foreign:
        path.write_text("not ours")
    ours = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()} - {
        p.relative_to(tmp_path).as_posix() for p in foreign}
    deleted = data.clear()
    assert {p.relative_to(tmp_path).as_posix() for p in deleted} == ours
    assert ours >= {"solo.huit", "solo.huit.bak", "hotseat.huit", "hotseat.huit.corrupt", "settings.json",
                    "statistics.json", "online/r1.json", "rooms.sqlite3", "rooms.sqlite3-wal"}
    assert all(p.exists() for p in foreign)


def test_the_data_folder_comes_from_the_flag_then_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("HUIT_DATA_DIR", str(tmp_path / "env"))
    assert data_dir(tmp_path / "flag") == tmp_path / "flag"
    assert data_dir() == tmp_path / "env"
    monkeypatch.delenv("HUIT_DATA_DIR")
    assert data_dir().name == "Huit"


def test_a_write_that_fails_is_reported_and_does_not_stop_the_game(tmp_path):
    (tmp_path / "blocked").write_text("a file where the folder should be")
    writer = SaveWriter(background=True)
    writer.write(tmp_path / "blocked" / "solo.huit", b"data")
    assert writer.flush()
    assert writer.error is not None and "solo.huit" in writer.error
    writer.write(tmp_path / "fine.huit", b"data")
    assert writer.flush()
    assert (tmp_path / "fine.huit").read_bytes() == b"data"
    assert writer.error is not None  # another file's success does not hide the failing save
    (tmp_path / "blocked").unlink()
    writer.write(tmp_path / "blocked" / "solo.huit", b"data")
    assert writer.flush()
    assert writer.error is None


def test_seat_key_files_are_readable_by_their_owner_only(tmp_path):
    data = store(tmp_path)
    data.keys.remember(SeatKey("huit://h:1/r1", "r1", 0, "secret"))
    assert (tmp_path / "online" / "r1.json").stat().st_mode & 0o077 == 0


def test_a_tiny_save_cannot_ask_for_gigabytes():
    class Huge:
        def __reduce__(self):
            return (list, (range(10),))  # on load: list(range(N)) for any N the file names

    bomb = pickle.dumps(bytearray(10))  # on load: bytearray(...) called with any size
    for body in (bomb, pickle.dumps(Huge())):
        with pytest.raises(UnsafePickle):
            plain_loads(body)
        stubbed = stub_loads(body)  # format 1: the call only makes a stub holding its arguments
        assert type(stubbed).origin in (("builtins", "bytearray"), ("builtins", "list"))


def test_a_save_whose_game_does_not_work_is_refused_not_resumed(tmp_path):
    payload = table_to_plain(new_table("classic").to_save())
    payload["start"] = {"position": {"rng": payload["rng"]}}  # as if an engine field were missing
    with pytest.raises(SaveError) as caught:
        decode_game(pack("game", games.FORMAT, plain_dumps(payload)))
    assert caught.value.key == "invalid"
    for field, bad in (("timer", (5, 1.0)), ("timer", ((1, 1, 0), None)), ("log", [1]),
                       ("undo", [("junk", 1, 0)]), ("queue", [(0, 5)])):
        payload = table_to_plain(new_table("classic").to_save())
        payload[field] = bad
        with pytest.raises(SaveError):
            decode_game(pack("game", games.FORMAT, plain_dumps(payload)))


def test_the_background_writer_keeps_only_the_newest_save_of_a_file(tmp_path):
    writer = SaveWriter(background=True)
    for i in range(50):
        writer.write(tmp_path / "solo.huit", str(i).encode())
    writer.delete(tmp_path / "gone.huit")
    assert writer.flush()
    assert (tmp_path / "solo.huit").read_bytes() == b"49"


def test_a_very_long_log_is_saved_from_the_position_and_resumes_identically(monkeypatch):
    monkeypatch.setattr(games, "REBASE_AT", 30)
    original = new_table("points", seed=5)
    chooser = random.Random(6)
    while len(original.match.log) <= 30 or original.match.status != "playing":
        step(original, chooser)
    plain = table_to_plain(original.to_save())
    assert "position" in plain["start"] and plain["log"] == [] and plain["undo"] == []
    restored = MatchController.from_save(decode_game(encode_game(original.to_save())), speed=0.0)
    assert restored.match == original.match and restored.history == original.history
    chooser_a, chooser_b = random.Random(5), random.Random(5)
    for _ in range(200):
        step(original, chooser_a)
        step(restored, chooser_b)
    assert restored.match == original.match


def test_a_long_log_whose_deal_events_cannot_be_kept_is_still_saved(monkeypatch):
    from game.engine.snapshot import from_plain, to_plain

    monkeypatch.setattr(games, "REBASE_AT", 10)
    played = new_table("classic", seed=2)
    chooser = random.Random(3)
    for _ in range(6):
        step(played, chooser)
    match = from_plain(played.match.rules, 3, to_plain(played.match))  # a position told without events
    table = MatchController(match, played.seats, rng=random.Random(1), speed=0.0, history=[])
    while len(table.match.log) <= 10 and table.match.status == "playing":
        step(table, chooser)
    assert len(table.match.log) > 10 and table.history  # its events do not start with the deal
    again = decode_game(encode_game(table.to_save()))
    assert again.match == table.match and again.history == []


PLAIN_TYPES = (dict, list, tuple, str, int, float, bool, type(None))


def plain_only(value) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and plain_only(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(plain_only(v) for v in value)
    return type(value) in PLAIN_TYPES


@pytest.mark.parametrize("preset", sorted(SEATS))
def test_a_save_holds_plain_data_only_written_without_a_memo(preset):
    import pickletools

    from game.saves.document import unpack
    from game.saves.unpickler import PLAIN

    controller = new_table(preset, seed=8)
    chooser = random.Random(8)
    for _ in range(80):
        step(controller, chooser)
    _, body = unpack(encode_game(controller.to_save()), "game", games.FORMAT)
    assert {op.name for op, _, _ in pickletools.genops(body)} <= PLAIN.ops
    payload = plain_loads(body)
    assert plain_only(payload) and list(payload) == list(games.FIELDS)
    assert payload["rules"]["preset"] == preset and payload["log"] == controller.match.log


def test_the_levels_a_save_may_name_are_the_computer_players_levels():
    from game.ai import LEVELS

    assert tuple(LEVELS) == games.LEVELS


def test_a_pair_game_saved_before_pair_scores_resumes_on_each_seats_own_score():
    rules = PRESETS["colors"].with_options({"pairs": True, "target": 300})
    match = Match(rules, 4, 5)
    controller = MatchController(match, seat_configs(["human", "easy", "medium", "easy"]),
                                 rng=random.Random(5), speed=0.0)
    chooser = random.Random(5)
    for _ in range(40):
        step(controller, chooser)
    plain = table_to_plain(controller.to_save())
    assert plain["rules"]["options"]["pair_scores"] is True
    del plain["rules"]["options"]["pair_scores"]  # as written before the option existed
    older = games.table_from_plain(plain)
    assert older.match.rules == rules.with_options({"pair_scores": False})
    assert older.match.log == controller.match.log
    del plain["rules"]["options"]["pairs"]  # not a pair game: the preset's value, as for any option
    assert games.table_from_plain(plain).match.rules.pair_scores is True


def test_a_colours_game_saved_before_counter_clockwise_resumes_clockwise():
    rules = PRESETS["colors"].with_options({"counter_clockwise": False})  # how colours played then
    match = Match(rules, 4, 6)
    controller = MatchController(match, seat_configs(["human", "easy", "medium", "easy"]),
                                 rng=random.Random(6), speed=0.0)
    chooser = random.Random(6)
    for _ in range(40):
        step(controller, chooser)
    plain = table_to_plain(controller.to_save())
    del plain["rules"]["options"]["counter_clockwise"]  # as written before the option existed
    older = games.table_from_plain(plain)
    assert older.match.rules == rules and not older.match.rules.counter_clockwise
    assert older.match.log == controller.match.log
    assert older.match.round.direction == controller.match.round.direction
    plain["rules"]["options"]["counter_clockwise"] = True  # read with today's colours rule, it breaks
    with pytest.raises(SaveError, match="break the rules"):
        games.table_from_plain(plain)
