"""What instances on one PostgreSQL tell and ask each other for each move and each beat (issue 33).

Every write to a room is told to the other instances (`pgcluster.CHANNEL`); a move's news carries
its log entry, signed (`pg_news`), while every living instance reads it, so a copy one move behind
takes it without reading the database (`replicas.Replicas.heard`). Each beat, an instance asks for
the leases of all the rooms it has people in and nobody runs at once (`pgcluster.PgCluster.take`).
These tests read the payloads as PostgreSQL delivers them, what a payload reads back as (a forged
or odd one as its bare revision), news while an instance of the release before lives, two real
instances playing a duel whose copies catch up from the news alone, and leases: asked for in one
go, let go with a deleted room, never run on once the lease connection was lost."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import subprocess
import sys
import time

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.cluster import Written
from game.net.pg_news import MARK, NEWS_LIMIT, news_payload, read_news
from game.net.pgcluster import PgCluster, instance_name
from game.net.pgstore import CHANNEL, PostgresRoomStore
from game.net.rooms import LogEntry
from tests.instance_support import lease_holder
from tests.net_support import Peer, on_loop, play_until, start_server, wait_for
from tests.test_net_instances import HUMAN, stored_view
from tests.test_pgstore import _room


def _heard(listener: psycopg.Connection, count: int, within: float = 5.0) -> list[str]:
    """The payloads of the next ``count`` notifications ``listener`` hears (fewer if ``within``
    seconds pass first). Read by psycopg alone: a select on its socket waited the full time for
    notifications psycopg had read already."""
    heard: list[str] = []
    end = time.monotonic() + within
    while len(heard) < count and (left := end - time.monotonic()) > 0:
        heard += [n.payload for n in listener.notifies(timeout=left, stop_after=count - len(heard))]
    return heard



def duel_of_two(port: int) -> tuple[Peer, Peer]:
    """Ana's duel on the server at ``port``, Ben seated in it, the first deal told to Ana."""
    ana, ben = Peer(port, 1), Peer(port, 2)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    ben.join(ana.room_id, name="Ben")
    ana.until(lambda m: m["type"] == "update")
    return ana, ben

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
    assert heard[0] == "room-0001 0" and heard[2] == "room-0001 2"
    assert heard[1].startswith('room-0001 1 [0,"action",1,"8\\u2660 \\u2665","')  # then its signature
    assert read_news("room-0001", heard[1].partition(" ")[2], store.news_key) == (
        1, Written(0, LogEntry("action", 1, "8♠ ♥")))


KEY = bytes(range(32))


def _read(payload: str, key: bytes | None = KEY) -> tuple[int, Written | None]:
    room, _, what = payload.partition(" ")
    return read_news(room, what, key)


def test_news_reads_back_what_was_written_and_leaves_out_what_does_not_read_as_an_entry():
    written = Written(12, LogEntry("autopilot", 1, "on"))
    assert _read(news_payload("room-0001", 7, written, KEY)) == (7, written)
    assert _read(news_payload("room-0001", 7, Written(3, LogEntry("start")), KEY)) == (
        7, Written(3, LogEntry("start")))
    assert news_payload("room-0001", 7, written) == "room-0001 7"  # no key: nothing carried
    assert _read("room-0001 7") == (7, None)
    signed = news_payload("room-0001", 7, Written(12, LogEntry("action", 0, "D")), KEY)
    later = signed[:-1] + ',{"later":"field"}]'  # a later release's field at the end: ignored
    assert _read(later) == (7, Written(12, LogEntry("action", 0, "D")))
    for broken in ("7 [", "7 {}", "7 [1,2]", '7 [-1,"action",0,"D"]', '7 ["1","action",0,"D"]',
                   '7 [1,"action","0","D"]', '7 [1,"action",0,5]', '7 [true,"action",0,"D"]', "7 null"):
        assert _read("room-0001 " + broken) == (7, None), broken


def _signed(room_id: str, rev: int, fields: list[object], key: bytes = KEY) -> str:
    """A payload with these fields, signed with ``key`` as a server signs (whatever they are):
    HMAC-SHA256 over ``'<room> <rev> <fields>'``, its first 16 bytes in unpadded base64url."""
    import base64
    import hashlib
    import hmac

    text = json.dumps(fields, separators=(",", ":"))
    message = f"{room_id} {rev} {text}".encode("utf-8", "surrogatepass")
    digest = hmac.new(key, message, hashlib.sha256).digest()
    mac = base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")
    return f'{room_id} {rev} {text[:-1]},"{mac}"]'


def test_a_news_not_signed_with_the_key_or_for_another_room_or_revision_reads_as_its_revision():
    written = Written(4, LogEntry("action", 1, "D"))
    payload = news_payload("room-0001", 7, written, KEY)
    assert _read(payload) == (7, written)
    assert _read(payload, bytes(32)) == (7, None)  # another database's key
    assert _read(payload, None) == (7, None)  # no key to check it with
    assert _read(payload.replace('"D"', '"H"')) == (7, None)  # the entry changed
    assert _read(payload.replace(" 7 ", " 8 ", 1)) == (8, None)  # the revision changed
    assert _read(payload.replace("room-0001", "room-0002", 1)) == (7, None)  # replayed on another room
    unsigned = 'room-0001 7 [4,"action",1,"D"]'  # what 0d8afb5 sent, and what a forger can
    assert _read(unsigned) == (7, None)


def test_entries_no_honest_server_writes_read_as_a_bare_revision_even_signed():
    for fields in ([1, "action", None, "D"], [1, "action", -1, "D"], [1, "autopilot", -1, "on"],
                   [1, "action", 0, "\ud800"], [1, "start", 0, ""], [1, "deal", 2, ""],
                   [1, "shout", 0, "x"], [1, "action", 64, "D"], [1, "action", True, "D"]):
        assert _read(_signed("room-0001", 7, fields)) == (7, None), fields
    honest = Written(1, LogEntry("action", 3, "D"))
    assert _read(_signed("room-0001", 7, [1, "action", 3, "D"])) == (7, honest)
    assert _signed("room-0001", 7, [1, "action", 3, "D"]) == news_payload("room-0001", 7, honest, KEY)


def test_read_news_reads_a_payload_nested_past_python_s_recursion_limit_as_a_bare_revision():
    assert _read("room-0001 7 " + "[" * 3000) == (7, None)  # json.loads raises RecursionError
    assert _read("room-0001 7 " + "[" * 100_000) == (7, None)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.one_of(st.none(), st.binary(min_size=1, max_size=32)))
def test_read_news_says_a_revision_or_raises_value_error_and_nothing_else_for_any_payload(what, key):
    with contextlib.suppress(ValueError):
        read_news("room-0001", what, key)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=6), max_leaves=20))
def test_no_unsigned_json_reads_as_an_entry(value):
    assert read_news("room-0001", "7 " + json.dumps(value), KEY) == (7, None)


@pytest.mark.parametrize("mac", ["é" * 22, "\ud800", "", "A" * 22])
def test_a_news_whose_mac_is_any_text_reads_as_its_bare_revision(mac):
    # (a mac that is not ASCII raised TypeError in hmac.compare_digest, and the news was lost)
    assert read_news("room-0001", "7 " + json.dumps([3, "action", 1, "D", mac]), KEY) == (7, None)


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


# ---- a rolling upgrade: instances of the release before, which read only '<room> <rev>' ----------------
BEFORE = "0d8afb5^"  # the release before news carried entries


def _pgcluster_before():
    """game/net/pgcluster.py of the release before carried entries (still running during a roll)."""
    source = subprocess.run(["git", "show", f"{BEFORE}:game/net/pgcluster.py"], capture_output=True,
                            text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("game.net.pgcluster_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "game.net"
    sys.modules["game.net.pgcluster_before"] = module
    exec(compile(source, "pgcluster_before.py", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def test_an_instance_of_the_release_before_hears_every_move_while_it_lives(pg_url, caplog):
    before = _pgcluster_before()
    heard: list[tuple[str, int]] = []

    async def run() -> None:
        cluster = before.PgCluster(pg_url, "old-release")  # its name has no mark: it reads no entry
        store = PostgresRoomStore(pg_url)
        await cluster.start(lambda room, rev: heard.append((room, rev)), lambda r: None, lambda: None,
                            lambda: None)
        try:
            room = _room()
            store.add(room, 1.0)
            store.append(room, LogEntry("action", 1, "D"), 2.0)  # a move: carried if all could read it
            store.save_seats(room, 3.0)
            for _ in range(250):
                await asyncio.sleep(0.02)
                if len(heard) >= 3:
                    break
        finally:
            store.close()
            await cluster.stop()

    with caplog.at_level(logging.ERROR, logger="huit.server"):
        asyncio.run(run())
    assert heard == [("room-0001", 0), ("room-0001", 1), ("room-0001", 2)]
    assert not [r for r in caplog.records if r.exc_info]


def test_a_move_s_news_carries_its_entry_only_while_every_living_instance_reads_it(pg_url):
    def news_of_a_move(room_id: str) -> str:
        store = PostgresRoomStore(pg_url)  # (a new store asks at its first move)
        with psycopg.connect(pg_url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            try:
                room = _room(room_id)
                store.add(room, 1.0)
                store.append(room, LogEntry("action", 1, "D"), 2.0)
                return _heard(listener, 2)[1]
            finally:
                store.close()

    assert instance_name().endswith(MARK)
    marked = psycopg.connect(pg_url, autocommit=True, application_name="huit:" + instance_name())
    old = psycopg.connect(pg_url, autocommit=True, application_name="huit:host-12-abcdef")  # release before
    try:
        assert news_of_a_move("room-0001") == "room-0001 1"  # the old instance reads no entry
        old.close()
        assert news_of_a_move("room-0002").startswith('room-0002 1 [0,"action",1,"D",')  # the roll is over
    finally:
        old.close()
        marked.close()


def test_during_a_roll_a_person_on_an_instance_of_the_release_before_sees_a_move_made_on_a_new_one(
        pg_url, tmp_path):
    """The release before (its files from git) serving Ben, this one serving Ana, in one duel."""
    import io
    import os
    import socket
    import tarfile
    import time

    archive = subprocess.run(["git", "archive", "--format=tar", BEFORE, "main.py", "game"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tmp_path, filter="data")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(tmp_path)}
    old = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", str(port),
                            "--db", pg_url, "--think-scale", "0", "--rate", "10000", "--no-web"],
                           cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
    new = start_server(pg_url)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and old.poll() is None
                time.sleep(0.1)
        ana, ben = Peer(new.port, 1), Peer(port, 2)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        ben.join(ana.room_id, name="Ben")
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        for _ in range(3):  # moves both ways: the old release's news, then this one's
            mover, other = (ana, ben) if ana.my_turn else (ben, ana)
            other.drain(0.1)
            seen = len(other.frames)
            mover.play_one()
            assert wait_for(lambda o=other, s=seen: o.drain(0.02) or len(o.frames) > s, 5)
            assert wait_for(lambda: ana.drain(0.02) or ben.drain(0.02) or ana.my_turn != ben.my_turn)
        for peer in (ana, ben):
            peer.close()
    finally:
        new.stop()
        old.terminate()
        _, errors = old.communicate(timeout=20)
    assert "invalid literal for int()" not in errors, errors[-2000:]


# ---- forged news: any role that may connect may NOTIFY --------------------------------------------------
class Listening(PgCluster):
    """An instance's cluster that keeps every news it hears, as it passes them on."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.news: list[tuple[str, int, Written | None]] = []

    async def start(self, heard, moved, lost, tend) -> None:
        def kept(room_id: str, rev: int, written: Written | None) -> None:
            self.news.append((room_id, rev, written))
            heard(room_id, rev, written)
        await super().start(kept, moved, lost, tend)


def test_a_role_that_may_only_connect_cannot_make_a_copy_take_an_entry(pg_url, snoop_url):
    cluster = Listening(pg_url)
    server = start_server(pg_url, cluster=cluster)
    try:
        ana, ben = duel_of_two(server.port)
        ben.until(lambda m: m["type"] == "update")
        room_id = ana.room_id
        copy = server.server.service.rooms[room_id]
        assert wait_for(lambda: cluster.drives(room_id))
        ana.drain(0.1)
        to_act = ana.view["to_act"]
        rev, length = copy.rev, copy.log_length
        forged = [news_payload(room_id, rev + 1, Written(length, LogEntry("autopilot", to_act, "on")),
                               bytes(32)),  # signed with a key that is not the database's
                  f'{room_id} {rev + 1} [{length},"autopilot",{to_act},"on"]']  # not signed
        with psycopg.connect(snoop_url, autocommit=True) as snoop:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                snoop.execute("SELECT key FROM news_key")
            for payload in forged:
                snoop.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        assert wait_for(lambda: sum(1 for n in cluster.news if n[0] == room_id and n[1] == rev + 1) == 2)
        assert [n[2] for n in cluster.news if n[0] == room_id and n[1] == rev + 1] == [None, None]
        # Read as bare revisions: the copy read the database, which holds nothing new, and plays on.
        mover = ana if ana.my_turn else ben
        other = ben if mover is ana else ana
        seen = len(other.frames)
        mover.play_one()
        assert wait_for(lambda: other.drain(0.02) or len(other.frames) > seen)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            stored = admin.execute("SELECT seq, kind FROM log WHERE room = %s ORDER BY seq",
                                   (room_id,)).fetchall()
        assert [seq for seq, _ in stored] == list(range(len(stored)))  # no hole
        assert "auto" not in [kind for _, kind in stored] and "autopilot" not in [kind for _, kind in stored]
        assert copy.log_length == len(stored)
        for peer in (ana, ben):
            peer.close()
    finally:
        server.stop()


def test_a_copy_ahead_of_the_database_is_rebuilt_whole_when_refreshed(pg_url):
    server = start_server(pg_url)
    try:
        ana, ben = duel_of_two(server.port)
        room_id = ana.room_id
        service = server.server.service
        copy = service.rooms[room_id]
        ana.drain(0.2)
        stood: list[tuple[int, int]] = []

        def ahead_then_refreshed():
            stood.append((copy.rev, copy.log_length))
            copy.rev += 1  # as if it took an entry the database never held
            copy.log_length += 1
            return service.replicas.refresh(copy)

        fresh = on_loop(server, ahead_then_refreshed)
        assert fresh is not copy and fresh is service.rooms[room_id]
        assert (fresh.rev, fresh.log_length) == stood[0]
        for peer in (ana, ben):
            peer.close()
    finally:
        server.stop()


# ---- leases ---------------------------------------------------------------------------------------------
def test_a_room_deleted_while_this_instance_runs_it_lets_its_lease_go(pg_url):
    server = start_server(pg_url)
    try:
        ana, ben = duel_of_two(server.port)
        room_id = ana.room_id
        service = server.server.service
        assert wait_for(lambda: service.cluster.drives(room_id))
        store = PostgresRoomStore(pg_url)
        try:
            store.delete(room_id)  # (expired on another instance, say)
        finally:
            store.close()
        assert wait_for(lambda: room_id not in service.rooms)
        assert wait_for(lambda: not service.cluster.drives(room_id))
        assert wait_for(lambda: lease_holder(pg_url, room_id) is None)
        ana.close(), ben.close()
    finally:
        server.stop()


def test_rooms_taken_in_a_beat_are_not_run_once_the_lease_connection_was_lost_midway(pg_url):
    server = start_server(pg_url)
    try:
        peers = []
        for _ in range(2):
            ana, ben = duel_of_two(server.port)
            peers += [ana, ben]
        first, second = peers[0].room_id, peers[2].room_id
        service = server.server.service
        cluster, replicas = service.cluster, service.replicas
        assert wait_for(lambda: cluster.drives(first) and cluster.drives(second))

        def beat_losing_the_connection_in_the_first_takeover():
            for room_id in (first, second):
                cluster.lease(room_id, False)
            replicas.turn_began[second] = 123.0  # when its players saw its turn begin
            asked = cluster.elsewhere

            def elsewhere(room_id: str) -> set[int]:
                cluster.held.clear()  # the lease connection failed: every lease is given up
                return asked(room_id)
            cluster.elsewhere = elsewhere
            try:
                replicas.tend()  # takes both, then runs the first: its presence loses the connection
            finally:
                del cluster.elsewhere
            return replicas.turn_began.get(second)

        assert list(service.rooms).index(first) < list(service.rooms).index(second)
        assert on_loop(server, beat_losing_the_connection_in_the_first_takeover) == 123.0  # not run
        assert wait_for(lambda: cluster.drives(second))  # taken again, by a later beat
        for peer in peers:
            peer.close()
    finally:
        server.stop()
