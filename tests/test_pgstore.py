"""What only the PostgreSQL store has (its shared promises are tests/test_store_suite.py's): the
schema's migrations (several instances starting at once, a newer schema, someone else's
tables), a database that cannot be reached (named without its password), a lost connection,
the notifications of every change to a room, and ``serve --db postgresql://``."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.engine import PRESETS
from game.net.rooms import LogEntry, Room, Seat
from game.net.roomstore import StoreError
from game.net.stores import INSTALL, is_postgres, open_store, redacted
from tests.net_support import Peer
from tests.pg_support import rows, run

psycopg = pytest.importorskip("psycopg", reason="no PostgreSQL driver: pip install -e '.[test]'")

from game.net import pg_schema  # noqa: E402  (needs psycopg)
from game.net.pgstore import CHANNEL, PostgresRoomStore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}


def _room(room_id: str = "room-0001") -> Room:
    room = Room(room_id, PRESETS["duel"], [Seat("human"), Seat("human")], seed=7, owner="127.0.0.1")
    room.claim(None, "Ana")
    return room


def _with_password(url: str, password: str) -> str:
    return url.replace("postgres:@", f"postgres:{password}@", 1)


# ---- the URL ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://huit:s3cret@db.example:5433/huit", "postgresql://huit@db.example:5433/huit"),
    ("postgres://huit@db.example/huit?sslmode=require", "postgres://huit@db.example/huit?sslmode=require"),
    ("postgresql://huit@/huit?host=/run/pg&password=s3cret", "postgresql://huit@/huit?host=/run/pg"),
    ("postgresql:///huit", "postgresql:///huit"),
    ("postgresql:///huit?password=s3cret&sslmode=require", "postgresql:///huit?sslmode=require"),
])
def test_a_database_url_is_shown_without_its_password(url, shown):
    assert is_postgres(url) and redacted(url) == shown


def test_a_file_name_is_not_a_database_url():
    assert not is_postgres("rooms.sqlite3") and not is_postgres(Path("postgresql:/x"))


def test_without_the_driver_a_database_url_is_refused_with_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "game.net.pgstore", None)  # as if psycopg were not installed
    with pytest.raises(StoreError) as refused:
        open_store("postgresql://huit:s3cret@db.example/huit")
    assert INSTALL in str(refused.value) and "s3cret" not in str(refused.value)
    assert "postgresql://huit@db.example/huit" in str(refused.value)


def test_a_database_that_cannot_be_reached_is_a_store_error_without_the_password():
    url = "postgresql://huit:s3cret@127.0.0.1:9/huit?connect_timeout=2"  # nothing listens on port 9
    with pytest.raises(StoreError) as refused:
        PostgresRoomStore(url)
    message = str(refused.value)
    assert "postgresql://huit@127.0.0.1:9/huit" in message and "s3cret" not in message
    assert "\n" not in message


def test_a_database_that_does_not_exist_is_a_store_error_saying_so(pg_url):
    url = _with_password(pg_url.replace("/huit_", "/nothing_", 1), "s3cret")
    with pytest.raises(StoreError) as refused:
        PostgresRoomStore(url)
    message = str(refused.value)
    assert redacted(url) in message and "does not exist" in message and "s3cret" not in message


# ---- the schema -------------------------------------------------------------------------------------------
def test_instances_starting_at_once_on_a_new_database_make_one_schema(pg_url):
    starts = 6
    barrier = threading.Barrier(starts)
    opened: list[PostgresRoomStore] = []
    failed: list[BaseException] = []

    def start() -> None:
        barrier.wait(10)
        try:
            opened.append(PostgresRoomStore(pg_url))
        except BaseException as exc:  # noqa: BLE001 - the test reports every failure
            failed.append(exc)

    threads = [threading.Thread(target=start) for _ in range(starts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert failed == [] and len(opened) == starts
        assert rows(pg_url, "SELECT version, compatible FROM huit_schema") == [(pg_schema.VERSION, 1)]
        tables = {t for (t,) in rows(pg_url, "SELECT table_name FROM information_schema.tables "
                                             "WHERE table_schema = current_schema()")}
        assert tables == {*pg_schema.TABLES, pg_schema.META}
        keys = {store.news_key for store in opened}  # one secret signs every instance's news
        assert len(keys) == 1 and None not in keys and rows(pg_url, "SELECT count(*) FROM news_key") == [(1,)]
        opened[0].add(_room(), 1.0)
        assert all(store.exists("room-0001") for store in opened)
    finally:
        for store in opened:
            store.close()


def test_a_database_already_at_this_version_opens_as_it_is(pg_url):
    PostgresRoomStore(pg_url).close()
    run(pg_url, "INSERT INTO profiles VALUES ('p', 'Ana', 1, 1.0, 1.0, 'AAAAAA', 'ana')")
    store = PostgresRoomStore(pg_url)
    try:
        assert store.profile("p").name == "Ana" and store.schema == pg_schema.VERSION
    finally:
        store.close()


def test_a_newer_schema_this_server_can_still_use_is_used_during_a_rolling_upgrade(pg_url):
    PostgresRoomStore(pg_url).close()
    newer = pg_schema.VERSION + 1
    run(pg_url, f"UPDATE huit_schema SET version = {newer}, compatible = {pg_schema.VERSION}")
    run(pg_url, "ALTER TABLE rooms ADD COLUMN later TEXT")  # what the newer version added
    store = PostgresRoomStore(pg_url)
    try:
        assert store.schema == newer
        store.add(_room(), 1.0)
        assert [r.room_id for r in store.load()[0]] == ["room-0001"]
    finally:
        store.close()
    assert rows(pg_url, "SELECT version FROM huit_schema") == [(newer,)]  # never brought down


def test_a_newer_schema_older_servers_cannot_use_is_refused_and_left_untouched(pg_url):
    PostgresRoomStore(pg_url).close()
    newer = pg_schema.VERSION + 2
    run(pg_url, f"UPDATE huit_schema SET version = {newer}, compatible = {newer - 1}")
    with pytest.raises(StoreError) as refused:
        PostgresRoomStore(_with_password(pg_url, "s3cret"))
    message = str(refused.value)
    assert f"version {newer}" in message and "newer Huit" in message and "s3cret" not in message
    assert rows(pg_url, "SELECT version, compatible FROM huit_schema") == [(newer, newer - 1)]


def test_a_database_holding_other_tables_named_like_huits_is_refused_and_not_filled(pg_url):
    run(pg_url, "CREATE TABLE rooms (id TEXT PRIMARY KEY, everything TEXT)")
    with pytest.raises(StoreError, match="not Huit's"):
        PostgresRoomStore(pg_url)
    assert rows(pg_url, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = "
                        "current_schema()") == [(1,)]


def test_a_database_at_this_version_missing_a_table_is_refused(pg_url):
    PostgresRoomStore(pg_url).close()
    run(pg_url, "DROP TABLE wallets")
    with pytest.raises(StoreError, match="its wallets table is missing"):
        PostgresRoomStore(pg_url)


def test_a_database_of_every_earlier_version_is_brought_to_this_one_keeping_its_rooms(pg_server, monkeypatch):
    every = pg_schema.MIGRATIONS
    assert [m.version for m in every] == list(range(1, pg_schema.VERSION + 1))
    for version in range(1, pg_schema.VERSION):
        url = pg_server.database()
        try:
            monkeypatch.setattr(pg_schema, "MIGRATIONS", every[:version])  # an older server's
            monkeypatch.setattr(pg_schema, "VERSION", version)
            older = PostgresRoomStore(url)
            older.add(_room(), 1.0)
            older.close()
            monkeypatch.undo()
            store = PostgresRoomStore(url)
            try:
                assert store.schema == pg_schema.VERSION
                assert [r.room_id for r in store.load()[0]] == ["room-0001"]
            finally:
                store.close()
            assert rows(url, "SELECT version FROM huit_schema") == [(pg_schema.VERSION,)]
        finally:
            pg_server.drop(url)


def test_a_migration_cut_short_leaves_the_database_as_it_was(pg_url, monkeypatch):
    last = pg_schema.MIGRATIONS[-1]
    broken = pg_schema.Migration(last.version, last.compatible, last.sql + "\nSELECT no_such_function();")
    monkeypatch.setattr(pg_schema, "MIGRATIONS", (*pg_schema.MIGRATIONS[:-1], broken))
    with pytest.raises(StoreError, match="no_such_function"):
        PostgresRoomStore(pg_url)
    assert rows(pg_url, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = "
                        "current_schema()") == [(0,)]
    monkeypatch.undo()
    PostgresRoomStore(pg_url).close()  # the next start makes it whole


# ---- a lost connection -------------------------------------------------------------------------------------
def _terminate_others(url: str) -> int:
    """Kill every other session on the database (as a restart of PostgreSQL would); how many."""
    return len(rows(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = current_database() AND pid != pg_backend_pid()"))


def test_a_killed_connection_is_replaced_and_the_next_calls_work(pg_url):
    store = PostgresRoomStore(pg_url)
    try:
        room = _room()
        store.add(room, 1.0)
        assert _terminate_others(pg_url) >= 1
        store.append(room, LogEntry("start"), 2.0)  # a write on a fresh connection
        assert room.log_length == 1 and store.exists("room-0001")
        assert _terminate_others(pg_url) >= 1
        (loaded,), _ = store.load()
        assert loaded.log_length == 1
    finally:
        store.close()


# ---- notifications --------------------------------------------------------------------------------------
def test_every_change_to_a_room_is_notified_once_committed_with_the_room_and_its_revision(pg_url):
    store = PostgresRoomStore(pg_url)
    heard: list[str] = []
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        try:
            room = _room()
            store.add(room, 1.0)
            store.append(room, LogEntry("start"), 2.0)
            store.save_seats(room, 3.0)
            store.delete("room-0001")
            store.delete("room-0001")  # nothing deleted: nothing told
            while len(heard) < 4 and select.select([listener.fileno()], [], [], 5)[0]:
                heard += [n.payload for n in listener.notifies(timeout=0.5, stop_after=4 - len(heard))]
        finally:
            store.close()
    assert heard[0] == "room-0001 0" and heard[2:] == ["room-0001 2", "room-0001 -1"]
    assert heard[1].startswith('room-0001 1 [0,"start",null,"",')  # then its signature (`pg_news`)


# ---- serve --db postgresql:// --------------------------------------------------------------------------
def _serve(url: str) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    server = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--think-scale", "0", "--search-workers", "1", "--db", url],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.match(r"Huit server on 127\.0\.0\.1:(\d+) \(instance [^)]+\), rooms in (\S+);", line)
    if found is None:
        server.kill()
        raise AssertionError(f"the server did not start: {line!r} {server.communicate(timeout=30)}")
    assert found.group(2) == redacted(url) and "s3cret" not in line
    return server, int(found.group(1))


def _stop(server: subprocess.Popen[str]) -> str:
    server.send_signal(signal.SIGTERM)
    out, errors = server.communicate(timeout=30)
    assert server.returncode == 0, errors
    return out + errors


def test_serve_on_a_postgresql_url_keeps_its_rooms_across_a_restart(pg_url):
    url = _with_password(pg_url, "s3cret")  # trusted by the scratch server; never to be printed
    server, port = _serve(url)
    try:
        ana, ben = Peer(port), Peer(port, 1)
        assert ana.create("duel", [HUMAN, HUMAN], name="Ana")["type"] == "joined"
        assert ben.join(ana.room_id, name="Ben")["type"] == "joined"
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update")
            peer.drain(0.1)
        actor = ana if ana.my_turn else ben
        assert actor.play_one()["type"] == "update"
        if actor is ben:
            ana.until(lambda m: m["type"] == "update")
        seen = ana.view
        keys = (ana.room_id, ana.key)
        ana.close(), ben.close()
    finally:
        printed = _stop(server)
    assert "s3cret" not in printed
    server, port = _serve(url)
    try:
        again = Peer(port)
        assert again.join(keys[0], seat=0, key=keys[1])["type"] == "joined"
        again.until(lambda m: m["type"] == "update")
        shown = ("hand", "to_act", "legal")
        assert [again.view[k] for k in shown] == [seen[k] for k in shown]
        again.close()
    finally:
        printed = _stop(server)
    assert "s3cret" not in printed
    (room,), broken = PostgresRoomStore(pg_url).load()
    assert broken == [] and room.room_id == keys[0] and room.log_length == 2  # started, one action


def test_serve_refuses_a_postgresql_database_it_cannot_use_in_one_line(pg_url):
    PostgresRoomStore(pg_url).close()
    run(pg_url, "UPDATE huit_schema SET version = 99, compatible = 99")
    url = _with_password(pg_url, "s3cret")
    done = subprocess.run([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                           "--db", url], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("python main.py serve: error: ") and redacted(url) in lines[0]
    assert "s3cret" not in done.stderr + done.stdout and "version 99" in lines[0]


def test_every_connection_of_the_pool_is_open_from_the_start_so_the_loop_never_waits_for_one_made(pg_url):
    # The pool grows one connection at a time, its waiters served in turn: a burst of thread commits
    # on a pool opened small would queue ahead of the event loop's own call (review of issue 33's
    # off-loop commits, finding 5). Opened whole, the threads always leave the loop a connection.
    store = PostgresRoomStore(pg_url, max_connections=4)
    try:
        assert store.pool.get_stats()["pool_size"] == 4
        assert store.pool.min_size == store.pool.max_size == 4
        assert store.worker_threads() < store.max_connections
    finally:
        store.close()
