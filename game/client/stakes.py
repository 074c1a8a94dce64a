"""Tokens and stakes as the player reads them (the server's rules: `game.net.tokens`).

What a server says of them, read leniently (a hostile server's figures are dropped, never
shown): the stake of a room (`stake`), what this player's tokens did in the ranked match
just over (`moved`), their balance (`balance`), and the words for each, in the player's
language: the lobby's rooms, the waiting room, the result and Statistics use them, and a
``no_tokens`` refusal is said with the stake and the tokens the player has free.
"""

from __future__ import annotations

from typing import Final

from game.net.messages import Error, PlayerProfile, RoomStatus
from game.net.replies import whole

from .i18n import tr

MAX_TOKENS: Final = 10**9
"""A figure past this is no token count: a server that says so is not believed."""
MAX_STAKE: Final = 99_999
"""A room's stake past this is not believed either (Huit's servers stake 10): a lobby line
keeps room for its players' names."""


def listed_stake(value: object) -> int | None:
    """A stake of the lobby's list, as shown (None: none, or one not to be believed)."""
    number = whole(value)
    return number if number is not None and 0 <= number <= MAX_STAKE else None


def _figure(value: object) -> int | None:
    number = whole(value)
    return number if number is not None and abs(number) <= MAX_TOKENS else None


def stake(status: RoomStatus | None) -> int | None:
    """The room's stake (None: a private room, or a server that does not say)."""
    return None if status is None else _figure(status.stake)


def moved(status: RoomStatus | None, viewer: int) -> int | None:
    """What the ranked match just over did to ``viewer``'s tokens (None: not said)."""
    given = status.tokens if status is not None else None
    if not isinstance(given, list) or not 0 <= viewer < len(given):
        return None
    return _figure(given[viewer])


def balance(profile: PlayerProfile | None) -> int | None:
    """The player's tokens as the server last said (None: not said)."""
    return None if profile is None else _figure(profile.tokens)


def stake_line(amount: int, tokens: int | None) -> str:
    """The waiting room's line: the stake, and what the player holds when known."""
    if tokens is None:
        return tr("stake.room", stake=amount)
    return tr("stake.room_and_balance", stake=amount, tokens=tokens)


def moved_text(amount: int) -> str:
    """The result's words for the tokens won (+) or lost (−); nothing moved is said as the stakes
    given back (a newcomer's, a game fair play did not count, a shared pot), not a bare "+0"."""
    if amount == 0:
        return tr("result.tokens_returned")
    return tr("stake.moved", tokens=f"{amount:+d}")


def refusal_text(message: Error) -> str:
    """A ``no_tokens`` refusal in words, with the stake and the tokens free (as the server says)."""
    values = message.values if isinstance(message.values, dict) else {}
    needed, free = _figure(values.get("stake")), _figure(values.get("tokens"))
    return tr("stake.refused", stake="?" if needed is None else needed, tokens="?" if free is None else free)
