"""Tokens and stakes (`game.net.tokens`), for real: the grant and the daily top-up, the stake of a
competitive game and its pot moving with the ranking in one commit (through a kill -9 of the
server too), the refusal of a competitive seat without the stake, the abandoner's stake left in
the pot, and the attacks: farming (a game the ranking did not count returns every stake) and
alts (fresh profiles losing to one main profile give it nothing)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from game.net.profiles import player_id
from game.net.ranking import ABANDON_AFTER
from game.net.roomstore import Encounter, RankedLine, StoreFailure, TokenLine, Wallet
from game.net.sqlite_schema import PLAYERS_SCHEMA, SCHEMA
from game.net.sqlitestore import SQLiteRoomStore
from game.net.tokens import (
    ESTABLISHED_GAMES,
    GRANT,
    STAKE,
    TOP_UP,
    balance,
    day_of,
    established,
    settle,
    topped_up,
)
from tests.net_support import FROM_AFAR, Peer, person, play_until, ranked_server, start_server

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock)
    thread.db = tmp_path / "rooms.sqlite3"
    yield thread
    thread.stop()


def player(server, name: str, address: str, seed: int = 0) -> Peer:
    return person(server.port, name, address, seed)


def tokens_of(server, peer: Peer) -> int:
    """The player's balance, as a fresh hello tells it."""
    return int(Peer(server.port).hello(key=peer.player_key)["tokens"])


def seed_games(db: Path, *keys: str, amount: int = 0, now: float = 0.0) -> None:
    """Write, beside the running server, what makes each player established (games of another
    rule set that earned points against people of three addresses), moving ``amount`` tokens
    (the test's way to a balance)."""
    store = SQLiteRoomStore(db)
    try:
        for key in keys:
            who = player_id(key)
            games = range(ESTABLISHED_GAMES)
            ranked = [RankedLine(f"seed{i}", 1, who, "points", 2, 10, "loss", now, ("Rival",)) for i in games]
            met = [Encounter(f"seed{i}", 1, "points", who, f"opponent{i % 3}", "203.0.113.9",
                             f"198.51.100.{i % 3}", now) for i in games]
            lines = [TokenLine("seed0", 1, who, amount, day_of(now), now, True, ("opponent0",))]
            store.rank(ranked, lines, met)
    finally:
        store.close()


def public_duel(ana: Peer, ben: Peer) -> dict:
    ana.create("duel", [HUMAN, HUMAN], public=True)
    ben.send(type="lobby", watch=False)
    listing = ben.until(lambda m: m["type"] == "lobby")
    row = listing["rooms"][0]
    assert ben.join(row["room"])["type"] == "joined"
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "room" and m["state"] == "playing")
    return dict(row)


def finish(peers: list[Peer]) -> None:
    play_until(peers, lambda: all(p.view is not None and p.view["status"] == "match_over" for p in peers),
               accept_deals=False)
    for peer in peers:
        if peer.room is None or not peer.room.get("tokens"):
            peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over" and m.get("tokens"))


# ---- the rules, line by line --------------------------------------------------------------------------
def line(seat: int, outcome: str, xp: int = 10, reason: str = "") -> RankedLine:
    return RankedLine("room", 3, f"p{seat}", "classic", 3, xp, outcome, 0.0, (), reason=reason)


OLD = Wallet(GRANT, 0, ESTABLISHED_GAMES, 3)
NEW = Wallet(None, 0, 0, 0)


def test_the_winner_takes_the_pot_and_no_token_is_made_or_lost():
    lines = {0: line(0, "win", 30), 1: line(1, "loss"), 2: line(2, "loss")}
    moves = settle(lines, {f"p{s}": OLD for s in lines}, {s: f"p{s}" for s in lines}, 0.0)
    assert [m.amount for m in moves] == [2 * STAKE, -STAKE, -STAKE]
    assert sum(m.amount for m in moves) == 0 and all(m.counted for m in moves)
    assert moves[0].opponents == ("p1", "p2")


def test_a_tie_shares_the_pot_and_the_first_seats_take_the_remainder():
    lines = {0: line(0, "tie"), 1: line(1, "tie"), 2: line(2, "abandoned", 0)}
    poor = {"p0": OLD, "p1": OLD, "p2": Wallet(5, day_of(0.0), ESTABLISHED_GAMES, 3)}  # puts in what it has
    moves = settle(lines, poor, {s: f"p{s}" for s in lines}, 0.0)
    assert [m.amount for m in moves] == [3, 2, -5]  # a pot of 25: 13 and 12; the abandoner's stays in it
    assert not moves[2].counted


def test_when_the_computer_playing_an_abandoned_seat_wins_the_people_left_share_the_pot():
    lines = {0: line(0, "abandoned", 0), 1: line(1, "loss"), 2: line(2, "loss")}
    moves = settle(lines, {f"p{s}": OLD for s in lines}, {s: f"p{s}" for s in lines}, 0.0)
    assert [m.amount for m in moves] == [-STAKE, STAKE // 2, STAKE // 2]


def test_a_winning_pair_shares_the_pot():
    lines = {0: line(0, "win", 20), 1: line(1, "loss"), 2: line(2, "win", 20), 3: line(3, "loss")}
    moves = settle(lines, {f"p{s}": OLD for s in lines}, {s: f"p{s}" for s in lines}, 0.0)
    assert [m.amount for m in moves] == [STAKE, -STAKE, STAKE, -STAKE]


def test_a_game_the_ranking_did_not_count_returns_every_stake():
    for reason in ("short", "pair_cap"):
        lines = {0: line(0, "win", 0, reason), 1: line(1, "loss", 0, reason)}
        moves = settle(lines, {"p0": OLD, "p1": OLD}, {0: "p0", 1: "p1"}, 0.0)
        assert [m.amount for m in moves] == [0, 0] and not any(m.counted for m in moves)


def test_a_capped_pair_moves_no_tokens_even_when_the_computer_in_an_abandoned_seat_wins():
    # Fair play took the pair's points: an established alt cannot hand its tokens over this way.
    lines = {0: line(0, "abandoned", 0), 1: line(1, "loss", 0, "pair_cap"), 2: line(2, "loss")}
    moves = settle(lines, {f"p{s}": OLD for s in lines}, {s: f"p{s}" for s in lines}, 0.0)
    assert [m.amount for m in moves] == [0, 0, 0]


def test_a_newcomers_stake_is_returned_whatever_the_result():
    lines = {0: line(0, "win", 20), 1: line(1, "loss")}
    assert [m.amount for m in settle(lines, {"p0": OLD, "p1": NEW}, {0: "p0", 1: "p1"}, 0.0)] == [0, 0]
    lines = {0: line(0, "loss"), 1: line(1, "win", 20)}
    moves = settle(lines, {"p0": OLD, "p1": NEW}, {0: "p0", 1: "p1"}, 0.0)
    assert [m.amount for m in moves] == [-STAKE, STAKE]
    assert not established(Wallet(GRANT, 0, ESTABLISHED_GAMES, 2))  # games against two people only


def test_the_daily_top_up_brings_a_balance_back_to_the_grant_once_a_day():
    assert balance(NEW, 0.0) == GRANT
    assert topped_up(5, 10, 10) == 5  # the same day
    assert topped_up(5, 10, 11) == 5 + TOP_UP == topped_up(5, 10, 30)  # once, whatever the days missed
    assert topped_up(GRANT - 1, 10, 11) == GRANT
    assert topped_up(GRANT + 50, 10, 11) == GRANT + 50  # winnings are never topped up nor cut


# ---- for real ---------------------------------------------------------------------------------------
def test_a_new_profile_holds_the_grant_and_the_lobby_shows_the_stake(server):
    ana = player(server, "Ana", "203.0.113.1", 1)
    assert ana.profile["tokens"] == GRANT
    ben = player(server, "Ben", "203.0.113.2", 2)
    row = public_duel(ana, ben)
    assert row["stake"] == STAKE and ana.room["stake"] == STAKE


def test_the_winner_of_a_competitive_duel_takes_both_stakes_with_the_points(server):
    ana, ben = player(server, "Ana", "203.0.113.1", 3), player(server, "Ben", "203.0.113.2", 4)
    seed_games(server.db, ana.player_key, ben.player_key)
    public_duel(ana, ben)
    finish([ana, ben])
    winner = ana.view["result"]["winners"][0]
    expected = [STAKE if seat == winner else -STAKE for seat in range(2)]
    assert ana.room["tokens"] == expected and ben.room["tokens"] == expected
    assert tokens_of(server, ana) == GRANT + expected[ana.seat]
    assert tokens_of(server, ben) == GRANT + expected[ben.seat]
    store = sqlite3.connect(server.db)
    ranked = store.execute("SELECT COUNT(*) FROM ranked WHERE room NOT LIKE 'seed%'").fetchone()[0]
    staked = store.execute("SELECT COUNT(*) FROM stakes WHERE room NOT LIKE 'seed%'").fetchone()[0]
    assert ranked == staked == 2


def test_without_the_stake_no_competitive_seat_and_the_player_is_told_why(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 5), player(server, "Ben", "203.0.113.2", 6)
    seed_games(server.db, ana.player_key, amount=STAKE - 1 - GRANT, now=clock.now())  # Ana holds 9
    assert tokens_of(server, ana) == STAKE - 1
    ana.send(type="queue", preset="duel", players=2)
    refusal = ana.until(lambda m: m["type"] == "error")
    assert (refusal["code"], refusal["reason"]) == ("no_tokens", "no_tokens")
    assert refusal["values"] == {"stake": STAKE, "tokens": STAKE - 1}
    assert ana.create("duel", [HUMAN, HUMAN], public=True)["code"] == "no_tokens"
    assert ben.create("duel", [HUMAN, HUMAN], public=True)["type"] == "joined"
    assert ana.join(ben.room_id)["code"] == "no_tokens"
    assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"  # a private room stakes nothing
    clock.advance(86400)  # a new day: topped up
    late = Peer(server.port, address="203.0.113.1")
    assert late.hello(key=ana.player_key)["tokens"] == STAKE - 1 + TOP_UP
    late.send(type="queue", preset="duel", players=2)
    assert late.until(lambda m: m["type"] in ("queued", "error"))["type"] == "queued"


def test_one_stake_cannot_pay_two_games_at_once(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 7), player(server, "Ben", "203.0.113.2", 8)
    seed_games(server.db, ana.player_key, amount=STAKE - GRANT, now=clock.now())  # Ana holds one stake
    public_duel(ana, ben)
    again = Peer(server.port, address="203.0.113.1")
    again.hello(key=ana.player_key)
    again.send(type="queue", preset="duel", players=2)
    answer = again.until(lambda m: m["type"] in ("error", "queued"))
    assert answer.get("values") == {"stake": STAKE, "tokens": 0}


def test_an_abandoners_stake_stays_in_the_pot(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 9), player(server, "Ben", "203.0.113.2", 10)
    seed_games(server.db, ana.player_key, ben.player_key)
    for peer in (ana, ben):
        peer.send(type="queue", preset="duel", players=2)
    for peer in (ana, ben):
        assert peer.until(lambda m: m["type"] == "room")["stake"] == STAKE
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [ana.seat])
    clock.advance(ABANDON_AFTER)
    ben.until(lambda m: m["type"] == "room" and m["seats"][ana.seat].get("abandoned"))
    play_until([ben], lambda: ben.view is not None and ben.view["status"] == "match_over", accept_deals=False)
    status = ben.room
    if not status.get("tokens"):
        status = ben.until(lambda m: m["type"] == "room" and m.get("tokens"))
    assert status["tokens"][ana.seat] == -STAKE
    assert status["tokens"][ben.seat] == STAKE  # Ben is the one person who did not abandon: the pot is his
    assert tokens_of(server, ana) == GRANT - STAKE and tokens_of(server, ben) == GRANT + STAKE


def test_fresh_profiles_losing_to_one_main_profile_give_it_nothing(server):
    """The alts attack: one established main profile plays fresh profiles (each with the grant,
    each from an address of its own); whoever wins, the main never gains a token from them."""
    main = player(server, "Main", "198.51.100.1", 11)
    key = main.player_key
    seed_games(server.db, key)
    alts = 3
    for i in range(alts):
        alt = player(server, f"Alt{i}", f"203.0.113.{20 + i}", 12 + i)
        public_duel(main, alt)
        finish([main, alt])
        assert main.room["tokens"][main.seat] <= 0
        for peer in (main, alt):
            peer.close()
        main = Peer(server.port, 30 + i, address="198.51.100.1")
        main.hello(key=key)
    gained = main.profile["tokens"] - GRANT
    print(f"alts: {alts}; the main profile gained {gained} tokens from them (the rules allow 0)")
    assert gained <= 0


def test_tokens_move_exactly_once_through_a_kill_9_of_the_server(tmp_path):
    db = tmp_path / "rooms.sqlite3"

    def launch():
        command = [sys.executable, "-m", "game.net.server", "--host", "127.0.0.1", "--port", "0",
                   "--db", str(db), "--think-scale", "0", "--rate", "10000",
                   "--proxy-headers", "--trusted-proxy", "127.0.0.1"]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        first = process.stdout.readline()
        assert "Huit server on" in first, first
        return process, int(first.split(":")[1].split(",")[0])

    SQLiteRoomStore(db).close()
    keys = [f"{'a' * 31}{i}" for i in range(2)]
    seed_games(db, *keys)
    process, port = launch()
    try:
        ana, ben = Peer(port, 21, address="203.0.113.1"), Peer(port, 22, address="203.0.113.2")
        ana.hello("Ana", key=keys[0])
        ben.hello("Ben", key=keys[1])
        public_duel(ana, ben)
        play_until([ana, ben], lambda: (ana.view or {}).get("turn_no", 0) >= 4)
        for peer in (ana, ben):
            peer.drain(0.2)
        kills = 0
        while True:  # kill -9 mid-game, come back, play on, until the game is over
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            kills += 1
            process, port = launch()
            ana2 = Peer(port, 23 + kills, address="203.0.113.1")
            ben2 = Peer(port, 40 + kills, address="203.0.113.2")
            for again, was, key in ((ana2, ana, keys[0]), (ben2, ben, keys[1])):
                again.hello(key=key)
                again.join(was.room_id, seat=was.seat, key=was.key)
                again.room_id, again.seat, again.key = was.room_id, was.seat, was.key
                again.until(lambda m: m["type"] == "update")
            ana, ben = ana2, ben2
            if ana.view["status"] == "match_over":
                break
            play_until([ana, ben], _later(ana, ana.view["turn_no"] + 6), accept_deals=False)
            for peer in (ana, ben):
                peer.drain(0.2)
        for _ in range(2):  # and killed again after the game: nothing moves twice
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            process, port = launch()
        balances = [Peer(port).hello(key=key)["tokens"] for key in keys]
        print(f"kill -9: {kills} during the game, 2 after it; balances {sorted(balances)} (the rules: "
              f"{GRANT - STAKE} and {GRANT + STAKE})")
        assert sorted(balances) == [GRANT - STAKE, GRANT + STAKE], (kills, balances)
    finally:
        process.kill()
        process.wait(10)
    store = sqlite3.connect(db)
    assert store.execute("SELECT COUNT(*) FROM stakes WHERE room NOT LIKE 'seed%'").fetchone()[0] == 2
    assert store.execute("SELECT SUM(tokens) FROM wallets").fetchone()[0] == 2 * GRANT


class _RefusesOnce(SQLiteRoomStore):
    """A store whose disk refuses the first ranking commit (as if the server died just before it)."""

    refused = False

    def rank(self, lines, tokens=()):
        if not self.refused and lines:
            self.refused = True
            raise StoreFailure("disk I/O error")
        return super().rank(lines, tokens)


def test_a_game_whose_stakes_could_not_be_written_moves_them_once_at_the_next_start(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    keys = [f"{'c' * 31}{i}" for i in range(2)]
    SQLiteRoomStore(db).close()
    seed_games(db, *keys)
    thread = start_server(_RefusesOnce(db), **FROM_AFAR)
    try:
        ana, ben = Peer(thread.port, 51, address="203.0.113.1"), Peer(thread.port, 52, address="203.0.113.2")
        ana.hello("Ana", key=keys[0])
        ben.hello("Ben", key=keys[1])
        public_duel(ana, ben)
        play_until([ana, ben], lambda: all(p.view["status"] == "match_over" for p in (ana, ben)),
                   accept_deals=False)
        assert [Peer(thread.port).hello(key=key)["tokens"] for key in keys] == [GRANT, GRANT]  # not yet
    finally:
        thread.stop()
    for _ in range(2):  # the next start writes them, once
        again = start_server(db, **FROM_AFAR)
        try:
            balances = sorted(Peer(again.port).hello(key=key)["tokens"] for key in keys)
            assert balances == [GRANT - STAKE, GRANT + STAKE]
        finally:
            again.stop()


def _later(peer: Peer, turn: int):
    return lambda: peer.view["status"] == "match_over" or peer.view["turn_no"] >= turn


def test_a_version_2_file_opens_as_version_3_and_its_players_hold_the_grant(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("PRAGMA user_version=2;" + SCHEMA.replace(
        "kind TEXT NOT NULL DEFAULT 'private'", "kind TEXT NOT NULL DEFAULT 'private'") + PLAYERS_SCHEMA)
    db.execute("INSERT INTO profiles VALUES ('ana', 'Ana', 1, 0, 0)")
    db.execute("INSERT INTO ratings VALUES ('ana', 'duel', 200, 12)")
    db.commit()
    db.close()
    store = SQLiteRoomStore(path)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == 4
        assert store.points("ana") == {"duel": 200}
        wallet = store.wallet("ana")
        assert wallet == Wallet(None, 0, 0, 0) and balance(wallet, 1e9) == GRANT
    finally:
        store.close()
    SQLiteRoomStore(path).close()  # and it opens as version 3 from then on
