"""What may be done now: the legal actions of a round, phase by phase.

`Round.legal_actions` caches what these functions list; `Round.apply` accepts an
action only if it is listed, so this module is the single definition of legality.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    ACCEPT,
    CALL_LAST_CARD,
    CHALLENGE,
    DRAW,
    END_TURN,
    PASS,
    PLAYS,
    SUIT_CHOICES,
    Action,
    Denounce,
)
from .cards import Card
from .phases import AGAIN, CHALLENGE_PHASE, OVER, PENALTY, PLAY, SUIT, TWIN

if TYPE_CHECKING:
    from .round import Round


def denounces(r: Round, seat: int) -> tuple[Action, ...]:
    """The Denounce actions ``seat`` may take (out of turn too)."""
    if not r.exposed or r.phase is OVER:
        return ()
    return tuple(Denounce(s) for s in sorted(r.exposed)
                 if s != seat and len(r.hands[s]) == 1)

def turn_actions(r: Round) -> tuple[Action, ...]:
    """What the seat to act may do, by phase (denounces aside)."""
    phase = r.phase
    if phase is PLAY:
        hand = r.hands[r.to_act]
        follow = r.follow
        if r.drawn:
            card = r.last_drawn
            assert card is not None
            ok = card.suit == r.follow_suit if follow is AGAIN else r.follows(card)
            if ok:
                acts: list[Action] = [PLAYS[card]]
                if not r.rules.draw_until_playable or follow is AGAIN:
                    acts.append(PASS)
                if r.rules.last_card_call and len(hand) == 2 and not r.called:
                    acts.append(CALL_LAST_CARD)
                return tuple(acts)
            if follow is not AGAIN and r.drawn < r.draw_limit() and r.can_draw():
                return (DRAW,)
            return (PASS,)
        plays = playable(r, hand)
        can_play = bool(plays)
        if follow is not None:
            if follow is AGAIN:
                if plays:
                    acts = plays
                else:
                    return (DRAW,) if r.can_draw() else (PASS,)
            else:
                acts = plays + [END_TURN]
        else:
            acts = plays
            if r.can_draw() and (not plays or r.rules.draw_when_playable):
                acts.append(DRAW)
            elif not plays:
                acts.append(PASS)
        if can_play and r.rules.last_card_call and len(hand) == 2 and not r.called:
            acts.append(CALL_LAST_CARD)
        return tuple(acts)
    if phase is SUIT:
        return tuple(SUIT_CHOICES[s] for s in r.table.suits)
    if phase is PENALTY:
        pending_by = r.pending_by
        assert pending_by is not None
        table = r.table
        seen: set[Card] = set()
        acts = []
        hand = r.hands[r.to_act]
        for card in hand:
            if card not in seen and table.can_answer(card, pending_by):
                seen.add(card)
                acts.append(PLAYS[card])
        stacks = bool(acts)
        acts.append(DRAW)
        if stacks and r.rules.last_card_call and len(hand) == 2 and not r.called:
            acts.append(CALL_LAST_CARD)  # stacking the next-to-last card needs the call too
        return tuple(acts)
    if phase is CHALLENGE_PHASE:
        return (CHALLENGE, ACCEPT)
    return ()

def playable(r: Round, hand: list[Card]) -> list[Action]:
    """The distinct cards of ``hand`` that may be played now (normal phase)."""
    follow = r.follow
    suit = r.suit
    rank = r.discard[-1].rank
    wilds = r.table.wild_ranks
    again = r.rules.again_ranks
    out: list[Action] = []
    seen: set[Card] = set()
    last = len(hand) == 1
    for card in hand:
        if card in seen:
            continue
        seen.add(card)
        if follow is None or follow is TWIN:
            ok = card.suit == suit or card.rank == rank or card.rank in wilds
        elif follow is AGAIN:
            ok = card.suit == r.follow_suit
        else:  # run: the next card of the same suit, one rank up
            ok = card.suit == r.follow_suit and card.number == r.run_next
        if ok and not (last and card.rank in again):
            out.append(PLAYS[card])
    return out
