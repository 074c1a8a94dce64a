"""Quick reactions at an online table: the button that opens the palette, the bubbles, muting.

A reaction is an id of `game.net.messages.REACTIONS`, never text: its words are this game's
(``reaction.<id>``, in the player's language) and its picture a glyph of the bundled DejaVu
Sans (`GLYPHS`: each one is in the font, checked by the tests). The server relays a
reaction to every seat of the room, the sender's too, so a bubble is shown only once the
server took it; it stays `BUBBLE` seconds at the seat that sent it.

Muting is this player's own business, on this device: everyone's reactions
(`Settings.reactions_muted`), or one player's (`Settings.muted_players`, by the player's tag,
so it holds in their next games; a seat without a tag, a guest who said no hello, is muted
for this table only). A muted reaction is dropped as it comes, never shown. This player's own
reactions always show.

`ReactionBoard` is what the table holds (online only): `update` takes what the controller
heard and says whether a bubble came or went (the table then marks itself dirty), `due` when
the next one goes (so the table rests in between), `draw` the bubbles and the button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import pygame

from game.engine import Status
from game.net.messages import REACTIONS

from . import ui
from .i18n import tr
from .settings import MAX_MUTED

if TYPE_CHECKING:
    from game.engine import PlayerView

    from .layout import SeatSpot, TableLayout
    from .remote import RemoteController
    from .settings import Settings
    from .table_control import TableControl

BUBBLE: Final = 3.0
"""Seconds a reaction's bubble stays at its seat."""

GLYPHS: Final[dict[str, str]] = {
    "hello": "\u263a", "well_played": "\u2605", "thanks": "\u2665", "oops": "\u2049",
    "hurry": "\u26a1", "wow": "\u203c", "sorry": "\u2639", "good_game": "\u270c",
}
"""Each reaction's picture: a glyph of DejaVu Sans (smile, star, heart, ⁉, lightning, ‼, frown,
victory hand)."""

BUTTON_GLYPH: Final = GLYPHS["hello"]
BUBBLE_FILL: Final = (250, 246, 232)
BUBBLE_EDGE: Final = (201, 162, 39)

assert set(GLYPHS) == set(REACTIONS)


def words(reaction: str) -> str:
    """A reaction in the player's language."""
    return tr("reaction." + reaction)


def draw_glyph(surface: pygame.Surface, reaction: str, rect: pygame.Rect,
               color: tuple[int, int, int] = ui.INK) -> None:
    """A reaction's picture, centred in ``rect`` (as high as it allows)."""
    glyph = GLYPHS.get(reaction, "")
    if glyph:
        ui.fit(surface, glyph, rect, max(ui.MIN_PX, int(rect.height * 0.8)), color=color, shadow=False)


def button_rect(layout: TableLayout) -> pygame.Rect:
    """The reactions button: a square beyond the Sort control beside the shown seat's name plate,
    above the hand (on the side of the window the buttons are not)."""
    return pygame.Rect(layout.reactions_button)  # beyond the Sort control (`TableLayout`)


def board_for(controller: TableControl, settings: Settings) -> ReactionBoard | None:
    """The reactions of a table driven by ``controller``: online only (None on this device)."""
    from .remote import RemoteController

    return ReactionBoard(controller, settings) if isinstance(controller, RemoteController) else None


class ReactionBoard:
    """The reactions of one online table: who said what, for how long more, and who is muted."""

    def __init__(self, controller: RemoteController, settings: Settings) -> None:
        self.controller = controller
        self.settings = settings
        self.bubbles: dict[int, tuple[str, float]] = {}  # seat -> (reaction id, seconds left)
        self.muted_seats: set[int] = set()  # seats without a tag, muted for this table only

    def open(self, view: PlayerView) -> bool:
        """Whether this seat may react now: a deal is being played (the server says the same)."""
        return view.status == Status.PLAYING and self.controller.ready

    # ---- muting ---------------------------------------------------------------------------
    def tag(self, seat: int) -> str | None:
        """The tag of the player at ``seat`` (None: this device's own, a guest, a computer)."""
        seats = self.controller.seats
        return getattr(seats[seat], "tag", None) if 0 <= seat < len(seats) else None

    def muted(self, seat: int) -> bool:
        """Whether ``seat``'s reactions are not shown (never this device's own)."""
        if seat == self.controller.viewer:
            return False
        return self.settings.reactions_muted or self.player_muted(seat)

    def player_muted(self, seat: int) -> bool:
        """Whether the player at ``seat`` is muted on their own (whatever the switch for everyone says)."""
        if seat in self.muted_seats:
            return True
        tag = self.tag(seat)
        return tag is not None and tag in self.settings.muted_players

    def set_muted(self, seat: int, muted: bool) -> None:
        """Mute ``seat``'s player, or hear them again: by their tag in the settings (kept), or for
        this table only when they have none. A bubble of theirs on screen goes at once."""
        tag = self.tag(seat)
        players = self.settings.muted_players
        if tag is None:
            (self.muted_seats.add if muted else self.muted_seats.discard)(seat)
        elif muted and tag not in players:
            players.append(tag)
            del players[:-MAX_MUTED]  # the oldest forgotten first
        elif not muted and tag in players:
            players.remove(tag)
        if muted:
            self.bubbles.pop(seat, None)

    def set_all_muted(self, muted: bool) -> None:
        """Mute everyone's reactions, or hear them again (this player's own still show)."""
        self.settings.reactions_muted = muted
        if muted:
            for seat in [s for s in self.bubbles if s != self.controller.viewer]:
                del self.bubbles[seat]

    # ---- time -----------------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        """Take what the controller heard and age the bubbles; True when a bubble came or went."""
        changed = False
        for seat in list(self.bubbles):
            reaction, left = self.bubbles[seat]
            left -= dt
            if left <= 0:
                del self.bubbles[seat]
                changed = True
            else:
                self.bubbles[seat] = (reaction, left)
        heard = self.controller.reactions
        while heard:
            seat, reaction = heard.popleft()
            if reaction in GLYPHS and not self.muted(seat):
                self.bubbles[seat] = (reaction, BUBBLE)
                changed = True
        return changed

    def due(self) -> float | None:
        """Seconds until the next bubble goes (None: none shown)."""
        return min((left for _, left in self.bubbles.values()), default=None)

    def look(self) -> tuple[tuple[int, str], ...]:
        """What `draw` shows of the reactions (the bubbles' seats and ids)."""
        return tuple(sorted((seat, reaction) for seat, (reaction, _) in self.bubbles.items()))

    # ---- drawing --------------------------------------------------------------------------
    def spot(self, layout: TableLayout, seat: int) -> SeatSpot:
        """Where ``seat`` sits on the table as it is shown (the shown seat's plate is `layout.me`)."""
        viewer, players = self.controller.viewer, len(self.controller.seats)
        if seat == viewer:
            return layout.me
        others = [(viewer + k) % players for k in range(1, players)]
        return layout.seat_spots(len(others))[others.index(seat)]

    def draw(self, surface: pygame.Surface, layout: TableLayout, *, button: bool) -> None:
        """The reactions button (``button``: this seat may react now) and each bubble at its seat."""
        scale = layout.scale
        if button:
            rect = button_rect(layout)
            radius = max(6, int(10 * scale))
            pygame.draw.rect(surface, (0, 0, 0), rect.move(0, max(2, int(3 * scale))), border_radius=radius)
            pygame.draw.rect(surface, (31, 95, 70), rect, border_radius=radius)
            pygame.draw.rect(surface, ui.GOLD, rect, width=max(1, int(2 * scale)), border_radius=radius)
            draw_glyph(surface, "hello", rect.inflate(-rect.w // 4, -rect.h // 4), ui.CREAM)
        players = len(self.controller.seats)
        for seat, (reaction, _) in sorted(self.bubbles.items()):
            if 0 <= seat < players:
                self._bubble(surface, layout, seat, reaction)

    def _bubble(self, surface: pygame.Surface, layout: TableLayout, seat: int, reaction: str) -> None:
        """A speech bubble with the reaction's picture and words, over the seat's box."""
        spot = self.spot(layout, seat)
        x, y, w, h = spot.box
        px = max(ui.MIN_PX + 2, int(layout.text_px * 1.1))
        text = words(reaction)
        f = ui.font(px, True)
        glyph_w = int(px * 1.5)
        pad = max(4, int(8 * layout.scale))
        width = min(max(w, int(160 * layout.scale)), glyph_w + f.size(text)[0] + 3 * pad)
        height = int(px * 2.0)
        mine = seat == self.controller.viewer
        # Over the seat's fan of cards (its name stays readable); the shown seat's above its plate.
        top = y - height - pad if mine else y + pad
        box = pygame.Rect(0, 0, width, height)
        box.midtop = (x + w // 2, top)
        box.clamp_ip(surface.get_rect())
        radius = height // 2
        pygame.draw.rect(surface, (0, 0, 0), box.move(0, max(2, int(3 * layout.scale))), border_radius=radius)
        pygame.draw.rect(surface, BUBBLE_FILL, box, border_radius=radius)
        pygame.draw.rect(surface, BUBBLE_EDGE, box, width=max(1, int(2 * layout.scale)), border_radius=radius)
        tail_x = box.centerx
        edge, tip = (box.bottom - 1, box.bottom + pad) if mine else (box.top + 1, box.top - pad)
        points = [(tail_x - pad, edge), (tail_x + pad, edge), (tail_x, tip)]
        pygame.draw.polygon(surface, BUBBLE_FILL, points)
        inner = box.inflate(-2 * pad, -pad // 2)
        draw_glyph(surface, reaction, pygame.Rect(inner.x, inner.y, glyph_w, inner.h), (176, 40, 40))
        ui.fit(surface, text, pygame.Rect(inner.x + glyph_w, inner.y, inner.w - glyph_w, inner.h), px,
               bold=True, color=ui.INK, shadow=False)
