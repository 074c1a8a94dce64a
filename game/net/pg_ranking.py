"""The ranking's SQL in PostgreSQL: ranked lines and ratings, token lines and wallets, encounters,
the leaderboards and a player's history (`pgstore.PostgresRoomStore` runs each inside its own
transaction and retry rules; every function here takes that transaction's cursor).

Lines, tokens and encounters are keyed as in SQLite and written with ``INSERT ... ON
CONFLICT DO NOTHING RETURNING``: when two instances write one game's lines at once, only
the rows one of them actually inserted add to ratings and wallets (a wallet row is locked
before it changes), so points and tokens are counted once. Rows are always locked in one
order (by player first), whoever writes: two games ending at once never deadlock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg

from .roomstore import Encounter, Leaderboard, RankedLine, Rating, Standing, TokenLine, Wallet
from .tokens import GRANT, topped_up

Cursor = psycopg.Cursor[tuple[Any, ...]]


def rank_line(cursor: Cursor, line: RankedLine) -> bool:
    """Write ``line`` unless it was; whether it was now. Only a row inserted now adds to the
    rating: another instance writing the same line at once waits on its key and inserts nothing."""
    inserted = cursor.execute(
        "INSERT INTO ranked (room, deal, player, preset, players, xp, outcome, at, opponents, reason) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1",
        (line.room, line.deal, line.player, line.preset, line.players, line.xp, line.outcome, line.at,
         json.dumps(list(line.opponents)), line.reason)).fetchone()
    if inserted is None:
        return False
    cursor.execute("INSERT INTO ratings (player, preset, xp, games) VALUES (%s, %s, %s, %s) "
                   "ON CONFLICT (player, preset) DO UPDATE SET xp = ratings.xp + excluded.xp, "
                   "games = ratings.games + excluded.games",
                   (line.player, line.preset, line.xp, line.games))
    return True


def rank_lines(cursor: Cursor, lines: Sequence[RankedLine]) -> set[int]:
    """Write the ``lines`` not written before, in the locking order; the ``id()`` of each written."""
    return {id(line) for line in sorted(lines, key=_line_order) if rank_line(cursor, line)}


def rank(cursor: Cursor, lines: Sequence[RankedLine], tokens: Sequence[TokenLine],
         encounters: Sequence[Encounter]) -> list[RankedLine]:
    """Write the lines, token lines and encounters not written before (see the module); the
    ranked lines written."""
    written = rank_lines(cursor, lines)
    for token in sorted(tokens, key=lambda t: (t.player, t.room, t.deal)):
        stake(cursor, token)
    if encounters:
        cursor.executemany(
            "INSERT INTO encounters (room, deal, preset, player, opponent, address, "
            "opponent_address, at, counts) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            [(e.room, e.deal, e.preset, e.player, e.opponent, e.address, e.opponent_address, e.at,
              e.counts) for e in sorted(encounters, key=_encounter_order)])
    return [line for line in lines if id(line) in written]


def games_together(cursor: Cursor, player: str, opponent: str, address: str, opponent_address: str,
                   since: float, besides: tuple[str, int]) -> int:
    """The games that count since ``since`` of the two players, or of the two addresses, but
    ``besides``."""
    return _count(cursor.execute(
        "SELECT COUNT(*) FROM encounters WHERE counts AND at >= %s AND NOT (room = %s AND deal = %s) "
        "AND ((player = %s AND opponent = %s) OR (address = %s AND opponent_address = %s))",
        (since, *besides, player, opponent, address, opponent_address)))


def stake(cursor: Cursor, line: TokenLine) -> None:
    """Write ``line`` and change its player's wallet unless it was. The wallet row is made
    (holding the grant) if new, then locked before it is read, so two games changing one
    wallet at once add up."""
    inserted = cursor.execute(
        "INSERT INTO stakes (room, deal, player, amount, day, at, counted, opponents) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING 1",
        (line.room, line.deal, line.player, line.amount, line.day, line.at, line.counted,
         json.dumps(list(line.opponents)))).fetchone()
    if inserted is None:
        return
    cursor.execute("INSERT INTO wallets (player, tokens, day) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                   (line.player, GRANT, line.day))
    found = cursor.execute("SELECT tokens, day FROM wallets WHERE player = %s FOR UPDATE",
                           (line.player,)).fetchone()
    assert found is not None  # made just above, or by another instance's committed transaction
    before = topped_up(found[0], found[1], line.day)
    cursor.execute("UPDATE wallets SET tokens = %s, day = %s WHERE player = %s",
                   (before + line.amount, max(line.day, found[1]), line.player))


def wallet(cursor: Cursor, player: str) -> Wallet:
    """The player's tokens as stored, and, as the ranking counts them, their games that earned
    points and their different opponents (by address, as the leaderboards count them)."""
    found = cursor.execute("SELECT tokens, day FROM wallets WHERE player = %s", (player,)).fetchone()
    games = _count(cursor.execute("SELECT COUNT(*) FROM ranked WHERE player = %s AND xp > 0 "
                                  "AND outcome IN ('win', 'tie', 'loss')", (player,)))
    opponents = _count(cursor.execute("SELECT COUNT(DISTINCT opponent_address) FROM encounters "
                                      "WHERE player = %s", (player,)))
    if found is None:
        return Wallet(None, 0, games, opponents)
    return Wallet(int(found[0]), int(found[1]), games, opponents)


def settlement(cursor: Cursor, room: str, deal: int) -> dict[str, int]:
    """The tokens each player gained or lost by the game of ``room`` that ended at ``deal``."""
    return {player: amount for player, amount in cursor.execute(
        "SELECT player, amount FROM stakes WHERE room = %s AND deal = %s", (room, deal))}


def judged(cursor: Cursor, room: str, deal: int) -> dict[str, tuple[int, str]]:
    """Each player's points and reason as written for the game of ``room`` ended at ``deal``."""
    return {player: (xp, reason) for player, xp, reason in cursor.execute(
        "SELECT player, xp, reason FROM ranked WHERE room = %s AND deal = %s AND outcome != 'penalty'",
        (room, deal))}


def points(cursor: Cursor, player: str) -> dict[str, int]:
    """The player's points per rule set (those they played ranked)."""
    return {preset: int(xp) for preset, xp in cursor.execute(
        "SELECT preset, xp FROM ratings WHERE player = %s ORDER BY preset", (player,))}


def leaderboard(cursor: Cursor, preset: str, top: int, player: str | None, opponents: int = 0) -> Leaderboard:
    """The ``top`` players of ``preset`` with ``opponents`` distinct opponents, ``player``'s
    standing, and how many players it shows."""
    # The players shown: every rated one, or those with enough distinct opponents' addresses.
    shown = ""
    values: tuple[str | int, ...] = (preset,)
    if opponents > 0:
        shown = (" AND r.player IN (SELECT player FROM encounters WHERE preset = %s GROUP BY player "
                 "HAVING COUNT(DISTINCT opponent_address) >= %s)")
        values = (preset, preset, opponents)
    rows = cursor.execute(
        "SELECT r.player, p.name, p.avatar, r.xp, r.games, p.tag FROM ratings r "
        f"JOIN profiles p ON p.id = r.player WHERE r.preset = %s{shown} "
        "ORDER BY r.xp DESC, r.games ASC, p.created ASC LIMIT %s", (*values, top)).fetchall()
    you = None
    if player is not None:
        mine = cursor.execute("SELECT xp, games FROM ratings WHERE player = %s AND preset = %s",
                              (player, preset)).fetchone()
        if mine is not None:
            met = _count(cursor.execute("SELECT COUNT(DISTINCT opponent_address) FROM encounters "
                                        "WHERE preset = %s AND player = %s", (preset, player)))
            place = None
            if met >= opponents:
                place = 1 + _count(cursor.execute(f"SELECT COUNT(*) FROM ratings r WHERE r.preset = %s"
                                                  f"{shown} AND r.xp > %s", (*values, mine[0])))
            you = Standing(place, int(mine[0]), int(mine[1]), met)
    players = _count(cursor.execute(f"SELECT COUNT(*) FROM ratings r WHERE r.preset = %s{shown}", values))
    return Leaderboard([Rating(who, name, avatar, int(xp), int(games), tag)
                        for who, name, avatar, xp, games, tag in rows], you, players)


def history(cursor: Cursor, player: str, preset: str | None, limit: int) -> list[RankedLine]:
    """The player's latest ``limit`` ranked lines (of ``preset``, or all), newest first."""
    where, values = ("AND preset = %s", (player, preset)) if preset is not None else ("", (player,))
    rows = cursor.execute(
        "SELECT room, deal, player, preset, players, xp, outcome, at, opponents, reason FROM ranked "
        f"WHERE player = %s {where} ORDER BY at DESC, deal DESC LIMIT %s", (*values, limit)).fetchall()
    return [RankedLine(room, deal, who, p, n, xp, result, at, tuple(json.loads(opponents)),
                       0 if result == "penalty" else 1, reason)
            for room, deal, who, p, n, xp, result, at, opponents, reason in rows]


def _encounter_order(encounter: Encounter) -> tuple[str, int, str, str]:
    return (encounter.room, encounter.deal, encounter.player, encounter.opponent)


def _line_order(line: RankedLine) -> tuple[str, str, str, int]:
    """The order a transaction locks ranked lines and ratings in (by player first)."""
    return (line.player, line.preset, line.room, line.deal)


def _count(cursor: Cursor) -> int:
    row = cursor.fetchone()
    return int(row[0]) if row is not None else 0
