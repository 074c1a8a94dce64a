"""What a button or key of the table and its overlays asks for, as values.

A button carries its intent (`widgets.Button.intent`) and a key maps to one; the
scene dispatches on it with ``match``. Intents that concern a seat carry it, so
nothing is parsed back out of a string.

- The table: an engine `Action` for the shown seat (``Draw()``, ``Pass()``,
  ``EndTurn()``, ``CallLastCard()``, ``Challenge()``, ``Accept()``, ``Denounce(seat)``;
  a card is played with ``Play(card)``), or a `TableCommand` to the table itself
  (undo, hint, pause, the autopilot toggle, the move log, denouncing the first missed call,
  the hand's sort).
- The pause menu: a `PauseChoice`, `ChangeLevel` of a computer seat, or
  `ToggleAutopilot` of a person's seat (hot-seat).
- The result screen: a `ResultChoice`, or `Ready` of one hot-seat player.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from game.engine import Action


class TableCommand(Enum):
    """A table button or key that asks the table itself, not the game."""

    UNDO = "undo"  # take back the last turn (solo play)
    HINT = "hint"  # suggest a move
    PAUSE = "pause"  # open the pause menu (Esc, or the Menu button)
    AUTOPILOT = "autopilot"  # the computer plays the shown person's turns, or gives them back (O)
    MOVES = "moves"  # every move of the round, over the table (M, or a tap on the move log)
    DENOUNCE = "denounce"  # the first missed "Card" call that can be denounced, if any (N)
    REACT = "react"  # online: the quick reactions' palette (R, or the button by the shown seat)
    SORT = "sort"  # lay the hand out by the next sort: as dealt, by suit, by rank (S, or the Sort control)


TableIntent: TypeAlias = Action | TableCommand
"""A table button or key: an action for the shown seat, or a command to the table."""


class PauseChoice(Enum):
    """A pause-menu button that concerns no seat."""

    RESUME = "resume"
    SETTINGS = "settings"
    RULES = "rules"  # the rules of the game in play
    NEW_GAME = "new_game"  # the new-game form (this game stays saved until a new one replaces it)
    MENU = "menu"


@dataclass(frozen=True, slots=True)
class ChangeLevel:
    """Give the computer at ``seat`` the next level (easy, medium, hard, then easy again), or with
    ``step`` -1 the one before (← on the pause menu)."""

    seat: int
    step: int = 1


@dataclass(frozen=True, slots=True)
class ToggleAutopilot:
    """Turn the autopilot of the person at ``seat`` on or off (the pause menu, hot-seat)."""

    seat: int


PauseIntent: TypeAlias = PauseChoice | ChangeLevel | ToggleAutopilot
"""A pause-menu button."""


class ResultChoice(Enum):
    """A result-screen button that concerns no seat."""

    AGAIN = "again"  # the next deal, or a new match once this one is won
    REVIEW = "review"  # the deal's review ("where the game was lost"), for the people who played it here
    MENU = "menu"


@dataclass(frozen=True, slots=True)
class Ready:
    """The hot-seat player at ``seat`` is ready for the next deal."""

    seat: int


ResultIntent: TypeAlias = ResultChoice | Ready
"""A result-screen button."""
