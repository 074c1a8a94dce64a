"""A plain PIMC computer player: the yardstick Hard is measured against (issue 34, part 2).

What it is: Perfect Information Monte Carlo, written apart from Hard's search, from this
description alone. For each decision with more than one legal action it repeats, until its
time budget (0.5 s by default, `time.perf_counter`, or the thread's CPU time under `tools.arena
--cpu-clock`) or a fixed number of iterations:

1. deal the cards it cannot see (the deck, less its own hand and the discard pile it sees)
   **uniformly at random** among the places it cannot see: each other hand by its count,
   and the draw pile; nothing else is inferred (no reading of what the others played or drew);
2. pick a root action by **UCB1** (mean reward + sqrt(2 ln N / n), each action tried once
   first);
3. play it on that deal, then let every seat play `Medium` (Huit's rule-based player, given
   no memory of the round) to the end of the round;
4. back the result up to that root action: 1 when its side won the round (its team in pair
   play, `team_of`), 0 when it lost, a tie shared between the sides that tied. In a match to
   a target the reward is still the round's win.

It then plays the most visited root action (the better mean breaks a tie). With one legal
action, or when it is not its turn, it does not search (Medium chooses).

What it is not: a player of the game. It lives in ``tools/`` (the wheel leaves tools out),
it is not a level of `game.ai.player_for`, and it shares none of Hard's search code
(`game.ai.hard`, ``sampler``, ``playout``, ``parallel``, ``reading``, ``knowledge``,
``stakes``, ``tips``): it uses the engine's rules (`Round`, views, actions, events) and
Medium as its playout policy only. `tools.arena` seats it as ``--a pimc`` / ``--b pimc``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from game.ai.players import Medium
from game.engine import Action, Card, PlayerView, Rules, Status, deck_for
from game.engine import events as ev
from game.engine.effects import card_table
from game.engine.phases import Phase
from game.engine.round import Round, restored_round
from game.engine.scoring import RoundResult, team_of
from game.engine.state import view_values

BUDGET = 0.5  # seconds per decision, as Hard's default
EXPLORATION = math.sqrt(2.0)  # UCB1's constant for rewards in [0, 1]
# A playout still going after this many actions is called a tie (a round of forced moves can
# go round for ever; the arena calls such a round a tie too).
MAX_PLAYOUT_ACTIONS = 2000


@dataclass
class Seen:
    """What one seat saw of the round that the view does not keep: the suit in force when the
    last wild draw card (a Wild +4) was played, and who played it. The engine decides from the
    +4 player's hand whether it broke the rule (a "Liar" challenge then wins); a deal must
    decide it the same way from the hand it gives that player."""

    suit: str | None = None  # the suit in force now
    wild_draw_by: int | None = None  # who played the last wild draw card
    suit_before: str | None = None  # the suit in force when it was played


@dataclass
class Arm:
    """One root action's statistics."""

    action: Action
    visits: int = 0
    total: float = 0.0


@dataclass
class Pimc:
    """The plain PIMC player (see the module's docstring). ``budget``: think time per decision in
    seconds; ``iterations``: instead, that many iterations per decision (no clock: the same rng
    gives the same choice)."""

    budget: float | None = BUDGET
    iterations: int | None = None
    last_playouts: int = 0  # iterations of the last decision (0: no search); the arena reports them
    seen: dict[int, Seen] = field(default_factory=dict)
    policy: Medium = field(default_factory=Medium)  # the playouts' policy: Medium with no memory
    clock: Callable[[], float] = time.perf_counter  # the budget's clock (`tools.arena --cpu-clock`)

    searches = True

    def __post_init__(self) -> None:
        if self.budget is None and not self.iterations:
            raise ValueError("PIMC needs a time budget or a number of iterations")

    # ---- the ComputerPlayer protocol -----------------------------------------------------
    def observe(self, seat: int, event: ev.Event, rules: Rules, players: int) -> None:
        """Follow the suit in force and the last Wild +4 (see `Seen`); nothing else is kept."""
        seen = self.seen.setdefault(seat, Seen())
        if isinstance(event, ev.RoundStarted):
            self.seen[seat] = Seen()
        elif isinstance(event, ev.StartCard):
            seen.suit = event.card.suit
        elif isinstance(event, ev.CardPlayed):
            effect = card_table(rules).effects[event.card]
            if effect.wild and effect.draws:
                seen.wild_draw_by, seen.suit_before = event.seat, seen.suit
            seen.suit = None if effect.wild else event.card.suit
        elif isinstance(event, ev.SuitChosen):
            seen.suit = event.suit

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The most visited root action after the search (Medium's choice when there is nothing
        to search)."""
        self.last_playouts = 0
        if len(view.legal) == 1:
            return view.legal[0]
        if view.to_act != view.seat or unseen_cards(view) is None:
            return self.policy.choose(view, rng)
        arms = [Arm(action) for action in view.legal]
        deadline = None if self.budget is None else self.clock() + self.budget
        team = team_of(view.seat, view.players, view.rules.pairs)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and self.clock() >= deadline:
                break
            arm = pick_ucb1(arms, done)
            deal = determinize(view, rng, self.seen.get(view.seat))
            deal.apply(arm.action, view.seat, events=False)
            arm.visits += 1
            arm.total += self.playout(deal, team, rng)
            done += 1
        self.last_playouts = done
        best = max(arms, key=lambda a: (a.visits, a.total / a.visits if a.visits else 0.0))
        return best.action

    # ---- the search ----------------------------------------------------------------------
    def playout(self, deal: Round, team: tuple[int, ...], rng: random.Random) -> float:
        """Play ``deal`` to the end of the round with every seat played by Medium; the reward of
        ``team``."""
        policy = self.policy
        for _ in range(MAX_PLAYOUT_ACTIONS):
            if deal.phase is Phase.OVER:
                break
            legal = deal.legal_actions()
            seat = deal.to_act
            action = legal[0] if len(legal) == 1 else policy.choose(view_of(deal, seat), rng)
            deal.apply(action, seat, events=False)
        return reward(deal.result, team, deal.players, deal.rules.pairs)


def pick_ucb1(arms: list[Arm], total_visits: int) -> Arm:
    """The arm UCB1 picks: an arm never tried first (in order), else the highest mean +
    sqrt(2 ln N / n)."""
    for arm in arms:
        if not arm.visits:
            return arm
    log_n = math.log(total_visits)
    return max(arms, key=lambda a: a.total / a.visits + EXPLORATION * math.sqrt(log_n / a.visits))


def reward(result: RoundResult | None, team: tuple[int, ...], players: int, pairs: bool) -> float:
    """1 when ``team`` won the round, 0 when it lost; a tie shared between the sides in it (a
    round cut off unfinished: shared between every side)."""
    sides = {team_of(seat, players, pairs) for seat in range(players)}
    if result is None or not result.winners:
        return 1.0 / len(sides)
    winning = {team_of(seat, players, pairs) for seat in result.winners}
    return 1.0 / len(winning) if team in winning else 0.0


def unseen_cards(view: PlayerView) -> list[Card] | None:
    """The cards ``view``'s seat cannot see: the deck less its own hand and the discard pile, in
    a fixed order (None if the view shows more of a card than the deck has). In a game they fill
    the hidden places exactly; a test's short explicit deck leaves some out of play."""
    unseen = Counter(deck_for(view.rules.deck))
    unseen.subtract(view.hand)
    unseen.subtract(view.discard)
    if any(n < 0 for n in unseen.values()):
        return None
    cards = sorted(unseen.elements(), key=lambda c: c.code)  # a fixed order: the rng alone deals
    hidden = sum(n for s, n in enumerate(view.hand_counts) if s != view.seat) + view.draw_count
    return cards if len(cards) >= hidden else None


def determinize(view: PlayerView, rng: random.Random, seen: Seen | None = None) -> Round:
    """A round ``view`` could be showing: the cards it cannot see dealt uniformly at random to the
    other hands (by their counts) and the draw pile; every other field as the view shows it.
    Whether a pending Wild +4 broke the rule is read from the hand this deal gives its player.

    Raises:
        ValueError: the view's cards do not add up (see `unseen_cards`).
    """
    cards = unseen_cards(view)
    if cards is None:
        raise ValueError("the view's cards do not add up to the deck")
    rng.shuffle(cards)
    hands: list[list[Card]] = []
    for seat, count in enumerate(view.hand_counts):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(cards[-count:] if count else [])
            del cards[len(cards) - count:]
    del cards[view.draw_count:]  # nothing in a game; a short explicit deck's cards out of play
    return restored_round({
        "rules": view.rules, "players": view.players, "rng": random.Random(rng.random()),
        "number": view.round_number, "dealer": view.dealer, "first": view.first,
        "hands": hands, "pile": cards, "discard": list(view.discard), "suit": view.suit,
        "direction": view.direction, "to_act": view.to_act, "phase": view.phase, "drawn": view.drawn,
        "last_drawn": view.drawn_card, "played": view.played, "follow": view.follow,
        "follow_suit": view.follow_suit, "run_next": view.run_next, "pending": view.pending,
        "pending_by": view.pending_by, "bluff_by": bluff_by(view, hands, seen),
        "called": view.called, "exposed": dict(view.exposed_until), "turn_no": view.turn_no,
        "passes": view.passes, "result": None, "start_choice": view.start_choice, "explicit": False,
    })


def bluff_by(view: PlayerView, hands: list[list[Card]], seen: Seen | None) -> int | None:
    """Who broke the rule with the pending Wild +4 in this deal: its player, if the hand the deal
    gives it holds the suit that was in force when it played it (None when nothing is pending,
    or when what was in force is not known)."""
    card = view.pending_by
    if card is None or seen is None or seen.wild_draw_by is None or seen.suit_before is None:
        return None
    effect = card_table(view.rules).effects[card]
    if not (effect.wild and effect.draws):
        return None
    suit = seen.suit_before
    return seen.wild_draw_by if any(c.suit == suit for c in hands[seen.wild_draw_by]) else None


def view_of(r: Round, seat: int) -> PlayerView:
    """What ``seat`` sees of a playout's round (as `Match.view` builds it, scores aside: a playout
    is judged on the round alone)."""
    return PlayerView(
        seat=seat, hand=tuple(r.hands[seat]), hand_counts=tuple(len(h) for h in r.hands),
        draw_count=len(r.pile), to_act=r.to_act, legal=r.legal_actions(seat),
        drawn_card=r.last_drawn if r.to_act == seat else None,
        exposed=tuple(sorted(s for s in r.exposed if len(r.hands[s]) == 1)),
        scores=(0,) * r.players, target=0, status=Status.PLAYING, winners=(),
        **view_values(r),
    )
