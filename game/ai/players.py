"""Rule-based computer players: `Easy` (random) and `Medium` (a sound simple strategy)."""

from __future__ import annotations

import random
from typing import Final, Protocol

from game.engine import (
    Accept,
    Action,
    CallLastCard,
    Card,
    Challenge,
    ChooseSuit,
    Denounce,
    Draw,
    EndTurn,
    Pass,
    Play,
    PlayerView,
    Rules,
)
from game.engine import events as ev
from game.engine.scoring import team_of

from .knowledge import Knowledge
from .playout import HORIZON
from .tips import KEEP_FOR_DRAW, TIE_NOISE, Situation, bluff_likely, play_score, situation, suit_preference

LEVELS: Final = ("easy", "medium", "hard")
# Levels for the arena only, never in the game's menus: today's Hard under a name that stays
# when Hard changes, the information-set search being measured against it, and Hard with its
# guesses weighted by an opponent model (`game.ai.weighted`) (docs/ai.md).
ARENA_LEVELS: Final = ("hard-before", "ismcts", "ismcts-paired", "hard-weighted")


class ComputerPlayer(Protocol):
    """What every computer player does: watch the public events and pick one of ``view.legal``.

    Whoever runs a player (the table, the room server, the arena) feeds it every event of
    the round, redacted for its seat, through `observe`, and asks it for a decision with
    `choose`. A player that `searches` takes a noticeable time to decide: it is run on a
    worker thread (on a copy of itself, so events observed meanwhile cannot race it).
    """

    @property
    def searches(self) -> bool:
        """Whether `choose` searches (slow enough to run on a worker thread)."""
        ...

    def observe(self, seat: int, event: ev.Event, rules: Rules, players: int) -> None:
        """Learn from ``event`` as ``seat`` may see it (a no-op for a player that learns nothing)."""
        ...

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return one action from ``view.legal``."""
        ...


class Easy:
    """A uniformly random legal action (the ``duel`` rules' Easy level)."""

    searches = False

    def observe(self, seat: int, event: ev.Event, rules: Rules, players: int) -> None:
        """Nothing to learn: Easy plays at random."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A random legal action."""
        return rng.choice(view.legal)


class Medium:
    """The rule-based player of the sources' strategy tips.

    It plays its last card when it can; keeps its wilds for when nothing else plays
    (or the next player is about to go out); follows into the suit it holds most of,
    switching suit through a same-rank card when that leads to its long suit; names
    its longest suit after a wild, preferring suits the next player was seen to lack;
    sheds high cards when points count; saves skips and draw cards for a next player
    who is low on cards (never against its partner); stacks when hit; calls "Card";
    denounces; and calls "Liar" when the +4's player probably held the colour.
    """

    searches = False

    def __init__(self) -> None:
        self.knowledge: dict[int, Knowledge] = {}

    def observe(self, seat: int, event: ev.Event, rules: Rules, players: int) -> None:
        """Watch who draws (a draw shows what that player lacked)."""
        knowledge = self.knowledge.get(seat)
        if knowledge is None or knowledge.rules != rules or knowledge.players != players:
            knowledge = self.knowledge[seat] = Knowledge(seat, rules, players)
        knowledge.observe(event)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The rule-based choice for this view."""
        team = team_of(view.seat, view.players, view.rules.pairs)
        # Never denounce the partner while anything else can be done.
        legal = ([a for a in view.legal if not (isinstance(a, Denounce) and a.seat in team)]
                 or list(view.legal))
        if len(legal) == 1:
            return legal[0]
        if CallLastCard() in legal:
            return CallLastCard()
        for action in legal:
            if isinstance(action, Denounce) and action.seat not in team:
                return action
        suits = [a.suit for a in legal if isinstance(a, ChooseSuit)]
        if suits:
            return ChooseSuit(self.best_suit(view, suits))
        if Challenge() in legal:
            return Challenge() if self.bluff_likely(view) else Accept()
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            best = max(plays, key=lambda p: self.score_play(view, p.card, rng))
            if self.score_play(view, best.card, rng) > KEEP_FOR_DRAW or Draw() not in legal:
                return best
        for choice in (Draw(), EndTurn(), Pass()):
            if choice in legal:
                return choice
        return legal[0]

    def lacking(self, view: PlayerView, seat: int) -> set[str]:
        """The suits ``seat`` was seen to lack in every card it holds."""
        knowledge = self.knowledge.get(view.seat)
        if knowledge is None:
            return set()
        return set(knowledge.lacking(seat, view.hand_counts[seat]))

    def best_suit(self, view: PlayerView, allowed: list[str]) -> str:
        """The allowed suit the hand holds most of; a suit the next player lacks breaks ties."""
        lacks = self.lacking(view, (view.seat + view.direction) % view.players)
        return max(allowed, key=lambda s: (suit_preference(s, view.hand, lacks), s))

    @staticmethod
    def bluff_likely(view: PlayerView) -> bool:
        """Whether the Wild +4's player probably held the colour (see `tips.bluff_likely`)."""
        offender = (view.seat - view.direction) % view.players
        return bluff_likely(view.hand_counts[offender] + 1)  # its hand when it played the +4

    def score_play(self, view: PlayerView, card: Card, rng: random.Random) -> float:
        """How much this player likes playing ``card`` now (higher is better; see `play_score`)."""
        return play_score(card, view.hand, self.situation_of(view)) + rng.random() * TIE_NOISE

    def situation_of(self, view: PlayerView) -> Situation:
        """Who plays next, as `play_score` weighs it."""
        next_seat = (view.seat + view.direction) % view.players
        partner_next = next_seat in team_of(view.seat, view.players, view.rules.pairs)
        danger = view.hand_counts[next_seat] <= 2 and not partner_next
        return situation(view.rules, view.players, danger, partner_next,
                         frozenset(self.lacking(view, next_seat)))


def player_for(level: str, budget: float = 0.5, *, playouts: int | None = None,
               horizon: int | None = HORIZON, helpers: int = 0) -> ComputerPlayer:
    """The computer player of ``level`` (``easy``, ``medium`` or ``hard``, or one of `ARENA_LEVELS`:
    ``hard-before``, today's Hard, ``ismcts``, its information-set search, ``ismcts-paired``,
    that search below Hard's paired root, and ``hard-weighted``, Hard whose guesses are weighted
    by how likely the opponents' choices were (`game.ai.weighted`); ``budget``: Hard's
    think time in seconds; ``playouts``: instead, a fixed number of playouts per decision;
    ``horizon``: actions Hard's playouts look ahead, None to the end of the round;
    ``helpers``: processes that search beside Hard's under a time budget, see `game.ai.parallel`).

    Raises:
        ValueError: unknown level.
    """
    if level == "easy":
        return Easy()
    if level == "medium":
        return Medium()
    if level in ("hard", "hard-before"):
        from .hard import Hard

        judged = level == "hard"  # hard-before judges its unfinished playouts by the hand sizes
        if playouts:
            return Hard(None, max_playouts=playouts, horizon=horizon, judged=judged)
        return Hard(budget, horizon=horizon, helpers=helpers, judged=judged)
    if level == "hard-weighted":
        from .weighted import WeightedHard

        if playouts:
            return WeightedHard(None, max_playouts=playouts, horizon=horizon)
        return WeightedHard(budget, horizon=horizon, helpers=helpers)
    if level in ("ismcts", "ismcts-paired"):
        from .ismcts import Ismcts

        paired = level == "ismcts-paired"
        if playouts:
            return Ismcts(None, max_playouts=playouts, horizon=horizon, paired=paired)
        return Ismcts(budget, horizon=horizon, paired=paired)
    raise ValueError(f"unknown level {level!r}; expected one of {LEVELS + ARENA_LEVELS}")
