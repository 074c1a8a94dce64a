"""Actions: the commands a seat can give the engine, and their text notation.

Every change of a game goes through ``apply(action)``. Actions are small frozen
values, so ``action in state.legal_actions()`` is how legality is asked. The text
notation (used by replays, logs and the online protocol) is fixed::

    play 7H   draw   pass   suit S   card   denounce 1   challenge   accept   end   timeout

A time-out may name the move played for the player: ``timeout play 7H`` (the turn
timer ran out and the clock's owner plays 7H for that seat, as Medium would).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import Card, all_cards, parse_card


@dataclass(frozen=True, slots=True)
class Play:
    """Put ``card`` from the hand on the discard pile."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.code}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw a card, or take the pending draw penalty."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (after a draw, or when nothing can be drawn)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseSuit:
    """Announce the suit (or colour) after playing a wild."""

    suit: str

    def __str__(self) -> str:
        return f"suit {self.suit}"


@dataclass(frozen=True, slots=True)
class CallLastCard:
    """Say "Card" before playing the next-to-last card."""

    def __str__(self) -> str:
        return "card"


@dataclass(frozen=True, slots=True)
class Denounce:
    """Denounce ``seat``, who went down to one card without calling "Card"."""

    seat: int

    def __str__(self) -> str:
        return f"denounce {self.seat}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Call "Liar" on the Wild +4 just played at you."""

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the Wild +4 played at you: draw its cards and lose the turn."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop a run or decline the twin card's extra play."""

    def __str__(self) -> str:
        return "end"


PlayerAction = Play | Draw | Pass | ChooseSuit | CallLastCard | Denounce | Challenge | Accept | EndTurn
"""Every action a player makes (all but `TimeOut`, which the clock makes)."""


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The turn timer ran out (the client or server clock submits it; the engine has none).

    ``then``: the move played for the player (rules whose time-out plays for the player:
    ``timeout_policy`` "autoplay"); the rest of the turn, if any, is then played by the
    clock's owner with ordinary actions. Without it the engine plays the whole turn by its
    own simple rule (`round.auto_action`), as saves and room logs made before ``then`` did.
    """

    then: PlayerAction | None = None

    def __str__(self) -> str:
        return "timeout" if self.then is None else f"timeout {self.then}"


Action = PlayerAction | TimeOut

DRAW: Final = Draw()
PASS: Final = Pass()
CALL_LAST_CARD: Final = CallLastCard()
CHALLENGE: Final = Challenge()
ACCEPT: Final = Accept()
END_TURN: Final = EndTurn()
TIME_OUT: Final = TimeOut()

_SIMPLE: Final[dict[str, Action]] = {
    "draw": DRAW, "pass": PASS, "card": CALL_LAST_CARD, "challenge": CHALLENGE,
    "accept": ACCEPT, "end": END_TURN, "timeout": TIME_OUT,
}


def parse_action(text: str) -> Action:
    """Read one action in the text notation (``play 7H``, ``suit S``, ``draw`` …).

    Raises:
        ValueError: not an action, or a bad card, suit or seat in it.
    """
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb = words[0].lower()
    if verb in _SIMPLE and len(words) == 1:
        return _SIMPLE[verb]
    if verb == "timeout" and words[1].lower() != "timeout":
        then = parse_action(" ".join(words[1:]))
        assert not isinstance(then, TimeOut)
        return TimeOut(then)
    if len(words) == 2:
        arg = words[1]
        if verb == "play":
            return Play(parse_card(arg))
        if verb == "suit":
            suit = arg.upper()
            if suit not in ("S", "H", "D", "C", "R", "B", "G", "Y"):
                raise ValueError(f"not a suit or colour: {arg!r} (expected S H D C or R B G Y)")
            return ChooseSuit(suit)
        if verb == "denounce":
            if not arg.isdigit():
                raise ValueError(f"denounce needs a seat number, not {arg!r}")
            return Denounce(int(arg))
    raise ValueError(f"not an action: {text!r} (expected e.g. 'play 7H', 'draw', 'suit S', "
                     "'pass', 'card', 'denounce 1', 'challenge', 'accept', 'end', 'timeout', "
                     "'timeout play 7H')")


PLAYS: Final[dict[Card, Play]] = {card: Play(card) for card in all_cards()}
"""The one `Play` value per card, so legal-move lists allocate nothing."""

SUIT_CHOICES: Final[dict[str, ChooseSuit]] = {
    s: ChooseSuit(s) for s in ("S", "H", "D", "C", "R", "B", "G", "Y")
}
