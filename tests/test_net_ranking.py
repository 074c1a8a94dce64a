"""The ranking, for real: points after a competitive game (public or quick match, people from
different addresses), none after a private one or between two players of one address, the
leaderboard and history as JSON, and the abandon flow with the vote, on the server's clock."""

from __future__ import annotations

import random

import pytest

from game.engine import PRESETS, Status, experience_points
from game.net.ranking import ABANDON_AFTER, PENALTY, Abandons
from game.net.rooms import Room, Seat
from tests.net_support import FROM_AFAR, Peer, person, play_until, ranked_server, start_server

HUMAN = {"kind": "human"}
PROXY = {"min_opponents": 1}  # one game puts its players on the board (the minimum: test_net_fair_play)


@pytest.fixture
def server(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock, **PROXY)
    yield thread
    thread.stop()


def player(server, name: str, address: str, seed: int = 0) -> Peer:
    return person(server.port, name, address, seed)


def points(server, peer: Peer) -> dict:
    """The player's points per rule set, as a fresh hello tells them."""
    return Peer(server.port).hello(key=peer.player_key)["xp"]


def public_duel(server, ana: Peer, ben: Peer) -> None:
    ana.create("duel", [HUMAN, HUMAN], public=True)
    ben.send(type="lobby", watch=False)
    listing = ben.until(lambda m: m["type"] == "lobby")
    ben.join(listing["rooms"][0]["room"])
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")


def finish(peers: list[Peer]) -> None:
    play_until(peers, lambda: all(p.view is not None and p.view["status"] == "match_over" for p in peers),
               accept_deals=False)
    for peer in peers:
        if peer.room is None or peer.room["state"] != "match_over":
            peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over")


def test_a_public_duel_between_two_addresses_earns_the_sources_points(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 1), player(server, "Ben", "203.0.113.2", 2)
    public_duel(server, ana, ben)
    assert ana.room["ranked"] is True and ana.room["kind"] == "public"
    finish([ana, ben])
    winners = ana.view["result"]["winners"]
    expected = experience_points(2, winners)
    assert expected in ((20, 10), (10, 20))
    assert points(server, ana) == {"duel": expected[ana.seat]}
    assert points(server, ben) == {"duel": expected[ben.seat]}
    ana.send(type="leaderboard", preset="duel", ref="b")
    board = ana.until(lambda m: m.get("ref") == "b")
    assert board["type"] == "leaderboard" and board["players"] == 2
    assert [(row["name"], row["xp"], row["games"]) for row in board["top"]] == sorted(
        [("Ana", expected[ana.seat], 1), ("Ben", expected[ben.seat], 1)], key=lambda r: -r[1])
    assert [row["rank"] for row in board["top"]] == [1, 2]
    assert board["you"]["xp"] == expected[ana.seat]
    assert board["you"]["rank"] == (1 if ana.seat in winners else 2)
    assert [row["tag"] for row in board["top"] if row["you"]] == [ana.profile["tag"]]
    ben.send(type="history", ref="h")
    history = ben.until(lambda m: m.get("ref") == "h")["games"]
    assert len(history) == 1
    game = history[0]
    assert (game["preset"], game["players"], game["xp"]) == ("duel", 2, expected[ben.seat])
    assert game["outcome"] == ("win" if ben.seat in winners else "loss")
    assert game["opponents"] == [f"Ana #{ana.profile['tag']}"] and ana.room_id not in str(history)


def test_a_quick_match_between_two_addresses_is_ranked(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 3), player(server, "Ben", "198.51.100.7", 4)
    for peer in (ana, ben):
        peer.send(type="queue", preset="duel", players=2)
    for peer in (ana, ben):
        assert peer.until(lambda m: m["type"] == "room")["ranked"] is True
    finish([ana, ben])
    assert sum(points(server, p)["duel"] for p in (ana, ben)) == 30


def test_a_private_room_among_friends_earns_nothing_and_says_so(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 5), player(server, "Ben", "203.0.113.2", 6)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    status = ben.until(lambda m: m["type"] == "room")
    assert status["kind"] == "private" and status["ranked"] is False
    finish([ana, ben])
    assert points(server, ana) == {} and points(server, ben) == {}


def test_two_players_from_one_address_are_never_ranked(server):
    ana, ben = player(server, "Ana", "203.0.113.9", 7), player(server, "Ben", "203.0.113.9", 8)
    public_duel(server, ana, ben)
    assert ana.room["ranked"] is False
    finish([ana, ben])
    assert points(server, ana) == {} and points(server, ben) == {}


def test_points_are_written_once_however_often_the_server_restarts(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db, **FROM_AFAR, **PROXY)
    try:
        ana, ben = player(thread, "Ana", "203.0.113.1", 9), player(thread, "Ben", "203.0.113.2", 10)
        public_duel(thread, ana, ben)
        finish([ana, ben])
        before = points(thread, ana), points(thread, ben)
    finally:
        thread.stop()
    for _ in range(2):
        again = start_server(db, **FROM_AFAR, **PROXY)
        try:
            assert (points(again, ana), points(again, ben)) == before
        finally:
            again.stop()


# ---- abandoning ---------------------------------------------------------------------------------------
def quick(server, *peers: Peer, preset: str = "duel") -> None:
    for peer in peers:
        peer.send(type="queue", preset=preset, players=len(peers))
    for peer in peers:
        assert peer.until(lambda m: m["type"] == "room")["ranked"] is True


def test_a_player_away_five_minutes_loses_the_seat_and_the_vote_penalises_them(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 11), player(server, "Ben", "203.0.113.2", 12)
    quick(server, ana, ben)
    seat, key, room = ana.seat, ana.key, ana.room_id
    ben.send(type="vote", seat=seat, penalise=True)
    assert ben.until(lambda m: m["type"] == "error")["code"] == "no_vote"  # nobody abandoned yet
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(ABANDON_AFTER - 1)
    ben.drain(0.2)
    assert not ben.room["seats"][seat].get("abandoned")
    clock.advance(1)
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    assert status["seats"][seat]["kind"] == "computer" and status["seats"][seat]["level"] == "medium"
    assert status["waiting_for"] == [] and status["votes"] == [
        {"seat": seat, "yes": 0, "no": 0, "voters": 1, "voted": [], "penalised": False}]
    back = Peer(server.port, address="203.0.113.1")
    assert back.join(room, seat=seat, key=key)["code"] == "abandoned"
    for bad in ({"seat": seat, "penalise": "yes"}, {"seat": 5, "penalise": True},
                {"seat": "0", "penalise": True}, {"penalise": True}, {"seat": ben.seat, "penalise": True}):
        ben.send(type="vote", **bad)
        assert ben.until(lambda m: m["type"] == "error")["code"] in ("bad_message", "no_vote")
    ben.send(type="vote", seat=seat, penalise=True)
    decided = ben.until(lambda m: m["type"] == "room" and m["votes"] and m["votes"][0]["penalised"])
    assert decided["votes"][0]["yes"] == 1 and decided["votes"][0]["voted"] == [ben.seat]
    assert points(server, ana) == {"duel": -PENALTY}
    ben.send(type="vote", seat=seat, penalise=False)
    assert ben.until(lambda m: m["type"] == "error")["code"] == "already_voted"
    finish([ben])  # Ben finishes against the computer
    history = Peer(server.port)
    history.hello(key=ana.player_key)
    history.send(type="history")
    games = history.until(lambda m: m["type"] == "history")["games"]
    assert [g["outcome"] for g in games] == ["penalty"]  # the abandon and its penalty: one line
    assert sum(g["xp"] for g in games) == -PENALTY
    assert points(server, ben)["duel"] in (10, 20)


def test_coming_back_in_time_keeps_the_seat(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 13), player(server, "Ben", "203.0.113.2", 14)
    quick(server, ana, ben)
    seat, key, room = ana.seat, ana.key, ana.room_id
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(ABANDON_AFTER - 10)
    back = Peer(server.port, address="203.0.113.1")
    assert back.join(room, seat=seat, key=key)["type"] == "joined"
    clock.advance(ABANDON_AFTER)
    ben.drain(0.2)
    assert not ben.room["seats"][seat].get("abandoned") and ben.room["seats"][seat]["kind"] == "human"


def test_the_penalty_needs_more_than_half_of_the_people_still_playing(server, clock):
    ana, ben, cid = (player(server, n, f"203.0.113.{i}", i) for i, n in enumerate(("Ana", "Ben", "Cid"), 20))
    quick(server, ana, ben, cid, preset="points")
    seat = ana.seat
    ana.close()
    ben.until(lambda m: m["type"] == "room" and seat in m["waiting_for"])
    clock.advance(ABANDON_AFTER)
    for peer in (ben, cid):
        peer.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    ben.send(type="vote", seat=seat, penalise=True)
    one = cid.until(lambda m: m["type"] == "room" and m["votes"] and m["votes"][0]["yes"] == 1)
    assert one["votes"][0]["penalised"] is False and one["votes"][0]["voters"] == 2
    assert points(server, ana) == {}
    cid.send(type="vote", seat=seat, penalise=True)
    cid.until(lambda m: m["type"] == "room" and m["votes"][0]["penalised"])
    assert points(server, ana) == {"points": -PENALTY}


def test_votes_are_counted_per_player_and_refused_in_private_rooms(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock, **PROXY)
    try:
        ana, ben = player(thread, "Ana", "203.0.113.1", 30), player(thread, "Ben", "203.0.113.2", 31)
        ana.create("duel", [HUMAN, HUMAN])
        ben.join(ana.room_id)
        ben.until(lambda m: m["type"] == "update")
        ben.send(type="vote", seat=ana.seat, penalise=True)
        assert ben.until(lambda m: m["type"] == "error")["code"] == "no_vote"
        stranger = Peer(thread.port)
        stranger.send(type="vote", seat=0, penalise=True)
        assert stranger.recv()["code"] == "not_joined"
    finally:
        thread.stop()


@pytest.mark.parametrize("preset", ["poker", 7, None, ["duel"]])
def test_a_leaderboard_of_no_rule_set_is_refused(server, preset):
    peer = Peer(server.port)
    peer.send(type="leaderboard", preset=preset)
    assert peer.recv()["code"] == "bad_rules"
    peer.hello("Ana")
    peer.send(type="history", preset=preset if preset is not None else "poker")
    assert peer.recv()["code"] == "bad_rules"


def test_a_leaderboard_asked_without_a_profile_has_no_own_line(server):
    peer = Peer(server.port)
    peer.send(type="leaderboard", preset="colors")
    board = peer.recv()
    assert board == {"type": "leaderboard", "preset": "colors", "top": [], "you": None, "players": 0, "v": 2}


# ---- the rooms' database, version 2 ----------------------------------------------------------------
V1_SCHEMA = """
CREATE TABLE rooms (id TEXT PRIMARY KEY, rules TEXT NOT NULL, seats TEXT NOT NULL, seed INTEGER NOT NULL,
    first INTEGER, created REAL NOT NULL, active REAL NOT NULL, owner TEXT NOT NULL DEFAULT '',
    joined INTEGER NOT NULL DEFAULT 1);
CREATE TABLE log (room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    kind TEXT NOT NULL, seat INTEGER, text TEXT NOT NULL DEFAULT '', PRIMARY KEY (room, seq));
"""


@pytest.mark.parametrize("version", [0, 1])
def test_a_database_of_an_earlier_version_is_brought_to_the_current_version_with_its_rooms(tmp_path, version):
    import json
    import sqlite3
    import stat

    from game.net.sqlite_schema import VERSION
    from game.net.sqlitestore import SQLiteRoomStore

    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)
    schema = V1_SCHEMA if version else V1_SCHEMA.replace(
        ", owner TEXT NOT NULL DEFAULT '',\n    joined INTEGER NOT NULL DEFAULT 1", "")
    db.executescript(f"PRAGMA user_version={version};" + schema)
    seats = json.dumps([{"kind": "human", "level": "medium", "name": "Ana", "key_hash": "0" * 64},
                        {"kind": "human", "level": "medium", "name": "", "key_hash": None}])
    rules = json.dumps({"preset": "duel", "options": {}})
    values = ("old", rules, seats, 7, None, 1.0, 1.0) + (("1.2.3.4", 0) if version else ())
    db.execute(f"INSERT INTO rooms VALUES ({', '.join('?' * len(values))})", values)
    db.commit()
    db.close()
    store = SQLiteRoomStore(path)
    try:
        rooms, broken = store.load()
        assert broken == [] and [r.room_id for r in rooms] == ["old"]
        room = rooms[0]
        assert room.kind == "private" and room.ranked is False and room.seats[0].player is None
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 4
        assert store.db.execute("SELECT COUNT(*) FROM profiles").fetchone()[0] == 0
        assert store.db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 0
    finally:
        store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = SQLiteRoomStore(path)  # and it opens as the current version from then on
    again.close()


def test_a_version_2_database_missing_the_players_tables_is_refused_untouched(tmp_path):
    import sqlite3

    from game.net.roomstore import StoreError
    from game.net.sqlitestore import SQLiteRoomStore

    path = tmp_path / "rooms.sqlite3"
    SQLiteRoomStore(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE ratings")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="ratings table is missing"):
        SQLiteRoomStore(path)
    assert path.read_bytes() == before


# ---- what an abandon is, and what a game after one earns -------------------------------------------------
def test_leaving_a_finished_ranked_game_is_no_abandon(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 40), player(server, "Ben", "203.0.113.2", 41)
    quick(server, ana, ben)
    finish([ana, ben])
    earned = points(server, ben)
    seat = ben.seat
    ben.close()
    ana.until(lambda m: m["type"] == "room" and not m["seats"][seat]["connected"])
    clock.advance(2 * ABANDON_AFTER)
    ana.drain(0.2)
    assert ana.room["seats"][seat]["kind"] == "human" and not ana.room["seats"][seat].get("abandoned")
    assert ana.room["votes"] == []
    ana.send(type="vote", seat=seat, penalise=True)
    assert ana.until(lambda m: m["type"] == "error")["code"] == "no_vote"
    assert points(server, ben) == earned  # nothing lost for leaving a game that was over
    back = Peer(server.port, address="203.0.113.2")
    back.hello(key=ben.player_key)
    assert back.join(ana.room_id, seat=seat, key=ben.key)["type"] == "joined"  # the seat is still his


def test_a_game_dealt_after_an_abandon_earns_nobody_points(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 42), player(server, "Ben", "203.0.113.2", 43)
    quick(server, ana, ben)
    seat = ben.seat
    ben.close()
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(ABANDON_AFTER)
    ana.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    assert ana.room["ranked"] is True  # the game Ben abandoned is still Ana's to finish, ranked
    finish([ana])
    earned = points(server, ana)["duel"]
    assert earned in (10, 20)  # the game she was playing when he left
    ana.send(type="accept_round")
    second = ana.until(lambda m: m["type"] == "room" and m["deal"] == 2)
    assert second["state"] == "playing" and second["ranked"] is False  # Ana against the computer
    play_until([ana], lambda: ana.view is not None and ana.view["round_number"] == 2
               and ana.view["status"] == "match_over", accept_deals=False)
    if ana.room["state"] != "match_over":
        ana.until(lambda m: m["type"] == "room" and m["state"] == "match_over")
    assert ana.room["deal"] == 2 and ana.room["ranked"] is False
    assert points(server, ana) == {"duel": earned}
    history = Peer(server.port)
    history.hello(key=ana.player_key)
    history.send(type="history")
    assert len(history.until(lambda m: m["type"] == "history")["games"]) == 1


def test_leaving_between_two_deals_of_a_match_with_a_target_is_an_abandon():

    seats = [Seat("human"), Seat("human"), Seat("human")]
    room = Room("r", PRESETS["points"], seats, 7, kind="quick")
    for seat in range(3):
        room.claim(seat, f"P{seat}")
        room.claimed_by(seat, f"player{seat}", f"203.0.113.{seat}", None)
    assert room.ranked and room.earns and not Abandons.counts(room)  # not dealt: nothing to abandon
    room.start()
    assert room.match is not None and room.match.target > 0
    assert Abandons.counts(room)
    rng = random.Random(1)
    while room.state == Status.PLAYING:
        seat = room.match.to_act
        room.apply(seat, rng.choice(room.match.legal_actions(seat)))
    assert room.state == Status.ROUND_OVER  # between two deals of the match: the game goes on
    assert Abandons.counts(room)
    room.abandon(0)
    assert room.earns  # the others finish the match abandoned in deal 1, and earn it
    while room.state != Status.MATCH_OVER:
        if room.state == Status.ROUND_OVER:
            room.next_round()
        seat = room.match.to_act
        room.apply(seat, rng.choice(room.match.legal_actions(seat)))
    assert room.earns and not Abandons.counts(room)  # over: leaving now is no abandon


def test_a_deal_without_a_target_after_an_abandon_earns_nothing():

    room = Room("r", PRESETS["duel"], [Seat("human"), Seat("human")], 7, kind="public")
    for seat in range(2):
        room.claim(seat, f"P{seat}")
        room.claimed_by(seat, f"player{seat}", f"203.0.113.{seat}", None)
    room.start()
    room.abandon(1)
    assert room.earns and room.game_deal == 1
    rng = random.Random(2)
    while room.state == "playing":
        seat = room.match.to_act
        room.apply(seat, rng.choice(room.match.legal_actions(seat)))
    assert room.state == "match_over" and room.earns
    room.next_round()
    assert room.game_deal == 2 and room.ranked and not room.earns
