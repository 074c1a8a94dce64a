"""`TableBelow`: what the overlays (result, hand-off, suit picker, pause, moves) may use of the table.

An overlay is pushed by the table scene and sits above it. It reads the game
through the table's controller (the `TableControl` contract) and the shown seat's
view, names the seats as the table does, and draws with the table's card art and
felt. It never reaches into the table's own state (the keyboard selection, its
animations, whether it has shown a result): the table keeps those itself.
`TableScene` satisfies this protocol; each overlay is typed for it alone.

`CoversTable` is the one way a scene over a table lets an online game go on underneath
(the pause menu, the leave-ranked question, the move log, the reactions, the rules in play,
Settings from the pause menu): an online room does not wait for one player's screen, so the
table runs (its countdowns tick, what the server says is taken in); a local game waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .scene import Scene

if TYPE_CHECKING:
    import pygame

    from game.engine import PlayerView

    from .art import CardArt
    from .table_control import TableControl


class TableBelow(Protocol):
    """The table scene as an overlay above it sees it."""

    @property
    def controller(self) -> TableControl:
        """What drives the game (local or online): the overlay's only way to act on it."""

    @property
    def view(self) -> PlayerView:
        """The view of the seat the table shows."""

    def names(self) -> list[str]:
        """A display name per seat, as the table writes them (``You``, ``Player 2``, a name...)."""

    def avatars(self) -> list[int]:
        """The avatar of each seat (an id of `game.play.avatars`), as the table shows them."""

    @property
    def markers(self) -> bool:
        """Whether cards are drawn with their action badges (as on the table)."""

    @property
    def art(self) -> CardArt:
        """The table's card art (backs, faces, suit badges) at its card size."""

    @property
    def small_card(self) -> tuple[int, int]:
        """The size of the small cards the table draws the other seats with."""

    @property
    def background(self) -> pygame.Surface:
        """The felt the table is drawn on, at the window's size."""

    def update(self, dt: float) -> None:
        """Run the table for one step underneath (the suit picker keeps the turn timer going)."""

    def next_frame(self) -> float | None:
        """When the table needs its next frame (see `Scene.next_frame`), for an overlay that runs it."""

    def apply_settings(self) -> None:
        """Show the settings as they are now (the pause menu's Settings changed them)."""

    def move_lines(self) -> list[str]:
        """The round's moves in words, oldest first (the move log; never a drawn card)."""


class CoversTable(Scene):
    """A scene over a table (``below``, set by the scene, None when opened elsewhere): online, the
    table runs underneath it; a local game waits. Mixed in before another base (`GuiScene`),
    whose own update and timing still run."""

    below: TableBelow | None = None  # the table this scene covers, if it covers one

    def runs_below(self) -> TableBelow | None:
        """The covered table when its game goes on underneath (online), else None."""
        table = self.below
        return table if table is not None and table.controller.online else None

    def update(self, dt: float) -> None:
        """The scene's own update, then the online table underneath for the same time."""
        super().update(dt)
        table = self.runs_below()
        if table is not None:
            table.update(dt)

    def next_frame(self) -> float | None:
        """The sooner of the scene's own next frame and the online table's underneath."""
        table = self.runs_below()
        times = [super().next_frame(), table.next_frame() if table is not None else None]
        return min((t for t in times if t is not None), default=None)
