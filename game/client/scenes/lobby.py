"""Playing online: the lobby (host, create, join by link, my rooms).

`LobbyScene` is reached from the menu's "Play online". It can start a room server
inside the game ("Host on this computer": a `ServerThread` on every interface,
shown with this computer's LAN address), create a room on the server in the
address field (the new-game form in its online mode), join a room from a pasted
or typed link (``huit://``, ``huits://`` or a room page's ``https://…/r/ROOM``), and
take back a seat this device holds a key for. The servers used are remembered in the
settings (Recent servers steps through them); a kiosk's or a club's operator may set
a default server there too (`Settings.default_server`).

"My rooms" lists the rooms this device holds a seat key for; a key file that cannot be
read is a line saying so and why (it is left as it is), never a crash.

Hosting, creating, joining and taking a seat back are `game.client.joining`'s; each opens
the waiting room ("WaitingRoom", `waiting_room`), which shows the room's link and its
seats until the server deals, then the table. A bad link, a refused seat or an
unreachable server is a message in the lobby.

Every connection says hello with this device's player (`online_player`): the server
shows the player's name with its tag, and the waiting room says whether the game is
ranked. "Public rooms and quick match" opens the server's own lobby
(`server_lobby.ServerLobbyScene`).
"""

from __future__ import annotations

import html
from functools import partial
from typing import TYPE_CHECKING, Final

import pygame
import pygame_gui

from game.net.client import (
    MAX_LINK,
    Server,
    check_link_length,
    lan_address,
    read_server,
)
from game.saves import SeatKey

from .. import keymap, online_player
from ..gui import Control, GuiScene
from ..i18n import tr
from ..joining import bare_code, join_link, rejoin, remember_server, start_hosting
from ..saving import why

if TYPE_CHECKING:
    from ..scene import SceneApp

MAX_ROOMS_SHOWN: Final = 4
MAX_UNREADABLE_SHOWN: Final = 2  # rooms whose key file cannot be read, a line each
NAME_LENGTH: Final = 24


class LobbyScene(GuiScene):
    """Host, create, join, or go back to a room of mine."""

    def __init__(self, app: SceneApp, message: str = "") -> None:
        self.message = message
        self.name_text = app.settings.player_name
        # The server last used comes first: a room joined by a link puts its server at the head of
        # the recent servers, so the lobby's Server field is not left empty after one.
        self.server_text = (app.last_server or self._hosted_address(app) or app.settings.default_server
                            or next(iter(app.settings.servers), ""))
        self.link_text = ""
        self.recent_shown = -1  # which of the settings' recent servers Recent servers showed last
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        super().__init__(app)

    @staticmethod
    def _hosted_address(app: SceneApp) -> str:
        server = app.hosting
        return f"{lan_address()}:{server.port}" if server is not None else ""

    # ---- widgets -----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Keep what was typed across a rebuild (language or size changed)."""
        self._keep_texts()
        super().rebuild()

    def build(self) -> None:
        """Name; server row with Host; Create; link row with Paste and Join; my rooms; Back."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(48 * s))
        gap = int(bh * 0.3)
        self.entries = {}
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("online.title"), "#heading")
        label_w = int(min(w * 0.18, 220 * s))
        x = m
        y = int(80 * s)
        field_x = x + label_w
        side_w = int(min(w * 0.32, 400 * s))  # "Héberger sur cet ordinateur" in the buttons' own font
        field_w = w - field_x - side_w - 2 * m
        self.label(pygame.Rect(x, y, label_w, bh), tr("online.name"))
        self._entry("name", pygame.Rect(field_x, y, field_w, bh), self.name_text, NAME_LENGTH)
        y += bh + gap
        self.label(pygame.Rect(x, y, label_w, bh), tr("online.server"))
        self._entry("server", pygame.Rect(field_x, y, field_w, bh), self.server_text, MAX_LINK)
        hosting = self.app.hosting is not None
        self.button(pygame.Rect(field_x + field_w + m, y, side_w, bh),
                    tr("online.stop_host") if hosting else tr("online.host"), self.toggle_host)
        y += bh + gap // 2
        if hosting:
            self.label(pygame.Rect(field_x, y, w - field_x - m, int(30 * s)),
                       tr("online.hosting", address=self._hosted_address(self.app)), "#small")
        y += int(30 * s) + gap // 2
        self.button(pygame.Rect(field_x, y, field_w, bh), tr("online.create"), self.create)
        if self.app.settings.servers:
            self.button(pygame.Rect(field_x + field_w + m, y, side_w, bh), tr("online.recent"),
                        self.next_recent)
        y += bh + gap * 2
        self.label(pygame.Rect(x, y, label_w, bh), tr("online.link"))
        self._entry("link", pygame.Rect(field_x, y, field_w, bh), self.link_text, MAX_LINK)
        half = (side_w - gap) // 2
        side_x = field_x + field_w + m
        self.button(pygame.Rect(side_x, y, half, bh), tr("online.paste"), self.paste)
        self.button(pygame.Rect(side_x + half + gap, y, half, bh), tr("online.join"), self.join)
        y += bh + gap * 2
        held, unreadable = self.app.store.keys.survey()
        held = held[-MAX_ROOMS_SHOWN:]
        self.label(pygame.Rect(x, y, label_w, bh), tr("online.my_rooms"))
        if not held and not unreadable:
            self.label(pygame.Rect(field_x, y, field_w, bh), tr("online.no_rooms"), "#small")
            y += bh + gap
        for seat_key in held:
            self.button(pygame.Rect(field_x, y, field_w, bh),
                        tr("online.rejoin", room=seat_key.room, n=seat_key.seat + 1),
                        partial(self.rejoin, seat_key))
            y += bh + gap // 2
        if unreadable:  # said, not hidden: each file stays as it is
            lines = [tr("online.key_unreadable", room=room, why=why(problem))
                     for room, problem in unreadable[:MAX_UNREADABLE_SHOWN]]
            box = pygame.Rect(field_x, y, w - field_x - m, int((14 + 46 * len(lines)) * s))  # two rows each
            pygame_gui.elements.UITextBox("<br>".join(html.escape(line) for line in lines), box, self.manager,
                                          object_id="#desc")
            y += box.height + gap
        by = h - bh - m
        if self.message:
            box = pygame.Rect(m, max(y, by - int(bh * 1.8) - gap), w - 2 * m, int(bh * 1.8))
            # The message may quote a link or a server's words: shown as text, never as markup.
            pygame_gui.elements.UITextBox(html.escape(self.message), box, self.manager, object_id="#desc")
        self.button(pygame.Rect(m, by, int(220 * s), bh), tr("new.back"), self.back)
        lobby_w = int(min(w * 0.45, 520 * s))
        self.button(pygame.Rect(w - m - lobby_w, by, lobby_w, bh), tr("online.lobby"), self.server_lobby)

    def _entry(self, name: str, rect: pygame.Rect, text: str, limit: int) -> None:
        entry = pygame_gui.elements.UITextEntryLine(rect, self.manager)
        entry.set_text_length_limit(limit)
        entry.set_text(text[:limit])
        self.entries[name] = entry
        self.controls.append(Control(entry, partial(self.start_typing, entry)))  # type: ignore[arg-type]

    def _set_text(self, name: str, text: str) -> None:
        """Change a field's text (and what a rebuild puts back in it)."""
        setattr(self, f"{name}_text", text)
        if name in self.entries:
            self.entries[name].set_text(text)

    def _keep_texts(self) -> None:
        for name, entry in getattr(self, "entries", {}).items():
            setattr(self, f"{name}_text", entry.get_text().strip())

    # ---- input -------------------------------------------------------------------------------
    def typing_key(self, entry: pygame_gui.elements.UITextEntryLine, event: pygame.event.Event) -> bool:
        """A paste in the link field is ours, not the field's: a text too long to be a link gets a
        reason; other keys as in every text field."""
        if entry is self.entries.get("link") and keymap.is_paste(event):
            self.paste()
            return True
        return super().typing_key(entry, event)

    def typing_done(self, entry: pygame_gui.elements.UITextEntryLine, *, entered: bool) -> None:
        """A field left: its text is kept; Enter in the link field joins, in the name field saves it."""
        self._keep_texts()
        if entered and entry is self.entries.get("link"):
            self.join()
        elif entered and entry is self.entries.get("name"):
            self._save_name()

    # ---- actions -----------------------------------------------------------------------------
    def _save_name(self) -> bool:
        """Keep the typed name; False (and the reason in ``message``) for a name the servers refuse."""
        name = " ".join(self.name_text.split())[:NAME_LENGTH]
        refused = online_player.name_refusal(name)
        if refused is not None:  # never kept, never sent: the player hears why
            self.message = tr("lobby.name_refused", why=refused)
            self.dirty = True
            return False
        if name != self.app.settings.player_name:
            self.app.settings.player_name = name
            self.app.save_settings()
        return True

    def say(self, message: str) -> None:
        """Show ``message`` and lay the screen out again."""
        self.message = message
        self.rebuild()

    def toggle_host(self) -> None:
        """Start the room server on this computer, or stop it."""
        self._keep_texts()
        if self.app.hosting is not None:
            self.app.stop_hosting()
            self._set_text("server", "")
            self.say(tr("online.host_stopped"))
            return
        problem = start_hosting(self.app)
        if problem is not None:
            self.say(tr("online.host_failed", detail=problem))
            return
        self._set_text("server", self._hosted_address(self.app))
        self.say(tr("online.host_started"))

    def _server(self) -> Server | None:
        self._keep_texts()
        if not self._save_name():  # a refused name goes to no server (it would play as "Player")
            self.say(self.message)
            return None
        if not self.server_text:
            self.say(tr("online.no_server"))
            return None
        try:
            address = read_server(self.server_text)
        except ValueError as exc:
            self.say(tr("online.bad_server", why=str(exc)))
            return None
        self.app.last_server = self.server_text
        remember_server(self.app, address)
        return address

    def next_recent(self) -> None:
        """Recent servers: put the next server of the settings' list in the Server field."""
        self._keep_texts()
        servers = self.app.settings.servers
        if not servers:
            return
        self.recent_shown = (self.recent_shown + 1) % len(servers)
        self._set_text("server", servers[self.recent_shown])
        self.rebuild()

    def server_lobby(self) -> None:
        """The lobby of the server in the address field: public rooms, quick match, my rooms there."""
        address = self._server()
        if address is not None:
            self.app.replace("ServerLobby", server=address)

    def create(self) -> None:
        """The new-game form, in its online mode, for the server in the address field."""
        address = self._server()
        if address is not None:
            self.app.replace("NewGame", online=address)

    def paste(self) -> None:
        """Put the clipboard's text in the link field (Paste, or Ctrl+V there); a text too long
        to be a link is refused with the reason and the field is left as it was."""
        self._keep_texts()
        try:
            text = pygame.scrap.get_text() or ""
        except pygame.error:
            self.say(tr("online.no_clipboard"))
            return
        link = text.strip()
        if not link:
            self.say(tr("online.clipboard_empty"))
            return
        try:
            check_link_length(link)
        except ValueError as exc:
            self.say(tr("online.bad_link", why=str(exc)))
            return
        self._set_text("link", link)
        self.say("")

    def join(self) -> None:
        """Join the room of the link in the field."""
        self._keep_texts()
        self._save_name()
        if not self.link_text:
            self.say(tr("online.no_link"))
            return
        server = None
        if bare_code(self.link_text):  # a code alone: a room of the server in the Server field
            server = self._server()
            if server is None:
                return
        problem = join_link(self.app, self.link_text, server)
        if problem is not None:
            self.say(problem)

    def rejoin(self, seat_key: SeatKey) -> None:
        """Take back a seat this device holds the key of."""
        problem = rejoin(self.app, seat_key)
        if problem is not None:
            self.say(problem)

    def back(self) -> None:
        """Back to the menu (a hosted server keeps running)."""
        self._keep_texts()
        self._save_name()
        self.app.go_to_menu()
