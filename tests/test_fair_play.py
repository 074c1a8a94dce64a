"""Fair play's rules on their own (`game.net.fair_play`): one address spelling for the ranking
whatever the family, short games, the daily limit per pair, the distinct opponents."""

from __future__ import annotations

import pytest

from game.net import fair_play
from game.net.addresses import quota_key
from game.net.fair_play import (
    LOOPBACK,
    MIN_TURNS,
    PAIR_CAP,
    PAIR_GAMES,
    SHORT,
    Person,
    judge,
    ranking_address,
)


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "[::1]",
                                     "::ffff:127.0.0.2", quota_key("::1"), quota_key("127.0.0.3")])
def test_the_whole_loopback_range_is_one_address(address):
    assert ranking_address(address) == LOOPBACK


@pytest.mark.parametrize(("address", "same_as"), [
    ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped
    ("2002:cb00:7107::1", "203.0.113.7"),  # 6to4 carries its IPv4 address
    (quota_key("2002:cb00:7107:5::9"), "203.0.113.7"),  # ... also as the quotas keep it (its /64)
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),  # an IPv6 address is its /64
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::77"),
    (quota_key("2001:db8:1:2::5"), "2001:db8:1:2::6"),
])
def test_one_person_has_one_ranking_address_in_every_family(address, same_as):
    assert ranking_address(address) == ranking_address(same_as)


def test_different_people_keep_different_ranking_addresses():
    people = ("203.0.113.7", "203.0.113.8", "2001:db8:1:2::1", "2001:db8:1:3::1", "198.51.100.1")
    spelled = {ranking_address(a) for a in people}
    assert len(spelled) == 5 and LOOPBACK not in spelled


def duel(xp=(20, 10)) -> list[Person]:
    return [Person(0, "ana", "203.0.113.1", xp[0]), Person(1, "ben", "203.0.113.2", xp[1])]


def test_a_game_shorter_than_the_minimum_earns_nobody_anything():
    assert judge(duel(), MIN_TURNS - 1, lambda one, other: 0) == {0: (0, SHORT), 1: (0, SHORT)}
    assert judge(duel(), MIN_TURNS, lambda one, other: 0) == {0: (20, ""), 1: (10, "")}


def test_a_pair_earns_from_its_first_games_of_the_day_only():
    for before in range(PAIR_GAMES):
        assert judge(duel(), 30, lambda one, other, n=before: n) == {0: (20, ""), 1: (10, "")}
    assert judge(duel(), 30, lambda one, other: PAIR_GAMES) == {0: (0, PAIR_CAP), 1: (0, PAIR_CAP)}


def test_the_pair_limit_takes_only_the_pair_s_points_in_a_bigger_game():
    people = [Person(0, "ana", "a", 40), Person(1, "ben", "b", 10), Person(2, "cy", "c", 10),
              Person(3, "dee", "d", 10)]
    farmed = {frozenset(("ana", "ben"))}
    verdict = judge(people, 30,
                    lambda one, other: PAIR_GAMES * (frozenset((one.player, other.player)) in farmed))
    assert verdict == {0: (0, PAIR_CAP), 1: (0, PAIR_CAP), 2: (10, ""), 3: (10, "")}


def test_a_line_without_points_is_not_said_to_be_capped():
    assert judge(duel((20, 0)), 30, lambda one, other: PAIR_GAMES) == {0: (0, PAIR_CAP), 1: (0, "")}


def test_a_player_is_told_how_many_more_opponents_they_need():
    assert [fair_play.needs(n) for n in range(fair_play.MIN_OPPONENTS + 2)] == \
        [fair_play.MIN_OPPONENTS - n for n in range(fair_play.MIN_OPPONENTS)] + [0, 0]


def test_the_most_a_farming_pair_can_earn_is_its_daily_games():
    assert fair_play.allowed_xp({0: 20, 1: 10}, 29) == {0: 20 * PAIR_GAMES, 1: 10 * PAIR_GAMES}
    assert fair_play.allowed_xp({0: 20}, 1) == {0: 20}
