"""`Round`: one deal of Huit, from the deal to the last card, under any `Rules`.

The meaning of every action, written once (as OpenSpiel does for its games):

* ``Play(card)``: put a card on the pile. Legal when it follows the suit in force
  (the top card's, or the one announced after a wild), the top card's rank, or is
  wild; under a pending draw penalty only a card that may stack on it; after a
  draw only the card just drawn; during a run only the next card of the run;
  after a 10 of the ``action`` rules only a card of that suit. A 10 of the ``action``
  rules may never be the last card.
* ``ChooseSuit(s)``: the decision after a wild (its own step, so computers and
  players announce the same way). A wild that empties the hand needs none.
* ``Draw()``: draw one card (the turn may then play that card only), or take the
  pending draw penalty and lose the turn. Refused while holding a playable card
  unless ``draw_when_playable``. Further draws while the last one is unplayable,
  up to the draw limit (``max_draws``; 0 means no limit with
  ``draw_until_playable``, else one).
* ``Pass()``: end the turn without playing: after drawing (the card is kept), or
  when nothing plays and nothing can be drawn. When every player in turn has
  passed that way, the round is blocked.
* ``EndTurn()``: stop a run, or decline the extra card a twin allows. A turn whose
  run or twin cannot go on ends by itself.
* ``CallLastCard()``, ``Denounce(seat)``: the last-card call and its penalty; a
  denounce is the only action a seat may take out of turn.
* ``Challenge()``/``Accept()``: answer a Wild +4.
* ``TimeOut()``: the turn timer ran out; the rules say what happens. ``TimeOut(then)``
  (rules that play for the player) plays ``then`` for the player, which must be legal;
  the rest of the turn is the player's (or the clock owner's) as usual.

State changes only through `Round.apply`; `Round.view` is the only way a seat (or a
computer) should look at it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import MISSING
from typing import TYPE_CHECKING, Any, Final

from .actions import (
    ACCEPT,
    CALL_LAST_CARD,
    DRAW,
    END_TURN,
    PASS,
    SUIT_CHOICES,
    Accept,
    Action,
    CallLastCard,
    Challenge,
    ChooseSuit,
    Denounce,
    Draw,
    EndTurn,
    Pass,
    Play,
    TimeOut,
)
from .cards import Card, deck_for
from .deal import check_deck, deal
from .effects import CardEffect, CardTable, card_table
from .errors import IllegalAction, RulesError
from .events import (
    CardPlayed,
    CardsDrawn,
    Challenged,
    Denounced,
    DirectionChanged,
    DrawReason,
    Event,
    LastCardCalled,
    Passed,
    PenaltyPending,
    PlayAgain,
    Reshuffled,
    RoundEnded,
    SuitChosen,
    TimedOut,
    TurnSkipped,
    TurnStarted,
)
from .explain import why_not
from .legal import denounces, playable, turn_actions
from .phases import AGAIN, CHALLENGE_PHASE, OVER, PENALTY, PLAY, RUN, SUIT, TWIN, Follow, Phase
from .position import describe_round
from .rules import Rules
from .scoring import RoundResult, blocked_result, finished_result
from .state import Copy, Plain, declared, restore, restored, saved_state, start_fields, state, state_of

Log = list[Event] | None

# The draw reasons as plain globals (cheaper than an attribute of the enum class).
_DRAW: Final = DrawReason.DRAW
_PENALTY: Final = DrawReason.PENALTY
_CHALLENGE: Final = DrawReason.CHALLENGE
_DENOUNCE: Final = DrawReason.DENOUNCE
_TIMEOUT: Final = DrawReason.TIMEOUT


def _derived(r: Round) -> dict[str, object]:
    """What a round computes from its rules: the card table."""
    return {"table": card_table(r.rules)}


@declared(_derived)
class Round:
    """One deal: hands, draw pile, discard pile and whose turn it is.

    Build it with the rules, the number of seats, an injected ``random.Random`` and
    the first player; pass ``deck`` (top first) to deal an explicit order.

    Its state is the fields below, each declared once with how a clone copies it, how a
    position writes it (`Plain`), the view field that shows it and its starting value
    (see `game.engine.state`).
    """

    # The match gives these: a position does not hold them.
    rules: Rules = state(view="rules")
    players: int = state(view="players")
    rng: random.Random = state(Copy.GENERATOR)
    # Who deals and starts.
    number: int = state(plain=Plain.NUMBER, view="round_number")
    dealer: int = state(plain=Plain.SEAT, view="dealer")
    first: int = state(plain=Plain.SEAT, view="first")
    # The cards: the hands (a view shows its own, and the others' sizes), the draw pile (top last;
    # a view shows its size only), the discard pile (top last).
    hands: list[list[Card]] = state(Copy.PER_SEAT, plain=Plain.HANDS)
    pile: list[Card] = state(Copy.LIST, plain=Plain.CARDS)
    discard: list[Card] = state(Copy.LIST, plain=Plain.CARDS, view="discard")
    suit: str | None = state(plain=Plain.SUIT, view="suit", start=None)
    direction: int = state(plain=Plain.DIRECTION, view="direction", start=1)
    # The turn: whose it is (a view shows None between rounds), what it waits for, what was done.
    to_act: int = state(plain=Plain.SEAT)
    phase: Phase = state(plain=Plain.PHASE, view="phase", start=PLAY)
    drawn: int = state(plain=Plain.DRAWN, view="drawn", start=0)
    last_drawn: Card | None = state(plain=Plain.MAYBE_CARD, start=None)  # its seat's view only
    played: bool = state(plain=Plain.BOOL, view="played", start=False)
    follow: Follow | None = state(plain=Plain.FOLLOW, view="follow", start=None)  # why the turn goes on
    follow_suit: str | None = state(plain=Plain.SUIT, view="follow_suit", start=None)
    run_next: int = state(plain=Plain.RUN, view="run_next", start=0)
    # A draw penalty waiting, and the card that made it.
    pending: int = state(plain=Plain.PENALTY, view="pending", start=0)
    pending_by: Card | None = state(plain=Plain.MAYBE_CARD, view="pending_by", start=None)
    bluff_by: int | None = state(plain=Plain.MAYBE_SEAT, start=None)  # whose Wild +4 broke the rule: hidden
    # The last-card call: called this turn, and seat -> the last turn it may be denounced.
    called: bool = state(plain=Plain.BOOL, view="called", start=False)
    exposed: dict[int, int] = state(Copy.MAP, plain=Plain.EXPOSED, view="exposed_until", start={})
    turn_no: int = state(plain=Plain.TURN, view="turn_no", start=0)
    passes: int = state(plain=Plain.PASSES, view="passes", start=0)
    result: RoundResult | None = state(plain=Plain.RESULT, view="result", start=None)
    start_choice: bool = state(plain=Plain.BOOL, view="start_choice", start=False, before=False)
    explicit: bool = state(plain=Plain.BOOL, before=False)  # dealt from an explicit deck: hidden
    # Computed: what each card does under the rules, and the legal actions until the state changes.
    table: CardTable = state(Copy.DERIVED)
    _legal: tuple[Action, ...] | None = state(Copy.CACHE)

    def __init__(
        self, rules: Rules, players: int, rng: random.Random, *, first: int = 0,
        deck: Sequence[Card] | None = None, number: int = 1, dealer: int | None = None,
        log: Log = None,
    ) -> None:
        rules.check_players(players)
        if not 0 <= first < players:
            raise RulesError(f"first player must be a seat from 0 to {players - 1}, not {first}")
        start_fields(self)
        self.rules = rules
        self.players = players
        self.rng = rng
        self.number = number
        self.dealer = (first - 1) % players if dealer is None else dealer
        self.first = first
        self.table = card_table(rules)
        self._legal = None
        self.explicit = deck is not None
        if deck is None:
            cards = deck_for(rules.deck)
            rng.shuffle(cards)
        else:
            cards = check_deck(rules, self.table, deck, players)
        self.pile = cards[::-1]  # top of the pile is the end of the list
        self.hands = [[] for _ in range(players)]
        self.discard = []
        self.to_act = first
        self._begin_turn(deal(self, log), log)

    if TYPE_CHECKING:  # `declared` makes it from the fields' declarations
        def clone(self, rng: random.Random | None = None) -> Round:
            """An independent copy (for searches), drawing its shuffles from ``rng`` if given."""

    # ---- asking --------------------------------------------------------------------------
    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def over(self) -> bool:
        """Whether the deal has ended (someone went out, or it is blocked)."""
        return self.phase is OVER

    def can_draw(self) -> bool:
        """Whether a card can be drawn now (counting a reshuffle of the discards)."""
        return bool(self.pile) or (self.rules.reshuffle and len(self.discard) > 1)

    def draw_limit(self) -> int:
        """How many cards one turn may draw (a large number for "no limit")."""
        if self.rules.max_draws:
            return self.rules.max_draws
        return 1 << 30 if self.rules.draw_until_playable else 1

    def follows(self, card: Card) -> bool:
        """Whether ``card`` matches the pile (suit in force, top rank, or wild)."""
        return (card.suit == self.suit or card.rank == self.discard[-1].rank
                or card.rank in self.table.wild_ranks)

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """What ``seat`` (default: the seat to act) may do now, without duplicates."""
        if seat is None or seat == self.to_act:
            legal = self._legal
            if legal is None:
                legal = self._legal = turn_actions(self) + denounces(self, self.to_act)
            return legal
        if self.phase is OVER or type(seat) is not int or not 0 <= seat < self.players:
            return ()
        return denounces(self, seat)

    def may_time_out(self, action: TimeOut, seat: int | None) -> bool:
        """Whether ``action`` (a time-out) may be applied for ``seat`` now: the rules have a turn
        timer, it is that seat's turn, and the move it names, if any, is legal and the rules
        play for a player whose time ran out."""
        if self.phase is OVER or not self.rules.turn_seconds or seat != self.to_act:
            return False
        then = action.then
        return then is None or (self.rules.timeout_policy == "autoplay" and then in self.legal_actions(seat))

    # ---- changing ------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None, *, events: bool = True) -> list[Event]:
        """Carry out ``action`` for ``seat`` (default: the seat to act); return the events.

        ``events=False`` skips building events (for playouts); the rules are the same.

        Raises:
            IllegalAction: the action is not legal now, with the reason for the player.
        """
        if seat is None:
            seat = self.to_act
        if type(action) is TimeOut:
            if not self.may_time_out(action, seat):
                raise why_not(self, action, seat)
        elif action not in self.legal_actions(seat):
            raise why_not(self, action, seat)
        log: Log = [] if events else None
        self._legal = None
        self._do(action, seat, log)
        self._legal = None
        return log if log is not None else []

    def _do(self, action: Action, seat: int, log: Log) -> None:
        # `type(action) is` rather than `match`: this runs at every step of every playout, and
        # a class pattern costs an isinstance check per case (measured: twice the dispatch time).
        if type(action) is Play:
            self._play(action.card, seat, log)
        elif type(action) is Draw:
            if self.phase is PENALTY:
                self._take_penalty(seat, log)
            else:
                self._draw_turn(seat, log)
        elif type(action) is Pass:
            if log is not None:
                log.append(Passed(seat))
            self.passes = 0 if (self.drawn or self.played) else self.passes + 1
            if self.passes >= self.players:
                self._finish(None, log)
            else:
                self._next_turn(0, log)
        elif type(action) is ChooseSuit:
            self._choose_suit(action.suit, seat, log)
        elif type(action) is EndTurn:
            self._next_turn(0, log)
        elif type(action) is CallLastCard:
            self.called = True
            if log is not None:
                log.append(LastCardCalled(seat))
        elif type(action) is Denounce:
            target = action.seat
            del self.exposed[target]
            if log is not None:
                log.append(Denounced(seat, target))
            self._give(target, self.rules.last_card_penalty, _DENOUNCE, log)
        elif type(action) is Challenge:
            self._challenge(seat, log)
        elif type(action) is Accept:
            self._take_penalty(seat, log)
        elif type(action) is TimeOut:
            then = action.then
            if then is None:
                self._time_out(seat, log)
            else:  # the move the clock's owner plays for the player (checked by `apply`)
                if log is not None:
                    log.append(TimedOut(seat))
                self._do(then, seat, log)

    def _play(self, card: Card, seat: int, log: Log) -> None:
        hand = self.hands[seat]
        effect = self.table.effects[card]
        if effect.draws and effect.wild:
            # A wild draw card breaks the rule when its player held the suit in force.
            suit = self.suit
            self.bluff_by = seat if any(c.suit == suit for c in hand if c is not card) else None
        hand.remove(card)
        self.discard.append(card)
        self.played = True
        self.passes = 0
        self.drawn = 0  # a drawn card, once played, no longer limits the turn
        self.last_drawn = None
        if log is not None:
            log.append(CardPlayed(seat, card))
        if self.rules.last_card_call and len(hand) == 1 and not self.called:
            self.exposed[seat] = self.turn_no + 1
        if not hand:
            self._finish(seat, log)
            return
        if effect.draws:
            self.pending += effect.draws
            self.pending_by = card
        if effect.wild:
            self.suit = None
            self.phase = SUIT
            return
        self.suit = card.suit
        self._after_play(card, effect, seat, log)

    def _after_play(self, card: Card, effect: CardEffect, seat: int, log: Log) -> None:
        """Apply a non-wild card's effect and decide whether the turn goes on."""
        if effect.draws:
            self._next_turn(0, log)
            return
        if effect.again:
            self._continue(AGAIN, card, seat, log)
            return
        if effect.skip:
            self._next_turn(1, log)
            return
        if effect.reverse:
            self.direction = -self.direction
            if log is not None:
                log.append(DirectionChanged(self.direction))
            self._next_turn(1 if self.players == 2 else 0, log)
            return
        if effect.number:
            previous = self.discard[-2] if len(self.discard) > 1 else None
            if self.rules.twin_card and previous is card:
                self._continue(TWIN, card, seat, log)
                return
            if self.rules.runs:
                self._continue(RUN, card, seat, log)
                return
        self._next_turn(0, log)

    def _continue(self, why: Follow, card: Card, seat: int, log: Log) -> None:
        """The same player goes on (twin, run, 10) if it can; else the turn ends."""
        self.follow = why
        self.follow_suit = card.suit
        self.run_next = card.number + 1
        self.drawn = 0
        self.last_drawn = None
        if why is not AGAIN and not playable(self, self.hands[seat]):
            self._next_turn(0, log)
            return
        if log is not None:
            log.append(PlayAgain(seat, why))

    def _choose_suit(self, suit: str, seat: int, log: Log) -> None:
        self.suit = suit
        if log is not None:
            log.append(SuitChosen(seat, suit))
        if self.start_choice:
            self.start_choice = False
            self.phase = PLAY
            return
        self.phase = PLAY
        self._next_turn(0, log)

    def _draw_turn(self, seat: int, log: Log) -> None:
        drawn = self._take(1, log)
        if not drawn:  # cannot happen: Draw is only legal when a card can be drawn
            raise IllegalAction("There is nothing left to draw.")
        self.hands[seat].extend(drawn)
        self.drawn += 1
        self.last_drawn = drawn[0]
        self.passes = 0
        if log is not None:
            log.append(CardsDrawn(seat, 1, _DRAW, tuple(drawn)))

    def _take(self, count: int, log: Log) -> list[Card]:
        """Take up to ``count`` cards off the pile, reshuffling the discards when allowed."""
        out: list[Card] = []
        pile = self.pile
        while len(out) < count:
            if not pile:
                if not (self.rules.reshuffle and len(self.discard) > 1):
                    break
                top = self.discard.pop()
                pile.extend(self.discard)
                self.discard[:] = [top]
                self.rng.shuffle(pile)
                if log is not None:
                    log.append(Reshuffled(len(pile)))
            out.append(pile.pop())
        return out

    def _give(self, seat: int, count: int, reason: DrawReason, log: Log) -> None:
        cards = self._take(count, log)
        self.hands[seat].extend(cards)
        if len(self.hands[seat]) != 1:
            self.exposed.pop(seat, None)
        if log is not None and cards:
            log.append(CardsDrawn(seat, len(cards), reason, tuple(cards)))

    def _take_penalty(self, seat: int, log: Log) -> None:
        amount = self.pending
        self.pending = 0
        self.pending_by = None
        self.bluff_by = None
        self._give(seat, amount, _PENALTY, log)
        self.passes = 0
        if log is not None:
            log.append(TurnSkipped(seat))
        self._next_turn(0, log)

    def _challenge(self, seat: int, log: Log) -> None:
        bluff_by = self.bluff_by
        bluff = bluff_by is not None
        offender = bluff_by if bluff_by is not None else (seat - self.direction) % self.players
        if log is not None:
            log.append(Challenged(seat, offender, bluff))
        if bluff:
            amount = self.pending
            self.pending = 0
            self.pending_by = None
            self.bluff_by = None
            self._give(offender, amount, _CHALLENGE, log)
            self.phase = PLAY  # the challenger now plays its turn as usual
        else:
            self.pending += 2
            self._take_penalty(seat, log)

    def _time_out(self, seat: int, log: Log) -> None:
        if log is not None:
            log.append(TimedOut(seat))
        if self.rules.timeout_policy == "penalty":
            self._give(seat, self.rules.timeout_penalty, _TIMEOUT, log)
            if self.phase is SUIT:
                starting = self.start_choice
                self._choose_suit(self._best_suit(seat), seat, log)
                if starting:
                    self._next_turn(0, log)
            elif self.phase in (PENALTY, CHALLENGE_PHASE):
                self._take_penalty(seat, log)
            elif self.phase is PLAY:
                self.passes = 0
                self._next_turn(0, log)
            return
        turn = self.turn_no
        for _ in range(64):  # the game plays this turn for the player
            if self.phase is OVER or self.turn_no != turn or self.to_act != seat:
                break
            self._legal = None
            self._do(auto_action(turn_actions(self), self.phase, self._best_suit(seat)), seat, log)
            self._legal = None

    def _best_suit(self, seat: int) -> str:
        counts = {s: 0 for s in self.table.suits}
        for card in self.hands[seat]:
            if card.suit in counts:
                counts[card.suit] += 1
        return max(self.table.suits, key=lambda s: counts[s])

    def _next_turn(self, skip: int, log: Log) -> None:
        seat = self.to_act
        for _ in range(skip):
            seat = (seat + self.direction) % self.players
            if log is not None:
                log.append(TurnSkipped(seat))
        self._begin_turn((seat + self.direction) % self.players, log)

    def _begin_turn(self, seat: int, log: Log) -> None:
        self.to_act = seat
        self.turn_no += 1
        self.drawn = 0
        self.last_drawn = None
        self.played = False
        self.follow = None
        self.follow_suit = None
        self.run_next = 0
        self.called = False
        if self.exposed:
            self.exposed = {s: t for s, t in self.exposed.items() if t >= self.turn_no}
        if self.phase is SUIT:
            return  # the start card is a wild: the first player names the colour
        if self.pending:
            pending_by = self.pending_by
            assert pending_by is not None
            effect = self.table.effects[pending_by]
            if self.rules.challenge_wild_four and effect.wild and self.pending == effect.draws:
                self.phase = CHALLENGE_PHASE
            elif self.rules.stacking and self.table.stackable(pending_by):
                self.phase = PENALTY
            else:
                # Nothing may answer it: the penalty is taken at once.
                self.phase = PLAY
                if log is not None:
                    log.append(PenaltyPending(seat, self.pending))
                self._take_penalty(seat, log)
                return
            if log is not None:
                log.append(PenaltyPending(seat, self.pending))
        else:
            self.phase = PLAY
        if log is not None:
            log.append(TurnStarted(seat))

    def _finish(self, winner: int | None, log: Log) -> None:
        rules = self.rules
        values = self.table.values
        if winner is None:
            self.result = blocked_result(self.hands, values, rules.scoring,
                                         rules.blocked_scoring, rules.pairs)
        else:
            self.result = finished_result(winner, self.hands, values, rules.scoring, rules.pairs)
        self.phase = OVER
        self.pending = 0
        self.pending_by = None
        self.exposed = {}
        if log is not None:
            log.append(RoundEnded(self.result))

    def shuffle_pile(self, rng: random.Random) -> None:
        """Shuffle the draw pile with ``rng`` (after Undo, so that taking a turn back never
        shows what the pile will give)."""
        rng.shuffle(self.pile)
        self._legal = None

    # ---- persistence and comparison ------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return saved_state(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        values = {f.name: state.get(f.name, f.before) for f in ROUND_STATE
                  if f.name in state or f.before is not MISSING}
        restore(self, values)
        # Saves written before `Phase` and `Follow` hold plain strings (of the same values).
        if type(self.phase) is not Phase:
            self.phase = Phase(self.phase)
        if self.follow is not None and type(self.follow) is not Follow:
            self.follow = Follow(self.follow)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        mine, theirs = saved_state(self), saved_state(other)
        return (mine.pop("rng").getstate() == theirs.pop("rng").getstate()
                and mine == theirs)

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """The whole position in card notation, every hand shown (see `describe_round`)."""
        return describe_round(self)


ROUND_STATE: Final = state_of(Round)
"""Every field of a round's state, in order (see `game.engine.state`)."""


def restored_round(values: Mapping[str, object]) -> Round:
    """A round whose state is ``values`` (every field but the derived and cached ones, by name):
    how a position (`game.engine.snapshot`) and a determinization (`game.engine.determinize`) build one.

    Raises:
        TypeError: a field of the state is missing, or one is unknown.
    """
    return restored(Round, values)


def auto_action(legal: tuple[Action, ...], phase: Phase, best_suit: str) -> Action:
    """The move the game makes for a player whose time ran out: call "Card" when due, play the
    first card that plays, else accept, draw, pass or end the turn."""
    if phase == SUIT:
        return SUIT_CHOICES[best_suit]
    if CALL_LAST_CARD in legal:
        return CALL_LAST_CARD
    for action in legal:
        if type(action) is Play:
            return action
    for choice in (ACCEPT, DRAW, PASS, END_TURN):
        if choice in legal:
            return choice
    return legal[0]
