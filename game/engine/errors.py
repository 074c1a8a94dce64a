"""The engine's errors. Both are `ValueError`s, as in python-chess."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is a sentence for the player."""


class RulesError(ValueError):
    """A rule set, option, deck or seating that cannot be played; the message names it."""
