"""Quick match across instances: one queue in PostgreSQL, two players on different instances seated
together (issue 33), and the ticket store's protocol on memory and PostgreSQL.

Servers are threads (`net_support.start_server`) on one real PostgreSQL database (the ``pg_url``
fixture: `tools.scratch_pg`, skipped with a reason where none can be had)."""

from __future__ import annotations

import json
import time

import pytest

from game.engine import preset
from game.net.profiles import player_id
from game.net.ticket_store import MemoryTicketStore, TicketRow, queue_hash
from game.net.wire import rules_to_json
from tests.net_support import Peer, on_loop, person, play_until, ranked_server, start_server, wait_for
from tests.pg_support import rows, run

DUEL = (json.dumps(rules_to_json(preset("duel")), sort_keys=True), 2)  # the duel's queue, as tickets name it
CLASSIC = (json.dumps(rules_to_json(preset("classic")), sort_keys=True), 2)


# ---- the ticket store, on memory and on PostgreSQL ---------------------------------------------------
@pytest.fixture(params=["memory", "postgres"])
def tickets(request):
    """A `TicketStore` of each kind, and ``heard(seconds)``: the signals its committed decisions sent
    so far (on PostgreSQL, read by a LISTENing connection of its own, waiting that long for one, and
    signed with the database's key)."""
    if request.param == "memory":
        sent: list[tuple[str, str]] = []
        yield MemoryTicketStore(lambda kind, text: sent.append((kind, text))), lambda seconds: list(sent)
        return
    import psycopg

    from game.net.pg_signals import read_signal
    from game.net.pg_tickets import PgTicketStore
    from game.net.pgcluster import CHANNEL
    from game.net.stores import open_store

    url = request.getfixturevalue("pg_url")
    open_store(url).close()  # the schema, as the server's store makes it
    store = PgTicketStore(url)
    listener = psycopg.connect(url, autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    found: list[tuple[str, str]] = []

    def heard(seconds: float) -> list[tuple[str, str]]:
        for note in listener.notifies(timeout=seconds, stop_after=1):
            kind, _, what = note.payload.removeprefix("!").partition(" ")
            text, signed = read_signal(kind, what, store.key)
            assert signed, note.payload  # signed with the database's key, as an instance hears it
            found.append((kind, text))
        return list(found)

    yield store, heard
    listener.close()
    store.close()


def ticket(player: str, instance: str = "a", since: float = 0.0, queue=DUEL, computers=False) -> TicketRow:
    return TicketRow(player, f"{player}-{instance}-{since:g}", instance, queue[0], queue[1], computers, 60.0,
                     since, "10.0.0.1", player.title(),
                     1, "TAG")


def test_a_players_second_ticket_replaces_the_first_wherever_it_was(tickets):
    store, _ = tickets
    assert store.put(ticket("ana", "a")) is None
    replaced = store.put(ticket("ana", "b", since=5.0))
    assert replaced == ticket("ana", "a")
    assert store.count(DUEL, {"a", "b"}) == 1
    assert not store.drop("ana", "ana-a-0")  # replaced: that request is no longer
    assert store.drop("ana", "ana-b-5") and store.count(DUEL, {"a", "b"}) == 0


def test_only_tickets_of_living_instances_count_and_are_seated(tickets):
    store, _ = tickets
    store.put(ticket("ana", "dead", since=1.0))
    store.put(ticket("ben", "a", since=2.0))
    store.put(ticket("cid", "b", since=3.0, queue=CLASSIC))
    assert store.count(DUEL, {"a", "b"}) == 1
    assert [r.player for r in store.waiting(DUEL, {"a", "b"})] == ["ben"]
    with store.forming(DUEL, {"a", "b"}) as forming:
        assert [r.player for r in forming.rows] == ["ben"]
    assert store.count(DUEL, {"a", "b", "dead"}) == 1  # the dead instance's ticket is gone for good
    assert store.count(CLASSIC, {"b"}) == 1


def test_an_instance_whose_view_of_the_living_fell_short_deletes_no_living_instances_tickets(pg_url):
    import psycopg

    from game.net.pg_tickets import PgTicketStore
    from game.net.pgcluster import NAME_PREFIX
    from game.net.stores import open_store

    open_store(pg_url).close()
    store = PgTicketStore(pg_url)
    other = psycopg.connect(pg_url, autocommit=True, application_name=NAME_PREFIX + "b")  # b lives
    try:
        store.put(ticket("ben", "b"))
        store.put(ticket("dan", "dead", since=1.0))
        assert store.count(DUEL, {"a"}) == 1  # a's connection failed: it names itself only
        with store.forming(DUEL, {"a"}) as forming:
            assert [r.player for r in forming.rows] == ["ben"]
    finally:
        other.close()
        store.close()


def test_a_decision_deletes_its_tickets_and_sends_its_signals_when_it_commits_and_not_before(tickets):
    store, heard = tickets
    for i, name in enumerate(["ana", "ben", "cid"]):
        store.put(ticket(name, "a", since=float(i)))
    with store.forming(DUEL, {"a"}) as forming:
        assert [r.player for r in forming.rows] == ["ana", "ben", "cid"]  # the oldest first
        forming.take(["ana", "ben"])
        forming.signal("seat", "ana room 0 key a")
        assert store.count(DUEL, {"a"}) == 3 and heard(0.1) == []
    assert store.count(DUEL, {"a"}) == 1
    assert heard(5.0) == [("seat", "ana room 0 key a")]


def test_a_decision_that_fails_changes_nothing_and_says_nothing(tickets):
    store, heard = tickets
    store.put(ticket("ana"))
    store.put(ticket("ben", since=1.0))
    with pytest.raises(RuntimeError), store.forming(DUEL, {"a"}) as forming:
        forming.take(["ana", "ben"])
        forming.signal("seat", "ana room 0 key a")
        raise RuntimeError("the room could not be made")
    assert store.count(DUEL, {"a"}) == 2 and heard(0.1) == []


def test_the_queue_names_in_signals_are_short_and_tell_queues_apart():
    assert len(queue_hash(DUEL)) == 16 and queue_hash(DUEL) != queue_hash((DUEL[0], 3))


# ---- instances on one database ---------------------------------------------------------------------
@pytest.fixture
def three(pg_url, clock):
    """Three instances (server threads) on one fresh database, on one manual clock."""
    servers = [start_server(pg_url, clock=clock, burst=10_000.0) for _ in range(3)]
    yield servers
    for server in servers:
        server.stop()


def player(server, name: str, seed: int = 0, key: str | None = None) -> Peer:
    peer = Peer(server.port, seed)
    assert peer.hello(name, key=key)["type"] == "profile"
    return peer


def queued(peer: Peer, **fields) -> dict:
    peer.send(type="queue", **fields)
    return peer.until(lambda m: m["type"] in ("queued", "joined", "error"))


def stored_tickets(url: str) -> list[tuple]:
    return rows(url, "SELECT player, instance FROM tickets ORDER BY player")


def test_two_players_queueing_on_different_instances_are_seated_together_and_play_to_the_end(three, pg_url):
    a, b, _ = three
    ana, ben = player(a, "Ana", 1), player(b, "Ben", 2)
    first = queued(ana, preset="duel", players=2)
    assert first["type"] == "queued" and first["waiting"] == 1
    assert stored_tickets(pg_url) == [(player_id(ana.player_key), a.server.cluster.instance)]
    joined = queued(ben, preset="duel", players=2)  # Ana waits on the other instance
    assert joined["type"] == "joined" and joined["key"]
    ana.until(lambda m: m["type"] == "joined")
    assert ana.key and ana.key != ben.key
    assert ana.room_id == ben.room_id and {ana.seat, ben.seat} == {0, 1}
    assert stored_tickets(pg_url) == []
    for peer in (ana, ben):
        status = peer.until(lambda m: m["type"] == "room")
        assert status["kind"] == "quick" and status["state"] == "playing"
        assert sorted(s["name"] for s in status["seats"]) == ["Ana", "Ben"]
    play_until([ana, ben], lambda: ana.view is not None and ana.view["status"] == "match_over")
    assert wait_for(lambda: ben.drain(0.02) or (ben.view is not None and ben.view["status"] == "match_over"))
    for peer in (ana, ben):
        assert not [f for f in peer.frames if '"type": "error"' in f or '"type":"error"' in f]


def test_three_players_on_three_instances_are_seated_at_one_table(three):
    peers = [player(server, name, i) for i, (server, name) in enumerate(zip(three, ["Ana", "Ben", "Cid"],
                                                                            strict=True))]
    assert queued(peers[0], preset="points", players=3)["waiting"] == 1
    assert queued(peers[1], preset="points", players=3)["waiting"] == 2
    peers[0].until(lambda m: m["type"] == "queued" and m["waiting"] == 2)  # told of the other instance's
    assert queued(peers[2], preset="points", players=3)["type"] == "joined"
    for peer in peers[:2]:
        peer.until(lambda m: m["type"] == "joined")
    assert len({p.room_id for p in peers}) == 1 and sorted(p.seat for p in peers) == [0, 1, 2]
    for peer in peers:
        peer.until(lambda m: m["type"] == "update")
    mover = next(p for p in peers if p.my_turn)
    assert mover.play_one()["type"] == "update"


def test_a_player_who_unqueues_is_never_seated_from_another_instance(three, pg_url):
    a, b, _ = three
    ana, ben = player(a, "Ana"), player(b, "Ben")
    queued(ana, preset="duel", players=2)
    ana.send(type="unqueue", ref="u")
    assert ana.until(lambda m: m.get("ref") == "u")["type"] == "unqueued"
    assert stored_tickets(pg_url) == []
    assert queued(ben, preset="duel", players=2)["waiting"] == 1
    ana.drain(0.2)
    assert ana.room_id == "" and ben.room_id == ""


def test_a_stopped_instances_player_no_longer_waits_in_the_queue(pg_url, clock):
    a, b = (start_server(pg_url, clock=clock, burst=10_000.0) for _ in range(2))
    try:
        ana = player(b, "Ana")
        queued(ana, preset="duel", players=2)
        b.stop()
        assert not b.is_alive()
        assert stored_tickets(pg_url) == []
        # A killed instance cannot delete its tickets: a ticket of an instance that lives no more
        # is never matched, and goes with the next table decided.
        run(pg_url, "INSERT INTO tickets VALUES (?, 't1', 'killed-1', ?, 2, FALSE, 60, 0, '10.0.0.9', 'Gus', "
                    "1, 'T')", ("ghost", DUEL[0]))
        ben = player(a, "Ben")
        status = queued(ben, preset="duel", players=2)
        assert status["type"] == "queued" and status["waiting"] == 1
        cid = player(a, "Cid")
        assert queued(cid, preset="duel", players=2)["type"] == "joined"  # with Ben, not the ghost
        ben.until(lambda m: m["type"] == "joined")
        assert ben.room_id == cid.room_id and stored_tickets(pg_url) == []
    finally:
        a.stop()
        if b.is_alive():
            b.stop()


def test_computers_fill_a_table_of_players_waiting_on_two_instances_when_a_wait_runs_out(three, clock):
    a, b, _ = three
    ana, ben = player(a, "Ana"), player(b, "Ben")
    queued(ana, preset="points", players=3, computers=True, wait=30)
    clock.advance(10)
    queued(ben, preset="points", players=3, computers=True, wait=300)
    clock.advance(20)  # Ana's wait runs out on her instance: it seats Ben too
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "joined")
    assert ana.room_id == ben.room_id
    status = ben.until(lambda m: m["type"] == "room")
    assert [s["kind"] for s in status["seats"]] == ["human", "human", "computer"]


def test_one_player_key_queueing_on_two_instances_holds_one_ticket(three, pg_url):
    a, b, c = three
    ana = player(a, "Ana")
    queued(ana, preset="duel", players=2)
    again = player(b, "", key=ana.player_key)  # the same player on another instance
    status = queued(again, preset="duel", players=2)
    assert status["type"] == "queued" and status["waiting"] == 1  # never matched with herself
    assert ana.until(lambda m: m["type"] == "unqueued")
    assert stored_tickets(pg_url) == [(player_id(ana.player_key), b.server.cluster.instance)]
    ben = player(c, "Ben")
    assert queued(ben, preset="duel", players=2)["type"] == "joined"
    again.until(lambda m: m["type"] == "joined")
    ana.drain(0.2)
    assert ana.room_id == "" and again.room_id == ben.room_id


def test_queueing_and_unqueueing_as_fast_as_allowed_across_instances_leaves_one_ticket_at_most(three, pg_url):
    a, b, c = three
    conns = [player(a, "Ana")]
    conns.append(player(b, "", key=conns[0].player_key))  # one player on two instances
    for i in range(60):  # bounded: 60 requests, alternating instances
        if i % 3 == 2:
            conns[i % 2].send(type="unqueue")
        else:
            conns[i % 2].send(type="queue", preset="duel", players=2)
    for peer in conns:
        peer.send(type="ping", ref="p")
        peer.until(lambda m: m.get("ref") == "p")  # every request handled (the signals may be on their way)

    def settled() -> bool:
        held = [t for t in (a, b) if len(t.server.queues)]
        return len(stored_tickets(pg_url)) == len(held) <= 1
    assert wait_for(settled), (stored_tickets(pg_url), [(t.server.cluster.instance, dict(t.server.queues.ids))
                                                        for t in (a, b)])
    waiting = [peer for peer, t in zip(conns, (a, b), strict=True) if len(t.server.queues)]
    ben = player(c, "Ben")
    result = queued(ben, preset="duel", players=2)
    if waiting:  # her one ticket left: Ben is seated with that connection, and no other
        assert result["type"] == "joined"
        waiting[0].until(lambda m: m["type"] == "joined")
        assert waiting[0].room_id == ben.room_id
    else:
        assert result["type"] == "queued" and result["waiting"] == 1
    assert len(rows(pg_url, "SELECT id FROM rooms")) == len(waiting)
    for peer in [*conns, ben]:  # (a client that stops reading holds its server's stop for 10 s)
        peer.drain(0.1)
        peer.close()


def test_a_seat_whose_player_left_as_their_table_was_decided_goes_to_a_computer_at_once(three, pg_url):
    a, b, _ = three
    ana, ben = player(a, "Ana", 1), player(b, "Ben", 2)
    queued(ana, preset="duel", players=2)
    ana_id = player_id(ana.player_key)
    server_a = a.server
    done: list[bool] = []

    def leave_while_seated() -> None:
        # On Ana's instance, nothing else runs: Ben's instance decides the table meanwhile, and only
        # then does Ana's connection leave the queue (its seat's signal is heard after).
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and rows(pg_url, "SELECT 1 FROM tickets WHERE player = ?",
                                                   (ana_id,)):
            time.sleep(0.01)
        client = server_a.queues.by_player[ana_id].client
        server_a.queues.remove(client)
        done.append(True)

    server_a.driving.loop.call_soon_threadsafe(leave_while_seated)
    assert queued(ben, preset="duel", players=2)["type"] == "joined"
    assert wait_for(lambda: bool(done))
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][1 - ben.seat]["kind"] == "computer")
    assert status["state"] == "playing"
    play_until([ben], lambda: ben.view is not None and ben.view["status"] != "playing")
    ana.drain(0.2)
    assert ana.room_id == ""


def test_the_ticket_of_a_player_on_a_killed_instance_is_never_matched(pg_url, tmp_path):
    from tests.instance_support import Instance

    doomed = Instance(pg_url, tmp_path / "doomed").start()
    survivor = start_server(pg_url)
    try:
        ana = player(doomed, "Ana")
        assert queued(ana, preset="duel", players=2)["type"] == "queued"
        assert len(stored_tickets(pg_url)) == 1
        doomed.kill()  # SIGKILL: it deletes nothing
        assert len(stored_tickets(pg_url)) == 1
        ben = player(survivor, "Ben")
        status = queued(ben, preset="duel", players=2)
        assert status["type"] == "queued" and status["waiting"] == 1
        assert rows(pg_url, "SELECT id FROM rooms") == []
        cid = player(survivor, "Cid")
        assert queued(cid, preset="duel", players=2)["type"] == "joined"  # with Ben, not Ana
        ben.until(lambda m: m["type"] == "joined")
        assert ben.room_id == cid.room_id
        assert stored_tickets(pg_url) == []  # the dead instance's ticket went with the table decided
    finally:
        doomed.stop()
        survivor.stop()


def test_a_database_of_schema_1_gains_the_queue_when_a_newer_instance_starts(pg_url):
    from game.net import pg_schema
    from game.net.stores import open_store

    open_store(pg_url).close()
    run(pg_url, "DROP TABLE tickets")
    run(pg_url, "DROP TABLE requests")
    run(pg_url, "DROP TABLE news_key")
    run(pg_url, "UPDATE huit_schema SET version = 1, compatible = 1")  # as version 1 left it
    open_store(pg_url).close()
    assert rows(pg_url, "SELECT version, compatible FROM huit_schema") == [(pg_schema.VERSION, 1)]
    assert rows(pg_url, "SELECT count(*) FROM tickets") == [(0,)]


def test_players_queueing_at_once_on_three_instances_are_each_seated_once(three, pg_url):
    peers = [player(server, f"P{i}", i) for i, server in enumerate(three * 2)]
    for peer in peers:  # all at once: the instances decide tables of one queue side by side
        peer.send(type="queue", preset="duel", players=2)
    for peer in peers:
        peer.until(lambda m: m["type"] == "joined")
    rooms: dict[str, list[int]] = {}
    for peer in peers:
        rooms.setdefault(peer.room_id, []).append(peer.seat)
    assert sorted(sorted(seats) for seats in rooms.values()) == [[0, 1]] * 3
    assert stored_tickets(pg_url) == [] and len(rows(pg_url, "SELECT id FROM rooms")) == 3
    for peer in peers:
        peer.drain(0.1)
        assert sum(f.count('"type": "joined"') + f.count('"type":"joined"') for f in peer.frames) == 1


def test_a_ranked_quick_match_across_instances_counts_each_players_points_once(pg_url, clock):
    servers = [ranked_server(pg_url, clock) for _ in range(2)]
    try:
        ana = person(servers[0].port, "Ana", "203.0.113.1", 18)
        ben = person(servers[1].port, "Ben", "203.0.113.2", 19)
        for peer in (ana, ben):
            peer.send(type="queue", preset="duel", players=2)
        for peer in (ana, ben):
            assert peer.until(lambda m: m["type"] == "room")["ranked"] is True
        play_until([ana, ben], lambda: all(p.view is not None and p.view["status"] == "match_over"
                                           for p in (ana, ben)), accept_deals=False)
        for peer in (ana, ben):  # each hears what they earned, from their own instance
            assert wait_for(lambda p=peer: p.drain(0.02) or (p.room or {}).get("earned") is not None)
            assert peer.room is not None and peer.room["state"] == "match_over"
        assert sorted(p for (p,) in rows(pg_url, "SELECT player FROM ranked")) == sorted(
            player_id(p.player_key) for p in (ana, ben))
    finally:
        for server in servers:
            server.stop()


def test_everyone_waiting_hears_how_many_wait_on_every_instance(three):
    a, b, _ = three
    ana, cid, ben = player(a, "Ana"), player(a, "Cid"), player(b, "Ben")

    def hears(peer: Peer, waiting: int) -> None:  # (a count told twice as news crossed is no harm)
        peer.until(lambda m: m["type"] == "queued" and m["waiting"] == waiting)

    assert queued(ana, preset="colors", players=4)["waiting"] == 1
    assert queued(ben, preset="colors", players=4)["waiting"] == 2
    hears(ana, 2)
    assert queued(cid, preset="colors", players=4)["waiting"] == 3
    hears(ana, 3)
    hears(ben, 3)
    cid.close()  # leaving: told here and there
    hears(ana, 2)
    hears(ben, 2)


# ---- the shared queue on one server, with its tickets in memory ------------------------------------------
@pytest.fixture
def alone_shared(tmp_path, clock):
    """One server whose quick match is the shared queue, its tickets in memory (no database)."""
    from game.net.cluster import Alone

    cluster = Alone()
    server = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0, cluster=cluster,
                          tickets=MemoryTicketStore(cluster.signal))
    yield server
    server.stop()


def test_the_shared_queue_alone_seats_and_fills_with_computers_like_the_memory_queue(alone_shared, clock):
    ana, ben, cid = player(alone_shared, "Ana"), player(alone_shared, "Ben"), player(alone_shared, "Cid")
    assert queued(ana, preset="duel", players=2)["waiting"] == 1
    assert queued(ben, preset="duel", players=2)["type"] == "joined"
    ana.until(lambda m: m["type"] == "joined")
    assert ana.room_id == ben.room_id and {ana.seat, ben.seat} == {0, 1}
    queued(cid, preset="colors", players=4, computers=True, wait=30)
    clock.advance(29)
    cid.drain(0.2)
    assert cid.room_id == ""
    clock.advance(1)
    cid.until(lambda m: m["type"] == "joined")
    status = cid.until(lambda m: m["type"] == "room")
    assert [s["kind"] for s in status["seats"]] == ["human", "computer", "computer", "computer"]
    assert len(alone_shared.server.queues) == 0


def test_a_ticket_gone_while_its_instance_was_deaf_is_told_unqueued_when_it_listens_again(three, pg_url):
    # An overloaded instance that stops hearing its own news listens again (`pgcluster.DEAF_AFTER`);
    # what the others signalled meanwhile is lost: here the `unqueue` of a ticket replaced elsewhere.
    # Without a check its player waited for ever, queued on an instance the database knew nothing of.
    a, b, _ = three
    ana, cid = player(a, "Ana", 1), player(a, "Cid", 3)
    assert queued(ana, preset="duel", players=2)["type"] == "queued"
    assert queued(cid, preset="classic", players=4)["type"] == "queued"
    run(pg_url, "DELETE FROM tickets WHERE player = ?", (player_id(ana.player_key),))  # replaced elsewhere
    on_loop(a, a.server.cluster._lost)  # what the cluster calls once it listens again
    assert ana.until(lambda m: m["type"] == "unqueued")
    assert player_id(ana.player_key) not in a.server.queues.by_player
    assert player_id(cid.player_key) in a.server.queues.by_player  # Cid's ticket is there: he waits on
    assert [p for p, _ in stored_tickets(pg_url)] == [player_id(cid.player_key)]
    assert queued(ana, preset="duel", players=2)["type"] == "queued"  # she may queue again
    for peer in (ana, cid):
        peer.drain(0.1)
        peer.close()
