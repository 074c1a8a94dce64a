"""The farming attack of issue 32, replayed against a real server: two profiles of one person,
from two addresses, dealing ranked duels one after the other in one public room. Fair play
(`game.net.fair_play`) holds it: the whole loopback range (and every family's spelling of one
address) is one address, so such a pair is not ranked at all; from two real addresses a pair
earns from `PAIR_GAMES` games a day and no more, whatever profiles it uses; a short game earns
nothing; a leaderboard shows only players with `MIN_OPPONENTS` distinct opponents."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

import pytest

from game.net.fair_play import MIN_OPPONENTS, MIN_TURNS, PAIR_CAP, PAIR_GAMES, PAIR_WINDOW, SHORT
from tests.net_support import Peer, play_until, ranked_server, start_server

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock)
    yield thread
    thread.stop()


def player(port: int, name: str, seed: int = 0, **where) -> Peer:
    peer = Peer(port, seed, **where)
    assert peer.hello(name)["type"] == "profile"
    return peer


def public_duel(host: Peer, guest: Peer, options=None) -> None:
    assert host.create("duel", [HUMAN, HUMAN], options=options, public=True)["type"] == "joined"
    assert guest.join(host.room_id)["type"] == "joined"
    for peer in (host, guest):
        peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")


def play_game(peers: list[Peer], ranked: bool = True) -> None:
    """Play the deal under way to its end (each deal of a duel is a game), and wait for its status
    (of a ranked room: the one that says what each earned)."""
    number = peers[0].view["round_number"] if peers[0].view else 1
    play_until(peers, lambda: all(p.view is not None and p.view["round_number"] == number
                                  and p.view["status"] == "match_over" for p in peers), accept_deals=False)
    for peer in peers:
        status = peer.room
        if status is None or status["state"] != "match_over" or (ranked and status.get("earned") is None):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over"
                       and (not ranked or m.get("earned") is not None))


def deal_again(peers: list[Peer]) -> None:
    number = peers[0].view["round_number"]
    for peer in peers:
        peer.send(type="accept_round")
    for peer in peers:
        if not (peer.view["round_number"] > number and peer.view["status"] == "playing"):
            peer.until(lambda m: m["type"] == "update" and m["view"]["round_number"] > number
                       and m["view"]["status"] == "playing")


def points(port: int, peer: Peer) -> dict:
    return Peer(port).hello(key=peer.player_key)["xp"]


def history(peer: Peer) -> list[dict]:
    peer.send(type="history", ref="h")
    return peer.until(lambda m: m.get("ref") == "h")["games"]


def board(peer: Peer) -> dict:
    peer.send(type="leaderboard", preset="duel", ref="b")
    return peer.until(lambda m: m.get("ref") == "b")


# ---- one person, two loopback addresses ----------------------------------------------------------
def test_two_profiles_from_two_loopback_addresses_are_one_address_and_earn_nothing(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", burst=100_000.0)  # no proxy: the sockets' own addresses
    try:
        ana = player(thread.port, "Ana", 1, source="127.0.0.1")
        ben = player(thread.port, "Ben", 2, source="127.0.0.2")
        public_duel(ana, ben)
        assert ana.room["ranked"] is False
        play_game([ana, ben], ranked=False)
        assert points(thread.port, ana) == {} and points(thread.port, ben) == {}
    finally:
        thread.stop()


@pytest.mark.parametrize("pair", [("::1", "127.0.0.2"), ("::ffff:203.0.113.5", "203.0.113.5"),
                                  ("2002:cb00:7105::1", "203.0.113.5"),
                                  ("2001:db8:7:1::1", "2001:db8:7:1::2"),
                                  ("127.0.0.1", "127.0.0.9")])
def test_one_address_in_two_spellings_is_never_ranked(server, pair):
    ana = player(server.port, "Ana", 1, address=pair[0])
    ben = player(server.port, "Ben", 2, address=pair[1])
    public_duel(ana, ben)
    assert ana.room["ranked"] is False


# ---- two real addresses: the daily limit per pair ------------------------------------------------
def test_a_farming_pair_earns_from_its_first_games_of_the_day_only(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    ben = player(server.port, "Ben", 2, address="198.51.100.2")
    public_duel(ana, ben)
    assert ana.room["ranked"] is True
    games = PAIR_GAMES + 3
    earned = []
    for game in range(games):
        if game:
            clock.advance(60.0)  # the attack: a game a minute at most
            deal_again([ana, ben])
        play_game([ana, ben])
        earned.append(ana.room["earned"])
        # The status says why fair play took the points, and says nothing when it took none.
        assert ana.room.get("reasons") == (None if game < PAIR_GAMES else [PAIR_CAP, PAIR_CAP])
    assert all(sum(e) in (30,) for e in earned[:PAIR_GAMES])  # the winner's 20, the loser's 10
    assert all(e == [0, 0] for e in earned[PAIR_GAMES:])  # the room's status says what really counted
    expected = [sum(e[seat] for e in earned) for seat in (ana.seat, ben.seat)]
    assert sum(expected) == 30 * PAIR_GAMES
    assert points(server.port, ana) == {"duel": expected[0]}
    assert points(server.port, ben) == {"duel": expected[1]}
    lines = history(ana)
    assert len(lines) == games
    assert [line.get("reason", "") for line in lines] == [PAIR_CAP] * 3 + [""] * PAIR_GAMES  # newest first
    assert all(line["xp"] == 0 for line in lines[:3])
    # Only the games the pair earned from count: a day after the first, one more earns, and no
    # more until a day after the second.
    clock.advance(PAIR_WINDOW - 60.0 * (games - 1) + 1.0)
    for more in (30, 0):
        deal_again([ana, ben])
        play_game([ana, ben])
        assert sum(ana.room["earned"]) == more
    assert [line.get("reason", "") for line in history(ana)[:2]] == [PAIR_CAP, ""]


def test_new_profiles_of_the_same_two_addresses_share_the_pair_s_limit(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    ben = player(server.port, "Ben", 2, address="198.51.100.2")
    public_duel(ana, ben)
    for game in range(PAIR_GAMES):
        if game:
            deal_again([ana, ben])
        play_game([ana, ben])
    # Two fresh profiles, the same two addresses (an IPv4-mapped spelling for one): nothing more.
    cy = player(server.port, "Cy", 3, address="::ffff:203.0.113.1")
    dee = player(server.port, "Dee", 4, address="198.51.100.2")
    public_duel(cy, dee)
    assert cy.room["ranked"] is True
    play_game([cy, dee])
    assert cy.room["earned"] == [0, 0]
    assert points(server.port, cy) == {"duel": 0} and points(server.port, dee) == {"duel": 0}
    assert {line["reason"] for line in history(cy) + history(dee)} == {PAIR_CAP}


# ---- short games ---------------------------------------------------------------------------------
def eager(peers: list[Peer]) -> None:
    """The peers play a card whenever they can (what a farmer dealing 3-card games does)."""
    for peer in peers:
        peer.rng.choice = lambda legal: next((a for a in legal if a.startswith("play")), legal[0])


def test_a_game_shorter_than_the_minimum_turns_earns_nothing(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    ben = player(server.port, "Ben", 2, address="198.51.100.2")
    eager([ana, ben])
    public_duel(ana, ben, options={"hand_size": 3})  # the farmer's house rule: three cards a hand
    room = server.server.service.rooms[ana.room_id]
    turns = []
    for game in range(12):
        if game:
            clock.advance(PAIR_WINDOW + 1.0)  # the pair's limit out of the way: each game may earn
            deal_again([ana, ben])
        play_game([ana, ben])
        turns.append(room.turns)
        assert (ana.room["earned"] == [0, 0]) == (room.turns < MIN_TURNS)
        assert ana.room.get("reasons") == ([SHORT, SHORT] if room.turns < MIN_TURNS else None)
    assert any(t < MIN_TURNS for t in turns) and any(t >= MIN_TURNS for t in turns)
    lines = history(ana)[::-1]  # oldest first, as played
    assert [line.get("reason", "") for line in lines] == [SHORT if t < MIN_TURNS else "" for t in turns]
    assert all(line["xp"] == 0 for line, t in zip(lines, turns, strict=True) if t < MIN_TURNS)
    assert points(server.port, ana)["duel"] == sum(line["xp"] for line in lines)


def small_hand_games(ana: Peer, ben: Peer, room, most: int = 40) -> Iterator[bool]:
    """Ana and Ben's games of 3-card hands one after the other, at most ``most``: after each,
    whether it was too short to count."""
    for game in range(most):
        if game:
            deal_again([ana, ben])
        play_game([ana, ben])
        yield room.turns < MIN_TURNS


def test_short_games_do_not_use_up_the_pair_s_limit(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    ben = player(server.port, "Ben", 2, address="198.51.100.2")
    eager([ana, ben])
    public_duel(ana, ben, options={"hand_size": 3})
    room = server.server.service.rooms[ana.room_id]
    earning = short = 0
    for was_short in small_hand_games(ana, ben, room):
        if was_short:
            short += 1
        elif earning < PAIR_GAMES:
            earning += 1
            assert sum(ana.room["earned"]) == 30  # short games before it left the pair's allowance whole
        else:
            break
    assert short and earning == PAIR_GAMES and ana.room["earned"] == [0, 0]
    assert history(ana)[0]["reason"] == PAIR_CAP


# ---- the leaderboard's distinct opponents --------------------------------------------------------
def back(port: int, peer: Peer, address: str) -> Peer:
    """The same player again on a new connection (``leave`` closes one)."""
    again = Peer(port, peer.count + 7, address=address)
    assert again.hello(key=peer.player_key)["type"] == "profile"
    return again


def test_the_leaderboard_shows_only_players_with_enough_distinct_opponents(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    rivals = [player(server.port, name, 2 + i, address=f"198.51.100.{i + 1}")
              for i, name in enumerate(["Ben", "Cy", "Dee", "Eve"][:MIN_OPPONENTS])]
    for n, rival in enumerate(rivals):
        if n:
            ana = back(server.port, ana, "203.0.113.1")
        public_duel(ana, rival)
        play_game([ana, rival])
        ana.send(type="leave")
        if n < MIN_OPPONENTS - 1:
            mine = board(rival)
            assert mine["top"] == [] and mine["players"] == 0
    ana = back(server.port, ana, "203.0.113.1")
    shown = board(ana)
    assert [row["name"] for row in shown["top"]] == ["Ana"] and shown["players"] == 1
    assert shown["you"]["rank"] == 1 and shown["you"]["needs"] == 0
    assert shown["you"]["opponents"] == MIN_OPPONENTS
    theirs = board(rivals[0])["you"]  # a player not shown yet is told how many more they need
    assert theirs["rank"] is None and theirs["opponents"] == 1 and theirs["needs"] == MIN_OPPONENTS - 1
    assert theirs["xp"] in (10, 20)


def test_many_profiles_behind_one_address_are_one_opponent(server, clock):
    ana = player(server.port, "Ana", 1, address="203.0.113.1")
    for i in range(MIN_OPPONENTS):  # a new profile each time, from the same IPv6 /64
        if i:
            ana = back(server.port, ana, "203.0.113.1")
            clock.advance(PAIR_WINDOW + 1.0)  # not the pair's limit: one opponent whatever the day
        rival = player(server.port, f"Alt{i}", 10 + i, address=f"2001:db8:5:5::{i + 1}")
        public_duel(ana, rival)
        play_game([ana, rival])
        ana.send(type="leave")
    mine = board(rival)
    assert mine["top"] == []
    ana = back(server.port, ana, "203.0.113.1")
    mine = board(ana)["you"]
    assert mine["opponents"] == 1 and mine["rank"] is None and mine["needs"] == MIN_OPPONENTS - 1


# ---- a version 2 file ----------------------------------------------------------------------------
def test_a_version_2_file_keeps_its_lines_and_counts_their_opponents(tmp_path):
    from game.net.sqlite_schema import PLAYERS_SCHEMA, SCHEMA, VERSION
    from game.net.sqlitestore import SQLiteRoomStore

    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("PRAGMA user_version=2;" + SCHEMA + PLAYERS_SCHEMA)
    db.execute("INSERT INTO profiles VALUES ('p1', 'Ana', 0, 1.0, 1.0)")
    db.execute("INSERT INTO ratings VALUES ('p1', 'duel', 60, 3)")
    for deal, rival in enumerate(["Ben #1A2", "Cy #3B4", "Dee #5C6"], 1):
        db.execute("INSERT INTO ranked VALUES (?, ?, 'p1', 'duel', 2, 20, 'win', ?, ?)",
                   (f"r{deal}", deal, float(deal), json.dumps([rival])))
    db.commit()
    db.close()
    store = SQLiteRoomStore(path)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 4
        assert [line.reason for line in store.history("p1", None, 10)] == ["", "", ""]
        shown = store.leaderboard("duel", 10, "p1", MIN_OPPONENTS)
        assert [r.player for r in shown.top] == ["p1"] and shown.you is not None
        assert (shown.you.rank, shown.you.xp, shown.you.opponents) == (1, 60, 3)
    finally:
        store.close()
    SQLiteRoomStore(path).close()  # and it opens as version 3 from then on


def test_a_restarted_server_tells_the_points_and_tokens_it_wrote_not_a_new_judgement(tmp_path, clock):
    # A capped game, then a restart a day later (the pair's window has moved on): the room's status
    # must still say what was written (0 points, pair_cap, no tokens), not judge the game again.
    db = tmp_path / "rooms.sqlite3"
    first = ranked_server(db, clock)
    try:
        ana = player(first.port, "Ana", 1, address="203.0.113.1")
        ben = player(first.port, "Ben", 2, address="198.51.100.2")
        public_duel(ana, ben)
        for game in range(PAIR_GAMES + 1):
            if game:
                clock.advance(60.0)
                deal_again([ana, ben])
            play_game([ana, ben])
        assert ana.room["earned"] == [0, 0] and ana.room["reasons"] == [PAIR_CAP, PAIR_CAP]
        written = ana.room.get("tokens")
        seat, key, room = ana.seat, ana.key, ana.room_id
    finally:
        first.stop()
    clock.advance(PAIR_WINDOW + 1.0)
    again = ranked_server(db, clock)
    try:
        back = Peer(again.port, 1, address="203.0.113.1")
        back.hello(key=ana.player_key)
        assert back.join(room, seat=seat, key=key)["type"] == "joined"
        status = back.until(lambda m: m["type"] == "room" and m["state"] == "match_over")
        assert status["earned"] == [0, 0] and status["reasons"] == [PAIR_CAP, PAIR_CAP]
        assert status.get("tokens") == written
    finally:
        again.stop()
