"""The ranking (seed 002): experience points earned in competitive games, abandons and votes.

Points are the rule source's (`game.engine.experience_points`): the winner earns 10 ×
players, each winning partner 20 in pair play, a loser 10. They are earned on the
server only, in a ranked game (`rooms.Room.ranked`: a public or quick-match room of at
least two people, no two of the same player or address), whatever the rule set, and
counted per rule set: each preset has its own leaderboard. A game is a match; in a
rule set without a target every deal ends a match, and so earns its points.

A person away from a ranked game under way (a deal being played, or a match with a
target between two deals: `rooms.Room.under_way`) for `ABANDON_AFTER` seconds loses
the seat to a Medium computer so the others can finish; leaving a game that is over
is no abandon. The people still playing may then vote to penalise the abandon, and
more than half of them saying yes costs the player `PENALTY` points (the source:
"only if the remaining players penalise"). The others finishing the abandoned game
earn its points (the abandoner's line says ``abandoned``, no points); a game dealt
afterwards, with the computer in the abandoned seat, earns nobody anything
(`rooms.Room.earns`).

Everything lives in the server's store (`roomstore.RoomStore`): each player's ranked
games and penalties as `roomstore.RankedLine` (their history), keyed by room, deal and
player so that a game's points are written once however often the server is restarted,
and the points and games they add up to per player and rule set (the leaderboards).
The stakes of a game (`tokens`) move in the same commit as its points.

Fair play (`fair_play`) decides what a game's lines really earn: nothing for a game shorter
than `fair_play.MIN_TURNS` turns (reason ``short``), nothing beyond `fair_play.PAIR_GAMES`
games a day with the same opponent (reason ``pair_cap``); and a leaderboard shows only the
players with `fair_play.MIN_OPPONENTS` distinct opponents (their own standing says how many
more they need).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, TypedDict

from game.engine import PRESETS, Status, experience_points
from game.play.turns import AUTOPILOT_AFTER

from . import fair_play, tokens
from .fair_play import Person
from .profiles import tagged
from .rooms import RANKED_TURN_SECONDS, Room
from .roomstore import Encounter, RankedLine, RoomStore

ABANDON_AFTER: Final = 300.0
"""Seconds away from a ranked game under way before a computer takes the seat (the time away
adds up until the person plays again: coming back for a moment does not start it again)."""
AWAY_ABSENT: Final = AUTOPILOT_AFTER * RANKED_TURN_SECONDS
"""Seconds away from a ranked game under way after which a person counts as absent from it (80:
as long as the two turns the clock takes before the autopilot plays for someone)."""
STALL_TURNS: Final = AUTOPILOT_AFTER
"""Turns lost to the clock since a person last played themselves (an action of theirs the rules
accepted, or asking for the next deal) after which they count as absent from a ranked game (2:
the autopilot's own count, which turning the autopilot off does not reset)."""
PENALTY: Final = -experience_points(2, (), abandoned=(0,))[0]
"""Points an abandon costs when the vote penalises it (20)."""
TOP: Final = 100
"""Players a leaderboard shows."""
HISTORY: Final = 50
"""Ranked games a player's history shows (the latest)."""
PENALTY_DEAL: Final = 0
"""The ``deal`` of a penalty's row in ``ranked`` (deals count from 1)."""


class Board(TypedDict):
    """A rule set's leaderboard: the fields of the ``leaderboard`` answer (`messages.LeaderboardAnswer`)."""

    preset: str
    top: list[dict[str, Any]]  # rank, name, tag, avatar, xp, games, you
    you: dict[str, Any] | None  # the asker's rank (None: not shown yet), xp, games, opponents, needs
    players: int  # players shown in it (with enough distinct opponents)


def outcome(room: Room, seat: int) -> str:
    """``win``, ``tie``, ``loss`` or ``abandoned`` for a seat of a room whose match is over."""
    assert room.match is not None
    if room.seats[seat].abandoned:
        return "abandoned"
    winners = room.match.winners
    if seat in winners:
        return "win"
    return "tie" if not winners else "loss"


def earned(room: Room) -> dict[int, int]:
    """The points each person of ``room`` earns by its match (a ranked room whose match is over;
    {} otherwise): the rule source's for a win, a tie or a loss, none for an abandoned seat. What
    `Ranking.award` writes, and what the room status tells its people (``earned``)."""
    match = room.match
    if match is None or match.status != Status.MATCH_OVER or not room.earns:
        return {}
    points = experience_points(room.players, sorted(match.winners), room.rules.pairs)
    return {seat: 0 if outcome(room, seat) == "abandoned" else points[seat] for seat in room.people}


def _opponents(room: Room, seat: int) -> tuple[str, ...]:
    return tuple(tagged(s.name, s.tag) for i, s in enumerate(room.seats)
                 if i != seat and s.is_person)


@dataclass
class Abandons:
    """Who is away from a started ranked game, since when (the server's clock; a person back in
    the same game who leaves again before playing goes on from the time they had been away:
    ``spent``, forgotten when they play)."""

    away: dict[tuple[str, int], float] = field(default_factory=dict)  # (room id, seat) -> since
    spent: dict[tuple[str, int], tuple[int, float]] = field(default_factory=dict)  # -> (game, seconds)

    def leave(self, room: Room, seat: int, now: float) -> None:
        """The person of ``seat`` is away from ``room``: their time runs on from what this game
        already counted (several short absences add up to one long one)."""
        game, seconds = self.spent.get((room.room_id, seat), (room.game_deal, 0.0))
        self.away.setdefault((room.room_id, seat), now - (seconds if game == room.game_deal else 0.0))

    @staticmethod
    def counts(room: Room) -> bool:
        """Whether being away from ``room`` can cost a seat: its game earns points (`Room.earns`)
        and is under way (`Room.under_way`: never once its match is over, whatever its target)."""
        return room.earns and room.under_way

    def watch(self, room: Room, now: float) -> None:
        """Start the time of every person away from ``room`` who has none running (after a
        restart, nobody is connected: the time starts when someone of the room is back)."""
        if not self.counts(room):
            return
        for seat in room.voters:
            if not room.seats[seat].connected:
                self.leave(room, seat, now)

    def back(self, room: Room, seat: int, now: float | None = None) -> None:
        """The person of ``seat`` is back (at ``now``: the time they were away counts in this game)."""
        since = self.away.pop((room.room_id, seat), None)
        if since is not None and now is not None:
            self.spent[(room.room_id, seat)] = (room.game_deal, now - since)

    def forget(self, room_id: str) -> None:
        """The room is gone, or nobody can abandon it any more."""
        for key in [k for k in self.away if k[0] == room_id]:
            del self.away[key]
        for key in [k for k in self.spent if k[0] == room_id]:
            del self.spent[key]

    def due(self) -> float | None:
        """When the next seat is lost, if anyone is away."""
        return min(self.away.values()) + ABANDON_AFTER if self.away else None

    def overdue(self, now: float) -> list[tuple[str, int]]:
        """The (room id, seat) pairs away long enough, no longer counted as away."""
        gone = [k for k, since in self.away.items() if since + ABANDON_AFTER <= now]
        for key in gone:
            del self.away[key]
        return gone


class Ranking:
    """Points, leaderboards and histories, kept in the server's `roomstore.RoomStore`."""

    def __init__(self, store: RoomStore, opponents: int = fair_play.MIN_OPPONENTS) -> None:
        self.store = store
        self.opponents = opponents  # distinct opponents a player needs to be shown on a leaderboard
        self.verdicts: dict[str, tuple[int, dict[int, tuple[int, str]]]] = {}  # room -> (deal, judged)
        # What each finished game did to its players' tokens, by (room id, deal): read once.
        self.settled: dict[tuple[str, int], dict[str, int]] = {}

    # ---- earning --------------------------------------------------------------------------
    def judge(self, room: Room, now: float) -> dict[int, tuple[int, str]]:
        """What each person of ``room``'s finished ranked match earns by fair play's rules, and
        why less than its result (`fair_play.judge`; {} when the room earns nothing)."""
        people = self._people(room)
        if not people:
            return {}
        deal = room.match.round.number if room.match is not None else 0
        since = now - fair_play.PAIR_WINDOW

        def together(one: Person, other: Person) -> int:
            return self.store.games_together(one.player, other.player, one.address, other.address,
                                             since, (room.room_id, deal))

        return fair_play.judge(people, room.turns, together)

    @staticmethod
    def _people(room: Room) -> list[Person]:
        people = []
        for seat, xp in earned(room).items():
            player = room.seats[seat].player
            assert player is not None  # a ranked room's people all said hello
            people.append(Person(seat, player, fair_play.ranking_address(room.seats[seat].address), xp))
        return people

    def award(self, room: Room, now: float) -> dict[int, int]:
        """Write the points of ``room``'s finished match (a ranked room at ``match_over``) as fair
        play judges them (`judge`), once, with its encounters (a game that counted); return the
        points each seat earned now ({} when they were written before).

        Raises:
            StoreFailure: nothing was written (tried again: each game is written once).
        """
        match = room.match
        if match is None or match.status != Status.MATCH_OVER or not room.earns:
            return {}
        deal = match.round.number
        verdict = self.judge(room, now)
        lines: dict[int, RankedLine] = {}
        for seat, (xp, reason) in verdict.items():
            player = room.seats[seat].player
            assert player is not None
            lines[seat] = RankedLine(room.room_id, deal, player, room.rules.name, room.players, xp,
                                     outcome(room, seat), now, _opponents(room, seat), reason=reason)
        players = {seat: line.player for seat, line in lines.items()}
        wallets = {player: self.store.wallet(player) for player in players.values()}
        moves = tokens.settle(lines, wallets, players, now)
        # Who met whom, in a game that counted; towards a pair's limit when both earned from it.
        people = self._people(room)
        met = [] if fair_play.short(room.turns) else [
            Encounter(room.room_id, deal, room.rules.name, one.player, other.player, one.address,
                      other.address, now, counts=not verdict[one.seat][1] and not verdict[other.seat][1])
            for one in people for other in people if one.seat != other.seat]
        written = self.store.rank(list(lines.values()), moves, met)
        if len(written) == len(lines):
            self.settled[(room.room_id, deal)] = {line.player: line.amount for line in moves}
        else:  # written before (a restart): what was stored stands, not a judgement made again today
            stored = self.store.judged(room.room_id, deal)
            verdict = {seat: stored.get(line.player, verdict[seat]) for seat, line in lines.items()}
            self.settled[(room.room_id, deal)] = self.store.settlement(room.room_id, deal)
        self.verdicts[room.room_id] = (deal, verdict)
        return {seat: line.xp for seat, line in lines.items() if line in written}

    def tokens_moved(self, room: Room) -> dict[int, int]:
        """What each person of ``room``'s finished competitive game gained or lost in tokens
        ({} when nothing was written: a game that is not over, or that earns nothing)."""
        match = room.match
        if match is None or match.status != Status.MATCH_OVER or not room.earns:
            return {}
        key = (room.room_id, match.round.number)
        if key not in self.settled:
            found = self.store.settlement(*key)
            if not found:
                return {}
            self.settled[key] = found
        amounts = self.settled[key]
        return {seat: amounts[p] for seat in room.people
                if (p := room.seats[seat].player) is not None and p in amounts}

    def wallet_balance(self, player: str, now: float) -> int:
        """The tokens ``player`` holds at ``now`` (`tokens.balance`)."""
        return tokens.balance(self.store.wallet(player), now)

    def penalty(self, room: Room, seat: int, now: float) -> list[RankedLine]:
        """The line that takes `PENALTY` points from the player who abandoned ``seat`` (committed
        with the vote that decides it)."""
        player = room.seats[seat].player
        assert player is not None
        return [RankedLine(room.room_id, PENALTY_DEAL, player, room.rules.name, room.players, -PENALTY,
                           "penalty", now, _opponents(room, seat), games=0)]

    def shown(self, room: Room) -> dict[int, int]:
        """The points each person of ``room``'s finished ranked match earned, as its status tells
        them: fair play's once `award` judged it, its result's before."""
        points = earned(room)
        judged = self._judged(room)
        return {seat: judged.get(seat, (xp, ""))[0] for seat, xp in points.items()} if points else points

    def reasons(self, room: Room) -> dict[int, str]:
        """Why fair play took points from people of ``room``'s finished ranked match (`shown`):
        each such seat's reason (`fair_play.REASONS`), none when it took nothing."""
        return {seat: why for seat, (_, why) in self._judged(room).items() if why} if earned(room) else {}

    def _judged(self, room: Room) -> dict[int, tuple[int, str]]:
        judged = self.verdicts.get(room.room_id)
        if judged is None or room.match is None or judged[0] != room.match.round.number:
            return {}
        return judged[1]

    def forget(self, room_id: str) -> None:
        """The room is gone: its verdict and what its games did to tokens, too."""
        self.verdicts.pop(room_id, None)
        for key in [k for k in self.settled if k[0] == room_id]:
            del self.settled[key]

    # ---- reading ----------------------------------------------------------------------------
    def points(self, player: str) -> dict[str, int]:
        """The player's points per rule set (those they played ranked)."""
        return self.store.points(player)

    def leaderboard(self, preset: str, player: str | None) -> Board:
        """The `TOP` players of ``preset`` (rank, name, tag, avatar, points, games) and the
        asking player's own line (None when they have not played it ranked)."""
        board = self.store.leaderboard(preset, TOP, player, self.opponents)
        top = []
        rank, last = 0, None
        for i, line in enumerate(board.top):
            if line.xp != last:
                rank, last = i + 1, line.xp  # equal points share a rank
            top.append({"rank": rank, "name": line.name, "tag": line.tag, "avatar": line.avatar,
                        "xp": line.xp, "games": line.games, "you": line.player == player})
        you = board.you
        mine = None if you is None else {"rank": you.rank, "xp": you.xp, "games": you.games,
                                         "opponents": you.opponents,
                                         "needs": max(0, self.opponents - you.opponents)}
        return {"preset": preset, "top": top, "you": mine, "players": board.players}

    def history(self, player: str, preset: str | None = None) -> list[dict[str, Any]]:
        """The player's latest `HISTORY` ranked games, newest first; never a room id.

        An abandon is one line, whatever became of it: the game abandoned (``abandoned``, no
        points) and the penalty the vote decided (``penalty``, −`PENALTY`) are kept as two lines
        (the points of each are written once, at different times), and shown as one, the
        ``penalty`` line when the vote penalised it, at the later of their times."""
        lines: list[RankedLine] = []
        abandons: dict[str, int] = {}  # room -> the index in lines of its abandon's one line
        for line in self.store.history(player, preset, 2 * HISTORY):  # a penalty and its game make one
            if line.outcome not in ("abandoned", "penalty"):
                lines.append(line)
                continue
            seen = abandons.get(line.room)
            if seen is None:
                abandons[line.room] = len(lines)
                lines.append(line)
                continue
            kept = lines[seen]  # the newer of the two: the game's or the penalty's line
            penalty, game = (kept, line) if kept.outcome == "penalty" else (line, kept)
            lines[seen] = replace(penalty, deal=game.deal, at=max(kept.at, line.at),
                                  opponents=game.opponents or penalty.opponents)
        return [{"preset": line.preset, "players": line.players, "xp": line.xp, "outcome": line.outcome,
                 "at": line.at, "deal": line.deal, "opponents": list(line.opponents),
                 **({"reason": line.reason} if line.reason else {})}
                for line in lines[:HISTORY]]


def known_preset(value: Any) -> str | None:
    """``value`` if it names a rule set, else None."""
    return value if isinstance(value, str) and value in PRESETS else None
