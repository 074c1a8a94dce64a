"""A server's lobby: its public rooms, quick match with the wait so far, and my rooms there.

`ServerLobbyScene` is reached from Play online ("Public rooms and quick match") for the
server in the address field. It keeps one connection to the server that says hello
with this device's player and watches the lobby, so the public rooms (their rules, who
sits there, how long they have waited) refresh as they change. A room's button takes its
free seat; "Create a public room" opens the new-game form for a public room.

Quick match asks for a rule set (its usual options) and a number of players, and whether
computers may fill the table after a wait (never, or 30 s to 5 min; 1 min at first).
While the server looks, the screen shows how many people wait with the player and for
how long; "Stop looking" leaves the queue at once. Once seated, the waiting room and
then the table take over that connection.

The player's name with its tag and avatar show at the top; the avatar button opens the
avatar picker (the same one as the new-game form's: the choice is the solo player's too).
Leaderboard opens the ranking. Everything is a button (tap, click, or the keyboard's
focus ring), and what the server sends is shown as text, never as markup.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Final

import pygame
import pygame_gui

from game.engine import PRESETS
from game.net.client import CLOSED, RoomConnection, Server, read_link, server_text
from game.net.messages import (
    ChangeProfile,
    Error,
    Join,
    Lobby,
    LobbyListing,
    PlayerProfile,
    Queue,
    Queued,
    ServerMessage,
    Unqueue,
)
from game.net.profiles import tagged
from game.net.replies import ListedRoom
from game.play.avatars import CATALOGUE
from game.saves import SeatKey

from .. import online_player, stakes
from ..avatar_art import avatar_image
from ..competitive_art import Marks
from ..gui import GuiScene, step_through
from ..i18n import tr
from ..joining import connect, rejoin
from ..remote import RemoteController, shorten

if TYPE_CHECKING:
    from ..scene import SceneApp

WAITS: Final = (None, 30, 60, 120, 300)
"""Quick match's choices for computers filling the table: never, or after so many seconds."""
DEFAULT_WAIT: Final = 60
POLL: Final = 0.1  # seconds between looks at the connection
MAX_NAMES: Final = 1  # names shown per room line ("+N" after)
NAME_SHOWN: Final = 10  # characters of a name in a room line (cut with "…"; its 6-character tag follows)
PROFILE_NAME_SHOWN: Final = 13  # characters of the player's own name beside their avatar (and tag)
MAX_MY_ROOMS: Final = 2


MAX_CLOCK: Final = 100 * 3600  # seconds: a longer wait (a server's wild number) shows as this


def clock_text(seconds: float) -> str:
    """A wait as ``m:ss`` (a negative, infinite or NaN wait as ``0:00``; a wild one at most 100 h)."""
    whole = int(min(seconds, MAX_CLOCK)) if seconds > 0 else 0  # (NaN is not > 0)
    return f"{whole // 60}:{whole % 60:02d}"


def wait_text(wait: int | None) -> str:
    """Quick match's computer choice in words."""
    if wait is None:
        return tr("lobby.never")
    amount = tr("lobby.seconds", n=wait) if wait < 60 else tr("lobby.minutes", n=wait // 60)
    return tr("lobby.after", wait=amount)


class ServerLobbyScene(GuiScene):
    """Public rooms, quick match and my rooms on one server."""

    def __init__(self, app: SceneApp, server: Server, message: str = "", *,
                 connection: RoomConnection | None = None) -> None:
        self.server = Server(*server)
        host, port, tls = self.server
        self.connection = connection if connection is not None else RoomConnection(
            host, port, Lobby(), tls=tls, player=online_player.hello(app, self.server))
        self.message = message
        self.rooms: list[ListedRoom] = []
        self.listed = 0
        self.profile: PlayerProfile | None = None
        self.synced = False  # the name and avatar were checked against the server's once
        self.elapsed = 0.0  # seconds since the last listing (the waits shown count on from it)
        self.lag = 0.0  # the listing's server time
        settings = app.settings  # quick match keeps its own rule set, apart from the new-game form's
        kept = settings.quick_preset or settings.last_preset
        self.preset_name = kept if kept in PRESETS else "duel"
        self.quick_players = PRESETS[self.preset_name].min_players
        self.wait: int | None = DEFAULT_WAIT
        self.quick: RemoteController | None = None  # the quick-match connection, while looking
        self.quick_since = 0.0  # seconds looked so far (counted here between the server's words)
        self._queued: Queued | None = None  # the server's last word on the quick match (taken in once)
        self.avatar = online_player.avatar(app)
        self.avatar_rect: pygame.Rect | None = None  # where the avatar's picture is drawn
        self._shown: object = None  # what the widgets were built for (see `update`)
        self._live: list[tuple[pygame_gui.elements.UIButton | pygame_gui.elements.UILabel,
                               Callable[[], str]]] = []  # texts that follow the time, in place
        self._poll = 0.0
        self._leaving = False
        self.marks = Marks()  # the swords of the public rooms and of quick match: they count
        super().__init__(app)

    # ---- widgets -------------------------------------------------------------------------------
    def build(self) -> None:
        """Profile row; public rooms (left) and quick match with my rooms (right); Back."""
        self._live = []
        self.marks.clear()
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(44 * s))
        gap = int(bh * 0.25)
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("lobby.title", server=server_text(self.server)),
                   "#heading")
        y = int(80 * s)
        third = (w - 4 * m) // 3
        you = online_player.label(self.profile, self.app.settings.player_name or "…")
        key = "lobby.you" if self.profile else "lobby.you_pending"
        name, _, tag = you.rpartition(" #") if self.profile else (you, "", "")
        text = tr(key, name=_cut(name, PROFILE_NAME_SHOWN), tag=tag)
        self.avatar_rect = pygame.Rect(m, y, bh, bh)
        self.label(pygame.Rect(m + bh + m // 2, y, third - bh - m // 2, bh), text)
        picture = tr(f"avatar.{CATALOGUE[self.avatar].name}")
        self.button(pygame.Rect(2 * m + third, y, third, bh),
                    tr("fmt.pair", label=tr("lobby.avatar"), value=picture), self.pick_avatar)
        self.button(pygame.Rect(3 * m + 2 * third, y, third, bh), tr("lobby.leaderboard"), self.leaderboard)
        top = y + bh + gap * 2
        by = h - bh - m
        bottom = by - gap - (int(bh * 1.6) + gap if self.message else 0)
        left_w = int((w - 3 * m) * 0.56)
        self._public(pygame.Rect(m, top, left_w, bottom - top), bh, gap)
        self._quick(pygame.Rect(2 * m + left_w, top, w - 3 * m - left_w, bottom - top), bh, gap)
        if self.message:
            box = pygame.Rect(m, by - gap - int(bh * 1.6), w - 2 * m, int(bh * 1.6))
            pygame_gui.elements.UITextBox(html.escape(self.message), box, self.manager, object_id="#desc")
        self.button(pygame.Rect(m, by, int(220 * s), bh), tr("new.back"), self.back)

    def _public(self, area: pygame.Rect, bh: int, gap: int) -> None:
        self.label(pygame.Rect(area.x, area.y, area.w, bh), tr("lobby.public"), "#heading")
        y = area.y + bh + gap
        rows = max(0, (area.bottom - y - bh) // (bh + gap))  # the last row: Create a public room
        if self.connection.status == CLOSED and not self.rooms:
            rows = 0
        elif not self.rooms:
            key = "lobby.none" if self.connection.connected else "lobby.connecting"
            self.label(pygame.Rect(area.x, y, area.w, bh), tr(key, server=server_text(self.server)), "#small")
            y += bh + gap
        hidden = max(0, len(self.rooms) - rows, self.listed - len(self.rooms) if self.rooms else 0)
        if hidden and rows:
            rows -= 1  # a line says how many more wait
            hidden = max(len(self.rooms) - rows, self.listed - rows)
        for i, room in enumerate(self.rooms[:rows]):
            mark = self.marks.add(pygame.Rect(area.x, y, bh, bh))  # every public room is ranked once full
            element = self.button(pygame.Rect(mark.right + gap, y, area.w - bh - gap, bh),
                                  self.room_text(room), partial(self.take_seat, room), object_id="#option")
            self._live.append((element, partial(self._room_text_at, i)))
            y += bh + gap
        if hidden and self.rooms:
            self.label(pygame.Rect(area.x, y, area.w, bh), tr("lobby.more", n=hidden), "#small")
        self.button(pygame.Rect(area.x, area.bottom - bh, area.w, bh), tr("lobby.create"), self.create)

    def _quick(self, area: pygame.Rect, bh: int, gap: int) -> None:
        self.label(pygame.Rect(area.x, area.y, area.w, bh), tr("lobby.quick"), "#heading")
        y = area.y + bh + gap
        choices = ((tr("lobby.rules"), tr("preset." + self.preset_name), self.step_preset),
                   (tr("lobby.players"), str(self.quick_players), self.step_players),
                   (tr("lobby.computers"), wait_text(self.wait), self.step_wait))
        for label, value, step in choices:
            text = tr("fmt.pair", label=label, value=value) + "  ◂ ▸"
            self.button(pygame.Rect(area.x, y, area.w, bh), text, partial(step, 1), step, object_id="#option")
            y += bh + gap
        looking = self.quick is not None
        mark = self.marks.add(pygame.Rect(area.x, y, bh, bh))  # a quick match is ranked
        self.button(pygame.Rect(mark.right + gap, y, area.w - bh - gap, bh),
                    tr("lobby.stop" if looking else "lobby.find"), self.toggle_quick)
        y += bh + gap // 2
        if looking:
            looking_label = self.label(pygame.Rect(area.x, y, area.w, int(bh * 0.7)), self.looking_text(),
                                       "#small")
            self._live.append((looking_label, self.looking_text))
        y += int(bh * 0.7) + gap
        mine = self.my_rooms()
        if mine and y + 2 * bh + gap <= area.bottom:
            self.label(pygame.Rect(area.x, y, area.w, bh), tr("lobby.my_rooms"), "#small")
            y += bh
            for seat_key in mine:
                if y + bh > area.bottom:
                    break
                self.button(pygame.Rect(area.x, y, area.w, bh),
                            tr("online.rejoin", room=seat_key.room, n=seat_key.seat + 1),
                            partial(self.rejoin, seat_key), object_id="#option")
                y += bh + gap

    # ---- what is shown ----------------------------------------------------------------------------
    def room_text(self, room: ListedRoom) -> str:
        """One public room in a line: rules, seats taken, who, and how long it has waited."""
        names = [tagged(_cut(name), tag[:8]) for name, tag in room.people]
        shown = ", ".join(names[:MAX_NAMES]) or tr("lobby.nobody")
        if len(names) > MAX_NAMES:
            shown += f" +{len(names) - MAX_NAMES}"
        preset = room.preset
        waited = self.lag - room.since if room.since is not None else 0.0
        line = tr("lobby.room", preset=tr("preset." + preset) if preset in PRESETS else "?",
                  taken=_count(room.taken), seats=_count(room.players), names=shown,
                  wait=clock_text(waited + self.elapsed))
        stake = stakes.listed_stake(room.stake)
        return line if stake is None else tr("lobby.room_stake", room=line, stake=stake)

    def _room_text_at(self, index: int) -> str:
        """The line of the room listed at ``index`` (the same room while the layout stands)."""
        return self.room_text(self.rooms[index])

    def looking_text(self) -> str:
        """How the quick match stands: the people waiting with the player, and for how long."""
        queued = self.quick.queue_status if self.quick is not None else None
        waiting = _count(queued.waiting if queued is not None else None) or 1
        return tr("lobby.looking", n=self.quick_players, waiting=waiting, wait=clock_text(self.quick_since))

    def my_rooms(self) -> list[SeatKey]:
        """The rooms of this server this device holds a key for (the latest first)."""
        out = []
        for seat_key in reversed(self.app.store.keys.rooms()):
            try:
                host, port, _, tls = read_link(seat_key.link)
            except ValueError:
                continue
            if (host, port) == self.server[:2]:
                out.append(seat_key)
        return out[:MAX_MY_ROOMS]

    # ---- the connection ----------------------------------------------------------------------------
    def take(self, message: ServerMessage) -> None:
        """Take in one message of the lobby's connection."""
        if isinstance(message, LobbyListing) and message.rooms is not None:
            now = message.server_time
            self.rooms = message.listed_rooms()
            self.listed = _count(message.listed)
            self.lag = now if now is not None else 0.0
            self.elapsed = 0.0
        elif isinstance(message, PlayerProfile):
            self.profile = message
            online_player.remember(self.app, self.server, message)
            self._sync(message)
        elif isinstance(message, Error):
            self.message = self.error_text(message)

    def _sync(self, profile: PlayerProfile) -> None:
        """Once: tell the server the name and avatar chosen on this device, if it knows others."""
        if self.synced:
            return
        self.synced = True
        name = self.app.settings.player_name.strip()
        sendable = bool(name) and online_player.name_refusal(name) is None
        new_name = name if sendable and profile.name != name else None
        new_avatar = self.avatar if profile.avatar != self.avatar else None
        if new_name is not None or new_avatar is not None:
            self.connection.send(ChangeProfile(name=new_name, avatar=new_avatar))

    @staticmethod
    def error_text(message: Error) -> str:
        """What the lobby says of a server's refusal, in the player's language."""
        code = (message.code or "")[:40]
        detail = shorten(message.message if message.message is not None else code)
        if code == "bad_name" and message.reason is not None:
            return tr("lobby.name_refused", why=tr("name." + message.reason[:20]))
        if code == "no_tokens":  # said with the stake and the tokens free
            return stakes.refusal_text(message)
        text = tr(f"online.error.{code}", detail=detail)
        return detail if text == f"online.error.{code}" else text

    def update(self, dt: float) -> None:
        """Follow the lobby and the quick match; open the waiting room once seated."""
        super().update(dt)
        self.elapsed += dt
        self._poll -= dt
        if self._poll <= 0:
            self._poll = POLL
            for message in self.connection.poll_messages():
                self.take(message)
            if self.connection.status == CLOSED and not self.message:
                self.message = tr("online.unreachable", address=server_text(self.server),
                                  detail=self.connection.problem or "?")
        if self.quick is not None:
            self.quick_since += dt
            quick = self.quick
            quick.update(dt)
            if quick.refusal is not None:
                self.message = quick.refusal
                self.stop_quick()
            elif quick.room_id is not None:  # seated: the waiting room, then the table
                self.quick = None
                self.app.replace("WaitingRoom", remote=quick)
                return
            elif quick.queue_status is not None and quick.queue_status is not self._queued:
                waited = quick.queue_status.waited
                if waited is not None:
                    self._queued = quick.queue_status
                    self.quick_since = waited
        self._follow()

    def _follow(self) -> None:
        """Show what changed: the screen is built again when its widgets change (a room listed or
        gone, the profile, a message, the connection, looking or not); the waits counting on and
        the rooms' seats change their texts in place (`GuiScene.retext`), so a tap under way is
        never lost to a rebuild."""
        if self._layout() == self._shown and all(self.retext(widget, text()) for widget, text in self._live):
            return
        self.rebuild()

    def _layout(self) -> object:
        """What the widgets are built for (a change of it builds the screen again)."""
        rooms = tuple(room.room for room in self.rooms)
        looking = self.quick is not None
        return rooms, self.listed, self.profile, self.message, looking, self.connection.status

    def rebuild(self) -> None:
        """Build the widgets for the screen as it stands (and remember what they were built for)."""
        self._shown = self._layout()
        super().rebuild()

    def next_frame(self) -> float | None:
        """Look at the connections every `POLL` (the waits shown count seconds too)."""
        own = super().next_frame()
        return POLL if own is None else min(own, POLL)

    def exit(self) -> None:
        """Leaving for anywhere: the lobby's connection closes (and the queue, unless seated)."""
        self.connection.close()
        if self.quick is not None and not self._leaving:
            self.stop_quick()

    # ---- actions --------------------------------------------------------------------------------
    def pick_avatar(self) -> None:
        """The avatar picker, over this screen."""
        name = self.app.settings.player_name or tr("table.you")
        self.app.push("AvatarPicker", name=name, current=self.avatar, taken={}, choose=self.set_avatar)

    def set_avatar(self, avatar: int) -> None:
        """The player chose ``avatar``: kept on this device and told to the server."""
        online_player.set_avatar(self.app, avatar)
        self.avatar = online_player.avatar(self.app)
        self.connection.send(ChangeProfile(avatar=self.avatar))
        self.rebuild()

    def draw_extra(self, surface: pygame.Surface) -> None:
        """The player's avatar beside their name; the swords of what is ranked."""
        self.marks.draw(surface)
        if self.avatar_rect is not None:
            surface.blit(avatar_image(self.avatar, self.avatar_rect.height), self.avatar_rect)

    def step_preset(self, delta: int) -> None:
        """Quick match's rule set."""
        self.preset_name = step_through(list(PRESETS), self.preset_name, delta)
        rules = PRESETS[self.preset_name]
        self.quick_players = max(rules.min_players, min(self.quick_players, rules.max_players))
        self.app.settings.quick_preset = self.preset_name  # (never the form's `last_preset`)
        self.app.save_settings()
        self.rebuild()

    def step_players(self, delta: int) -> None:
        """Quick match's number of players, within the rule set's."""
        rules = PRESETS[self.preset_name]
        span = rules.max_players - rules.min_players + 1
        self.quick_players = rules.min_players + (self.quick_players - rules.min_players + delta) % span
        self.rebuild()

    def step_wait(self, delta: int) -> None:
        """Never, or after how long computers may fill the table."""
        self.wait = WAITS[(WAITS.index(self.wait) + delta) % len(WAITS)]
        self.rebuild()

    def toggle_quick(self) -> None:
        """Find a game, or stop looking (at once)."""
        if self.quick is not None:
            self.stop_quick()
        else:
            self.start_quick()
        self.rebuild()

    def start_quick(self) -> None:
        """Ask the server for a table of the chosen rules and players."""
        host, port, tls = self.server
        hello = Queue(preset=self.preset_name, options={}, players=self.quick_players,
                      computers=self.wait is not None, wait=self.wait or DEFAULT_WAIT)
        connection = RoomConnection(host, port, hello, tls=tls,
                                    player=online_player.hello(self.app, self.server))
        self.quick = connect(self.app, connection, host, port)
        self.quick_since = 0.0
        self.message = ""

    def stop_quick(self) -> None:
        """Leave the queue (the server forgets the request at once)."""
        quick, self.quick = self.quick, None
        if quick is not None:
            quick.connection.send(Unqueue())
            quick.connection.close()

    def take_seat(self, room: ListedRoom) -> None:
        """Take a free seat of a public room."""
        host, port, tls = self.server
        connection = RoomConnection(host, port, Join(room=room.room), tls=tls,
                                    player=online_player.hello(self.app, self.server))
        self._leaving = True
        self.stop_quick()
        self.app.replace("WaitingRoom", remote=connect(self.app, connection, host, port))

    def rejoin(self, seat_key: SeatKey) -> None:
        """Back to a room of mine on this server."""
        self.stop_quick()
        problem = rejoin(self.app, seat_key)
        if problem is not None:
            self.message = problem
            self.rebuild()

    def create(self) -> None:
        """The new-game form for a public room on this server."""
        self.stop_quick()
        self.app.replace("NewGame", online=self.server, public=True)

    def leaderboard(self) -> None:
        """The ranking of this server (over this screen)."""
        self.app.push("Leaderboard", server=self.server, preset_name=self.preset_name)

    def back(self) -> None:
        """Back to Play online."""
        self.stop_quick()
        self.app.replace("Lobby")


def _cut(name: str, limit: int = 0) -> str:
    limit = limit or NAME_SHOWN
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _count(value: int | None) -> int:
    """A count a server sent, or 0 when it is none within reason."""
    return value if value is not None and 0 <= value < 10_000 else 0
