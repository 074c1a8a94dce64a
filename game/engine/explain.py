"""Why an action is refused: one sentence a player understands, for every case.

Each reason has a key and values (a seat, a card code, a suit letter, a count), so
a front end can say it in the player's language; `IllegalAction` carries both and
its text is the English sentence built from `REASONS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

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
from .cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from .errors import IllegalAction
from .phases import AGAIN, CHALLENGE_PHASE, OVER, PENALTY, RUN, SUIT

if TYPE_CHECKING:
    from .round import Round

REASONS: Final[dict[str, str]] = {
    "round_over": "The round is over.",
    "finish_round": "Finish this round first.",
    "match_won": "The match is over; start a new game.",
    "no_seat": "There is no seat {seat} at this table.",
    "denounce_self": "You cannot denounce yourself.",
    "denounce_nobody": "Seat {seat} cannot be denounced now.",
    "not_your_turn": "It is not your turn: seat {to_act} plays.",
    "no_timer": "These rules have no turn timer.",
    "choose_suit_first": "Choose the suit to announce first.",
    "answer_wild_four": "Call Liar or accept the Wild +4.",
    "not_held": "You do not hold {card}.",
    "must_stack_or_draw": "You must answer with a draw card that stacks, or draw {n} cards.",
    "only_drawn_card": "After drawing you may only play the card you drew.",
    "again_same_suit": "After a 10 you must play another {suit} card.",
    "run_next_only": "Only the next card of your run may follow; or end your turn.",
    "ten_not_last": "A 10 can never be your last card.",
    "must_follow": "You must follow {suit} or {card}, or play {wild}.",
    "suit_after_wild": "You announce a suit only after playing a wild card.",
    "nothing_to_draw": "There is nothing left to draw.",
    "drew_already": "You cannot draw again this turn.",
    "mid_turn": "You are in the middle of your turn: play on or end it.",
    "draw_while_playable": "You may not draw while you hold a card that plays.",
    "cannot_pass": "You cannot pass: you can still play or draw.",
    "cannot_pass_play": "You cannot pass: you can still play a card.",
    "cannot_pass_draw": "You cannot pass: draw a card first.",
    "nothing_to_end": "There is nothing to end: play or draw.",
    "card_call_when": "You call Card only with two cards in hand, before playing.",
    "no_wild_four": "No Wild +4 was played at you.",
    "not_allowed": "{action} is not allowed now.",
}
"""The English sentence of every reason, by key."""

WILD_WORDS: Final = {"eight": "an eight", "eight_or_joker": "an eight or a joker", "wild": "a wild card"}


def suit_label(suit: str | None) -> str:
    """``♥`` for a suit, ``red`` for a colour, "the announced suit" when none is set."""
    if suit is None:
        return "the announced suit"
    return SUIT_SYMBOLS.get(suit) or SUIT_NAMES.get(suit, suit)


def english(key: str, values: dict[str, object]) -> str:
    """The English sentence for a reason."""
    shown = dict(values)
    if "suit" in shown:
        suit = shown["suit"]
        shown["suit"] = suit_label(None if suit is None else str(suit))
    if "card" in shown:
        shown["card"] = Card(str(shown["card"])).label
    if "wild" in shown:
        shown["wild"] = WILD_WORDS[str(shown["wild"])]
    return REASONS[key].format(**shown)


def refusal(key: str, **values: object) -> IllegalAction:
    """An `IllegalAction` for reason ``key`` with its English text, key and values."""
    return IllegalAction(english(key, values), key=key, values=values)


def why_not(r: Round, action: Action, seat: int) -> IllegalAction:
    """The refusal of ``action`` by ``seat`` now, with the reason a player understands."""
    if r.phase == OVER:
        return refusal("round_over")
    if not 0 <= seat < r.players:
        return refusal("no_seat", seat=seat)
    if type(action) is Denounce:
        if action.seat == seat:
            return refusal("denounce_self")
        return refusal("denounce_nobody", seat=action.seat)
    if seat != r.to_act:
        return refusal("not_your_turn", to_act=r.to_act)
    if type(action) is TimeOut:
        if not r.rules.turn_seconds or action.then is None:
            return refusal("no_timer")
        if r.rules.timeout_policy != "autoplay":
            return refusal("not_allowed", action=str(action))
        return why_not(r, action.then, seat)
    if r.phase == SUIT:
        return refusal("choose_suit_first")
    if r.phase == CHALLENGE_PHASE:
        return refusal("answer_wild_four")
    match action:
        case Play(card=card):
            return _why_not_play(r, card, seat)
        case ChooseSuit():
            return refusal("suit_after_wild")
        case Draw():
            if not r.can_draw() and not r.pending:
                return refusal("nothing_to_draw")
            if r.drawn:
                return refusal("drew_already")
            if r.follow is not None:
                return refusal("mid_turn")
            return refusal("draw_while_playable")
        case Pass():
            return _why_not_pass(r)
        case EndTurn():
            return refusal("nothing_to_end")
        case CallLastCard():
            return refusal("card_call_when")
        case Challenge() | Accept():
            return refusal("no_wild_four")
    return refusal("not_allowed", action=str(action))


def _why_not_play(r: Round, card: Card, seat: int) -> IllegalAction:
    if card not in r.hands[seat]:
        return refusal("not_held", card=card.code)
    if r.phase == PENALTY:
        return refusal("must_stack_or_draw", n=r.pending)
    if r.drawn:
        return refusal("only_drawn_card")
    if r.follow == AGAIN:
        return refusal("again_same_suit", suit=r.follow_suit)
    if r.follow == RUN:
        return refusal("run_next_only")
    if len(r.hands[seat]) == 1 and card.rank in r.rules.again_ranks:
        return refusal("ten_not_last")
    return refusal("must_follow", suit=r.suit, card=r.top.code, wild=_wild_word(r))


def _why_not_pass(r: Round) -> IllegalAction:
    """Say what may be done instead, exactly as `legal` lists it (so the next refusal agrees)."""
    legal = r.legal_actions()
    if r.phase == PENALTY:
        return refusal("must_stack_or_draw", n=r.pending)
    if any(type(a) is EndTurn for a in legal):
        return refusal("mid_turn")
    plays = any(type(a) is Play for a in legal)
    draws = any(type(a) is Draw for a in legal)
    if plays and draws:
        return refusal("cannot_pass")
    if plays:
        return refusal("cannot_pass_play")
    if draws:
        return refusal("cannot_pass_draw")
    return refusal("cannot_pass")


def _wild_word(r: Round) -> str:
    wilds = r.table.wild_ranks
    if "8" in wilds:
        return "eight" if len(wilds) == 1 else "eight_or_joker"
    return "wild"
