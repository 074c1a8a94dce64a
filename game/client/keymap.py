"""The keyboard, in one place: raw pygame keys become intents for every scene.

No scene reads a key code: each asks this module what a key means where it is.

- `nav`: the keys every screen shares (`Nav`): the arrows, Tab, Page Up/Down, Home,
  End, Enter (keypad Enter and Space too: `Nav.ACTIVATE`) and Esc (`Nav.BACK`). What
  a direction does is the screen's (the pause menu moves its focus, the move log scrolls).
- `table_key`: the table's keys, as `game.client.intents` values: D draws, P passes,
  E ends the turn, C calls "Card", L calls Liar, A accepts, N denounces, H suggests a
  move, U undoes, M shows the moves, O turns the autopilot on or off, R opens the quick
  reactions (online), S sorts the hand, Esc pauses;
  the arrows and Enter as `nav` says.
- `suit_key`: the suit picker's letters (S H D C, or R B G Y for the colours).
- `reaction_key`: the reactions palette's digits (1 to 8: a reaction each).
- `typing_end`: the keys a text field does not take, which end the typing (Space types).
- `is_paste`: Ctrl+V (Cmd+V), as pygame_gui's text fields read it.
- `toggles_fullscreen`: F11, which the App takes before any scene.

Each function takes the pygame event (a key press, or a release where a screen acts
on it) and returns None for a key that means nothing there.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

import pygame

from game.engine import Accept, CallLastCard, Challenge, Draw, EndTurn, Pass

from .intents import TableCommand, TableIntent


class Nav(Enum):
    """A key every screen understands the same way (what it moves is the screen's)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    NEXT = "next"  # Tab: the next control
    PAGE_UP = "page_up"
    PAGE_DOWN = "page_down"
    FIRST = "first"  # Home
    LAST = "last"  # End
    ACTIVATE = "activate"  # Enter, keypad Enter or Space: take the focused choice
    BACK = "back"  # Esc: close, go back, or cancel


NAV_KEYS: Final[dict[int, Nav]] = {
    pygame.K_UP: Nav.UP, pygame.K_DOWN: Nav.DOWN, pygame.K_LEFT: Nav.LEFT, pygame.K_RIGHT: Nav.RIGHT,
    pygame.K_TAB: Nav.NEXT, pygame.K_PAGEUP: Nav.PAGE_UP, pygame.K_PAGEDOWN: Nav.PAGE_DOWN,
    pygame.K_HOME: Nav.FIRST, pygame.K_END: Nav.LAST, pygame.K_RETURN: Nav.ACTIVATE,
    pygame.K_KP_ENTER: Nav.ACTIVATE, pygame.K_SPACE: Nav.ACTIVATE, pygame.K_ESCAPE: Nav.BACK,
}

TABLE_KEYS: Final[dict[int, TableIntent]] = {
    pygame.K_ESCAPE: TableCommand.PAUSE, pygame.K_d: Draw(), pygame.K_u: TableCommand.UNDO,
    pygame.K_p: Pass(), pygame.K_e: EndTurn(), pygame.K_c: CallLastCard(), pygame.K_h: TableCommand.HINT,
    pygame.K_l: Challenge(), pygame.K_a: Accept(), pygame.K_o: TableCommand.AUTOPILOT,
    pygame.K_m: TableCommand.MOVES, pygame.K_n: TableCommand.DENOUNCE, pygame.K_r: TableCommand.REACT,
    pygame.K_s: TableCommand.SORT,
}
"""The table's letters (and Esc), each standing for one intent."""

SUIT_KEYS: Final[dict[int, str]] = {
    pygame.K_s: "S", pygame.K_h: "H", pygame.K_d: "D", pygame.K_c: "C",
    pygame.K_r: "R", pygame.K_b: "B", pygame.K_g: "G", pygame.K_y: "Y",
}
"""The suit picker's letters: a suit's initial, or a colour's."""

REACTION_KEYS: Final[dict[int, int]] = {
    key: i for i, key in enumerate((pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6,
                                    pygame.K_7, pygame.K_8, pygame.K_9))}
"""The reactions palette's digits: 1 sends the first reaction, 2 the second..."""

TYPING_ENDS: Final[frozenset[int]] = frozenset({
    pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB, pygame.K_UP, pygame.K_DOWN})
"""Keys a text field does not take (Space is typed)."""


def _key(event: pygame.event.Event) -> int | None:
    key = getattr(event, "key", None)
    return key if isinstance(key, int) else None


def nav(event: pygame.event.Event) -> Nav | None:
    """What a key means on any screen, if it is one of the shared ones."""
    key = _key(event)
    return NAV_KEYS.get(key) if key is not None else None


def table_key(event: pygame.event.Event) -> TableIntent | Nav | None:
    """What a key means at the table: one of its intents, else a shared key (arrows, Enter)."""
    key = _key(event)
    if key is not None and key in TABLE_KEYS:
        return TABLE_KEYS[key]
    return NAV_KEYS.get(key) if key is not None else None


def suit_key(event: pygame.event.Event) -> str | None:
    """The suit (or colour) a letter names on the suit picker."""
    key = _key(event)
    return SUIT_KEYS.get(key) if key is not None else None


def reaction_key(event: pygame.event.Event) -> int | None:
    """The place (0 for the first) of the reaction a digit sends on the reactions palette."""
    key = _key(event)
    return REACTION_KEYS.get(key) if key is not None else None


def typing_end(event: pygame.event.Event) -> Nav | None:
    """How a key ends the typing in a text field (`Nav.ACTIVATE`: Enter, `Nav.BACK`: Esc,
    `Nav.NEXT`, `Nav.UP`, `Nav.DOWN`: on to another control), or None: the field takes it."""
    key = _key(event)
    return NAV_KEYS[key] if key is not None and key in TYPING_ENDS else None


def is_paste(event: pygame.event.Event) -> bool:
    """Ctrl+V (Cmd+V), as pygame_gui's fields read it (AltGr+V types a letter instead)."""
    mod = int(getattr(event, "mod", 0))
    return bool(_key(event) == pygame.K_v and mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
                and not mod & pygame.KMOD_ALT)


def toggles_fullscreen(event: pygame.event.Event) -> bool:
    """F11: fullscreen or a window, on every screen."""
    return _key(event) == pygame.K_F11
