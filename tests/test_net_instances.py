"""Several room servers on one PostgreSQL database: any instance serves any room (issue 33).

Each test starts real servers on a real PostgreSQL (`tools.scratch_pg`, through the ``pg_url``
fixture: skipped with a reason where none can be had) and real clients on 127.0.0.1; those
that kill an instance with SIGKILL run them as processes (`instance_support.Instance`)."""

from __future__ import annotations

import json
import time

import pytest

from game.net.pgcluster import PgCluster
from game.net.stores import open_store
from game.net.wire import view_to_json
from tests.instance_support import Instance, lease_holder
from tests.net_support import Peer, play_until, start_server, wait_for

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
    twin = Peer(two[1].port, 9)  # the same seat, through the other instance
    assert twin.join(player.room_id, seat=player.seat, key=player.key)["type"] == "joined"
    twin.until(lambda m: m["type"] == "update")
    action = player.view["legal"][0]
    player.send(type="action", action=action, ref="first")
    twin.send(type="action", action=action, ref="second")
    answers = [player.until(lambda m: m.get("ref") == "first"),
               twin.until(lambda m: m.get("ref") == "second")]
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["error", "update"], answers
    refused = next(a for a in answers if a["type"] == "error")
    assert refused["code"] in ("illegal", "server_error"), refused
    store = open_store(pg_url)
    try:
        room = store.room(player.room_id)
    finally:
        store.close()
    assert room is not None and room.match is not None
    assert room.log_length == 2  # the start and the one action: never twice
    for peer in (ana, ben, twin):
        peer.close()


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
