"""`TableControl`: the one contract between the table and whatever drives its game.

The table scene and the overlays above it (result, hand-off, suit picker, pause)
see a game only through this protocol. Two controllers implement it:

- `MatchController` runs a `Match` on this device: one person against computers,
  or several people sharing the device (hot-seat);
- `RemoteController` plays one seat of an online room; the server is the engine.

What the table shows comes from the shown seat's `PlayerView` (rules, hands,
scores, target, status, the round's result, the legal actions including an
out-of-turn Denounce) and from the few facts no view holds: the seats, the past
rounds' results, which computer is thinking, the turn timer, and a notice about
the connection, the autopilot. What the table asks for goes through `submit` and
the few commands below. The controllers say what they can do (`can_undo`,
`can_set_levels`, `can_rematch`) instead of the table asking which one it has.

The table drives time: it calls `update` once per fixed step (at rest, once for
the whole time slept: `due` says how long it may sleep) and sets `busy` so that
nothing is applied while cards are flying; the events of what was applied
come back from `take_events`, redacted for the shown seat, to be animated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from game.engine import Action, IllegalAction, PlayerView, RoundResult
from game.engine.events import Event

if TYPE_CHECKING:
    from .controller import MatchController, SeatConfig
    from .remote import RemoteController


@runtime_checkable
class TableControl(Protocol):
    """What a table needs from whatever drives its game (see the module docstring)."""

    busy: Callable[[], bool]
    """Set by the table: while it returns True (cards in flight), `update` applies nothing."""

    error: IllegalAction | None
    """The last refusal (with the engine's reason key), for the table to explain and clear."""

    # ---- who sits where, and what is shown ---------------------------------------------------
    @property
    def seats(self) -> Sequence[SeatConfig]:
        """Every seat: human or computer, its level, its display name (``""``: none given)."""

    @property
    def viewer(self) -> int:
        """The seat the table shows (the one holding the device, hot-seat; one's own, online)."""

    @property
    def local_seats(self) -> tuple[int, ...]:
        """The seats played on this device: every human seat locally, one's own seat online."""

    def view(self) -> PlayerView:
        """What the shown seat may know now (`viewer`'s view)."""

    @property
    def results(self) -> Sequence[RoundResult]:
        """The results of the match's rounds so far, oldest first (the result screen's chart)."""

    @property
    def thinking(self) -> int | None:
        """The computer seat whose move is awaited now, if any."""

    @property
    def timer_left(self) -> float | None:
        """Seconds left on the turn timer of the seat to act, or None without a timer."""

    def notice(self, names: list[str]) -> str:
        """A line about the connection or absent players (``names``: one per seat); ``""`` if none."""

    # ---- time and events ---------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance by one fixed step of ``dt`` seconds (nothing is applied while `busy`)."""

    def take_events(self) -> list[Event]:
        """The events since the last call, redacted for the shown seat: what to animate."""

    def take_past(self) -> list[Event] | None:
        """The events of the round so far (redacted for the shown seat) when the table's move log
        must be rebuilt from them, once: a resumed game, a rejoined room, an undo; else None."""

    def due(self) -> float | None:
        """Seconds until `update` would change something by itself (0: at the next step; online,
        when to look at the connection again), or None: nothing until someone acts. A table at
        rest sleeps that long."""

    # ---- playing -----------------------------------------------------------------------------
    def submit(self, action: Action, seat: int | None = None) -> None:
        """Ask for ``action`` by ``seat`` (default: the seat to act); a refusal becomes `error`."""

    @property
    def handoff_to(self) -> int | None:
        """The human seat the device must be passed to before anything is shown, if any."""

    def accept_handoff(self, seat: int) -> None:
        """The player at ``seat`` has the device: show that seat from now on."""

    @property
    def can_undo(self) -> bool:
        """Whether `undo` would take back a turn now."""

    @property
    def undo_offered(self) -> bool:
        """Whether this table can take turns back at all (a solo game on this device, undo allowed by
        the rules and the settings): the rules in force name Undo only then."""

    def undo(self) -> bool:
        """Take back the last human turn (and the computer moves after it); whether it did."""

    @property
    def can_set_levels(self) -> bool:
        """Whether the computers' levels may be changed during the game."""

    def set_level(self, seat: int, level: str) -> None:
        """Change the level of the computer at ``seat``; the round goes on.

        Raises:
            ValueError: ``seat`` is a human seat, or levels cannot be changed here.
        """

    # ---- the autopilot -------------------------------------------------------------------------
    @property
    def can_autopilot(self) -> bool:
        """Whether the table offers the autopilot toggle (the computer plays a person's turns at
        Medium's level until they take back control)."""

    def autopilot(self, seat: int) -> bool:
        """Whether the autopilot is on for the person at ``seat``."""

    def set_autopilot(self, seat: int, on: bool) -> None:
        """Turn the autopilot of the person at ``seat`` on or off (any action of theirs turns it
        off too).

        Raises:
            ValueError: ``seat`` is not a person's seat played here, or there is no autopilot.
        """

    def plays_for(self, seat: int) -> bool:
        """Whether the computer plays this person's turn now: the autopilot, or the rest of a turn
        lost to the turn timer (the table then opens no suit picker for them)."""

    def take_autopilot_notices(self) -> list[int]:
        """The seats the turn timer put on the autopilot (two turns in a row ran out) since the
        last call, for the table to say so."""

    # ---- between deals -----------------------------------------------------------------------
    def next_round(self) -> None:
        """Ask for the next deal: dealt at once locally, online once every player asked."""

    @property
    def awaiting_deal(self) -> bool:
        """Whether this device asked for the next deal and waits for the other players."""

    @property
    def can_rematch(self) -> bool:
        """Whether a won match may be followed here by a new one with the same seats and rules."""

    # ---- ranked online games ----------------------------------------------------------------
    @property
    def vote_due(self) -> int | None:
        """A seat whose abandon this player may vote on penalising (ranked online games), if any."""

    def vote(self, seat: int, penalise: bool) -> None:
        """Vote on penalising the abandon of ``seat`` (once)."""

    @property
    def online(self) -> bool:
        """Whether the game is a server's: it goes on for the others while this device pauses."""

    @property
    def for_show(self) -> bool:
        """Whether the game is only shown (a kiosk's attract game): nobody here plays it, so the
        table offers nothing to press (no Menu button, no autopilot, no Undo)."""

    @property
    def leaving_is_abandon(self) -> bool:
        """Whether leaving now puts this player's seat at stake (a ranked online game under way:
        a computer takes it after five minutes away, and the others may vote a penalty)."""

    @property
    def others_absent(self) -> bool:
        """Whether every other person of this ranked online game is absent (the clock or the
        autopilot plays for them, or they are away: the server says so): leaving now is no
        abandon, theirs is."""

    @property
    def earned(self) -> int | None:
        """The ranking points this player earned by the match just over (None: not a ranked game)."""

    @property
    def tokens_moved(self) -> int | None:
        """The tokens this player won (+) or lost (−) by the match just over (None: no stake)."""

    @property
    def earned_less(self) -> str | None:
        """Why that match earned this player less than its result (``short``, ``pair_cap``: the
        server's fair play), or None."""

    def take_news(self) -> list[str]:
        """What the table should say once since the last call, in words (a vote's result)."""

    # ---- settings and leaving ----------------------------------------------------------------
    def apply_settings(self, *, speed: float, undo_allowed: bool) -> None:
        """Use the player's settings: animation speed factor (0: instant) and whether undo is on."""

    def leave(self) -> None:
        """The table closes (the game is saved, or the online seat waits, keyed, for a rejoin)."""


if TYPE_CHECKING:  # mypy proves that both controllers keep the contract
    def _local(controller: MatchController) -> TableControl:
        return controller

    def _online(controller: RemoteController) -> TableControl:
        return controller
