"""Tokens and stakes (the rule source: "disposer de suffisamment de jetons pour participer aux mises").

A profile (a name and a tag) holds tokens:

- **The grant.** A new profile holds `GRANT` tokens (nothing is written until its first
  competitive game: a profile without a wallet holds the grant).
- **The daily top-up.** On each day of the server's clock (UTC) a balance below `GRANT` is
  topped up by `TOP_UP`, never past `GRANT` (once a day, whatever the days missed).
- **The stake.** Every person of a competitive game (a ranked one: `rooms.Room.earns`, public
  rooms and quick match) puts `STAKE` tokens in the pot at the deal (or all they hold, if
  less: possible only when they play two competitive games at once); the winner takes the
  pot, a winning pair shares it, and a tie shares it among the people who did not abandon (so
  does a game won by the computer that took an abandoned seat).
  A share that does not divide evenly gives one token more to each of the first takers in
  seat order: no token is ever made or lost by a game.
- **Not enough tokens.** A player whose free tokens (their balance, less `STAKE` for each
  other competitive room they hold a seat of and whose game is not over) are below `STAKE`
  cannot create or take a seat of a public room, nor ask for a quick match: refused with
  ``no_tokens`` (``values``: ``stake``, ``tokens``).
- **An abandon.** The abandoner's stake stays in the pot: the others share it.

Farming cannot make tokens (`settle`): tokens only go from one profile to another, and

- a game in which fair play took anyone's points (a ``reason`` on a line of
  `roomstore.RankedLine`: too short, the daily cap of a pair) returns every stake;
- **a newcomer's stake is always returned**: a profile counts as established once it has
  played `ESTABLISHED_GAMES` ranked games that earned it points, against people of at least
  `ESTABLISHED_OPPONENTS` different addresses (as the leaderboards count opponents). Before
  that, nobody can win its tokens (it can win the others'). So a crowd of fresh profiles
  losing on purpose to one main profile gives it nothing; each of them must first play that
  many real games (each one long enough, within the cap per pair), and then gives at most
  what it holds.

The balances change in the same commit as the ranking's lines (`roomstore.RoomStore.rank`),
keyed by room, deal and player: a game's tokens move exactly once, whatever restarts the
server (kill -9 included).
"""

from __future__ import annotations

from typing import Final

from .protocol import Refusal
from .rooms import Room
from .roomstore import RankedLine, TokenLine, Wallet

GRANT: Final = 100
"""Tokens a new profile holds, and the level the daily top-up brings a balance back to."""
TOP_UP: Final = 20
"""Tokens added once a day to a balance below `GRANT` (never past it)."""
STAKE: Final = 10
"""Tokens each person of a competitive game puts in the pot."""
ESTABLISHED_GAMES: Final = 10
"""Competitive games that earned points before others can win a profile's stake."""
ESTABLISHED_OPPONENTS: Final = 3
"""Different opponents those games were played against."""
DAY: Final = 86400.0


def day_of(now: float) -> int:
    """The server's day (UTC) of the time ``now``."""
    return int(now // DAY)


def topped_up(tokens: int, day: int, today: int) -> int:
    """A balance of ``tokens`` last changed on ``day``, as it stands on ``today``: topped up by
    `TOP_UP` (up to `GRANT`) when a day has begun since and it is below `GRANT`."""
    if today > day and tokens < GRANT:
        return min(GRANT, tokens + TOP_UP)
    return tokens


def balance(wallet: Wallet, now: float) -> int:
    """What ``wallet`` holds at ``now`` (the grant when nothing was ever written)."""
    if wallet.tokens is None:
        return GRANT
    return topped_up(wallet.tokens, wallet.day, day_of(now))


def established(wallet: Wallet) -> bool:
    """Whether others can win this profile's stake (see the module)."""
    return wallet.games >= ESTABLISHED_GAMES and wallet.opponents >= ESTABLISHED_OPPONENTS


def competitive(room: Room) -> bool:
    """Whether a seat of ``room`` is a competitive seat, that needs a stake: a public or quick-match room."""
    return room.kind != "private"


def stake_of(room: Room) -> int | None:
    """The stake of ``room`` (None: a private room, nothing is staked; the room status tells it
    only while its game can still earn: `competition.Competition.status`)."""
    return STAKE if competitive(room) else None


def held(player: str, rooms: list[Room], but: Room | None = None) -> int:
    """Tokens ``player`` has at stake in competitive rooms (``but`` aside) whose game is not over."""
    return STAKE * sum(1 for room in rooms if room is not but and competitive(room) and not room.resting
                       and any(room.seats[i].player == player for i in room.people))


def check(player: str, wallet: Wallet, rooms: list[Room], now: float, room: Room | None = None) -> None:
    """Refuse a competitive seat (of ``room``, or quick match) to a player without `STAKE` free tokens.

    Raises:
        Refusal: ``no_tokens`` with ``values`` ``stake`` and ``tokens`` (the free tokens).
    """
    free = balance(wallet, now) - held(player, rooms, room)
    if free < STAKE:
        raise Refusal("no_tokens", f"a competitive game needs a stake of {STAKE} tokens; you have "
                                   f"{max(free, 0)} free (a balance below {GRANT} is topped up by {TOP_UP} "
                                   "each day)",
                      reason="no_tokens", values={"stake": STAKE, "tokens": max(free, 0)})


def _void(lines: dict[int, RankedLine]) -> bool:
    """Whether the game returns every stake: fair play took someone's points (a short game, the
    daily limit of a pair), whoever won, a computer in an abandoned seat included: tokens never
    move where points could not."""
    return any(line.reason for line in lines.values())


def settle(lines: dict[int, RankedLine], wallets: dict[str, Wallet], players: dict[int, str],
           now: float) -> list[TokenLine]:
    """What each person of a finished competitive game gains (+) or loses (−): ``lines`` are
    the ranking's lines of the game by seat, ``wallets`` each player's wallet, ``players`` the
    player of each person's seat. The sum of the amounts is 0 (see the module)."""
    today = day_of(now)
    put: dict[int, int] = {}
    if not _void(lines):
        for seat, line in lines.items():
            wallet = wallets[line.player]
            if established(wallet):
                put[seat] = min(STAKE, max(0, balance(wallet, now)))
    takers = [seat for seat, line in sorted(lines.items()) if line.outcome == "win"]
    if not takers:  # a tie, or the computer playing an abandoned seat won: the others share it
        takers = [seat for seat, line in sorted(lines.items()) if line.outcome != "abandoned"]
    if not takers:  # nobody to take the pot (every one abandoned): every stake goes back
        put = {}
    pot = sum(put.values())
    share, rest = divmod(pot, len(takers)) if takers else (0, 0)
    gains = {seat: share + (1 if i < rest else 0) for i, seat in enumerate(takers)}
    out = []
    for seat, line in sorted(lines.items()):
        opponents = tuple(sorted(p for s, p in players.items() if s != seat))
        counted = line.xp > 0 and line.outcome != "abandoned"
        out.append(TokenLine(line.room, line.deal, line.player, gains.get(seat, 0) - put.get(seat, 0),
                             today, now, counted, opponents))
    return out

