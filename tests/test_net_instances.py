"""Several room servers on one PostgreSQL database: any instance serves any room (issue 33).

Each test starts real servers on a real PostgreSQL (`tools.scratch_pg`, through the ``pg_url``
fixture: skipped with a reason where none can be had) and real clients on 127.0.0.1; those
that kill an instance with SIGKILL run them as processes (`instance_support.Instance`)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from game.engine import parse_action
from game.net.clock import SystemClock
from game.net.expiry import SWEEP
from game.net.pgcluster import PgCluster
from game.net.protocol import Refusal
from game.net.ranking import ABANDON_AFTER, PENALTY
from game.net.requests import REACTIONS
from game.net.roomservice import Outdated
from game.net.stores import open_store
from game.net.wire import view_to_json
from tests.instance_support import Instance, lease_holder
from tests.net_support import Peer, on_loop, person, play_until, ranked_server, start_server, wait_for
from tests.test_net_web import get

HUMAN = {"kind": "human"}
MEDIUM = {"kind": "computer", "level": "medium"}


@pytest.fixture
def two(pg_url):
    """Two instances (server threads) on one fresh database."""
    servers = [start_server(pg_url), start_server(pg_url)]
    yield servers
    for server in servers:
        server.stop()


def stored_view(url: str, room_id: str, seat: int) -> dict:
    """The room as its stored log replays it, seen from ``seat`` (the view its client last saw)."""
    store = open_store(url)
    try:
        room = store.room(room_id)
    finally:
        store.close()
    assert room is not None and room.match is not None
    return json.loads(json.dumps(view_to_json(room.match.view(seat))))


def test_every_instance_of_a_postgresql_database_is_one_of_a_cluster(two):
    for thread in two:
        assert isinstance(thread.server.cluster, PgCluster)
    assert two[0].server.cluster.instance != two[1].server.cluster.instance
    assert two[0].server.cluster.living() == two[1].server.cluster.living()


def test_a_duel_is_played_by_two_players_connected_to_two_instances(two, pg_url):
    ana, ben = Peer(two[0].port, 1), Peer(two[1].port, 2)
    assert ana.create("duel", [HUMAN, HUMAN], name="Ana")["type"] == "joined"
    assert ben.join(ana.room_id, name="Ben")["type"] == "joined"  # a room the other instance made
    ana.until(lambda m: m["type"] == "update")
    ben.until(lambda m: m["type"] == "update")
    play_until([ana, ben], lambda: ana.view is not None and ana.view["status"] != "playing")
    for peer in (ana, ben):
        assert wait_for(lambda p=peer: p.drain(0.02) or p.view == stored_view(pg_url, ana.room_id, p.seat))
        assert peer.view["status"] != "playing"
        assert not [f for f in peer.frames if '"type":"error"' in f.replace(" ", "")]
        peer.close()


def test_a_player_reconnecting_to_another_instance_mid_turn_finds_their_seat_and_plays_on(two, pg_url):
    ana, ben = Peer(two[0].port, 1), Peer(two[0].port, 2)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    ben.join(ana.room_id, name="Ben")
    play_until([ana, ben], lambda: ana.view is not None and ana.view["turn_no"] >= 4 and ana.my_turn)
    ana.close()  # mid-turn, on the first instance
    back = Peer(two[1].port, 3)
    assert back.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
    back.until(lambda m: m["type"] == "update")
    assert back.my_turn and back.view == stored_view(pg_url, ana.room_id, ana.seat)
    answer = back.play_one()
    assert answer["type"] == "update", answer
    # The other instance hears of it from the database and tells its player.
    assert wait_for(lambda: ben.drain(0.02) or ben.view == stored_view(pg_url, ana.room_id, ben.seat))
    back.close(), ben.close()


def test_two_instances_racing_one_action_apply_it_once_and_refuse_the_other_cleanly(two, pg_url):
    ana, ben = Peer(two[0].port, 1), Peer(two[0].port, 2)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    ana.until(lambda m: m["type"] == "update")
    ben.until(lambda m: m["type"] == "update")
    player = ana if ana.my_turn else ben
    action = parse_action(player.view["legal"][0])
    copies = [on_loop(thread, lambda t=thread: t.server.service.replicas.find(ana.room_id))
              for thread in two]
    assert copies[0].rev == copies[1].rev and copies[0] is not copies[1]
    start = threading.Barrier(2)

    def race(thread, room):
        async def work():
            start.wait(5)  # both instances decide on the same revision, then write at once
            service = thread.server.service
            for _ in range(3):  # as `RoomServer` handles a message again when it was outdated
                try:
                    async with service.locks.hold(room.room_id):
                        await service.act(room, player.seat, action)
                    return "applied"
                except Outdated:
                    continue
                except Refusal as exc:
                    return exc.code
            return "outdated"
        return work

    with ThreadPoolExecutor(2) as pool:
        results = sorted(pool.map(lambda pair: on_loop(pair[0], race(*pair)), zip(two, copies, strict=True)))
    assert results == ["applied", "illegal"]
    store = open_store(pg_url)
    try:
        room = store.room(ana.room_id)
    finally:
        store.close()
    assert room is not None and room.log_length == 2  # the start and the one action: never twice
    assert copies[0].match == copies[1].match == room.match
    ana.close(), ben.close()


def test_a_seat_taken_through_another_instance_closes_the_stale_connection(two):
    ana, ben = Peer(two[0].port, 1), Peer(two[0].port, 2)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    again = Peer(two[1].port, 3)
    assert again.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
    assert ana.until(lambda m: m["type"] == "error")["code"] == "replaced"
    again.close(), ben.close()


def test_a_public_room_made_on_one_instance_is_in_the_lobby_of_the_other(two):
    watcher = Peer(two[1].port, 5)
    watcher.hello("Watcher")
    watcher.send(type="lobby", on=True)
    watcher.until(lambda m: m["type"] == "lobby")
    owner = Peer(two[0].port, 6)
    owner.hello("Owner")
    assert owner.create("duel", [HUMAN, HUMAN], public=True)["type"] == "joined"
    listing = watcher.until(lambda m: m["type"] == "lobby" and m["rooms"])
    assert [r["room"] for r in listing["rooms"]] == [owner.room_id]
    owner.close(), watcher.close()


@pytest.mark.slow
def test_the_computers_and_clocks_go_on_elsewhere_when_the_instance_running_them_is_killed(pg_url, tmp_path):
    first = Instance(pg_url, tmp_path / "a").start()
    second = Instance(pg_url, tmp_path / "b").start()
    try:
        ana = Peer(first.port, 1)
        ana.create("classic", [HUMAN, MEDIUM, MEDIUM, HUMAN], options={"turn_seconds": 30})
        ben = Peer(second.port, 2)
        ben.join(ana.room_id)
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        assert wait_for(lambda: lease_holder(pg_url, ana.room_id) is not None, 10)
        holder = lease_holder(pg_url, ana.room_id)
        killed, survivor = (first, second) if holder and str(first.process.pid) in holder else (second, first)
        gone, stays = (ana, ben) if killed is first else (ben, ana)
        _computers_play_both(ana, ben, 6)
        killed.kill()
        gone.close()
        # The survivor takes the lease within a few beats, and its player and the computers play on.
        assert wait_for(lambda: lease_holder(pg_url, ana.room_id) not in (None, holder), 15)
        back = Peer(survivor.port, 3)
        assert back.join(ana.room_id, seat=gone.seat, key=gone.key)["type"] == "joined"
        back.until(lambda m: m["type"] == "update")
        stays.drain(0.2)
        before = stays.view["turn_no"]
        _computers_play_both(back, stays, 8)
        assert stays.view["turn_no"] > before
        for peer in (back, stays):
            peer.drain(0.3)
            assert peer.view == stored_view(pg_url, ana.room_id, peer.seat)  # every committed action kept
        back.close(), stays.close()
    finally:
        first.stop(), second.stop()


def _computers_play_both(one: Peer, other: Peer, turns: int, seconds: float = 40.0) -> None:
    """Both play (random legal moves) until the game went ``turns`` turns further or its deal ended."""
    one.drain(0.05)
    assert one.view is not None
    start = one.view["turn_no"]
    deadline = time.monotonic() + seconds
    play_until([one, other], lambda: one.view is not None and (one.view["turn_no"] >= start + turns
                                                               or one.view["status"] != "playing"),
               accept_deals=False, seconds=max(1.0, deadline - time.monotonic()))


def test_a_ranked_duel_across_two_instances_counts_its_points_and_tokens_once(pg_url):
    servers = [ranked_server(pg_url, SystemClock(), min_opponents=1) for _ in range(2)]
    try:
        ana = person(servers[0].port, "Ana", "203.0.113.1", 1)
        ben = person(servers[1].port, "Ben", "198.51.100.2", 2)
        ana.create("duel", [HUMAN, HUMAN], public=True)
        ben.send(type="lobby", watch=False)
        listing = ben.until(lambda m: m["type"] == "lobby" and m["rooms"])
        ben.join(listing["rooms"][0]["room"])  # listed by the other instance
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")
        assert ana.room["ranked"] is True
        play_until([ana, ben], lambda: all(p.view is not None and p.view["status"] == "match_over"
                                           for p in (ana, ben)), accept_deals=False)
        for peer in (ana, ben):  # both instances saw the end: each wrote what it had to, once
            if peer.room is None or peer.room["state"] != "match_over":
                peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over")
        with psycopg.connect(pg_url) as connection:
            lines = connection.execute("SELECT player, xp FROM ranked WHERE room = %s",
                                       (ana.room_id,)).fetchall()
            ratings = dict(connection.execute("SELECT player, xp FROM ratings WHERE games = 1").fetchall())
            games = connection.execute("SELECT SUM(games) FROM ratings").fetchone()[0]
            stakes = connection.execute("SELECT SUM(amount), COUNT(*) FROM stakes WHERE room = %s",
                                        (ana.room_id,)).fetchone()
        assert len(lines) == 2 and dict(lines) == ratings and games == 2
        assert stakes[1] == 2 and stakes[0] <= 0  # each stake moved once (the pot is shared, less any rake)
        for server in servers:  # either instance tells the same points
            assert Peer(server.port).hello(key=ana.player_key)["xp"] == {"duel": ratings[digest_of(ana)]}
        ana.close(), ben.close()
    finally:
        for server in servers:
            server.stop()


def digest_of(peer: Peer) -> str:
    """The player id the server keeps for ``peer`` (its player key's digest)."""
    from game.net.rooms import digest

    return digest(peer.player_key)


@pytest.mark.slow
def test_a_ranked_game_ending_as_its_instance_is_killed_counts_its_points_once(pg_url, tmp_path):
    flags = ("--think-scale", "0", "--rate", "10000", "--proxy-headers", "--trusted-proxy", "127.0.0.1")
    instances = [Instance(pg_url, tmp_path / name, *flags).start() for name in "ab"]
    try:
        ana = person(instances[0].port, "Ana", "203.0.113.1", 1)
        ben = person(instances[1].port, "Ben", "198.51.100.2", 2)
        ana.create("duel", [HUMAN, HUMAN], public=True)
        ben.join(ana.room_id)
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")

        def may_end(peer: Peer) -> bool:  # a card or two left, and one may be played
            view = peer.view
            return (view is not None and peer.my_turn and len(view["hand"]) <= 2
                    and any(a.startswith("play") for a in view["legal"]))

        deadline = time.monotonic() + 60
        while not (may_end(ana) or may_end(ben)):  # each move read by both before the next is chosen
            assert time.monotonic() < deadline and ana.view["status"] == "playing", "no end in sight"
            for peer in (ana, ben):
                peer.drain(0.005)
            mover = next((p for p in (ana, ben) if p.my_turn and not may_end(p)), None)
            if mover is not None:
                mover.play_one()
        ender = ana if may_end(ana) else ben
        other = ben if ender is ana else ana
        killed, survivor = (instances[0], instances[1]) if ender is ana else (instances[1], instances[0])
        ender.send(type="action", action=next(a for a in ender.view["legal"] if a.startswith("play")))
        killed.kill()  # as the game ends: its commit, its points, its news may or may not have gone out
        ender.close()
        address = "203.0.113.1" if ender is ana else "198.51.100.2"
        back = Peer(survivor.port, 3, address=address)
        assert back.join(ana.room_id, seat=ender.seat, key=ender.key)["type"] == "joined"
        back.until(lambda m: m["type"] == "update")
        play_until([back, other], lambda: back.view["status"] == "match_over" and other.view is not None
                   and other.view["status"] == "match_over", accept_deals=False)
        assert wait_for(lambda: _count(pg_url, "ranked", ana.room_id) == 2, 10)
        with psycopg.connect(pg_url) as connection:
            lines = dict(connection.execute("SELECT player, xp FROM ranked WHERE room = %s",
                                            (ana.room_id,)).fetchall())
            ratings = dict(connection.execute("SELECT player, xp FROM ratings").fetchall())
            games = connection.execute("SELECT SUM(games) FROM ratings").fetchone()[0]
        assert lines == ratings and games == 2 and _count(pg_url, "stakes", ana.room_id) == 2
        back.close(), other.close()
    finally:
        for instance in instances:
            instance.stop()


def _count(url: str, table: str, room_id: str) -> int:
    """The rows of ``table`` (ranked, stakes) written for the room."""
    with psycopg.connect(url) as connection:
        return connection.execute(f"SELECT COUNT(*) FROM {table} WHERE room = %s", (room_id,)).fetchone()[0]


def test_a_seat_abandoned_on_one_instance_is_voted_on_from_another_and_penalised_once(pg_url, clock):
    servers = [ranked_server(pg_url, clock, min_opponents=1) for _ in range(2)]
    try:
        ana = person(servers[0].port, "Ana", "203.0.113.1", 11)
        ben = person(servers[1].port, "Ben", "198.51.100.2", 12)
        ana.create("duel", [HUMAN, HUMAN], public=True)
        ben.join(ana.room_id)
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")
        seat = ana.seat
        ana.close()  # away from the first instance; Ben plays on through the second
        ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
        clock.advance(ABANDON_AFTER + 1)
        status = ben.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"), 15)
        assert status["seats"][seat]["kind"] == "computer"
        ben.send(type="vote", seat=seat, penalise=True)
        decided = ben.until(lambda m: m["type"] == "room" and m["votes"] and m["votes"][0]["penalised"])
        assert decided["votes"][0]["voted"] == [ben.seat]
        for server in servers:  # either instance tells the one penalty
            assert Peer(server.port).hello(key=ana.player_key)["xp"] == {"duel": -PENALTY}
        with psycopg.connect(pg_url) as connection:
            kinds = [row[0] for row in connection.execute(
                "SELECT kind FROM log WHERE room = %s ORDER BY seq", (ana.room_id,))]
        assert kinds.count("abandon") == 1 and kinds.count("vote") == 1
        ben.close()
    finally:
        for server in servers:
            server.stop()


def test_a_reaction_reaches_the_players_connected_to_other_instances(two):
    ana, ben = Peer(two[0].port, 1), Peer(two[1].port, 2)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    ana.until(lambda m: m["type"] == "update")
    ana.send(type="react", reaction=REACTIONS[0])
    for peer in (ana, ben):  # the sender's own bubble too
        heard = peer.until(lambda m: m["type"] in ("reaction", "error"), 20)
        assert heard.get("reaction") == REACTIONS[0] and heard["seat"] == ana.seat, heard
    ana.close(), ben.close()


def test_a_room_page_and_health_answer_on_every_instance(two):
    ana = Peer(two[0].port, 1)
    ana.create("duel", [HUMAN, HUMAN])
    names = set()
    for thread in two:
        status, _, page = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}")
        assert status == 200 and ana.room_id in page  # the second instance reads it from the database
        status, _, body = get(f"http://127.0.0.1:{thread.port}/health")
        assert status == 200 and json.loads(body)["ok"] is True
        names.add(json.loads(body)["instance"])
    assert len(names) == 2
    ana.close()


# ---- what the review of issue 33 found, replayed ---------------------------------------------------------
def test_a_player_stays_present_when_their_instances_database_connection_blinks(pg_url, clock):
    a, b = (ranked_server(pg_url, clock, min_opponents=1) for _ in range(2))
    try:
        ana = person(a.port, "Ana", "203.0.113.1", 1)
        ben = person(b.port, "Ben", "198.51.100.2", 2)
        ana.create("duel", [HUMAN, HUMAN], public=True)
        ben.join(ana.room_id)
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")
        with psycopg.connect(pg_url, autocommit=True) as connection:  # a restart, a failover, a blip
            connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE application_name = %s", ("huit:" + a.server.cluster.instance,))
        on_loop(b, b.server.cluster.beat)  # B sweeps the rows of instances it does not see living: A's
        # A's next beat makes its connection again and writes its people's presence back.
        assert wait_for(lambda: _present(pg_url, a.server.cluster.instance) == 1, 10)
        room_b = b.server.service.rooms[ana.room_id]
        assert wait_for(lambda: room_b.seats[ana.seat].connected, 5)
        clock.advance(ABANDON_AFTER + 1)
        ben.drain(0.5)
        assert not ben.room["seats"][ana.seat].get("abandoned")  # she never left
        ana.close(), ben.close()
    finally:
        a.stop(), b.stop()


def test_a_stale_copy_never_expires_a_room_played_on_through_another_instance(pg_url):
    a, b = start_server(pg_url, finished_expiry=1.0), start_server(pg_url, finished_expiry=1.0)
    try:
        ana = Peer(a.port, 1)
        ana.create("duel", [HUMAN, MEDIUM], name="Ana")
        room_id, key, seat = ana.room_id, ana.key, ana.seat
        play_until([ana], lambda: ana.view is not None and ana.view["status"] == "match_over",
                   accept_deals=False)
        ana.close()
        time.sleep(1.5)  # A's beat lets the lease go: A's copy hears no more of the room
        again = Peer(b.port, 1)  # the next deal through the other instance
        assert again.join(room_id, seat=seat, key=key)["type"] == "joined"
        again.until(lambda m: m["type"] == "update")
        again.send(type="accept_round")
        assert wait_for(lambda: again.drain(0.02) or again.view["status"] == "playing", 10)
        again.close()
        time.sleep(0.3)
        assert on_loop(a, a.server.expire) == []  # A's copy was match over: it looks again first
        time.sleep(1.2)
        assert on_loop(a, a.server.expire) == []
        store = open_store(pg_url)
        try:
            assert store.exists(room_id)
        finally:
            store.close()
    finally:
        a.stop(), b.stop()


def test_a_player_leaving_while_the_database_is_unreachable_is_taken_from_their_seat(pg_url, pg_server):
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(pg_url)["dbname"]
    a = start_server(pg_url)
    try:
        ana = Peer(a.port, 1)
        ana.create("duel", [HUMAN, MEDIUM], name="Ana")
        ana.until(lambda m: m["type"] == "update")
        room_id = ana.room_id
        with psycopg.connect(pg_server.url, autocommit=True) as connection:
            connection.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                               (name,))
        try:
            time.sleep(1.5)  # a beat finds the lease connection gone, and cannot make it again
            ana.close()
            assert wait_for(lambda: a.server.open_connections == 0, 5)  # counted out all the same
        finally:
            with psycopg.connect(pg_server.url, autocommit=True) as connection:
                connection.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        room = a.server.service.rooms[room_id]
        assert not a.server.service.seated.get(room_id) and not room.anyone_here
    finally:
        a.stop()


def test_an_expiry_sweep_the_database_refuses_is_tried_again_at_the_next(pg_url, clock):
    a = start_server(pg_url, clock=clock)
    try:
        sweeper = a.server.expiry._sweeper
        with psycopg.connect(pg_url) as connection:  # a lock held past the store's lock timeout
            connection.execute("LOCK TABLE rooms IN ACCESS EXCLUSIVE MODE")
            clock.advance(SWEEP + 1)
            time.sleep(3.0)
        assert not sweeper.done()
        Peer(a.port, 1).create("duel", [HUMAN, HUMAN])
        assert on_loop(a, a.server.expire) == []  # and sweeps go on
    finally:
        a.stop()


def _present(url: str, instance: str) -> int:
    """The presence rows of ``instance``."""
    with psycopg.connect(url) as connection:
        return connection.execute("SELECT COUNT(*) FROM presence WHERE instance = %s",
                                  (instance,)).fetchone()[0]


def test_news_of_an_older_connection_elsewhere_never_closes_the_newer_one_here(two):
    ana = Peer(two[0].port, 1)
    ana.create("duel", [HUMAN, HUMAN])
    service = two[0].server.service
    client = service.seated[ana.room_id][ana.seat]
    late = f"{ana.room_id} {ana.seat} elsewhere {client.seated_at - 0.5:.6f}"  # it bounced back here since
    on_loop(two[0], lambda: service._taken_elsewhere(late))
    assert service.seated[ana.room_id].get(ana.seat) is client
    newer = f"{ana.room_id} {ana.seat} elsewhere {client.seated_at + 0.5:.6f}"
    on_loop(two[0], lambda: service._taken_elsewhere(newer))
    assert ana.until(lambda m: m["type"] == "error")["code"] == "replaced"


def test_a_create_and_a_claim_retried_through_another_instance_find_their_seats_again(two):
    ana = Peer(two[0].port, 1)
    ana.hello("Ana")
    first = ana.create("duel", [HUMAN, HUMAN], request="create-request-1")
    ana.close()  # its answer "lost": the game retries with the same request id, through the other instance
    again = Peer(two[1].port, 1)
    again.hello(key=ana.player_key)
    retried = again.create("duel", [HUMAN, HUMAN], request="create-request-1")
    assert (retried["room"], retried["seat"]) == (first["room"], first["seat"])
    assert retried["key"] != first["key"]
    assert Peer(two[0].port, 2).join(first["room"], seat=first["seat"], key=first["key"])["code"] == "bad_key"
    ben = Peer(two[0].port, 3)
    claimed = ben.join(first["room"], request="claim-request-1")
    assert claimed["type"] == "joined", claimed
    ben.close()
    ben_again = Peer(two[1].port, 3)
    answer = ben_again.join(first["room"], request="claim-request-1")
    assert answer.get("seat") == claimed["seat"], answer  # not room_full
    ben_again.until(lambda m: m["type"] == "update")
    again.close(), ben_again.close()


def test_the_autopilot_holds_wherever_its_player_is_and_on_a_rebuilt_room(two, pg_url):
    ana, ben = Peer(two[0].port, 1), Peer(two[1].port, 2)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    ana.until(lambda m: m["type"] == "update")
    ana.send(type="autopilot", on=True, ref="on")
    assert ana.until(lambda m: m.get("ref") == "on")["autopilot"] is True

    def kinds() -> list[str]:
        with psycopg.connect(pg_url) as connection:
            return [row[0] for row in connection.execute("SELECT kind FROM log WHERE room = %s ORDER BY seq",
                                                         (ana.room_id,))]

    deadline = time.monotonic() + 20
    while kinds().count("auto") < 3 and time.monotonic() < deadline:  # the server plays Ana's turns
        ben.drain(0.01)
        if ben.my_turn and ben.view["status"] == "playing":
            ben.play_one()
    assert kinds().count("auto") >= 3
    ana.drain(0.3)
    last = [json.loads(f) for f in ana.frames if '"update"' in f][-1]
    assert last["autopilot"] is True  # the moves made for her were not taken for hers
    store = open_store(pg_url)
    try:
        rebuilt = store.room(ana.room_id)
    finally:
        store.close()
    assert rebuilt is not None and rebuilt.driver is not None and rebuilt.driver.on_autopilot(ana.seat)
    ana.close(), ben.close()


def test_a_turn_clock_goes_on_from_where_it_was_when_another_instance_takes_the_room(pg_url, clock):
    a, b = start_server(pg_url, clock=clock), start_server(pg_url, clock=clock)
    try:
        ana, ben = Peer(a.port, 1), Peer(b.port, 2)
        ana.create("duel", [HUMAN, HUMAN], options={"turn_seconds": 20})
        ben.join(ana.room_id)  # the game starts on B, which runs its clocks
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        if not ana.my_turn:
            ben.play_one()
            assert wait_for(lambda: ana.drain(0.02) or ana.my_turn, 5)
        assert wait_for(lambda: b.server.cluster.drives(ana.room_id), 5)
        clock.advance(5)  # five seconds of Ana's turn go by, run by B
        ana.send(type="autopilot", on=False, ref="t1")
        # A shows the clock as it heard the turn begin:
        assert 14.5 <= ana.until(lambda m: m.get("ref") == "t1")["timer"] <= 15.5
        ben.close()
        b.stop()  # B goes: A, with Ana in the room, takes it over
        assert wait_for(lambda: a.server.cluster.drives(ana.room_id), 10)
        ana.send(type="autopilot", on=False, ref="t2")
        assert ana.until(lambda m: m.get("ref") == "t2")["timer"] <= 15.5
        clock.advance(15.5)  # the rest of her turn, not a whole new one: the clock plays it
        assert wait_for(lambda: "auto" in [row[0] for row in _rows(pg_url, ana.room_id)], 10)
        ana.close()
    finally:
        for server in (a, b):
            if server.is_alive():
                server.stop()


def _rows(url: str, room_id: str) -> list[tuple]:
    """The room's stored log: (kind, seat, text) in order."""
    with psycopg.connect(url) as connection:
        return connection.execute("SELECT kind, seat, text FROM log WHERE room = %s ORDER BY seq",
                                  (room_id,)).fetchall()
