"""Actions in words: the labels of the actions that have a table button, and any action as a
review or a hint names it (a card in words, a suit named, a button's label)."""

from __future__ import annotations

from typing import Final

from game.engine import Accept, Action, CallLastCard, Challenge, ChooseSuit, Draw, EndTurn, Pass, Play

from .i18n import card_words, tr
from .move_log import suit_words

ACTION_LABELS: Final[dict[Action, str]] = {
    Draw(): "table.draw", Pass(): "table.pass", EndTurn(): "table.end", CallLastCard(): "table.card",
    Challenge(): "table.liar", Accept(): "table.accept",
}
"""The actions that have their own button, with its label, in the order the buttons are listed."""


def action_words(action: Action) -> str:
    """``7♥``, ``name ♠ Spades``, ``Draw``: an action as the review names it."""
    if isinstance(action, Play):
        return card_words(action.card)
    if isinstance(action, ChooseSuit):
        return tr("review.name_suit", suit=suit_words(action.suit))
    return tr(ACTION_LABELS.get(action, "table.draw"))
