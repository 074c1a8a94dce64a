"""The room server, for real: a server on 127.0.0.1, websocket clients, whole games."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from game.engine import parse_card
from game.net.clock import ManualClock
from game.net.server import EXPIRY, RoomServer
from tests.net_support import Peer, play_until, start_server

ROOT = Path(__file__).resolve().parent.parent
HUMAN, EASY, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "easy"}, {"kind": "computer",
                                                                                  "level": "medium"}


@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def duel(server) -> tuple[Peer, Peer]:
    ana, ben = Peer(server.port, 1), Peer(server.port, 2)
    assert ana.create("duel", [HUMAN, HUMAN], name="Ana")["type"] == "joined"
    assert ben.join(ana.room_id, name="Ben")["type"] == "joined"
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "update")
        peer.drain(0.1)
    return ana, ben


def test_a_whole_duel_between_two_clients(server):
    ana, ben = duel(server)
    assert (ana.seat, ben.seat) == (0, 1) and ana.key and ben.key and ana.key != ben.key
    play_until([ana, ben], lambda: ana.view["status"] == "match_over" and ben.view["status"] == "match_over",
               accept_deals=False)
    for peer in (ana, ben):
        peer.drain()
    assert ana.view["result"] == ben.view["result"] and ana.view["result"]["winners"]
    assert ana.view["scores"] == ben.view["scores"]


def test_a_points_room_with_two_humans_and_two_server_computers(server):
    ana, ben = Peer(server.port, 3), Peer(server.port, 4)
    ana.create("points", [HUMAN, MEDIUM, HUMAN, EASY])
    assert ana.until(lambda m: m["type"] == "room")["waiting_for"] == [2]
    ben.join(ana.room_id)
    assert ben.seat == 2
    play_until([ana, ben], lambda: ana.view is not None and ana.view["round_number"] >= 2)
    if ana.room["deal"] < 2:
        ana.until(lambda m: m["type"] == "room" and m["deal"] >= 2)
    assert len(ana.room["results"]) >= 1  # the first deal's result, for the score chart
    assert ana.room["seats"][1] == {"kind": "computer", "level": "medium", "name": "", "connected": True,
                                    "accepted": False}
    played = [json.loads(f) for f in ana.frames]
    updates = [m for m in played if m["type"] == "update"]
    movers = {e["seat"] for m in updates for e in m["events"] if e["type"] == "CardPlayed"}
    assert {1, 3} <= movers  # the computers played on the server


def test_a_client_that_drops_gets_its_seat_back_with_its_key_and_only_with_it(server):
    ana, ben = duel(server)
    hand = ana.view["hand"]
    ana.close()
    status = ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [0])
    assert status["seats"][0]["connected"] is False
    thief = Peer(server.port)
    assert thief.join(ana.room_id, seat=0, key="guess")["code"] == "bad_key"
    assert thief.join(ana.room_id)["code"] == "no_free_seat"
    assert thief.join(ana.room_id, seat=0)["code"] == "seat_taken"
    back = Peer(server.port, 1)
    assert back.join(ana.room_id, seat=0, key=ana.key)["type"] == "joined"
    assert "key" not in json.loads(back.frames[-1])  # a reconnection gets no new key
    back.until(lambda m: m["type"] == "update")
    assert back.view["hand"] == hand
    assert ben.until(lambda m: m["type"] == "room")["waiting_for"] == []


def test_a_new_connection_for_a_seat_replaces_the_stale_one(server):
    ana, ben = duel(server)
    again = Peer(server.port)
    again.join(ana.room_id, seat=0, key=ana.key)
    with pytest.raises(ConnectionClosed):
        ana.until(lambda m: False, timeout=3)
    assert ana.ws.close_code == 4000


def test_the_server_killed_mid_round_resumes_from_the_last_committed_action(tmp_path):
    db = tmp_path / "rooms.sqlite3"

    def launch():
        command = [sys.executable, "-m", "game.net.server", "--host", "127.0.0.1", "--port", "0",
                   "--db", str(db), "--think-scale", "0", "--rate", "10000"]
        process = subprocess.Popen(command, cwd=ROOT,
                                   stdout=subprocess.PIPE, text=True)
        line = process.stdout.readline()
        assert "Huit server on" in line, line
        return process, int(line.split(":")[1].split(",")[0])

    process, port = launch()
    try:
        ana, ben = Peer(port, 5), Peer(port, 6)
        ana.create("classic", [HUMAN, HUMAN, MEDIUM])
        ben.join(ana.room_id)
        play_until([ana, ben], lambda: (ana.view or {}).get("turn_no", 0) >= 6)
        for peer in (ana, ben):
            peer.drain(0.2)
        before = (ana.view, ben.view)
        process.send_signal(signal.SIGKILL)  # no clean stop
        process.wait(10)
        process, port = launch()
        again_a, again_b = Peer(port, 7), Peer(port, 8)
        again_a.join(ana.room_id, seat=ana.seat, key=ana.key)
        again_b.join(ana.room_id, seat=ben.seat, key=ben.key)
        for peer in (again_a, again_b):
            peer.until(lambda m: m["type"] == "update")
        assert (again_a.view, again_b.view) == before
        play_until([again_a, again_b], lambda: again_a.view["status"] != "playing")
    finally:
        process.kill()
        process.wait(10)


def card_codes(value, found):
    """Every card code anywhere in a JSON value (strings that are cards, and 'play X' actions)."""
    if isinstance(value, dict):
        for v in value.values():
            card_codes(v, found)
    elif isinstance(value, list):
        for v in value:
            card_codes(v, found)
    elif isinstance(value, str):
        text = value[5:] if value.startswith("play ") else value
        with contextlib.suppress(ValueError):
            found.add(parse_card(text).code)
    return found


@pytest.mark.parametrize("preset,seats", [
    ("duel", [HUMAN, HUMAN]), ("classic", [HUMAN, HUMAN, HUMAN]), ("points", [HUMAN, HUMAN, MEDIUM]),
    ("colors", [HUMAN, HUMAN, HUMAN, HUMAN]), ("action", [HUMAN, HUMAN, EASY]),
])
def test_no_frame_ever_shows_another_seats_hidden_cards_or_the_pile(tmp_path, preset, seats):
    thread = start_server(tmp_path / "rooms.sqlite3")
    sent = []
    server = thread.server
    original = server.service.update

    def spy(client, room, events, ref=None):
        r = room.match.round
        sent.append((client.seat, [list(h) for h in r.hands], list(r.pile)))
        original(client, room, events, ref)

    server.service.update = spy
    try:
        peers = [Peer(thread.port, i) for i in range(sum(s["kind"] == "human" for s in seats))]
        peers[0].create(preset, seats, options={"turn_seconds": 0} if preset == "action" else {})
        for peer in peers[1:]:
            peer.join(peers[0].room_id)
        play_until(peers, lambda: all(p.view and p.view["status"] == "match_over" for p in peers)
                   or sum(len(p.frames) for p in peers) > 20000)  # a safety net: random play is long
        whole = all(p.view["status"] == "match_over" for p in peers)
        for peer in peers:
            peer.drain(0.3)
        frames = {p.seat: [m for m in map(json.loads, p.frames) if m["type"] == "update"] for p in peers}
    finally:
        thread.stop()
    checked = 0
    pairs = []
    for seat, received in frames.items():
        records = [(hands, pile) for s, hands, pile in sent if s == seat]
        assert len(records) == len(received)  # every update sent was received, in order
        pairs += [(seat, hands, pile, frame) for (hands, pile), frame in zip(records, received, strict=True)]
    for seat, hands, pile, frame in pairs:
        view = frame["view"]
        assert view["hand"] == [c.code for c in hands[seat]]
        allowed = set(view["hand"]) | set(view["discard"])
        for event in frame["events"]:
            if event["type"] in ("CardPlayed", "StartCard", "StartCardReturned"):
                allowed.add(event["card"])
            if event["type"] == "CardsDrawn" and event["seat"] == seat and event["cards"]:
                allowed |= set(event["cards"])
            if event["type"] == "CardsDrawn" and event["seat"] != seat:
                assert event["cards"] is None
            if event["type"] == "RoundEnded":
                allowed |= {c for hand in event["result"]["hands"] for c in hand}
        if view["result"]:
            allowed |= {c for hand in view["result"]["hands"] for c in hand}
        others = {c.code for s, hand in enumerate(hands) if s != seat for c in hand} | {c.code for c in pile}
        leaked = card_codes(frame, set()) - allowed
        assert not leaked, (seat, leaked)
        assert "pile" not in view and view["draw_count"] == len(pile)
        checked += bool(others)
    assert checked > 20
    assert whole  # the whole game, to its end


def test_bad_input_gets_an_error_naming_it_and_changes_nothing(server):
    ana, ben = duel(server)
    before = ana.view
    ana.ws.send("{not json")
    assert ana.recv()["code"] == "bad_json"
    ana.ws.send("[1, 2]")
    assert ana.recv()["code"] == "bad_json"
    ana.ws.send(b"\x00\x01")
    assert ana.recv()["code"] == "bad_json"
    ana.send(type="action", action="draw", v=3)
    assert ana.recv()["code"] == "version"
    ana.send(type="teleport")
    assert ana.recv()["code"] == "unknown_type"
    ana.send(type="action", action="play ZZ")
    assert ana.recv()["code"] == "bad_message"
    ana.send(type="action", action=7)
    assert ana.recv()["code"] == "bad_message"
    ana.ws.send(json.dumps({"v": 2, "type": "ping", "pad": "x" * 10_000}))
    assert ana.recv()["code"] == "too_large"
    waiting = ben if ana.my_turn else ana
    waiting.send(type="action", action=waiting.view["legal"][0] if waiting.view["legal"] else "draw", ref="r")
    refused = waiting.until(lambda m: m.get("ref") == "r")
    assert refused["code"] == "illegal" and refused["reason"] == "not_your_turn"
    mover = ana if ana.my_turn else ben
    mover.send(type="action", action="timeout", ref="t")
    assert mover.until(lambda m: m.get("ref") == "t")["code"] == "illegal"
    ana.send(type="join", room=ana.room_id)
    assert ana.recv()["code"] == "already_joined"
    stranger = Peer(server.port)
    stranger.send(type="action", action="draw")
    assert stranger.recv()["code"] == "not_joined"
    assert stranger.join("nope")["code"] == "unknown_room"
    assert stranger.create("poker", [HUMAN])["code"] == "bad_rules"
    assert stranger.create("duel", [HUMAN] * 5)["code"] == "bad_rules"
    assert stranger.create("duel", [HUMAN, {"kind": "computer", "level": "genius"}])["code"] == "bad_message"
    assert stranger.create("duel", [EASY, EASY])["code"] == "bad_rules"
    ana.send(type="ping", ref=1)
    assert ana.until(lambda m: m["type"] == "pong")["ref"] == 1  # the connection is still sound
    ana.drain()
    assert ana.view == before  # and nothing moved


def test_an_enormous_frame_closes_only_that_connection(server):
    ana, ben = duel(server)
    brute = Peer(server.port)
    brute.ws.send("x" * (2 << 20))
    with pytest.raises(ConnectionClosed):
        brute.until(lambda m: False, timeout=3)
    ana.send(type="ping", ref="still")
    assert ana.until(lambda m: m["type"] == "pong")["ref"] == "still"


def test_flooding_is_rate_limited_without_losing_the_connection(tmp_path):
    clock = ManualClock()
    server = start_server(tmp_path / "rooms.sqlite3", rate=20.0, clock=clock)
    ana, _ = duel(server)
    for i in range(70):  # within both allowances; past them, closed (flooding: tests/test_net_holes.py)
        ana.send(type="ping", ref=i)
    replies = []
    try:
        while True:
            replies.append(ana.recv(0.5))
    except TimeoutError:
        pass
    codes = [m.get("code") for m in replies]
    assert "rate_limited" in codes
    assert sum(m["type"] == "pong" for m in replies) < 70
    clock.advance(1.0)
    ana.send(type="ping", ref="after")
    assert ana.until(lambda m: m["type"] == "pong")["ref"] == "after"
    server.stop()


def test_the_turn_clock_runs_on_the_server(tmp_path):
    clock = ManualClock()
    server = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        ana, ben = Peer(server.port), Peer(server.port)
        ana.create("action", [HUMAN, HUMAN], options={"turn_seconds": 1})
        ben.join(ana.room_id)
        ana.until(lambda m: m["type"] == "update")
        assert ana.view["rules"]["options"]["turn_seconds"] == 1
        slow = ana if ana.view["to_act"] == ana.seat else ben
        clock.advance(1.0)
        update = slow.until(lambda m: m["type"] == "update" and any(e["type"] == "TimedOut"
                                                                    for e in m["events"]), timeout=5)
        assert update["view"]["to_act"] != slow.seat or update["view"]["turn_no"] > 1
    finally:
        server.stop()


def test_rooms_expire_after_seven_days_without_activity(tmp_path):
    import asyncio

    clock = ManualClock(1_000_000.0)

    async def scenario():
        server = RoomServer(tmp_path / "rooms.sqlite3", clock=clock, think_scale=0)
        await server.start("127.0.0.1", 0)
        try:
            return server, await asyncio.to_thread(_make_room, server.port)
        finally:
            await server.stop()

    server, room = asyncio.run(scenario())
    assert server.store is not None

    async def later(delta):
        clock.advance(delta)
        again = RoomServer(tmp_path / "rooms.sqlite3", clock=clock, think_scale=0)
        await again.start("127.0.0.1", 0)
        try:
            return room in again.rooms, again.store.exists(room)
        finally:
            await again.stop()

    assert asyncio.run(later(EXPIRY - 60)) == (True, True)
    assert asyncio.run(later(120)) == (False, False)


def _make_room(port: int) -> str:
    """A room two people joined (one nobody else joined expires sooner: test_net_abuse.py)."""
    peer, friend = Peer(port), Peer(port)
    peer.create("duel", [HUMAN, HUMAN])
    friend.join(peer.room_id)
    peer.close()
    friend.close()
    return peer.room_id


def test_keys_are_never_logged(server, caplog):
    caplog.set_level("DEBUG")
    ana, ben = duel(server)
    ana.close()
    back = Peer(server.port)
    back.join(ana.room_id, seat=0, key=ana.key)
    back.join(ana.room_id, seat=0, key="wrong")
    ben.drain(0.2)
    assert caplog.records  # the server did log (rooms created, connections)
    assert ana.key not in caplog.text and ben.key not in caplog.text


def test_the_load_benchmark_runs_rooms_of_bots_without_errors(capsys):
    from tools import loadtest

    assert loadtest.main(["--rooms", "3", "--duration", "1.5", "--think", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "round trip ms: p50" in out and "errors: 0" in out


def test_the_server_runs_its_computers_without_helper_processes():
    # Its cores serve every room at once: a room's Hard searches on one core.
    from game.engine import PRESETS
    from game.net.rooms import Room, Seat

    room = Room("r1", PRESETS["classic"], [Seat("human"), Seat("computer", "hard")], seed=3)
    room.start()
    assert room.computers[1].helpers == 0


def test_a_computer_on_the_server_waits_its_think_delay_by_the_servers_clock(tmp_path):
    clock = ManualClock()
    server = start_server(tmp_path / "rooms.sqlite3", clock=clock, think_scale=1.0)
    try:
        ana = Peer(server.port, 9)
        ana.create("classic", [HUMAN, MEDIUM])  # the human seat starts
        ana.until(lambda m: m["type"] == "update")
        while ana.my_turn:
            ana.play_one()
        assert ana.view["to_act"] == 1

        def computer_moves() -> list[dict]:
            ana.send(type="ping", ref="sync")  # whatever the server sent before the pong is in
            ana.until(lambda m: m["type"] == "pong")
            return [e for m in map(json.loads, ana.frames) if m["type"] == "update" for e in m["events"]
                    if e.get("seat") == 1]

        seen = len(computer_moves())
        clock.advance(0.5)  # less than the shortest think delay
        assert len(computer_moves()) == seen and ana.view["to_act"] == 1
        clock.advance(1.0)  # more than the longest
        ana.until(lambda m: m["type"] == "update" and any(e.get("seat") == 1 for e in m["events"]))
    finally:
        server.stop()


def test_every_message_a_client_may_send_has_one_handler_on_the_server(server):
    from game.net.messages import CLIENT_MESSAGES

    assert server.server is not None
    assert sorted(server.server.handlers) == sorted(CLIENT_MESSAGES)


def test_a_handler_given_a_message_of_another_type_fails_as_a_bug_and_is_never_run():
    from game.net.messages import Ping, Vote
    from game.net.roomservice import handles

    ran = []

    async def on_vote(client, message):
        ran.append(message)

    kind, handler = handles(Vote, on_vote)
    assert kind == "vote"
    with pytest.raises(TypeError, match="a vote handler was given a ping message"):
        handler(None, Ping())
    assert ran == []
