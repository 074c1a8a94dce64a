"""The shared store suite, its players' part: profiles and their tags, ranked lines, the
leaderboard and history, wallets and tokens, encounters, and two instances ranking at once, on
SQLite and on a real PostgreSQL (the ``store`` and ``db`` fixtures of tests/conftest.py run each
test on both). The rooms' part is tests/test_store_suite.py."""

from __future__ import annotations

import random
import threading

import pytest

from game.net.profiles import Profile, Profiles, TagTaken, skeleton
from game.net.roomstore import Encounter, RankedLine, StoreFailure, TokenLine
from game.net.tokens import GRANT, TOP_UP
from tests.pg_support import open_for_tests, rows
from tests.test_store_suite import A, B, ranked_line


# ---- players ----------------------------------------------------------------------------------------------
def test_a_profile_is_kept_changed_visited_and_expired_unless_it_played_ranked(store):
    assert store.profile(A) is None
    store.add_profile(Profile(A, "Ana", 3, tag="AAAAAA"), 10.0)
    store.add_profile(Profile(B, "Ben", 1, tag="BBBBBB"), 10.0)
    ana = store.profile(A)
    assert (ana.name, ana.avatar, ana.active, ana.tag) == ("Ana", 3, 10.0, "AAAAAA")
    store.save_profile(Profile(A, "Anna", 5, tag="CCCCCC"), 20.0)
    assert store.look_alikes(skeleton("Anna")) == [(A, "Anna", "CCCCCC")]
    assert store.look_alikes(skeleton("Ana")) == []
    store.visit(B, 30.0)
    assert store.profile(B).active == 30.0
    store.rank([ranked_line(player=A)])  # Ana played ranked: kept however idle
    assert store.expire_profiles(40.0) == 1
    assert store.profile(B) is None and store.profile(A) is not None


def test_two_profiles_of_one_skeleton_never_share_a_tag(store):
    store.add_profile(Profile(A, "Ana", tag="SAMETG"), 1.0)
    with pytest.raises(TagTaken):
        store.add_profile(Profile(B, "ana", tag="SAMETG"), 1.0)
    assert store.profile(B) is None
    store.add_profile(Profile(B, "ana", tag="OTHERT"), 1.0)
    with pytest.raises(TagTaken):
        store.save_profile(Profile(B, "ANA", tag="SAMETG"), 2.0)
    assert store.profile(B).tag == "OTHERT"


def _scripted(*tags: str):
    """A tag drawer that gives ``tags`` in turn, one character a call."""
    chars = iter("".join(tags))
    return lambda alphabet: next(chars)


def test_two_servers_on_one_database_racing_for_one_tag_store_one(store, db):
    second = open_for_tests(db)
    try:
        store.add_profile(Profile(A, "Ana", tag="SAMETG"), 1.0)
        with pytest.raises(TagTaken):  # the unique index, whatever the server believed
            second.add_profile(Profile(B, "ana", tag="SAMETG"), 1.0)
        assert second.profile(B) is None
        # The second server read the look-alikes before the first stored its profile, drew the
        # same tag, was refused, and drew again.
        stale = Profiles(second, draw=_scripted("SAMETG", "K9Q3F2"))
        reads = iter([[], None])
        looked_up = type(second).look_alikes

        def look_alikes(key: str) -> list[tuple[str, str, str]]:
            return next(reads) or looked_up(second, key)

        second.look_alikes = look_alikes
        ben = Profile("c" * 64, "Ana")
        stale.add(ben, 2.0)
        assert ben.tag == "K9Q3F2" and second.profile("c" * 64).tag == "K9Q3F2"
    finally:
        second.close()


# ---- the ranking ------------------------------------------------------------------------------------------
def test_a_ranked_line_is_written_once_and_counted_once(store):
    store.add_profile(Profile(A, "Ana"), 1000.0)
    assert store.rank([ranked_line()]) == [ranked_line()]
    assert store.rank([ranked_line()]) == []  # a restart finding the same finished match
    assert store.points(A) == {"duel": 20}
    board = store.leaderboard("duel", 10, A)
    assert [(r.name, r.xp, r.games) for r in board.top] == [("Ana", 20, 1)]
    assert (board.you.rank, board.players) == (1, 1)
    assert store.history(A, None, 10) == [ranked_line()]


def test_the_leaderboard_ranks_by_points_then_fewer_games_and_counts_distinct_opponents(store):
    store.add_profile(Profile(A, "Ana", 2, tag="AAAAAA"), 1.0)
    store.add_profile(Profile(B, "Ben", 4, tag="BBBBBB"), 2.0)
    store.add_profile(Profile("c" * 64, "Cy", 0, tag="CCCCCC"), 3.0)
    store.rank([ranked_line(30, player=A), ranked_line(20, player=B), ranked_line(20, deal=2, player=B),
                ranked_line(40, deal=3, player="c" * 64), ranked_line(5, deal=4, player="nobody" * 8)])
    met = [Encounter(f"r{i}", 1, "duel", A, f"o{i}", "203.0.113.1", f"198.51.100.{i}", 1.0) for i in range(3)]
    met.append(Encounter("r9", 1, "duel", B, "o9", "203.0.113.2", "198.51.100.7", 1.0))
    store.rank([], (), met)
    board = store.leaderboard("duel", 10, B)
    # equal points: fewer games first
    assert [(r.name, r.xp, r.games, r.avatar, r.tag) for r in board.top] == [
        ("Cy", 40, 1, 0, "CCCCCC"), ("Ben", 40, 2, 4, "BBBBBB"), ("Ana", 30, 1, 2, "AAAAAA")]
    assert board.players == 4  # every rating of the rule set (one without a profile is not listed)
    assert (board.you.rank, board.you.xp, board.you.games, board.you.opponents) == (1, 40, 2, 1)
    shown = store.leaderboard("duel", 10, B, opponents=3)
    assert [r.name for r in shown.top] == ["Ana"] and shown.players == 1
    assert shown.you.rank is None and shown.you.opponents == 1  # too few opponents to be ranked
    assert store.leaderboard("duel", 10, "c" * 64, opponents=3).you.rank is None
    assert store.leaderboard("classic", 10, A).you is None
    assert store.leaderboard("duel", 1, None).top[0].name == "Cy"


def test_history_is_newest_first_per_rule_set_and_judged_tells_what_was_written(store):
    lines = [RankedLine("r1", 1, A, "duel", 2, 10, "win", 5.0, ("Ben #B",)),
             RankedLine("r2", 1, A, "classic", 3, 0, "loss", 6.0, ("Ben #B", "Cy #C"), reason="short"),
             RankedLine("r3", 2, A, "duel", 2, 15, "tie", 7.0, ())]
    store.rank(lines)
    assert store.history(A, None, 10) == lines[::-1]
    assert store.history(A, "duel", 1) == [lines[2]]
    assert store.judged("r2", 1) == {A: (0, "short")}
    assert store.judged("r9", 1) == {}
    assert store.points(A) == {"classic": 0, "duel": 25}


def test_tokens_move_once_topping_the_wallet_up_first(store):
    assert store.wallet(A).tokens is None
    day = 100
    store.rank([ranked_line(player=A)], [TokenLine("r1", 1, A, -GRANT + 5, day, 1.0, True, (B,))])
    assert store.wallet(A).tokens == 5 and store.wallet(A).day == day
    again = [TokenLine("r1", 1, A, -GRANT + 5, day, 1.0, True, (B,))]
    store.rank([], again)  # written once
    assert store.wallet(A).tokens == 5
    store.rank([], [TokenLine("r2", 1, A, 7, day + 1, 2.0, True, (B,))])  # a new day: topped up first
    assert store.wallet(A).tokens == min(GRANT, 5 + TOP_UP) + 7 and store.wallet(A).day == day + 1
    assert store.settlement("r1", 1) == {A: -GRANT + 5} and store.settlement("r3", 1) == {}
    wallet = store.wallet(A)
    assert (wallet.games, wallet.opponents) == (1, 0)


def test_games_together_counts_the_pair_or_the_addresses_but_the_game_judged(store):
    met = [Encounter("r1", 1, "duel", A, B, "203.0.113.1", "203.0.113.2", 10.0),
           Encounter("r2", 1, "duel", A, B, "203.0.113.1", "203.0.113.2", 20.0),
           Encounter("r3", 1, "duel", A, "c" * 64, "203.0.113.1", "203.0.113.2", 30.0),  # same addresses
           Encounter("r4", 1, "duel", A, B, "203.0.113.1", "203.0.113.2", 40.0, counts=False)]
    store.rank([], (), met)
    store.rank([], (), met)  # written once
    assert store.games_together(A, B, "203.0.113.1", "203.0.113.2", 0.0, ("r9", 1)) == 3
    assert store.games_together(A, B, "203.0.113.1", "203.0.113.2", 15.0, ("r3", 1)) == 1
    assert store.games_together(A, B, "198.51.100.1", "198.51.100.2", 0.0, ("r1", 1)) == 1
    assert store.wallet(A).opponents == 1  # one distinct opponent address


def rank_again_if_refused(store, lines, tokens=(), met=(), tries: int = 5) -> list[RankedLine]:
    """``store.rank``, tried again when it is refused, as the ranking tries a refused game again: the
    suite's stores give up a lock after 0.3 s, and on a loaded machine the other instance's short
    transaction can hold one that long (nothing is written then, so trying again is exact)."""
    for _ in range(tries - 1):
        try:
            return store.rank(lines, tokens, met)
        except StoreFailure:
            continue
    return store.rank(lines, tokens, met)


def test_two_instances_ranking_the_same_game_at_once_count_its_points_and_tokens_once(store, db):
    """Two stores on one database (two server instances) race to write one game's lines: each
    line is written by one of them, and the ratings and wallets move once."""
    others = [open_for_tests(db) for _ in range(3)]
    players = [f"{i}" * 64 for i in range(1, 5)]
    try:
        for game in range(5):
            lines = [RankedLine(f"g{game}", 1, p, "duel", 4, 10 + i, "win" if i == 0 else "loss", 1.0, ())
                     for i, p in enumerate(players)]
            tokens = [TokenLine(f"g{game}", 1, p, 3 if i == 0 else -1, 100, 1.0, True, ())
                      for i, p in enumerate(players)]
            met = [Encounter(f"g{game}", 1, "duel", p, q, p[:3], q[:3], 1.0)
                   for p in players for q in players if p != q]
            written: list[list[RankedLine]] = []
            start = threading.Barrier(len(others) + 1)

            def race(one, lines=lines, tokens=tokens, met=met, written=written, start=start) -> None:
                start.wait(10)
                # Each caller hands the lines in its own order: no deadlock whatever the order.
                written.append(rank_again_if_refused(one, lines[::random.choice((1, -1))], tokens[::-1], met))

            threads = [threading.Thread(target=race, args=(one,)) for one in [store, *others]]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(line.player for batch in written for line in batch) == players
    finally:
        for one in others:
            one.close()
    assert [store.points(p) for p in players] == [{"duel": 5 * (10 + i)} for i in range(4)]
    assert [store.wallet(p).tokens for p in players] == [GRANT + 15, GRANT - 5, GRANT - 5, GRANT - 5]
    assert rows(db, "SELECT COUNT(*) FROM encounters") == [(5 * 12,)]


def test_two_instances_ending_different_games_of_one_player_at_once_add_both_to_the_wallet(store, db):
    other = open_for_tests(db)
    games = 40
    try:
        start = threading.Barrier(2)

        def play(one, prefix: str) -> None:
            start.wait(10)
            for game in range(games):  # (no ranked line: its rating's row lock would keep them apart)
                rank_again_if_refused(one, [], [TokenLine(f"{prefix}{game}", 1, A, 2, 100, 1.0, True, ())])

        threads = [threading.Thread(target=play, args=(one, prefix))
                   for one, prefix in ((store, "x"), (other, "y"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        other.close()
    assert store.wallet(A).tokens == GRANT + 2 * 2 * games  # no change lost to the other instance's
