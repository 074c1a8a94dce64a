"""The shared store suite: every promise of the `RoomStore` protocol, on SQLite and on a real
PostgreSQL (the ``store`` and ``db`` fixtures of tests/conftest.py run each test on both: ids
``sqlite`` and ``postgres``); its players' part (profiles, the ranking, wallets) is
tests/test_store_suite_players.py. What only one database has (SQLite's file modes and older
files; PostgreSQL's migrations, notifications and reconnection) is tested beside it, in
tests/test_net_rooms_db.py, tests/test_net_room_log.py and tests/test_pgstore.py."""

from __future__ import annotations

import json
import random
import threading

import pytest

from game.ai import player_for
from game.engine import PRESETS, Status, parse_action
from game.net.rooms import LogEntry, Room, Seat
from game.net.roomstore import Behind, RankedLine, Since, StoreFailure
from tests.pg_support import open_for_tests, refusing, rows, run

A, B = "a" * 64, "b" * 64


def _room(room_id: str = "room-0001") -> Room:
    room = Room(room_id, PRESETS["duel"], [Seat("human"), Seat("human")], seed=7, owner="127.0.0.1")
    room.claim(None, "Ana")
    return room


def ranked_line(xp: int = 20, deal: int = 1, outcome: str = "win", games: int = 1, player: str = A,
                room: str = "room-0001") -> RankedLine:
    """A ranked line of a `duel` deal for ``player`` (the players' part of the suite uses it too)."""
    return RankedLine(room, deal, player, "duel", 2, xp, outcome, 1000.0, ("Ben #ABC",), games)


# ---- rooms ----------------------------------------------------------------------------------------------
def test_a_room_added_is_stored_and_loads_with_its_seats_seed_and_kind(store, db):
    room = Room("room-0001", PRESETS["duel"], [Seat("human"), Seat("computer")], seed=(1 << 62) - 1,
                owner="203.0.113.9", kind="public")
    room.claim(None, "Ana")
    store.add(room, 1000.0)
    assert store.exists("room-0001") and not store.exists("room-0002")
    again = open_for_tests(db)
    try:
        (loaded,), broken = again.load()
    finally:
        again.close()
    assert broken == [] and loaded.room_id == "room-0001"
    assert loaded.seed == (1 << 62) - 1  # seeds are drawn below 2**62: beyond 32 bits
    assert (loaded.owner, loaded.kind, loaded.joined) == ("203.0.113.9", "public", False)
    assert loaded.created == 1000.0
    assert [s.to_json() for s in loaded.seats] == [s.to_json() for s in room.seats]


def test_rooms_load_oldest_first(store):
    for i, created in enumerate([3.0, 1.0, 2.0]):
        store.add(_room(f"room-{i}"), created)
    rooms, broken = store.load()
    assert [r.room_id for r in rooms] == ["room-1", "room-2", "room-0"] and broken == []


def test_seats_saved_and_changes_appended_come_back_on_load(store):
    room = _room()
    store.add(room, 1000.0)
    room.claim(None, "Ben")
    room.joined = True
    store.save_seats(room, 1001.0)
    store.append(room, LogEntry("start"), 1002.0)
    room.start()
    seat = room.match.to_act
    action = room.match.legal_actions(seat)[0]
    store.append(room, LogEntry("action", seat, str(action)), 1003.0)
    room.apply(seat, action)
    assert room.log_length == 2
    (loaded,), _ = store.load()
    assert loaded.match == room.match and loaded.log_length == 2
    assert [s.name for s in loaded.seats] == ["Ana", "Ben"] and loaded.joined


def test_expired_names_idle_rooms_and_lonely_ones_and_delete_forgets_them(store):
    idle, lonely, busy = _room("idle"), _room("lonely"), _room("busy")
    store.add(idle, 100.0)
    store.add(lonely, 500.0)
    store.add(busy, 500.0)
    busy.joined = True
    store.save_seats(busy, 500.0)
    assert sorted(store.expired(200.0, 600.0)) == ["idle", "lonely"]
    assert store.expired(200.0, 400.0) == ["idle"]
    store.append(idle, LogEntry("start"), 100.0)
    store.delete("idle")
    store.delete("never-stored")  # nothing to forget: no error
    assert not store.exists("idle") and sorted(r.room_id for r in store.load()[0]) == ["busy", "lonely"]


def test_delete_expired_forgets_a_room_only_while_it_is_still_expired(store):
    idle, lonely = _room("idle"), _room("lonely")
    store.add(idle, 100.0)
    store.add(lonely, 100.0)
    store.append(idle, LogEntry("start"), 100.0)
    lonely.claim(None, "Ben")  # joined since the sweep read its list: kept
    lonely.joined = True
    store.save_seats(lonely, 700.0)
    assert store.delete_expired("idle", 200.0, 600.0) is True
    assert store.delete_expired("lonely", 200.0, 600.0) is False
    assert store.delete_expired("never-stored", 200.0, 600.0) is False
    assert not store.exists("idle") and store.exists("lonely")
    assert [r.room_id for r in store.load()[0]] == ["lonely"]


# ---- several servers on one database: revisions (`Room.rev`, `Behind`, `since`, `room`) -----------------
def _started(store) -> Room:
    room = _room()
    store.add(room, 1.0)
    room.claim(None, "Ben")
    room.joined = True
    store.save_seats(room, 2.0)
    store.append(room, LogEntry("start"), 3.0)
    room.start()
    return room


def _act(store, room: Room) -> LogEntry:
    seat = room.match.to_act
    action = room.match.legal_actions(seat)[0]
    entry = LogEntry("action", seat, str(action))
    store.append(room, entry, 4.0)
    room.apply(seat, action)
    return entry


def test_a_room_is_added_at_revision_0_and_every_write_to_it_counts(store):
    room = _room()
    room.rev = 5  # whatever the copy said: a new room is at 0
    store.add(room, 1.0)
    assert room.rev == 0
    room.claim(None, "Ben")
    store.save_seats(room, 2.0)
    store.append(room, LogEntry("start"), 3.0)
    assert (room.rev, room.log_length) == (2, 1)
    (loaded,), _ = store.load()
    assert loaded.rev == 2 and store.room("room-0001").rev == 2


def test_a_stale_copy_s_write_is_refused_and_nothing_of_it_is_stored(store, db):
    live = _started(store)
    stale = store.room("room-0001")
    assert (stale.rev, stale.log_length) == (live.rev, live.log_length)
    _act(store, live)  # another server's write
    seat = stale.match.to_act
    with pytest.raises(Behind):
        store.append(stale, LogEntry("action", seat, str(stale.match.legal_actions(seat)[0])), 5.0,
                     [ranked_line()])
    with pytest.raises(Behind):
        store.save_seats(stale, 5.0)
    assert (stale.rev, stale.log_length) == (2, 1)  # the copy is as it was
    assert rows(db, "SELECT COUNT(*) FROM log") == [(2,)] and store.points(A) == {}  # its line neither
    since = store.since("room-0001", stale.log_length)  # the copy catches up...
    assert (since.rev, since.joined, [s.name for s in since.seats]) == (live.rev, True, ["Ana", "Ben"])
    assert since.entries == [LogEntry("action", seat, str(stale.match.legal_actions(seat)[0]))]
    for entry in since.entries:
        stale.redo(entry)
        stale.log_length += 1
    stale.rev = since.rev
    assert stale.match == live.match
    _act(store, stale)  # ...and writes again
    assert store.since("room-0001", stale.log_length) == Since(stale.rev, since.seats, True, [])


def test_a_write_to_a_room_deleted_meanwhile_is_behind(store):
    room = _started(store)
    store.delete("room-0001")
    with pytest.raises(Behind):
        store.append(room, LogEntry("action", 0, "draw"), 5.0)
    with pytest.raises(Behind):
        store.save_seats(room, 5.0)
    assert store.since("room-0001", 0) is None and store.room("room-0001") is None


def test_since_names_no_entries_when_the_store_forgot_them_at_a_deal(store):
    live = _live_room(store, 2)
    behind = 3  # a copy that read the first entries only
    _next_deal(store, live)
    since = store.since("long", behind)
    assert since.entries is None and since.rev == live.rev  # rebuild it whole (`room`)
    rebuilt = store.room("long")
    _same(live, rebuilt)
    assert rebuilt.rev == live.rev
    assert store.since("long", live.log_length - 1).entries == [LogEntry("deal")]


def test_a_room_that_cannot_be_rebuilt_is_a_store_failure_saying_why(store, db):
    _live_room(store, 2)
    run(db, "UPDATE rooms SET rules = ? WHERE id = 'long'", ('{"not": "rules"}',))
    with pytest.raises(StoreFailure, match="long cannot be rebuilt"):
        store.room("long")


def test_two_servers_racing_one_action_store_it_once(store, db):
    live = _started(store)
    other = open_for_tests(db)
    try:
        copies = [store.room("room-0001"), other.room("room-0001")]
        seat = live.match.to_act
        action = str(live.match.legal_actions(seat)[0])
        start = threading.Barrier(2)
        outcome: list[str] = []

        def act(one, copy) -> None:
            start.wait(10)
            try:
                one.append(copy, LogEntry("action", seat, action), 5.0)
                outcome.append("stored")
            except Behind:
                outcome.append("behind")

        threads = [threading.Thread(target=act, args=pair)
                   for pair in zip((store, other), copies, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        other.close()
    assert sorted(outcome) == ["behind", "stored"]
    assert rows(db, "SELECT COUNT(*) FROM log WHERE kind = 'action'") == [(1,)]
    assert store.since("room-0001", 0).rev == live.rev + 1


# ---- a room's log stays bounded (a snapshot at each deal) ---------------------------------------------
def _people(preset: str = "duel", seats: int = 2) -> Room:
    names = ["Ana", "Ben", "Cy"][:seats]
    people = [Seat("human", name=name, key_hash=str(i) * 64) for i, name in enumerate(names)]
    return Room("long", PRESETS[preset], people, seed=42)


def _play_deal(store, room: Room, rng: random.Random) -> None:
    """Both seats play the deal to its end (Medium's choices), every change stored first."""
    ai = player_for("medium")
    while room.match.status == Status.PLAYING:
        seat = room.match.to_act
        action = ai.choose(room.match.view(seat), rng)
        store.append(room, LogEntry("action", seat, str(action)), 1.0)
        room.apply(seat, parse_action(str(action)))


def _next_deal(store, room: Room) -> None:
    for seat in range(room.players):
        if room.seats[seat].is_human:
            store.append(room, LogEntry("accept", seat), 1.0)
            room.accept(seat)
    store.append(room, LogEntry("deal"), 1.0)
    room.next_round()


def _live_room(store, deals: int, preset: str = "duel") -> Room:
    room = _people(preset)
    store.add(room, 1.0)
    store.append(room, LogEntry("start"), 1.0)
    room.start()
    rng = random.Random(7)
    for deal in range(deals):
        _play_deal(store, room, rng)
        if deal < deals - 1:
            _next_deal(store, room)
    return room


def _same(live: Room, rebuilt: Room) -> None:
    assert rebuilt.match == live.match  # every card, the scores, the results and the generator
    assert rebuilt.round_events == live.round_events  # what a seat rejoining the deal is sent
    assert rebuilt.log_length == live.log_length
    assert [s.public() for s in rebuilt.seats] == [s.public() for s in live.seats]
    assert (rebuilt.abandoned_in, rebuilt.votes, rebuilt.penalised) == (live.abandoned_in, live.votes,
                                                                          live.penalised)
    assert rebuilt.turns == live.turns  # fair play's count of a match over several deals


def test_a_long_room_keeps_only_its_current_deal_in_the_log_and_is_rebuilt_exactly(store, db):
    live = _live_room(store, 12)
    rng = random.Random(3)
    ai = player_for("medium")
    _next_deal(store, live)
    for _ in range(3):  # into the 13th deal
        seat = live.match.to_act
        action = ai.choose(live.match.view(seat), rng)
        store.append(live, LogEntry("action", seat, str(action)), 1.0)
        live.apply(seat, action)
    log = rows(db, "SELECT seq, kind FROM log WHERE room = 'long' ORDER BY seq")
    ((base,),) = rows(db, "SELECT seq FROM snapshots WHERE room = 'long'")
    assert [kind for _, kind in log] == ["deal", "action", "action", "action"]
    assert log[0][0] == base and log[-1][0] == live.log_length - 1
    assert live.log_length > 100  # the twelve deals before were stored, then forgotten
    store.close()
    again = open_for_tests(db)
    try:
        (rebuilt,), broken = again.load()
    finally:
        again.close()
    assert broken == []
    _same(live, rebuilt)
    assert rebuilt.match.round.number == 13 and len(rebuilt.match.results) == 12
    # and it goes on as the live one does
    seat = live.match.to_act
    action = live.match.legal_actions(seat)[0]
    assert rebuilt.apply(seat, action) == live.apply(seat, action)


def test_a_room_whose_snapshot_is_damaged_is_set_aside_and_the_others_start(store, db):
    _live_room(store, 3)
    other = Room("other", PRESETS["duel"], [Seat("human", name="Cy", key_hash="2" * 64), Seat("human")],
                 seed=1)
    store.add(other, 2.0)
    run(db, "UPDATE snapshots SET state = ? WHERE room = 'long'", (json.dumps({"match": {}}),))
    rooms, broken = store.load()
    assert [r.room_id for r in rooms] == ["other"]
    assert [room for room, _ in broken] == ["long"] and "snapshot" in broken[0][1]
    assert store.exists("long")  # kept as it is, never started afresh
    store.delete("long")
    assert rows(db, "SELECT COUNT(*) FROM snapshots") == [(0,)]
    assert rows(db, "SELECT COUNT(*) FROM log WHERE room = 'long'") == [(0,)]


def test_a_match_with_a_target_is_rebuilt_between_and_within_its_deals(store, db):
    live = _live_room(store, 2, preset="points")
    assert live.match.status == Status.ROUND_OVER  # between two deals
    again = open_for_tests(db)
    try:
        (rebuilt,), _ = again.load()
    finally:
        again.close()
    _same(live, rebuilt)
    _next_deal(store, live)
    _play_deal(store, live, random.Random(4))
    _next_deal(store, live)  # within the fourth deal
    third = open_for_tests(db)
    try:
        (rebuilt,), _ = third.load()
    finally:
        third.close()
    _same(live, rebuilt)
    assert rebuilt.match.round.number == 4 and rebuilt.match.scores == live.match.scores
    assert rebuilt.turns > 0 and rebuilt.turns == live.turns  # the turns of its first three deals kept


def test_abandons_and_votes_before_a_deal_survive_its_snapshot(store, db):
    room = Room("long", PRESETS["classic"], [Seat("human", name=n, key_hash=str(i) * 64)
                                          for i, n in enumerate(["Ana", "Ben", "Cy"])], seed=5)
    store.add(room, 1.0)
    store.append(room, LogEntry("start"), 1.0)
    room.start()
    store.append(room, LogEntry("abandon", 2), 1.0)
    room.abandon(2)
    for voter in (0, 1):
        store.append(room, LogEntry("vote", voter, "2 yes"), 1.0)
        room.vote(voter, 2, True)
    rng = random.Random(1)
    for _ in range(3):
        _play_deal(store, room, rng)
        _next_deal(store, room)
    assert rows(db, "SELECT COUNT(*) FROM log WHERE kind IN ('abandon', 'vote')") == [(0,)]
    (rebuilt,), _ = store.load()
    _same(room, rebuilt)
    assert rebuilt.seats[2].kind == "computer" and rebuilt.seats[2].abandoned
    assert rebuilt.abandoned_in == {2: 1} and rebuilt.votes == {2: {0: True, 1: True}}
    assert rebuilt.penalised == {2}
    assert 2 in rebuilt.computers


# ---- all or nothing ----------------------------------------------------------------------------------------
def test_a_change_the_database_refuses_is_a_store_failure_and_nothing_of_it_is_stored(store, db):
    room = _room()
    store.add(room, 1000.0)
    with refusing(db, store):
        with pytest.raises(StoreFailure):
            store.append(room, LogEntry("start"), 1001.0, [ranked_line()])
        with pytest.raises(StoreFailure):
            store.add(_room("room-0002"), 1001.0)
        with pytest.raises(StoreFailure):
            store.rank([ranked_line(deal=2)])
    assert room.log_length == 0
    assert store.rank([ranked_line()]) == [ranked_line()]  # the line was not written with the refused change
    assert not store.exists("room-0002")
    store.append(room, LogEntry("start"), 1002.0)  # and the store goes on
    assert room.log_length == 1 and rows(db, "SELECT seq, kind FROM log") == [(0, "start")]


def test_a_penalty_is_committed_with_the_vote_that_decides_it(store):
    room = _room()
    store.add(room, 1000.0)
    store.rank([ranked_line()])
    penalty = ranked_line(-20, deal=0, outcome="penalty", games=0)
    store.append(room, LogEntry("vote", 1, "0 yes"), 1001.0, [penalty])
    assert room.log_length == 1
    assert store.points(A) == {"duel": 0}
    assert store.history(A, "duel", 10) == [ranked_line(), penalty]  # the same time: the later deal first


def test_a_request_is_recalled_by_its_sender_within_its_time_and_forgotten_after(store):
    store.remember_request("player:a", "r1", "room-0001", 1, 100.0, 0.0)
    assert store.recalled_request("player:a", "r1", 50.0) == ("room-0001", 1)
    assert store.recalled_request("player:b", "r1", 50.0) is None  # another sender's id is another request
    assert store.recalled_request("player:a", "r1", 150.0) is None  # older than asked for
    store.remember_request("player:a", "r2", "room-0002", 0, 1000.0, 900.0)  # and the old ones go
    assert store.recalled_request("player:a", "r1", 0.0) is None
    assert store.recalled_request("player:a", "r2", 0.0) == ("room-0002", 0)


def test_a_store_says_whether_its_calls_may_run_on_worker_threads_and_is_safe_there(store, db):
    threads = store.worker_threads()
    if not str(db).startswith("postgres"):
        assert threads == 0  # SQLite: called on the event loop only, as ever
        return
    assert threads >= 2
    rooms = [_room(f"room-{i:04d}") for i in range(threads)]
    for room in rooms:
        store.add(room, 1000.0)

    def write(room: Room) -> None:
        for _ in range(5):
            store.save_seats(room, 1001.0)

    workers = [threading.Thread(target=write, args=(room,)) for room in rooms]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    for room in rooms:  # every room's writes stored once each, whatever ran beside them
        since = store.since(room.room_id, 0)
        assert since is not None and since.rev == room.rev == 5
