"""The waiting room: a room's link to share and who has taken which seat, until the deal.

`WaitingRoomScene` opens once a room is asked for (created, joined by link, a seat of
mine taken back, a public room's seat or a quick match from the server's lobby: see
`game.client.joining`). It shows the room's link with a Copy button (first the room
page's ``https://`` or ``http://`` link, which chat apps make clickable; then the game's
own ``huit://`` or ``huits://`` link) and who has taken which seat, and whether the game
is ranked, until the server deals; then the table opens on the `RemoteController`. A
refused seat or an unreachable server goes back to the lobby with a message. The owner of a
public room (the player who created it) has a "Free the seat" button beside each other
person's seat: that person is told, and the seat goes back to the lobby.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import pygame

from game.net.client import CLOSED, RECONNECTING, make_link, page_link
from game.net.profiles import tagged

from .. import stakes
from ..competitive_art import Marks
from ..gui import GuiScene
from ..i18n import tr
from ..settings import NAME_LENGTH

if TYPE_CHECKING:
    from ..remote import RemoteController
    from ..scene import SceneApp


class WaitingRoomScene(GuiScene):
    """Connecting, then the room's link and seats until the deal; then the table."""

    def __init__(self, app: SceneApp, remote: RemoteController) -> None:
        self.remote = remote
        self.note = ""
        self._shown: object = None
        self._to_table = False
        self.marks = Marks()  # the swords beside the ranking note of a ranked (public, quick) room
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
        self._shown = self.shown()  # built from this: the next update need not build it again
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(48 * s))
        gap = int(bh * 0.3)
        self.marks.clear()
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("online.room_title"), "#heading")
        y = int(84 * s)
        link, page = self.link, self.page
        if link is None or page is None or self.remote.status is None:
            address = f"{self.remote.connection.host}:{self.remote.connection.port}"
            self.label(pygame.Rect(m, y, w - 2 * m, bh), tr("online.connecting", address=address))
        else:
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.share"), "#small")
            y += int(34 * s)
            link_w = int(w * 0.62)
            self.fitted_label(pygame.Rect((w - link_w) // 2 - int(100 * s), y, link_w, bh), page)
            self.button(pygame.Rect((w + link_w) // 2 - int(80 * s), y, int(200 * s), bh),
                        tr("online.copy"), self.copy)
            y += bh
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.game_link", link=link), "#small")
            y += int(30 * s) + gap
            note = tr("online.reconnecting") if self.remote.connection.status == RECONNECTING else self.note
            if note:
                self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), note, "#small")
            y += int(30 * s) + gap
            freeable = self.freeable()
            free_w = int(260 * s)
            entries = self.seat_entries()
            # The owner's rows: every line on one axis, a button at the end of a guest's, as tall as
            # the others unless seven seats would push the notes under Leave (then as tall as fits).
            notes = int(34 * s) + int(30 * s) + 2 * gap  # the notes below the seats
            fits = (h - bh - m - notes - y) // max(1, len(entries))
            row = max(int(38 * s), min(bh + gap // 2, fits))
            for seat, line in entries:
                if not freeable:
                    self.label(pygame.Rect(m * 4, y, w - 8 * m, int(36 * s)), line)
                    y += int(38 * s)
                    continue
                self.label(pygame.Rect(m * 4, y, w - 9 * m - free_w, row), line)
                if seat in freeable:
                    tall = min(bh, row - 2)
                    self.button(pygame.Rect(w - 4 * m - free_w, y + (row - tall) // 2, free_w, tall),
                                tr("online.free_seat"), functools.partial(self.free_seat, seat),
                                key=("free_seat", seat))
                y += row
            y += gap
            self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), tr("online.starts_when_full"), "#small")
            ranking = self.ranking_note()
            if ranking:
                y += int(34 * s)
                shown = self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)), ranking, "#small")
                if self.remote.kind != "private":  # a competitive room: the swords just before its note
                    side = int(30 * s)
                    face = shown.font
                    ink = min(face.size(ranking)[0] if face is not None else w, w - 2 * m)  # centred
                    self.marks.add(pygame.Rect(max(0, (w - ink) // 2 - side - gap // 2), y, side, side))
            stake = stakes.stake(self.remote.status)
            if stake is not None:  # a competitive room: the stake, and what this player holds
                y += int(34 * s)
                self.label(pygame.Rect(m, y, w - 2 * m, int(30 * s)),
                           stakes.stake_line(stake, stakes.balance(self.remote.player)), "#small")
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("online.leave"), self.back)

    def draw_extra(self, surface: pygame.Surface) -> None:
        """The swords of a competitive room, beside its ranking note."""
        self.marks.draw(surface)

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
        return [line for _, line in self.seat_entries()]

    def freeable(self) -> set[int]:
        """The seats the owner of a public room waiting for players may free: every other seat a
        person has taken (none for anyone else)."""
        status = self.remote.status
        if status is None or not self.remote.owns_room:
            return set()
        waiting = set(status.waiting_for or [])
        return {i for i, seat in enumerate(status.seat_rows())
                if seat is not None and seat.human and i != self.remote.viewer and i not in waiting}

    def free_seat(self, seat: int) -> None:
        """The owner frees ``seat``: the server tells its person, and its next status shows it free."""
        self.remote.free_seat(seat)
        self.note = ""
        self.dirty = True

    def seat_entries(self) -> list[tuple[int, str]]:
        """Each seat's number and line: who sits there, or that it waits for a friend."""
        status = self.remote.status
        if status is None:
            return []
        waiting = set(status.waiting_for or [])
        lines = []
        for i, seat in enumerate(status.seat_rows()):
            if seat is None:
                continue
            named = (seat.name or "")[:NAME_LENGTH]
            if not seat.human:
                level = seat.level
                who = tr("new." + (level if level in ("easy", "medium", "hard") else "medium"))
            elif i == self.remote.viewer:
                who = tr("online.you", name=named or tr("table.you"))
            elif i in waiting:
                who = tr("online.free")
            else:
                name = named or tr("table.player", n=i + 1)
                name = tagged(name, seat.tag[:8] if seat.tag is not None else None)
                who = tr("online.here" if seat.connected else "online.away", name=name)
            lines.append((i, tr("fmt.pair", label=tr("new.seat", n=i + 1), value=who)))
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
            self._to_table = True
            self.app.replace("Table", controller=remote)
            return
        connection = remote.connection
        if connection.status == CLOSED:
            address = f"{connection.host}:{connection.port}"
            self._give_up(tr("online.unreachable", address=address, detail=connection.problem or "?"))
            return
        if self.shown() != self._shown:
            self.rebuild()

    def shown(self) -> object:
        """What the screen is built from and may change without input: the room, its status, the
        connection's, the player's balance (`build` notes it; `update` builds again when it moved)."""
        remote = self.remote
        return remote.room_id, remote.status, remote.connection.status, stakes.balance(remote.player)

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
        if remote.room_id is not None and remote.refusal_code in ("unknown_room", "seat_freed"):
            # The room is gone, or the seat was freed: its key opens nothing now.
            self.app.store.keys.forget(remote.room_id)
        remote.connection.close()
        self.app.replace("Lobby", message=message)

    def back(self) -> None:
        """Leave the room (a claimed seat keeps its key: My rooms brings it back; but a guest's
        seat in a public room waiting for players is freed at once, so its key is forgotten)."""
        remote, status = self.remote, self.remote.status
        freed = (status is not None and remote.kind == "public" and status.state == "waiting"
                 and remote.viewer is not None and not remote.owns_room)
        remote.leave()
        if freed and remote.room_id is not None:
            self.app.store.keys.forget(remote.room_id)
        self.app.replace("Lobby")
