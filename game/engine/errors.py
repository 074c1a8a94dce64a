"""The engine's errors. Both are `ValueError`s, as in python-chess."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is a sentence for the player.

    ``key`` and ``values`` name the reason (see `game.engine.explain.REASONS`) so a
    front end can say it in another language; both are empty for other refusals.
    """

    def __init__(self, message: str, *, key: str = "", values: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.values = dict(values or {})


class RulesError(ValueError):
    """A rule set, option, deck or seating that cannot be played; the message names it."""
