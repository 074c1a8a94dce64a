"""What a player is told of what is at stake online, from the server (the authority): a rename
reaching the rooms, the countdown to a computer's takeover, the points a ranked match earned,
and the attacks on them (a rename flood, a name copying another's, a forged status, a vote from
someone who may not vote), each replayed by a lying second client."""

from __future__ import annotations

import urllib.request

import pytest

from game.engine import experience_points
from game.net.clock import ManualClock
from game.net.profiles import tagged
from game.net.ranking import ABANDON_AFTER
from tests.net_support import FROM_AFAR, Peer, person, play_until, ranked_server, start_server

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock)
    yield thread
    thread.stop()


def player(server, name: str, address: str, seed: int = 0) -> Peer:
    return person(server.port, name, address, seed)


def quick_duel(ana: Peer, ben: Peer) -> None:
    for peer in (ana, ben):
        peer.send(type="queue", preset="duel", players=2)
    for peer in (ana, ben):
        assert peer.until(lambda m: m["type"] == "room")["ranked"] is True


def page(server, room: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/r/{room}", timeout=5) as answer:
        return str(answer.read().decode("utf-8"))


# ---- a rename reaches the rooms -------------------------------------------------------------------
def test_a_rename_reaches_the_others_and_the_room_page(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 1), player(server, "Ben", "203.0.113.2", 2)
    quick_duel(ana, ben)
    assert "Ana" in page(server, ana.room_id)
    ana.send(type="profile", name="Léa", avatar=9)
    assert ana.until(lambda m: m["type"] == "profile")["name"] == "Léa"
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][ana.seat]["name"] == "Léa")
    assert status["seats"][ana.seat]["avatar"] == 9
    assert status["seats"][ana.seat]["tag"] == ana.profile["tag"]  # the same player, the same tag
    shown = page(server, ana.room_id)
    assert "Léa" in shown and "Ana" not in shown


def test_a_rename_survives_a_restart_of_the_server(tmp_path):
    clock = ManualClock()
    db = tmp_path / "rooms.sqlite3"
    first = start_server(db, clock=clock, **FROM_AFAR)
    try:
        ana, ben = player(first, "Ana", "203.0.113.1", 3), player(first, "Ben", "203.0.113.2", 4)
        quick_duel(ana, ben)
        ana.send(type="profile", name="Léa")
        ben.until(lambda m: m["type"] == "room" and m["seats"][ana.seat]["name"] == "Léa")
        room = ana.room_id
    finally:
        first.stop()
    again = start_server(db, clock=clock, **FROM_AFAR)
    try:
        assert "Léa" in page(again, room)
    finally:
        again.stop()


def test_a_rename_flood_is_refused_and_the_room_hears_only_the_renames_allowed(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 5), player(server, "Ben", "203.0.113.2", 6)
    quick_duel(ana, ben)
    ben.drain(0.2)
    codes = []
    for i in range(15):
        ana.send(type="profile", name=f"Ana{i}", ref=i)
        answer = ana.until(lambda m, i=i: m.get("ref") == i or m["type"] == "profile")
        codes.append(answer.get("code", "ok"))
    assert codes[:10] == ["ok"] * 10 and codes[10:] == ["too_many_changes"] * 5
    ben.drain(0.3)
    assert ben.room["seats"][ana.seat]["name"] == "Ana9"  # the last rename allowed, none after it


def test_a_name_copying_another_players_keeps_its_own_tag_and_cannot_forge_one(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 7), player(server, "Ben", "203.0.113.2", 8)
    quick_duel(ana, ben)
    ben.send(type="profile", name="Ana")
    seats = ana.until(lambda m: m["type"] == "room" and m["seats"][ben.seat]["name"] == "Ana")["seats"]
    shown = {tagged(s["name"], s["tag"]) for s in seats}
    assert shown == {tagged("Ana", ana.profile["tag"]), tagged("Ana", ben.profile["tag"])} and len(shown) == 2
    ben.send(type="profile", name=f"Ana #{ana.profile['tag']}", ref="forged")
    refused = ben.until(lambda m: m.get("ref") == "forged")
    assert refused["code"] == "bad_name" and refused["reason"] == "tag"


# ---- the countdown to the takeover ------------------------------------------------------------------
def played_once(peer: Peer, other: Peer) -> None:
    """``peer`` makes one move of their own (``other`` playing theirs until it is ``peer``'s turn)."""
    for _ in range(20):
        for one in (peer, other):
            one.drain(0.05)
        if peer.my_turn:
            peer.play_one()
            return
        if other.my_turn:
            other.play_one()
    raise AssertionError("no turn came")


def test_the_others_are_told_how_long_the_seat_of_someone_away_has_left(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 9), player(server, "Ben", "203.0.113.2", 10)
    quick_duel(ana, ben)
    assert ben.room.get("takeover") is None
    seat, key, room = ana.seat, ana.key, ana.room_id
    ana.close()
    status = ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    assert status["takeover"] == [{"seat": seat, "left": ABANDON_AFTER}]
    clock.advance(100)
    back = Peer(server.port, 11, address="203.0.113.1")
    back.hello(key=ana.player_key)
    back.join(room, seat=seat, key=key)
    status = ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [])
    assert status.get("takeover") is None  # back in time: no countdown any more
    played_once(back, ben)  # (the time away starts again from none once she plays: test_net_stall)
    back.close()
    status = ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    assert status["takeover"] == [{"seat": seat, "left": ABANDON_AFTER}]
    clock.advance(120)
    ben.send(type="profile", name="Benoît")  # any change of the room: its status says the time left now
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][ben.seat]["name"] == "Benoît")
    assert status["takeover"] == [{"seat": seat, "left": ABANDON_AFTER - 120}]


def test_a_forged_status_or_countdown_from_a_client_is_refused(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 13), player(server, "Ben", "203.0.113.2", 14)
    quick_duel(ana, ben)
    ben.send(type="room", room=ben.room_id, takeover=[{"seat": ana.seat, "left": 1}], ref="lie")
    assert ben.until(lambda m: m["type"] == "error")["code"] == "unknown_type"
    ana.drain(0.2)
    assert ana.room.get("takeover") is None


def test_a_vote_from_someone_who_may_not_vote_is_refused(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 15), player(server, "Ben", "203.0.113.2", 16)
    quick_duel(ana, ben)
    seat = ana.seat
    stranger = player(server, "Eve", "203.0.113.5", 17)
    stranger.send(type="vote", seat=seat, penalise=True, ref="eve")
    assert stranger.until(lambda m: m.get("ref") == "eve")["code"] == "not_joined"
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(ABANDON_AFTER)
    ben.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    ben.send(type="vote", seat=ben.seat, penalise=True, ref="self")  # on a seat nobody abandoned
    assert ben.until(lambda m: m.get("ref") == "self")["code"] == "no_vote"
    ben.send(type="vote", seat=seat, penalise=False)
    decided = ben.until(lambda m: m["type"] == "room" and m["votes"][0]["voted"] == [ben.seat])
    assert decided["votes"][0] == {"seat": seat, "yes": 0, "no": 1, "voters": 1, "voted": [ben.seat],
                                   "penalised": False}  # every voter voted: the result is known


# ---- the points earned ---------------------------------------------------------------------------
def over(peer: Peer) -> dict:
    """The room status saying the match is over (perhaps heard already while playing), and what
    came with it."""
    if peer.room is None or peer.room["state"] != "match_over":
        peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over")
    peer.drain(0.2)
    assert peer.room is not None
    return peer.room


def test_the_end_of_a_ranked_match_says_what_each_earned_and_refreshes_the_profiles(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 18), player(server, "Ben", "203.0.113.2", 19)
    quick_duel(ana, ben)
    assert ana.room.get("earned") is None
    play_until([ana, ben], lambda: all(p.view is not None and p.view["status"] == "match_over"
                                       for p in (ana, ben)), accept_deals=False)
    for peer in (ana, ben):
        status = over(peer)
        expected = list(experience_points(2, sorted(peer.view["result"]["winners"])))
        assert status["earned"] == expected
        assert peer.profile["xp"] == {"duel": expected[peer.seat]}  # heard again, unasked


def test_a_private_room_says_nothing_of_points(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 20), player(server, "Ben", "203.0.113.2", 21)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    play_until([ana, ben], lambda: all(p.view is not None and p.view["status"] == "match_over"
                                       for p in (ana, ben)), accept_deals=False)
    status = over(ana)
    assert status.get("earned") is None and status["ranked"] is False
