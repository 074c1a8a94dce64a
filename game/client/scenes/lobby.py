"""Playing online: the lobby (host, create, join by link, my rooms) and the waiting room.

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

`WaitingRoomScene` shows the room's link with a Copy button (first the room page's
``https://`` or ``http://`` link, which chat apps make clickable; then the game's own
``huit://`` or ``huits://`` link) and who has taken which seat, until the server deals;
then the table opens on a `RemoteController`.
A bad link, a refused seat or an unreachable server is a message in the lobby.

Every connection says hello with this device's player (`online_player`): the server
shows the player's name with its tag, and the waiting room says whether the game is
ranked. "Public rooms and quick match" opens the server's own lobby
(`server_lobby.ServerLobbyScene`).
"""

from __future__ import annotations

import html
from functools import partial
from typing import TYPE_CHECKING, Any, Final

import pygame
import pygame_gui

from game.engine import Rules
from game.net.client import (
    CLOSED,
    MAX_LINK,
    RECONNECTING,
    RoomConnection,
    Server,
    check_link_length,
    lan_address,
    make_link,
    page_link,
    parse_link,
    read_link,
    read_server,
    server_text,
)
from game.net.wire import rules_to_json
from game.saves import SeatKey

from .. import online_player
from ..controller import SeatConfig
from ..i18n import tr
from ..remote import RemoteController
from ..saving import why
from ..settings import MAX_SERVERS
from .gui import Control, GuiScene

if TYPE_CHECKING:
    from ..app import App

MAX_ROOMS_SHOWN: Final = 4
MAX_UNREADABLE_SHOWN: Final = 2  # rooms whose key file cannot be read, a line each
NAME_LENGTH: Final = 24


def host_port() -> int:
    """The port "Host on this computer" tries first (the server's usual one)."""
    from game.net.hosting import DEFAULT_PORT

    return int(DEFAULT_PORT)


def start_hosting(app: App) -> str | None:
    """Start the room server in this process for the LAN; return a problem, or None.

    It listens on every interface, on the usual port when it is free, else on any
    free port. It runs until "Stop hosting" or the end of the game.
    """
    from game.net.hosting import ServerThread

    problem = ""
    for port in dict.fromkeys((host_port(), 0)):  # the usual port first, then any
        server = ServerThread(app.store.root / "rooms.sqlite3", host="0.0.0.0", port=port,
                              **app.host_options)
        server.start()
        if server.error is None and server.port:
            app.hosting = server
            return None
        problem = str(server.error or "no port")
    return problem


def connect(app: App, connection: RoomConnection, link_host: str, link_port: int) -> RemoteController:
    """A remote controller on ``connection`` that keeps each claimed seat's key on this device."""
    remote = RemoteController(connection, speed=app.settings.speed_factor)
    tls = connection.tls

    def remember(room: str, seat: int, key: str) -> None:
        app.store.keys.remember(SeatKey(make_link(link_host, link_port, room, tls), room, seat, key))

    def profile(message: dict[str, Any]) -> None:
        online_player.remember(app, Server(link_host, link_port, tls), message)

    remote.on_key = remember
    remote.on_profile = profile
    return remote


def create_room(app: App, address: tuple[str, int] | tuple[str, int, bool], rules: Rules,
                seats: list[SeatConfig], *, public: bool = False) -> None:
    """Ask the server at ``address`` (host, port and TLS: a `Server`) for a room with these rules
    and seats (``public``: listed in the server's lobby), and wait in it."""
    host, port, tls = Server(*address)
    name = app.settings.player_name
    # Human seats are named by whoever claims them; the creator's name goes with "create".
    hello: dict[str, Any] = {"type": "create", **rules_to_json(rules), "name": name,
                             "seats": [{"kind": "human"} if s.is_human else
                                       {"kind": "computer", "level": s.level} for s in seats]}
    if public:
        hello["public"] = True
    connection = RoomConnection(host, port, hello, tls=tls, player=online_player.hello(app, (host, port)))
    remote = connect(app, connection, host, port)
    app.stack.replace(WaitingRoomScene(app, remote))


def join_link(app: App, text: str) -> str | None:
    """Join the room of a link in any of its forms (``huit://``, ``huits://``, a room page's
    ``https://…/r/ROOM``), with this device's key when it holds one.

    Returns a message for the lobby when the link cannot be used, else None.
    """
    try:
        host, port, room, tls = read_link(text)
    except ValueError as exc:
        return tr("online.bad_link", why=str(exc))
    held = app.store.keys.get(room)
    if held is not None and _same_server(held.link, host, port):
        connection = RoomConnection.rejoin(host, port, room, held.seat, held.key, tls=tls,
                                           player=online_player.hello(app, (host, port)))
    else:
        connection = RoomConnection(host, port, {"type": "join", "room": room,
                                                 "name": app.settings.player_name}, tls=tls,
                                    player=online_player.hello(app, (host, port)))
    remember_server(app, Server(host, port, tls))
    app.stack.replace(WaitingRoomScene(app, connect(app, connection, host, port)))
    return None


def remember_server(app: App, address: Server) -> None:
    """Put ``address`` first in the settings' recent servers (saved when the list changed)."""
    text = server_text(address)
    servers = [text] + [s for s in app.settings.servers if s != text][:MAX_SERVERS - 1]
    if servers != app.settings.servers:
        app.settings.servers = servers
        app.save_settings()


def _is_paste(event: pygame.event.Event) -> bool:
    """Ctrl+V (Cmd+V), as pygame_gui's fields read it (AltGr+V types a letter instead)."""
    return bool(event.key == pygame.K_v and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
                and not event.mod & pygame.KMOD_ALT)


def _same_server(link: str, host: str, port: int) -> bool:
    try:
        return parse_link(link)[:2] == (host, port)
    except ValueError:
        return False


class LobbyScene(GuiScene):
    """Host, create, join, or go back to a room of mine."""

    def __init__(self, app: App, message: str = "") -> None:
        self.message = message
        self.name_text = app.settings.player_name
        self.server_text = app.last_server or self._hosted_address(app) or app.settings.default_server
        self.link_text = ""
        self.recent_shown = -1  # which of the settings' recent servers Recent servers showed last
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        super().__init__(app)

    @staticmethod
    def _hosted_address(app: App) -> str:
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
        if entry is self.entries.get("link") and _is_paste(event):
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
    def _save_name(self) -> None:
        name = " ".join(self.name_text.split())[:NAME_LENGTH]
        refused = online_player.name_refusal(name)
        if refused is not None:  # never kept, never sent: the player hears why
            self.message = tr("lobby.name_refused", why=refused)
            return
        if name != self.app.settings.player_name:
            self.app.settings.player_name = name
            self.app.save_settings()

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
        self._save_name()
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
        from .server_lobby import ServerLobbyScene

        address = self._server()
        if address is not None:
            self.app.stack.replace(ServerLobbyScene(self.app, address))

    def create(self) -> None:
        """The new-game form, in its online mode, for the server in the address field."""
        from .newgame import NewGameScene

        address = self._server()
        if address is not None:
            self.app.stack.replace(NewGameScene(self.app, online=address))

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
        problem = join_link(self.app, self.link_text)
        if problem is not None:
            self.say(problem)

    def rejoin(self, seat_key: SeatKey) -> None:
        """Take back a seat this device holds the key of."""
        try:
            host, port, room, tls = read_link(seat_key.link)
        except ValueError as exc:
            self.say(tr("online.bad_link", why=str(exc)))
            return
        connection = RoomConnection.rejoin(host, port, room, seat_key.seat, seat_key.key, tls=tls,
                                           player=online_player.hello(self.app, (host, port)))
        self.app.stack.replace(WaitingRoomScene(self.app, connect(self.app, connection, host, port)))

    def back(self) -> None:
        """Back to the menu (a hosted server keeps running)."""
        self._keep_texts()
        self._save_name()
        self.app.go_to_menu()


class WaitingRoomScene(GuiScene):
    """Connecting, then the room's link and seats until the deal; then the table."""

    def __init__(self, app: App, remote: RemoteController) -> None:
        self.remote = remote
        self.note = ""
        self._shown: object = None
        self._to_table = False
        super().__init__(app)

    @property
    def link(self) -> str | None:
        """The game's link to the room (``huit://`` or ``huits://``, the one its key is kept
        with), once the server has said which room it is."""
        room = self.remote.room_id
        connection = self.remote.connection
        return make_link(connection.host, connection.port, room, self._tls) if room else None

    @property
    def page(self) -> str | None:
        """The room's web page (``https://…/r/ROOM``, ``http://`` without TLS): the link shown
        first and copied, which chat apps make clickable and the game reads too."""
        room = self.remote.room_id
        connection = self.remote.connection
        return page_link(connection.host, connection.port, room, self._tls) if room else None

    @property
    def _tls(self) -> bool:
        return bool(getattr(self.remote.connection, "tls", False))

    def build(self) -> None:
        """Status, link and Copy, the seats, Leave."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(48 * s))
        gap = int(bh * 0.3)
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("online.room_title"), "#heading")
        y = int(84 * s)
        link, page = self.link, self.page
        if link is None or page is None or self.remote.room is None:
            address = f"{self.remote.connection.host}:{self.remote.connection.port}"
            self.label(pygame.Rect(m, y, w - 2 * m, bh), tr("online.connecting", address=address))
        else:
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.share"), "#small")
            y += int(34 * s)
            link_w = int(w * 0.62)
            self.label(pygame.Rect((w - link_w) // 2 - int(100 * s), y, link_w, bh), page, "#heading")
            self.button(pygame.Rect((w + link_w) // 2 - int(80 * s), y, int(200 * s), bh),
                        tr("online.copy"), self.copy)
            y += bh
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.game_link", link=link), "#small")
            y += int(30 * s) + gap
            note = tr("online.reconnecting") if self.remote.connection.status == RECONNECTING else self.note
            if note:
                self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), note, "#small")
            y += int(30 * s) + gap
            for line in self.seat_lines():
                self.label(pygame.Rect(m * 4, y, w - 8 * m, int(36 * s)), line)
                y += int(38 * s)
            y += gap
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.starts_when_full"), "#small")
            ranking = self.ranking_note()
            if ranking:
                y += int(34 * s)
                self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), ranking, "#small")
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("online.leave"), self.back)

    def ranking_note(self) -> str:
        """Whether the room is ranked, in words (nothing from a server that does not say)."""
        ranked = self.remote.ranked
        if ranked is None:
            return ""
        if ranked:
            return tr("online.ranked")
        if self.remote.kind == "private":
            return tr("online.unranked_private")
        return tr("online.unranked_public")

    def seat_lines(self) -> list[str]:
        """One line per seat: who sits there, or that it waits for a friend."""
        room = self.remote.room or {}
        waiting = set(room.get("waiting_for") or [])
        lines = []
        for i, seat in enumerate(room.get("seats") or []):
            if not isinstance(seat, dict):
                continue
            given = seat.get("name")
            named = given[:NAME_LENGTH] if isinstance(given, str) else ""
            if seat.get("kind") != "human":
                level = seat.get("level")
                who = tr("new." + (level if level in ("easy", "medium", "hard") else "medium"))
            elif i == self.remote.viewer:
                who = tr("online.you", name=named or tr("table.you"))
            elif i in waiting:
                who = tr("online.free")
            else:
                name = named or tr("table.player", n=i + 1)
                if isinstance(seat.get("tag"), str):
                    name = f"{name} #{seat['tag'][:8]}"
                who = tr("online.here" if seat.get("connected") else "online.away", name=name)
            lines.append(tr("fmt.pair", label=tr("new.seat", n=i + 1), value=who))
        return lines

    def copy(self) -> None:
        """Put the room page's link on the clipboard (or say that there is no clipboard here)."""
        link = self.page
        if link is None:
            return
        try:
            pygame.scrap.put_text(link)
            ok = pygame.scrap.get_text() == link
        except pygame.error:
            ok = False
        self.note = tr("online.copied") if ok else tr("online.no_clipboard")
        self.rebuild()

    def update(self, dt: float) -> None:
        """Follow the room; open the table at the deal, go back to the lobby on a refusal."""
        super().update(dt)
        remote = self.remote
        remote.update(dt)
        if remote.refusal is not None:
            self._give_up(remote.refusal)
            return
        if remote.ready:
            from .table import TableScene

            self._to_table = True
            self.app.stack.replace(TableScene(self.app, remote))
            return
        connection = remote.connection
        if connection.status == CLOSED:
            address = f"{connection.host}:{connection.port}"
            self._give_up(tr("online.unreachable", address=address, detail=connection.problem or "?"))
            return
        shown = (remote.room_id, repr(remote.room), connection.status)
        if shown != self._shown:
            self._shown = shown
            self.rebuild()

    def next_frame(self) -> float | None:
        """The connection is looked at every `ONLINE_POLL` (and a text cursor may blink)."""
        own = super().next_frame()
        due = self.remote.due()
        return due if own is None or (due is not None and due < own) else own

    def exit(self) -> None:
        """Leaving for anywhere but the table (the menu, the kiosk timeout) leaves the room."""
        if not self._to_table:
            self.remote.leave()

    def _give_up(self, message: str) -> None:
        remote = self.remote
        if remote.room_id is not None and remote.refusal_code == "unknown_room":
            self.app.store.keys.forget(remote.room_id)  # the room is gone: its key opens nothing now
        remote.connection.close()
        self.app.stack.replace(LobbyScene(self.app, message))

    def back(self) -> None:
        """Leave the room (a claimed seat keeps its key: My rooms brings it back)."""
        self.remote.leave()
        self.app.stack.replace(LobbyScene(self.app))
