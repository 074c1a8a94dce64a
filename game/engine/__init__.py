"""Huit's rules engine: cards, `Rules` and presets, `Match`/`Round`, actions, events, views.

Standard library only: no pygame, no I/O, no clock, no global random. Every state
change goes through ``apply(action)``; ``legal_actions()`` says what may be done;
``view(seat)`` is what a seat may know; ``str()`` of a round, match or view shows the
position in card notation. Where a game stands is named by `Status`, `Phase`, `Follow`
and `DrawReason` (string enums); the house rules are declared once in `OPTIONS`.
"""

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
    parse_action,
)
from .cards import Card, color_deck, deck_for, parse_card, parse_cards, standard_deck
from .errors import IllegalAction, RulesError
from .events import CardsDrawn, DrawReason, Event
from .match import Match
from .options import OPTIONS, Option
from .phases import Follow, Phase, Status
from .round import Round
from .rules import OPTION_NAMES, PRESETS, Rules, preset
from .scoring import CountedHand, DealScore, RoundResult, deal_score, experience_points
from .view import PlayerView

__all__ = [
    "Accept", "Action", "CallLastCard", "Card", "CardsDrawn", "Challenge", "ChooseSuit",
    "CountedHand", "DealScore", "Denounce", "Draw", "DrawReason", "EndTurn", "Event", "Follow",
    "IllegalAction",
    "Match", "OPTIONS", "OPTION_NAMES", "Option", "PRESETS", "Pass", "Phase", "Play",
    "PlayerView", "Round", "RoundResult", "Rules", "RulesError", "Status", "TimeOut",
    "color_deck", "deal_score", "deck_for", "experience_points", "parse_action", "parse_card", "parse_cards",
    "preset", "standard_deck",
]
