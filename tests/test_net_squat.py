"""Nobody can empty the lobby (issue 32, part 2), replayed against a real server on 127.0.0.1: one
person takes one seat at a time in public rooms and quick match, a seat whose person is away from a
public room waiting for players is freed, and a public room's owner frees a seat."""

from __future__ import annotations

import pytest

from game.net.clock import ManualClock
from game.net.fair_seats import RELEASE_AFTER
from game.net.lobby import PUSH_INTERVAL
from tests.net_support import Peer, start_server, wait_for

HUMAN = {"kind": "human"}


@pytest.fixture
def clocked(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)
    yield thread, clock
    thread.stop()


def lobby(peer: Peer) -> dict:
    peer.send(type="lobby", watch=False)
    return peer.until(lambda m: m["type"] == "lobby")


def close(thread, peer: Peer) -> None:
    """Close ``peer``'s connection and wait until the server knows its seat's person is away (the
    manual clock is advanced only then)."""
    room, seat = peer.room_id, peer.seat
    peer.close()
    assert wait_for(lambda: not thread.server.rooms[room].seats[seat].connected)


def public_rooms(port: int, count: int, seats: int = 4) -> list[Peer]:
    """``count`` owners, each with a public room of ``seats`` seats (the rest free), connected."""
    owners = []
    for i in range(count):
        owner = Peer(port)
        owner.hello(f"Owner{i}")
        assert owner.create("classic", [HUMAN] * seats, public=True)["type"] == "joined"
        owners.append(owner)
    return owners


def squatter(port: int, key: str | None = None) -> Peer:
    """A connection of the squatting player (one profile: ``key``, a new one when None)."""
    peer = Peer(port)
    peer.hello("Squat", key=key)
    return peer


def test_one_profile_takes_one_seat_at_a_time_in_public_rooms(clocked):
    thread, _ = clocked
    owners = public_rooms(thread.port, 3)
    first = squatter(thread.port)
    assert first.join(owners[0].room_id)["type"] == "joined"
    for owner in owners[1:]:  # the same profile on other connections: refused, with a reason code
        again = squatter(thread.port, first.player_key)
        answer = again.join(owner.room_id)
        assert answer["type"] == "error" and answer["code"] == "one_seat"
        assert again.create("duel", [HUMAN, HUMAN], public=True)["code"] == "one_seat"
    assert lobby(Peer(thread.port))["listed"] == 3  # every room still has free seats


def test_the_attack_of_thirty_seats_leaves_the_lobby_full(clocked):
    """The reported attack: one profile tries every free seat of ten public rooms, then disconnects."""
    thread, clock = clocked
    owners = public_rooms(thread.port, 10)
    taken = []
    for owner in owners:
        for _ in range(3):
            peer = squatter(thread.port, taken[0].player_key if taken else None)
            if peer.join(owner.room_id)["type"] == "joined":
                taken.append(peer)
            else:
                peer.close()
    assert len(taken) == 1  # one seat, not thirty
    for peer in taken:
        close(thread, peer)
    watcher = Peer(thread.port)
    assert lobby(watcher)["listed"] == 10
    clock.advance(RELEASE_AFTER)
    assert wait_for(lambda: all(s.key_hash is None for s in thread.server.rooms[owners[0].room_id].seats[1:]))
    assert lobby(watcher)["listed"] == 10


def test_queueing_while_seated_in_a_public_room_is_refused_and_so_is_the_other_way_round(clocked):
    thread, _ = clocked
    [owner] = public_rooms(thread.port, 1)
    seated = squatter(thread.port)
    assert seated.join(owner.room_id)["type"] == "joined"
    other = squatter(thread.port, seated.player_key)
    other.send(type="queue", preset="duel", players=2)
    assert other.until(lambda m: m["type"] in ("queued", "error"))["code"] == "one_seat"
    seated.send(type="leave")  # leaving a waiting public room gives the seat up at once
    seated.until(lambda m: m["type"] == "left")
    other.send(type="queue", preset="duel", players=2)
    assert other.until(lambda m: m["type"] in ("queued", "error"))["type"] == "queued"
    third = squatter(thread.port, seated.player_key)
    assert third.join(owner.room_id)["code"] == "one_seat"  # waiting for a quick match elsewhere


def test_an_away_seat_of_a_waiting_public_room_is_freed_and_the_room_listed_again(clocked):
    thread, clock = clocked
    [owner] = public_rooms(thread.port, 1, seats=2)
    guest = squatter(thread.port)
    assert guest.join(owner.room_id)["type"] == "joined"  # the room is full: the game starts
    owner.send(type="leave")
    owner.until(lambda m: m["type"] == "left")
    # A duel deals at once when full: take a three-seat room instead to see the wait.
    [host] = public_rooms(thread.port, 1, seats=3)
    away = squatter(thread.port)
    assert away.join(host.room_id)["type"] == "joined"
    seat, key = away.seat, away.key
    close(thread, away)
    watcher = Peer(thread.port)
    assert lobby(watcher)["rooms"][0]["free"] == 1
    clock.advance(RELEASE_AFTER - 1)
    assert lobby(watcher)["rooms"][0]["free"] == 1  # not yet: a dropped connection comes back
    clock.advance(1)
    assert wait_for(lambda: thread.server.rooms[host.room_id].seats[seat].key_hash is None)
    assert not thread.server.rooms[host.room_id].joined  # nobody but its owner: it expires as a lonely room
    clock.advance(PUSH_INTERVAL)
    assert lobby(watcher)["rooms"][0]["free"] == 2
    status = host.until(lambda m: m["type"] == "room" and m["seats"][seat]["name"] == "")
    assert status["waiting_for"] == [1, 2]
    back = squatter(thread.port, away.player_key)
    answer = back.join(host.room_id, seat=seat, key=key)
    assert answer["type"] == "error" and answer["code"] == "seat_freed"  # told why, not bad_key
    assert back.join(host.room_id)["type"] == "joined"  # and may take a free seat again


def test_a_seat_is_kept_for_its_person_back_in_time(clocked):
    thread, clock = clocked
    [host] = public_rooms(thread.port, 1, seats=3)
    away = squatter(thread.port)
    away.join(host.room_id)
    close(thread, away)
    clock.advance(RELEASE_AFTER / 2)
    back = squatter(thread.port, away.player_key)
    assert back.join(host.room_id, seat=away.seat, key=away.key)["type"] == "joined"
    clock.advance(RELEASE_AFTER)
    back.send(type="ping", ref="p")
    assert back.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    assert thread.server.rooms[host.room_id].seats[away.seat].key_hash is not None


def test_the_owners_seat_is_never_freed_and_the_owner_may_sit_elsewhere_once_away(clocked):
    thread, clock = clocked
    [host] = public_rooms(thread.port, 1, seats=3)
    close(thread, host)
    clock.advance(RELEASE_AFTER)
    room = thread.server.rooms[host.room_id]
    assert room.seats[0].key_hash is not None  # the room is theirs; unlisted while they are away
    [other] = public_rooms(thread.port, 1, seats=3)
    again = squatter(thread.port, host.player_key)
    assert again.join(other.room_id)["type"] == "joined"


def test_the_owner_frees_a_seat_and_its_person_is_told(clocked):
    thread, _ = clocked
    [host] = public_rooms(thread.port, 1, seats=4)
    guest = squatter(thread.port)
    guest.join(host.room_id)
    stranger = squatter(thread.port)
    stranger.send(type="free_seat", seat=0)
    assert stranger.until(lambda m: m["type"] == "error")["code"] == "not_joined"
    stranger.join(host.room_id)
    stranger.send(type="free_seat", seat=guest.seat)  # not the owner
    assert stranger.until(lambda m: m["type"] == "error")["code"] == "not_owner"
    for bad in (0, 7, "1", None):
        host.send(type="free_seat", seat=bad)
        assert host.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    host.drain()
    host.send(type="free_seat", seat=guest.seat)
    told = guest.until(lambda m: m["type"] == "error")
    assert told["code"] == "seat_freed"
    status = host.until(lambda m: m["type"] == "room" and m["seats"][guest.seat]["name"] == "")
    assert guest.seat in status["waiting_for"]
    assert thread.server.rooms[host.room_id].seats[guest.seat].player is None
    assert lobby(Peer(thread.port))["rooms"][0]["free"] == 2


def test_no_seat_is_freed_once_the_game_is_dealt(clocked):
    thread, clock = clocked
    [host] = public_rooms(thread.port, 1, seats=2)
    guest = squatter(thread.port)
    guest.join(host.room_id)
    host.until(lambda m: m["type"] == "update")
    host.send(type="free_seat", seat=1)
    assert host.until(lambda m: m["type"] == "error")["code"] == "game_started"
    close(thread, guest)
    clock.advance(RELEASE_AFTER)
    host.send(type="ping", ref="p")
    host.until(lambda m: m["type"] == "pong")
    assert thread.server.rooms[host.room_id].seats[1].key_hash is not None


def test_a_restarted_server_frees_the_away_seats_of_waiting_public_rooms(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    clock = ManualClock()
    thread = start_server(db, clock=clock)
    try:
        [host] = public_rooms(thread.port, 1, seats=3)
        guest = squatter(thread.port)
        guest.join(host.room_id)
    finally:
        thread.stop()
    again = start_server(db, clock=clock)
    try:
        room = again.server.rooms[host.room_id]
        assert room.seats[1].key_hash is not None
        clock.advance(RELEASE_AFTER)
        assert wait_for(lambda: room.seats[1].key_hash is None)
        assert room.seats[0].key_hash is not None
    finally:
        again.stop()
    stored = start_server(db, clock=clock)
    try:
        assert stored.server.rooms[host.room_id].seats[1].key_hash is None  # the freeing was stored
    finally:
        stored.stop()


def test_one_address_holds_at_most_four_seats_with_many_profiles(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["127.0.0.1"])
    try:
        owners = []
        for i in range(5):
            owner = Peer(thread.port, address=f"10.0.0.{i + 1}")
            owner.hello(f"Owner{i}")
            owner.create("classic", [HUMAN] * 3, public=True)
            owners.append(owner)
        answers = []
        for owner in owners:
            peer = Peer(thread.port, address="10.9.9.9")
            peer.hello()  # a new profile each time: the address still counts
            answer = peer.join(owner.room_id)
            answers.append(answer.get("code", answer["type"]))
        assert answers == ["joined"] * 4 + ["too_many_seats"]
    finally:
        thread.stop()


def test_one_address_takes_one_seat_of_a_strangers_public_room(tmp_path):
    """Many profiles of one address cannot fill someone's room, deal its game and walk away."""
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["127.0.0.1"])
    try:
        owner = Peer(thread.port, address="10.0.0.1")
        owner.hello("Owner")
        owner.create("classic", [HUMAN] * 4, public=True)
        answers = []
        for _ in range(3):
            peer = Peer(thread.port, address="10.9.9.9")
            peer.hello()
            answer = peer.join(owner.room_id)
            answers.append(answer.get("code", answer["type"]))
        assert answers == ["joined", "too_many_seats", "too_many_seats"]
        household = Peer(thread.port, address="10.0.0.1")  # the owner's address takes one more
        household.hello("Kid")
        assert household.join(owner.room_id)["type"] == "joined"
        assert lobby(Peer(thread.port))["rooms"][0]["free"] == 1
    finally:
        thread.stop()


def test_a_player_in_a_quick_match_game_takes_no_public_seat_until_it_is_over(clocked):
    thread, clock = clocked
    [owner] = public_rooms(thread.port, 1)
    quick = squatter(thread.port)
    quick.send(type="queue", preset="duel", players=2, computers=True, wait=5)
    quick.until(lambda m: m["type"] == "queued")
    clock.advance(5)
    quick.until(lambda m: m["type"] == "joined")  # seated with a computer: the game is under way
    other = squatter(thread.port, quick.player_key)
    assert other.join(owner.room_id)["code"] == "one_seat"
    other.send(type="queue", preset="duel", players=2)  # nor a second quick match
    assert other.until(lambda m: m["type"] in ("queued", "error"))["code"] == "one_seat"
