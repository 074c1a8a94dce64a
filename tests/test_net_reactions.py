"""Quick reactions over a real server (issue 31, section 5): an id from a fixed list, relayed to
the sender's room only, rate-limited per seat by the server's clock, refused when it is not one,
not from a seat, or not during a game; each attack replayed by hand over a real websocket."""

from __future__ import annotations

import json

import pytest

from game.net.messages import REACTIONS
from game.net.reacting import MIN_GAP, PER_MINUTE, WINDOW
from tests.net_support import Peer, play_until, start_server

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path, clock):
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    yield thread
    thread.stop()


def table(port: int) -> tuple[Peer, Peer]:
    """Two people at a duel that has started."""
    a, b = Peer(port), Peer(port)
    assert a.create("duel", [HUMAN, HUMAN])["type"] == "joined"
    assert b.join(a.room_id)["type"] == "joined"
    for peer in (a, b):
        peer.until(lambda m: m["type"] == "update")
    a.drain()
    b.drain()
    return a, b


def react(peer: Peer, ref: str, **fields) -> dict:
    """Send a reaction; the answer is the room's reaction (the sender hears it too) or an error."""
    fields.setdefault("reaction", "hello")
    peer.send(type="react", ref=ref, **fields)
    return peer.until(lambda m: m["type"] == "reaction" or m.get("ref") == ref)


def reactions(peer: Peer) -> list[dict]:
    """The reactions that reached ``peer`` since its last look."""
    before = len(peer.frames)
    peer.drain(0.2)
    return [m for m in map(json.loads, peer.frames[before:]) if m["type"] == "reaction"]


def test_a_reaction_reaches_every_seat_of_the_room_as_its_id_alone(server):
    a, b = table(server.port)
    heard = react(a, "r1", reaction="well_played")
    assert heard == {"type": "reaction", "room": a.room_id, "seat": 0, "reaction": "well_played", "v": 2}
    assert reactions(b) == [heard]
    for peer in (a, b):
        peer.close()


def test_a_text_smuggled_in_another_field_is_never_relayed(server):
    a, b = table(server.port)
    react(a, "r1", reaction="thanks", text="visit evil.example", message="free gold", name="x" * 50)
    (seen,) = reactions(b)
    assert set(seen) == {"type", "room", "seat", "reaction", "v"}
    assert "evil" not in json.dumps(seen) and "gold" not in json.dumps(seen)
    for peer in (a, b):
        peer.close()


@pytest.mark.parametrize("reaction", ["hello buy gold at evil.example", "HELLO", "", 3, None, ["hello"],
                                      {"id": "hello"}, "hello\u0000"])
def test_a_reaction_not_in_the_list_is_refused_and_not_relayed(server, reaction):
    a, b = table(server.port)
    answer = react(a, "bad", reaction=reaction)
    assert answer["type"] == "error" and answer["code"] == "bad_message" and answer["ref"] == "bad"
    assert reactions(b) == []
    for peer in (a, b):
        peer.close()


def test_every_reaction_of_the_list_is_relayed(server, clock):
    a, b = table(server.port)
    for i, reaction in enumerate(REACTIONS):
        clock.advance(WINDOW)  # past both limits
        assert react(a, f"r{i}", reaction=reaction)["reaction"] == reaction
    assert [m["reaction"] for m in reactions(b)] == list(REACTIONS)
    for peer in (a, b):
        peer.close()


def test_a_seat_reacts_at_most_once_every_three_seconds_and_five_times_a_minute(server, clock):
    a, b = table(server.port)
    assert react(a, "1")["type"] == "reaction"
    refused = react(a, "2")
    assert refused["code"] == "too_many_reactions" and 0 < refused["values"]["wait"] <= MIN_GAP
    clock.advance(MIN_GAP)
    for n in range(2, PER_MINUTE + 1):  # five in 12 seconds: each 3 seconds after the last
        assert react(a, f"ok{n}")["type"] == "reaction"
        clock.advance(MIN_GAP)
    sixth = react(a, "6")
    assert sixth["code"] == "too_many_reactions" and sixth["values"]["wait"] > MIN_GAP
    assert react(b, "b1")["type"] == "reaction"  # the limit is the seat's: the other one may still
    clock.advance(WINDOW)
    assert react(a, "7")["type"] == "reaction"
    b.drain(0.2)
    heard = [m["seat"] for m in map(json.loads, b.frames) if m["type"] == "reaction"]
    assert heard == [0] * PER_MINUTE + [1, 0]
    for peer in (a, b):
        peer.close()


def test_a_flood_of_reactions_is_refused_and_relays_one(server):
    a, b = table(server.port)
    other, friend = table(server.port)  # another room, playing meanwhile
    for i in range(300):
        a.send(type="react", reaction="hurry", ref=i)
    other.send(type="ping", ref="still here")
    assert other.until(lambda m: m["type"] == "pong")["ref"] == "still here"
    answers = [a.until(lambda m, i=i: m.get("ref") == i or m["type"] == "reaction") for i in range(2)]
    assert answers[0]["type"] == "reaction"
    assert answers[1]["code"] == "too_many_reactions"
    a.drain(0.3)
    assert [m["reaction"] for m in reactions(b)] == ["hurry"]
    assert reactions(friend) == [] and reactions(other) == []
    for peer in (a, b, other, friend):
        peer.close()


def test_a_connection_without_a_seat_cannot_react(server):
    a, b = table(server.port)
    stranger = Peer(server.port)
    answer = react(stranger, "s", room=a.room_id)  # naming the room does not seat it
    assert answer["code"] == "not_joined"
    assert reactions(a) == [] and reactions(b) == []
    for peer in (a, b, stranger):
        peer.close()


def test_a_reaction_names_no_other_room_than_the_senders(server):
    a, b = table(server.port)
    c, d = table(server.port)
    react(a, "x", room=c.room_id, seat=1)
    assert [m["room"] for m in reactions(b)] == [a.room_id]
    assert reactions(c) == [] and reactions(d) == []
    for peer in (a, b, c, d):
        peer.close()


def test_no_reaction_while_the_room_waits_for_its_people(server):
    a = Peer(server.port)
    a.create("duel", [HUMAN, HUMAN])
    assert react(a, "w")["code"] == "not_playing"
    a.close()


def test_no_reaction_once_the_match_is_over(server):
    a, b = table(server.port)

    def over() -> bool:
        return all(p.view is not None and p.view["status"] == "match_over" for p in (a, b))

    # Without asking for the next deal: a duel's next deal is another game, in which reacting is fine
    # (the flake this test had: both players' asking raced its check).
    play_until([a, b], over, accept_deals=False)
    assert react(a, "late")["code"] == "not_playing"
    assert reactions(b) == []
    for peer in (a, b):
        peer.close()
