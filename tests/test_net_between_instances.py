"""What instances on one PostgreSQL tell and ask each other for each move and each beat (issue 33).

Every write to a room is told to the other instances (`pgcluster.CHANNEL`); a move's news carries
its log entry (`pgcluster.news_payload`), so a copy one move behind takes it without reading the
database (`replicas.Replicas.heard`). Each beat, an instance asks for the leases of all the rooms it
has people in and nobody runs at once (`pgcluster.PgCluster.take`). These tests read the payloads
as PostgreSQL delivers them, what a payload reads back as, two real instances playing a duel whose
copies catch up from the news alone, and leases asked for in one go."""

from __future__ import annotations

import asyncio
import select

import psycopg

from game.net.cluster import Written
from game.net.pgcluster import NEWS_LIMIT, PgCluster, news_payload, read_news
from game.net.pgstore import CHANNEL, PostgresRoomStore
from game.net.rooms import LogEntry
from tests.instance_support import lease_holder
from tests.net_support import Peer, play_until, start_server, wait_for
from tests.test_net_instances import HUMAN, stored_view
from tests.test_pgstore import _room


def _heard(listener: psycopg.Connection, count: int) -> list[str]:
    heard: list[str] = []
    while len(heard) < count and select.select([listener.fileno()], [], [], 5)[0]:
        heard += [n.payload for n in listener.notifies(timeout=0.5, stop_after=count - len(heard))]
    return heard


def test_a_move_s_news_carries_its_log_entry_and_a_too_long_one_only_its_revision(pg_url):
    store = PostgresRoomStore(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        try:
            room = _room()
            store.add(room, 1.0)
            store.append(room, LogEntry("action", 1, "8♠ ♥"), 2.0)
            store.append(room, LogEntry("vote", 0, "x" * NEWS_LIMIT), 3.0)  # too long to carry
            heard = _heard(listener, 3)
        finally:
            store.close()
    assert heard == ["room-0001 0", 'room-0001 1 [0,"action",1,"8\\u2660 \\u2665"]', "room-0001 2"]
    assert read_news(heard[1].partition(" ")[2]) == (1, Written(0, LogEntry("action", 1, "8♠ ♥")))


def test_news_reads_back_what_was_written_and_leaves_out_what_does_not_read_as_an_entry():
    written = Written(12, LogEntry("autopilot", None, "on"))
    assert read_news(news_payload("room-0001", 7, written).partition(" ")[2]) == (7, written)
    assert read_news("7") == (7, None)
    later = '7 [12,"action",0,"D",{"later":"field"}]'  # a later release's field at the end: ignored
    assert read_news(later) == (7, Written(12, LogEntry("action", 0, "D")))
    for broken in ("7 [", "7 {}", "7 [1,2]", '7 [-1,"action",0,"D"]', '7 ["1","action",0,"D"]',
                   '7 [1,"action","0","D"]', '7 [1,"action",0,5]', '7 [true,"action",0,"D"]', "7 null"):
        assert read_news(broken) == (7, None), broken


def test_two_instances_copies_catch_up_on_each_others_moves_from_the_news_alone(pg_url):
    servers = [start_server(pg_url), start_server(pg_url)]
    reads: list[list[str]] = [[], []]
    try:
        for index, thread in enumerate(servers):
            store = thread.server.service.store
            since = store.since

            def counted(room_id, log_length, since=since, reads=reads[index]):
                reads.append(room_id)
                return since(room_id, log_length)
            store.since = counted
        ana, ben = Peer(servers[0].port, 1), Peer(servers[1].port, 2)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        ben.join(ana.room_id, name="Ben")
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        assert wait_for(lambda: lease_holder(pg_url, ana.room_id) is not None)  # (taking it reads the room)
        before = [len(r) for r in reads]
        moves = [0]

        def played_enough() -> bool:
            moves[0] = sum(1 for p in (ana, ben) for f in p.frames if '"type":"update"' in f.replace(" ", ""))
            return moves[0] >= 24 or (ana.view is not None and ana.view["status"] != "playing")
        play_until([ana, ben], played_enough, accept_deals=False)
        room_id = ana.room_id
        for peer in (ana, ben):
            assert wait_for(lambda p=peer: p.drain(0.02) or p.view == stored_view(pg_url, room_id, p.seat))
            peer.close()
        assert moves[0] >= 10
        assert [len(r) for r in reads] == before  # every move came in its news: no instance read one
    finally:
        for thread in servers:
            thread.stop()


def test_leases_asked_for_at_once_go_each_to_one_instance_and_to_the_other_when_it_dies(pg_url):
    first, second = PgCluster(pg_url, "first"), PgCluster(pg_url, "second")
    rooms = [f"room-{n:04d}" for n in range(60)]
    try:
        assert first.take(rooms[:25]) == set(rooms[:25])
        assert second.take(rooms) == set(rooms[25:])  # the others are the first's
        assert first.take(rooms) == set(rooms[:25])
        assert first.take([]) == set()
        assert lease_holder(pg_url, rooms[0]) == "first" and lease_holder(pg_url, rooms[-1]) == "second"
        asyncio.run(first.stop())  # its connection closed: its leases are free once its backend is gone
        assert wait_for(lambda: second.take(rooms) == set(rooms))
        assert lease_holder(pg_url, rooms[0]) == "second"
    finally:
        asyncio.run(first.stop())
        asyncio.run(second.stop())
