"""Cards, suits and decks, with the card notation used in logs, replays and tests.

Notation (fixed: replays and other tools rely on it):

* standard cards: rank then suit, ``AS 2H … 9C TD JC QS KH`` (``T`` is the ten);
* jokers: ``XJ``;
* colour deck: colour then symbol, ``R0`` … ``Y9``, ``R+2``, ``Rskip``, ``Rrev``
  (colours ``R B G Y``), and the wilds ``W`` and ``W+4``.

Cards are interned: there is exactly one ``Card`` object per code, so identical
cards of a doubled deck are the same object, comparison is identity and a card
unpickles to the interned instance. That keeps the engine's inner loops cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

STANDARD_SUITS: Final = ("S", "H", "D", "C")
COLOR_SUITS: Final = ("R", "B", "G", "Y")
STANDARD_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
COLOR_RANKS: Final = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+2", "skip", "rev",
)

SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {
    "S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
    "R": "red", "B": "blue", "G": "green", "Y": "yellow",
}

_STANDARD_VALUES: Final = {r: i + 1 for i, r in enumerate(STANDARD_RANKS)}
_INTERNED: Final[dict[str, Card]] = {}  # code -> the one card of that code (filled by `_build`)


class Card:
    """One playing card, interned by its notation code.

    ``rank`` is ``A 2 … 9 T J Q K`` (standard), ``X`` (joker), ``0``–``9``, ``+2``,
    ``skip``, ``rev``, ``W``, ``W+4`` (colour deck). ``suit`` is ``S H D C`` or
    ``R B G Y``, or ``None`` for jokers and colour wilds. ``number`` is the rank's
    position for runs (ace 1 … king 13; colour digits their value; else 0).
    """

    __slots__ = ("code", "rank", "suit", "number", "is_standard")

    code: str
    rank: str
    suit: str | None
    number: int
    is_standard: bool

    def __new__(cls, code: str) -> Card:
        """Return the interned card for ``code``.

        Raises:
            ValueError: ``code`` is not a card of any Huit deck.
        """
        card = _INTERNED.get(code)
        if card is None:
            raise ValueError(f"not a card: {code!r} (expected e.g. 7H, TD, XJ, R5, Gskip, W+4)")
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return sort_key(self) < sort_key(other)

    @property
    def label(self) -> str:
        """A short human label: ``10♥``, ``A♠``, ``Joker``, ``R+2``, ``Wild +4``."""
        if self.rank == "X":
            return "Joker"
        if self.code == "W":
            return "Wild"
        if self.code == "W+4":
            return "Wild +4"
        if self.is_standard:
            rank = "10" if self.rank == "T" else self.rank
            assert self.suit is not None
            return rank + SUIT_SYMBOLS[self.suit]
        return self.code


def _make(code: str, rank: str, suit: str | None, number: int, standard: bool) -> None:
    """Make the card ``code`` and intern it (`_build` makes every card once, on import)."""
    card = object.__new__(Card)
    object.__setattr__(card, "code", code)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    object.__setattr__(card, "number", number)
    object.__setattr__(card, "is_standard", standard)
    _INTERNED[code] = card


def _build() -> None:
    for suit in STANDARD_SUITS:
        for rank in STANDARD_RANKS:
            _make(rank + suit, rank, suit, _STANDARD_VALUES[rank], True)
    _make("XJ", "X", None, 0, True)
    for colour in COLOR_SUITS:
        for rank in COLOR_RANKS:
            number = int(rank) if rank.isdigit() else 0
            _make(colour + rank, rank, colour, number, False)
    _make("W", "W", None, 0, False)
    _make("W+4", "W+4", None, 0, False)


_build()

JOKER: Final = Card("XJ")


def card_of(code: str) -> Card | None:
    """The card written exactly ``code``, or None (no forgiveness: see `parse_card`)."""
    return _INTERNED.get(code)


def all_cards() -> tuple[Card, ...]:
    """Every card of every Huit deck, once each, in the display order (`sort_key`)."""
    return tuple(_INTERNED.values())


def parse_card(code: str) -> Card:
    """Return the card written ``code`` (case of the suit letter is forgiven).

    Raises:
        ValueError: not a card of any Huit deck.
    """
    text = code.strip()
    if text in _INTERNED:
        return _INTERNED[text]
    upper = text.upper()
    if upper in _INTERNED:
        return _INTERNED[upper]
    # Colour deck codes keep lower-case words: "rskip" -> "Rskip".
    if len(text) > 1:
        candidate = text[0].upper() + text[1:].lower()
        if candidate in _INTERNED:
            return _INTERNED[candidate]
    if upper == "10" or (upper.startswith("10") and len(upper) == 3):
        return parse_card("T" + upper[2:])
    return Card(text)


def parse_cards(codes: Iterable[str] | str) -> list[Card]:
    """Parse a list of codes, or one string of codes separated by spaces."""
    if isinstance(codes, str):
        codes = codes.split()
    return [parse_card(c) for c in codes]


def standard_deck(copies: int = 1, jokers: int = 0) -> list[Card]:
    """The 52-card deck, ``copies`` times, plus ``jokers`` jokers (new list, unshuffled)."""
    return list(_STANDARD) * copies + [JOKER] * jokers


def color_deck() -> list[Card]:
    """The 108-card colour deck: per colour one 0, two of 1–9, +2, skip, reverse; 4+4 wilds."""
    return list(_COLORS)


def _color_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for colour in COLOR_SUITS:
        cards.append(Card(colour + "0"))
        for rank in COLOR_RANKS[1:]:
            cards += [Card(colour + rank)] * 2
    return tuple(cards + [Card("W")] * 4 + [Card("W+4")] * 4)


# Each deck's cards in order, looked up once (every new deal and every rules check made them anew
# from their codes, card by card: thousands of decks in a search or a test run).
_STANDARD: Final = tuple(Card(r + s) for s in STANDARD_SUITS for r in STANDARD_RANKS)
_COLORS: Final = _color_cards()


DECKS: Final = {
    "standard": lambda: standard_deck(),
    "double": lambda: standard_deck(copies=2, jokers=4),
    "colors": color_deck,
}
"""Deck kinds by name: ``standard`` (52), ``double`` (2×54: two 52s and 4 jokers), ``colors`` (108)."""


def deck_for(kind: str) -> list[Card]:
    """A new, unshuffled deck of the named kind.

    Raises:
        ValueError: unknown deck kind.
    """
    try:
        return DECKS[kind]()
    except KeyError:
        raise ValueError(f"unknown deck {kind!r}; expected one of {sorted(DECKS)}") from None


def suits_of(kind: str) -> tuple[str, ...]:
    """The suits (or colours) a wild may announce with this deck kind."""
    return COLOR_SUITS if kind == "colors" else STANDARD_SUITS


_ORDER = {code: i for i, code in enumerate(_INTERNED)}


def sort_key(card: Card) -> int:
    """A stable display order: by suit, then rank; jokers and wilds last."""
    return _ORDER[card.code]
