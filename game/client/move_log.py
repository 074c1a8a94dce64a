"""The move log: what each seat did this round, in words, from the events the table receives.

The table hands every event it takes from its controller to `MoveLog.observe`; those
events are already redacted for the shown seat, and the log keeps only what every
seat saw anyway (who played which card, who drew how many, the suit named, a pass, a
skipped turn, a reversal, a "Card" call, a denounce, a challenge), never a drawn
card. Entries are values (a kind, seats, a card, a suit, a count), turned into words
in the current language only when they are shown, so a language change applies at
once. A new deal starts a new log; an undo rewinds it to the turn taken back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from game.engine import Card, DrawReason
from game.engine import events as ev
from game.engine.cards import SUIT_SYMBOLS

from .i18n import card_words, tr


@dataclass(frozen=True)
class Move:
    """One line of the log."""

    kind: str  # played, chose, drew, passed, skipped, reversed, called, denounced, challenged,
    # timed_out, reshuffled, start, won
    seat: int = -1
    card: Card | None = None
    suit: str | None = None  # the suit named after a wild (``played``) or alone (``chose``)
    count: int = 0
    reason: str = ""  # why cards were drawn (a `DrawReason` value) or a challenge's outcome
    other: int = -1  # the other seat of a denounce or challenge


def suit_words(suit: str) -> str:
    """``♥ Hearts`` or ``Red``."""
    symbol = SUIT_SYMBOLS.get(suit)
    return f"{symbol} {tr('suit.' + suit)}" if symbol else tr("suit." + suit)


def describe(move: Move, names: Sequence[str], you: int | None = None) -> str:
    """The move as a short sentence in the current language; seat ``you`` (the player holding the
    device, shown as "You") gets its own grammar: "You drew 2 cards", "Vous avez pioché 2 cartes"."""

    def name(seat: int) -> str:
        if seat == you:
            return tr("log.you")
        return names[seat] if 0 <= seat < len(names) else tr("new.seat", n=seat + 1)

    def say(key: str, **values: object) -> str:
        mine = f"log.you.{key}"
        if move.seat == you and tr(mine) != mine:
            return tr(mine, **values)
        return tr(f"log.{key}", name=name(move.seat), **values)

    match move.kind:
        case "played":
            card = card_words(move.card) if move.card is not None else "?"
            if move.suit is not None:
                return say("played_suit", card=card, suit=suit_words(move.suit))
            return say("played", card=card)
        case "chose":
            return say("chose", suit=suit_words(move.suit or ""))
        case "drew":
            amount = tr("log.one_card") if move.count == 1 else tr("log.cards", n=move.count)
            if move.reason and move.reason != DrawReason.DRAW:
                return say(f"drew_{move.reason}", cards=amount)
            return say("drew", cards=amount)
        case "passed" | "skipped" | "called" | "timed_out" | "won":
            return say(move.kind)
        case "reversed":
            return tr("log.reversed")
        case "reshuffled":
            return tr("log.reshuffled", n=move.count)
        case "start":
            return tr("log.start", card=card_words(move.card) if move.card is not None else "?")
        case "denounced":
            return say("denounced", other=name(move.other))
        case "challenged":
            key = "challenged_bluff" if move.reason == "bluff" else "challenged_fair"
            return say(key, other=name(move.other))
    return ""


class MoveLog:
    """The moves of the round being played, oldest first."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self._marks: list[tuple[tuple[int, int], int]] = []  # (round, turn) of a turn start, length then

    def clear(self) -> None:
        """Forget everything (a new deal, a new table)."""
        self.moves = []
        self._marks = []

    def mark(self, turn: tuple[int, int]) -> None:
        """Remember where the log stood when the shown seat's turn ``turn`` began (for undo)."""
        if not self._marks or self._marks[-1][0] != turn:
            self._marks.append((turn, len(self.moves)))
            del self._marks[:-60]

    def rewind(self, turn: tuple[int, int]) -> None:
        """Undo took the game back to the start of ``turn``: drop what was logged since."""
        for i in range(len(self._marks) - 1, -1, -1):
            if self._marks[i][0] == turn:
                del self.moves[self._marks[i][1]:]
                del self._marks[i + 1:]
                return

    def observe(self, events: Iterable[ev.Event]) -> None:
        """Add the moves these events show (a deal starts the log again)."""
        for event in events:
            self._add(event)

    def _add(self, event: ev.Event) -> None:
        last = self.moves[-1] if self.moves else None
        match event:
            case ev.RoundStarted():
                self.clear()
            case ev.StartCard(card=card):
                self.moves.append(Move("start", card=card))
            case ev.CardPlayed(seat=seat, card=card):
                self.moves.append(Move("played", seat, card=card))
            case ev.SuitChosen(seat=seat, suit=suit):
                if last is not None and last.kind == "played" and last.seat == seat and last.suit is None:
                    self.moves[-1] = replace(last, suit=suit)
                else:
                    self.moves.append(Move("chose", seat, suit=suit))
            case ev.CardsDrawn(seat=seat, count=count, reason=reason) if reason != DrawReason.DEAL:
                if (last is not None and last.kind == "drew" and last.seat == seat
                        and last.reason == reason == DrawReason.DRAW):
                    self.moves[-1] = replace(last, count=last.count + count)  # drawing until it plays
                else:
                    self.moves.append(Move("drew", seat, count=count, reason=str(reason)))
            case ev.Passed(seat=seat):
                self.moves.append(Move("passed", seat))
            case ev.TurnSkipped(seat=seat):
                self.moves.append(Move("skipped", seat))
            case ev.DirectionChanged():
                self.moves.append(Move("reversed"))
            case ev.Reshuffled(count=count):
                self.moves.append(Move("reshuffled", count=count))
            case ev.LastCardCalled(seat=seat):
                self.moves.append(Move("called", seat))
            case ev.Denounced(by=by, seat=seat):
                self.moves.append(Move("denounced", by, other=seat))
            case ev.Challenged(by=by, seat=seat, bluff=bluff):
                self.moves.append(Move("challenged", by, other=seat, reason="bluff" if bluff else "fair"))
            case ev.TimedOut(seat=seat):
                self.moves.append(Move("timed_out", seat))
            case ev.RoundEnded(result=result) if result.winner is not None:
                self.moves.append(Move("won", result.winner))

    def lines(self, names: Sequence[str], last: int | None = None, you: int | None = None) -> list[str]:
        """The round's moves (or only the ``last`` few) as sentences, oldest first; ``you``: the seat
        shown as "You"."""
        moves = self.moves if last is None else self.moves[-last:]
        return [describe(move, names, you) for move in moves]
