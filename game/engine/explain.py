"""Why an action is refused: one sentence a player understands, for every case."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
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
from .cards import SUIT_NAMES, SUIT_SYMBOLS
from .phases import CHALLENGE_PHASE, OVER, PENALTY, SUIT

if TYPE_CHECKING:
    from .round import Round

# ---- explaining ----------------------------------------------------------------------
def why_not(r: Round, action: Action, seat: int) -> str:
    """A sentence for the player saying why ``action`` is refused."""
    if r.phase == OVER:
        return "The round is over."
    if not 0 <= seat < r.players:
        return f"There is no seat {seat} at this table."
    if type(action) is Denounce:
        target = action.seat
        if target == seat:
            return "You cannot denounce yourr."
        return f"Seat {target} cannot be denounced now."
    if seat != r.to_act:
        return f"It is not your turn: seat {r.to_act} plays."
    if type(action) is TimeOut:
        return "These rules have no turn timer."
    suit_name = suit_label(r.suit)
    if r.phase == SUIT:
        return "Choose the suit to announce first."
    if r.phase == CHALLENGE_PHASE:
        return "Call Liar or accept the Wild +4."
    if type(action) is Play:
        card = action.card
        if card not in r.hands[seat]:
            return f"You do not hold {card.label}."
        if r.phase == PENALTY:
            return (f"You must answer with a draw card that stacks, or draw "
                    f"{r.pending} cards.")
        if r.drawn:
            return "After drawing you may only play the card you drew."
        if r.follow == "again":
            return f"After a 10 you must play another {suit_name} card."
        if r.follow == "run":
            return "Only the next card of your run may follow; or end your turn."
        if len(r.hands[seat]) == 1 and card.rank in r.rules.again_ranks:
            return "A 10 can never be your last card."
        wild = wild_word(r)
        return f"You must follow {suit_name} or {r.top.label}, or play {wild}."
    if type(action) is ChooseSuit:
        return "You announce a suit only after playing a wild card."
    if type(action) is Draw:
        if not r.can_draw() and not r.pending:
            return "There is nothing left to draw."
        if r.drawn:
            return "You cannot draw again this turn."
        if r.follow is not None:
            return "You are in the middle of your turn: play on or end it."
        return "You may not draw while you hold a card that plays."
    if type(action) is Pass:
        return "You cannot pass: you can still play or draw."
    if type(action) is EndTurn:
        return "There is nothing to end: play or draw."
    if type(action) is CallLastCard:
        return "You call Card only with two cards in hand, before playing."
    if type(action) in (Challenge, Accept):
        return "No Wild +4 was played at you."
    return f"{action} is not allowed now."

def wild_word(r: Round) -> str:
    wilds = r.table.wild_ranks
    if "8" in wilds:
        return "an eight" if len(wilds) == 1 else "an eight or a joker"
    return "a wild card"


def suit_label(suit: str | None) -> str:
    if suit is None:
        return "the announced suit"
    return SUIT_SYMBOLS.get(suit) or SUIT_NAMES.get(suit, suit)
