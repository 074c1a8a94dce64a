"""Who joins: the name and the avatar the others will see, asked before a first room is joined.

Joining from a link on a device that has no name yet (`joining.join_link`) opens this
screen first, so the guest does not sit as "Player" with the first person's avatar: a
name field (held to the servers' rules, with the reason in the player's language when
refused: `online_player.name_refusal`) and the avatar, which opens the avatar picker
(`avatar_picker.AvatarPickerScene`, by name) as the new-game form does. Join keeps both
in the settings (they are the player's everywhere online) and joins the room; Back goes
to the lobby with the link in hand.
"""

from __future__ import annotations

import html
from functools import partial
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.play.avatars import PEOPLE

from .. import online_player
from ..avatar_art import avatar_image
from ..gui import Control, GuiScene
from ..i18n import tr
from ..joining import join_link
from ..settings import NAME_LENGTH, clean_name

if TYPE_CHECKING:
    from ..scene import SceneApp


class WhoAreYouScene(GuiScene):
    """A name, an avatar, Join and Back, for the room of ``link``."""

    def __init__(self, app: SceneApp, link: str) -> None:
        self.link = link
        self.name_text = clean_name(app.settings.player_name)
        self.avatar = online_player.avatar(app)
        self.message = ""
        self.entry: pygame_gui.elements.UITextEntryLine | None = None
        self.picture = pygame.Rect(0, 0, 0, 0)
        super().__init__(app)

    def build(self) -> None:
        """The heading and a line of explanation; the avatar beside the name field; Join, Back."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(44, int(52 * s))
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("who.title"), "#heading")
        pygame_gui.elements.UITextBox(html.escape(tr("who.line")),
                                      pygame.Rect(2 * m, m // 2 + int(64 * s), w - 4 * m, int(bh * 1.6)),
                                      self.manager, object_id="#desc")
        side = int(min(h * 0.34, 220 * s))
        field_w = int(min(w * 0.5, 460 * s))
        total = side + m + field_w
        x = (w - total) // 2
        y = m // 2 + int(64 * s) + int(bh * 1.6) + m
        self.picture = pygame.Rect(x, y, side, side)
        fx = x + side + m
        self.label(pygame.Rect(fx, y, field_w, bh), tr("online.name"))
        entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(fx, y + bh, field_w, bh), self.manager,
                                                    placeholder_text=tr("who.placeholder"))
        entry.set_text_length_limit(NAME_LENGTH)
        entry.set_text(self.name_text)
        self.entry = entry
        # The name first (the focus starts there: Enter, then type), then the avatar.
        self.controls.append(Control(entry, partial(self.start_typing, entry)))  # type: ignore[arg-type]
        self.button(self.picture, "", self.pick_avatar, self.step_avatar, object_id="#avatar")
        if self.message:
            pygame_gui.elements.UITextBox(html.escape(self.message),
                                          pygame.Rect(fx, y + 2 * bh + m // 2, field_w, int(bh * 1.6)),
                                          self.manager, object_id="#desc")
        by = h - bh - m
        join_w = int(min(w * 0.4, 360 * s))
        self.button(pygame.Rect(w - m - join_w, by, join_w, bh), tr("who.join"), self.join)
        self.button(pygame.Rect(m, by, int(220 * s), bh), tr("new.back"), self.back)

    # ---- changes -----------------------------------------------------------------------------
    def _keep_text(self) -> None:
        if self.entry is not None:
            self.name_text = self.entry.get_text()

    def typing_done(self, entry: pygame_gui.elements.UITextEntryLine, *, entered: bool) -> None:
        """The name field left: its text is kept; Enter joins."""
        self._keep_text()
        if entered:
            self.join()

    def pick_avatar(self) -> None:
        """The avatar picker, by name (the same as the new-game form's)."""
        self._keep_text()
        name = clean_name(self.name_text) or tr("who.you")  # "An avatar for you" before a name
        self.app.push("AvatarPicker", name=name, current=self.avatar, taken={}, choose=self.choose_avatar)

    def step_avatar(self, delta: int) -> None:
        """Left/Right on the avatar: the previous or next person's avatar."""
        index = PEOPLE.index(self.avatar) if self.avatar in PEOPLE else 0
        self.choose_avatar(PEOPLE[(index + delta) % len(PEOPLE)])

    def choose_avatar(self, avatar: int) -> None:
        """The avatar chosen (shown at once)."""
        self._keep_text()
        self.avatar = avatar
        self.rebuild()

    def join(self) -> None:
        """Keep the name and the avatar, then join the room (a name the servers refuse is said why)."""
        self._keep_text()
        name = clean_name(self.name_text)
        refused = online_player.name_refusal(name) if name else tr("who.empty")
        if refused is not None:
            self.message = tr("lobby.name_refused", why=refused) if name else refused
            self.rebuild()
            return
        self.app.settings.player_name = name
        online_player.set_avatar(self.app, self.avatar)  # (saves the settings, the name with it)
        problem = join_link(self.app, self.link)
        if problem is not None:
            self.app.replace("Lobby", message=problem)

    def back(self) -> None:
        """The lobby, where the link can be joined later."""
        self.app.replace("Lobby")

    def draw(self, surface: pygame.Surface) -> None:
        """The screen, then the avatar's picture over its button."""
        super().draw(surface)
        side = self.picture.height - max(8, self.picture.height // 12)
        image = avatar_image(self.avatar, side, False)
        surface.blit(image, image.get_rect(center=self.picture.center))
