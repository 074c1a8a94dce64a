"""The quotas at play, for real (issue 25, sections 3 and 5): they stop one address from taking
the server's computers and rooms, never a player who plays game after game. A room whose match
is over frees its computer seats until it deals again (checked again then), and goes an hour
after the last of its people left it; a real server on 127.0.0.1, real websocket clients, and
the server's clock (`ManualClock`) instead of sleeps."""

from __future__ import annotations

import time

import pytest

from game.net.clock import ManualClock
from game.net.rooms import digest
from game.net.roomservice import Outdated
from game.net.server import FINISHED_EXPIRY, SWEEP
from tests.net_support import Peer, play_until, start_server, wait_for

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "medium"}
PROXY = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}  # the tests' players come from afar


def over(peer: Peer) -> bool:
    return peer.view is not None and peer.view["status"] == "match_over"


def finish(peers: list[Peer]) -> None:
    """Play the peers' game to its end, and wait until the room says so."""
    play_until(peers, lambda: all(over(p) for p in peers), accept_deals=False)
    for peer in peers:
        if peer.room is None or peer.room["state"] != "match_over":
            peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over")


def sweep_for(thread, clock: ManualClock, seconds: float) -> None:
    """Move the clock on ``seconds`` a sweep at a time (the sweeper looks every `SWEEP`)."""
    for _ in range(int(seconds // SWEEP)):
        clock.advance(SWEEP)
        time.sleep(0.02)
    time.sleep(0.1)


def accept(peer: Peer, ref: str) -> dict:
    """Ask for the next deal; the answer is an error with our ref, or the room saying we asked."""
    peer.send(type="accept_round", ref=ref)
    return peer.until(lambda m: m.get("ref") == ref or (m["type"] == "room"
                                                        and m["seats"][peer.seat]["accepted"]))


# ---- computer seats ---------------------------------------------------------------------------------
def test_one_player_plays_ten_quick_games_with_three_computers_in_a_row_never_refused(tmp_path, clock):
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)  # the default quotas
    try:
        key = None
        rooms = []
        for game in range(10):
            peer = Peer(thread.port, game)  # one address, one player key, a connection per game
            assert peer.hello("Ana", key=key)["type"] == "profile"
            key = peer.player_key
            peer.send(type="queue", preset="colors", players=4, computers=True, wait=5)
            assert peer.until(lambda m: m["type"] in ("queued", "error"))["type"] == "queued"
            clock.advance(5)
            joined = peer.until(lambda m: m["type"] in ("joined", "error", "unqueued"))
            assert joined["type"] == "joined", (game, joined)
            status = peer.until(lambda m: m["type"] == "room")
            assert [s["kind"] for s in status["seats"]] == ["human", "computer", "computer", "computer"]
            finish([peer])
            rooms.append(peer.room_id)
            peer.send(type="leave")
            peer.until(lambda m: m["type"] == "left")
            peer.close()
        assert len(set(rooms)) == 10
        quotas = thread.server.quotas
        assert quotas.holding("player:" + digest(key)) == (10, 0)  # held, but no computer counts now
    finally:
        thread.stop()


def test_one_address_creates_room_after_room_of_computers_as_each_game_ends(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", computer_seats=3)
    try:
        for game in range(6):
            peer = Peer(thread.port, game)
            reply = peer.create("colors", [HUMAN, MEDIUM, MEDIUM, MEDIUM])
            assert reply["type"] == "joined", (game, reply)
            finish([peer])
            peer.close()
    finally:
        thread.stop()


def three_computers_at_rest(thread) -> Peer:
    """Ana, whose `colors` room of three computers has played its match to the end (they rest)."""
    ana = Peer(thread.port, 1)
    ana.create("colors", [HUMAN, MEDIUM, MEDIUM, MEDIUM])
    finish([ana])
    return ana


def test_a_finished_room_whose_computers_no_longer_fit_cannot_deal_again(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", computer_seats=3)
    try:
        ana = three_computers_at_rest(thread)
        room = thread.server.rooms[ana.room_id]
        ben = Peer(thread.port, 2)  # the same address: its computers are free again for another room
        assert ben.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
        stored = room.log_length
        refused = accept(ana, "again")
        assert refused["type"] == "error" and refused["code"] == "too_many_computers"
        assert "computer seats" in refused["message"] and refused["ref"] == "again"
        ana.drain(0.2)
        assert room.log_length == stored and room.state == "match_over"  # the room stays as it was
        assert not room.seats[0].accepted and room.match.round.number == 1
        assert ana.room["state"] == "match_over" and ana.view["round_number"] == 1
        finish([ben])  # Ben's game ends: its computer is free, and Ana's room may deal again
        assert accept(ana, "now")["type"] == "room"
        dealt = ana.until(lambda m: m["type"] == "update")
        assert dealt["view"]["status"] == "playing" and dealt["view"]["round_number"] == 2
        cid = Peer(thread.port, 3)  # Ana's computers count again while her room plays
        assert cid.create("duel", [HUMAN, MEDIUM])["code"] == "too_many_computers"
    finally:
        thread.stop()


def deal_refused_as_outdated(thread, room_id: str, dealt_elsewhere: bool) -> list[bool]:
    """Make the server's next deal of ``room_id`` refused as out of date (`Outdated`), as when
    another instance wrote the room first. ``dealt_elsewhere``: the deal is stored and the
    server's copy rebuilt whole from the store (the other instance dealt it: the rebuilt copy
    plays), else nothing is stored and the copy stays as it was. The list is filled at the refusal."""
    service = thread.server.service
    real = service.commit
    refused: list[bool] = []

    async def commit(room, entry, lines=()):
        if entry.kind != "deal" or room.room_id != room_id or refused:
            return await real(room, entry, lines)
        if dealt_elsewhere:
            await real(room, entry, lines)  # on the disk; this copy has not dealt yet
            service.rooms[room_id] = thread.server.store.room(room_id)  # the copy rebuilt whole
        refused.append(True)
        raise Outdated(room_id)

    service.commit = commit
    return refused


@pytest.mark.parametrize(("dealt_elsewhere", "counted", "cid_gets"),
                         [(True, 3, "too_many_computers"), (False, 0, "joined")],
                         ids=["dealt elsewhere", "nothing dealt"])
def test_a_deal_refused_as_out_of_date_counts_the_computers_of_the_room_as_it_now_stands(
        tmp_path, dealt_elsewhere, counted, cid_gets):
    # review2's finding 1: the refusal's copy was the stale one, still resting; its computers were
    # freed while the rebuilt room played them, and one address could run more than its quota.
    thread = start_server(tmp_path / "rooms.sqlite3", computer_seats=3)
    try:
        ana = three_computers_at_rest(thread)
        room = thread.server.rooms[ana.room_id]
        refused = deal_refused_as_outdated(thread, ana.room_id, dealt_elsewhere)
        ana.send(type="accept_round")
        assert wait_for(lambda: bool(refused))
        now = thread.server.rooms[ana.room_id]
        assert wait_for(lambda: now.resting is not dealt_elsewhere)  # the rebuilt copy plays
        assert (now is room) is not dealt_elsewhere
        time.sleep(0.1)  # (the refusal handled)
        assert thread.server.quotas.holding("127.0.0.1")[1] == counted  # counted for the deal, as it stands
        reply = Peer(thread.port, 2).create("duel", [HUMAN, MEDIUM])  # the same address
        assert reply.get("code", reply["type"]) == cid_gets
    finally:
        thread.stop()


def test_a_room_whose_people_all_asked_waits_to_deal_while_a_quota_taken_meanwhile_is_full(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", computer_seats=2)
    try:
        ana, ben = Peer(thread.port, 1), Peer(thread.port, 2)
        ana.create("colors", [HUMAN, HUMAN, MEDIUM, MEDIUM])
        ben.join(ana.room_id)
        finish([ana, ben])
        room_id, key = ana.room_id, ana.key
        room = thread.server.rooms[room_id]
        ana.send(type="accept_round")
        ana.close()  # asked, then went away: the deal waits for her
        assert wait_for(lambda: room.seats[0].accepted and not room.seats[0].connected)
        assert accept(ben, "b")["type"] == "room"  # Ben asks too (the quota held then)
        cid = Peer(thread.port, 3)
        assert cid.create("duel", [HUMAN, MEDIUM])["type"] == "joined"  # a computer taken meanwhile
        back = Peer(thread.port, 4)
        back.join(room_id, seat=0, key=key)
        refused = back.until(lambda m: m["type"] == "error" or (m["type"] == "update"
                                                                and m["view"]["status"] == "playing"))
        assert refused["type"] == "error" and refused["code"] == "too_many_computers"
        assert ben.until(lambda m: m["type"] == "error")["code"] == "too_many_computers"
        assert room.state == "match_over" and room.match.round.number == 1
        assert thread.server.quotas.holding("127.0.0.1")[1] == 1  # Cid's room is not over: it counts
        finish([cid])  # its game ends: its computer is free, and the deal everyone asked for starts
        for peer in (back, ben):
            dealt = peer.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
            assert dealt["view"]["round_number"] == 2
        assert thread.server.quotas.holding("127.0.0.1")[1] == 2  # Ana's room counts again
    finally:
        thread.stop()


# ---- rooms held -----------------------------------------------------------------------------------
def test_a_finished_room_nobody_is_connected_to_expires_an_hour_after_the_last_left(tmp_path, clock):
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        rooms = thread.server.rooms
        done = Peer(thread.port, 1)  # finished, and left
        done.create("colors", [HUMAN, MEDIUM])
        finish([done])
        done.close()
        stays = Peer(thread.port, 2)  # finished, and still looking at the results
        stays.create("colors", [HUMAN, MEDIUM])
        finish([stays])
        ana, ben = Peer(thread.port, 3), Peer(thread.port, 4)  # not finished: its seven days
        ana.create("duel", [HUMAN, HUMAN])
        ben.join(ana.room_id)
        ben.until(lambda m: m["type"] == "update")
        for peer in (ana, ben):
            peer.close()
        assert wait_for(lambda: not rooms[done.room_id].anyone_here and not rooms[ana.room_id].anyone_here)
        sweep_for(thread, clock, FINISHED_EXPIRY - SWEEP)
        assert done.room_id in rooms  # not an hour yet
        sweep_for(thread, clock, 2 * SWEEP)
        assert wait_for(lambda: done.room_id not in rooms)
        assert not thread.server.store.exists(done.room_id)
        assert stays.room_id in rooms and ana.room_id in rooms
        back = Peer(thread.port)
        assert back.join(done.room_id, seat=0, key=done.key)["code"] == "unknown_room"  # My rooms: gone
        stays.send(type="leave")
        stays.until(lambda m: m["type"] == "left")
        sweep_for(thread, clock, FINISHED_EXPIRY + SWEEP)
        assert wait_for(lambda: stays.room_id not in rooms)
        assert ana.room_id in rooms
    finally:
        thread.stop()


def test_a_finished_room_loaded_at_start_expires_an_hour_later(tmp_path, clock):
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db, clock=clock)
    try:
        ana = Peer(thread.port, 1)
        ana.create("colors", [HUMAN, MEDIUM])
        finish([ana])
    finally:
        thread.stop()
    again = start_server(db, clock=clock)
    try:
        assert ana.room_id in again.server.rooms
        assert again.server.quotas.holding("127.0.0.1") == (1, 0)  # its computer is free
        sweep_for(again, clock, FINISHED_EXPIRY + SWEEP)
        assert wait_for(lambda: ana.room_id not in again.server.rooms)
    finally:
        again.stop()


def test_ranked_points_and_history_outlive_a_finished_room(tmp_path, clock):
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0, **PROXY)
    try:
        ana, ben = Peer(thread.port, 1, address="203.0.113.1"), Peer(thread.port, 2, address="198.51.100.7")
        for peer, name in ((ana, "Ana"), (ben, "Ben")):
            peer.hello(name)
            peer.send(type="queue", preset="duel", players=2)
        for peer in (ana, ben):
            assert peer.until(lambda m: m["type"] == "room")["ranked"] is True
        finish([ana, ben])
        room_id = ana.room_id
        for peer in (ana, ben):
            peer.close()
        sweep_for(thread, clock, FINISHED_EXPIRY + 2 * SWEEP)
        assert wait_for(lambda: room_id not in thread.server.rooms)
        total = 0
        for peer in (ana, ben):
            again = Peer(thread.port, address="192.0.2.9")
            profile = again.hello(key=peer.player_key)
            total += profile["xp"]["duel"]
            again.send(type="history", ref="h")
            games = again.until(lambda m: m.get("ref") == "h")["games"]
            assert [(g["preset"], g["players"]) for g in games] == [("duel", 2)]
        assert total == 30  # the source's points: 20 to the winner, 10 to the loser
    finally:
        thread.stop()
