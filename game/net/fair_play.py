"""Fair play in the ranking: the rules that keep two profiles from farming points together.

Pure rules, no I/O: `ranking.Ranking` asks them when it writes a game's lines, the store
counts what they need (`roomstore.RoomStore.games_together`), and docs/server.md ("Fair
play") says them to players. The attack they answer: two profiles of one person, from two
addresses, dealt 29 ranked duels in 60 seconds in one room and earned 52,000 points an hour
each.

- **A short game earns nothing.** A ranked game counts only when it lasted `MIN_TURNS`
  turns (the turns begun over the whole game, every player's). A duel with the standard 7
  cards cannot end in fewer than 13 turns; a house rule of 3 cards a hand ends in 5. Every
  line of a short game is written with 0 points and the reason ``short``.
- **A daily limit per pair.** Two players earn from at most `PAIR_GAMES` of the ranked
  games they play together in any `PAIR_WINDOW` (24 hours): a later game's line earns 0
  points with the reason ``pair_cap`` for each of the two (the others of a bigger game keep
  theirs). A limit (rather than points that fade) is what a player can read and plan for;
  a count of games (rather than of points) treats a loser and a winner alike. The games
  counted are those the two earned from, so friends who play every evening earn from their
  first games of each evening again.
- **People, not profiles.** One person can make many profiles but rarely has many
  addresses: a "pair" is two players *or* two addresses (`ranking_address`), so the limit
  holds for every profile of the same two addresses, and the distinct opponents the
  leaderboard asks for (`MIN_OPPONENTS`) are told apart by their address.
- **Every address family.** `ranking_address` gives an address the one spelling the
  ranking's rules compare: the whole loopback range (127.0.0.0/8 and ``::1``) is one
  address; an IPv4-mapped IPv6 address (``::ffff:1.2.3.4``) and a 6to4 one
  (``2002:0102:0304::/48``) are their IPv4 address; any other IPv6 address is its /64 (one
  subscriber's block). Two people of one address are never ranked together
  (`rooms.Room.ranked`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

MIN_TURNS: Final = 10
"""Turns a ranked game must last to count (see the module: a real game shorter is rare)."""
PAIR_GAMES: Final = 3
"""Ranked games two players (or two addresses) earn from together in `PAIR_WINDOW`."""
PAIR_WINDOW: Final = 24 * 3600.0
"""Seconds the pair limit looks back over."""
MIN_OPPONENTS: Final = 3
"""Distinct opponents (told apart by address) a player needs to be shown on a leaderboard."""

SHORT: Final = "short"
"""The reason of every line of a game shorter than `MIN_TURNS`."""
PAIR_CAP: Final = "pair_cap"
"""The reason of a line whose points the daily limit per pair took."""
REASONS: Final = ("", SHORT, PAIR_CAP)
"""Why a line earned less than its points: nothing, a short game, the pair limit."""

LOOPBACK: Final = "loopback"
"""`ranking_address` of every loopback address."""
IPV6_PREFIX: Final = 64


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | ipaddress.IPv6Network | None:
    """An address as a seat keeps it: an address, or an IPv6 /64 as the quotas count it."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    try:
        if "/" in text:
            network = ipaddress.ip_network(text, strict=False)
            if isinstance(network, ipaddress.IPv4Network):
                return network.network_address
            return network
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def ranking_address(address: str) -> str:
    """The one spelling under which the ranking's rules compare ``address`` (see the module):
    ``loopback`` for the whole loopback range, IPv4 for an IPv4-mapped or 6to4 IPv6 address,
    the /64 network for any other IPv6 address, the text itself for what is no address."""
    parsed = _parse(address)
    if parsed is None:
        return address.strip()
    if isinstance(parsed, ipaddress.IPv6Network):
        if parsed.prefixlen >= IPV6_PREFIX and parsed.network_address == ipaddress.IPv6Address("::"):
            return LOOPBACK  # ::1's /64 as the quotas write it (mapped addresses were made IPv4 before)
        parsed = parsed.network_address
    if isinstance(parsed, ipaddress.IPv6Address):
        embedded = parsed.ipv4_mapped or parsed.sixtofour
        if embedded is not None:
            parsed = embedded
        elif parsed.is_loopback:
            return LOOPBACK
        else:
            return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return LOOPBACK if parsed.is_loopback else str(parsed)


def short(turns: int) -> bool:
    """Whether a game of ``turns`` turns is too short to count."""
    return turns < MIN_TURNS


@dataclass(frozen=True)
class Person:
    """One person of a ranked game: their seat, player id, address and the points the game's
    result gives them (`ranking.earned`)."""

    seat: int
    player: str
    address: str
    xp: int


Together = Callable[[Person, Person], int]
"""How many counted games two people played together (as players or as addresses) in the
`PAIR_WINDOW` before this game."""


def judge(people: Sequence[Person], turns: int, together: Together) -> dict[int, tuple[int, str]]:
    """The points each seat's line earns, and why it earns less than its result gives (a reason
    of `REASONS`): every line of a short game 0 (``short``); a line with points whose person
    reached `PAIR_GAMES` with any other person of the game 0 (``pair_cap``)."""
    if short(turns):
        return {p.seat: (0, SHORT) for p in people}
    out: dict[int, tuple[int, str]] = {}
    for person in people:
        capped = person.xp > 0 and any(together(person, other) >= PAIR_GAMES
                                       for other in people if other.seat != person.seat)
        out[person.seat] = (0, PAIR_CAP) if capped else (person.xp, "")
    return out


def needs(opponents: int) -> int:
    """How many more distinct opponents a player with ``opponents`` needs to be shown."""
    return max(0, MIN_OPPONENTS - opponents)


def allowed_xp(points: Mapping[int, int], games: int) -> dict[int, int]:
    """The most each seat can earn from ``games`` ranked games with the same people in one
    `PAIR_WINDOW` when each game gives ``points`` (what the farming script compares with)."""
    return {seat: xp * min(games, PAIR_GAMES) for seat, xp in points.items()}
