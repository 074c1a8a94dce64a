"""A server's ranking: the leaderboard of each rule set, and my ranked games there.

Pushed over the server's lobby. It opens its own connection, says hello with this
device's player (so the server adds the player's own rank) and asks for the
``leaderboard`` of the chosen rule set, or for the player's ``history``. The top
players are shown a page at a time (the server sends the top 100), with the
player's own rank below; the history lists the latest ranked games with their
outcome and points. What the server sends is shown as plain text, cut to size.

A server answers these questions about once a second: stepping through the rule sets
asks only for the one the choice rests on (`ASK_REST`), and a question the server
turned away is asked again a second later.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Final

import pygame

from game.engine import PRESETS
from game.net.client import CLOSED, RoomConnection, Server, server_text
from game.net.messages import (
    Error,
    History,
    HistoryAnswer,
    Leaderboard,
    LeaderboardAnswer,
    PlayerProfile,
    ServerMessage,
)
from game.net.replies import RankedGame, RankRow

from .. import online_player, ui
from ..gui import GuiScene, step_through
from ..i18n import tr
from ..layout import line_height

if TYPE_CHECKING:
    from ..scene import SceneApp

POLL: Final = 0.1
ASK_REST: Final = 0.4  # seconds a choice rests before the server is asked
RETRY: Final = 1.1  # seconds before a question the server turned away is asked again
MAX_OPPONENTS: Final = 2  # opponents named in a history line ("and N more" after)
VIEWS: Final = ("top", "history")


class LeaderboardScene(GuiScene):
    """The top players of a rule set, or my ranked games; Back pops it."""

    def __init__(self, app: SceneApp, server: Server, preset_name: str = "colors", *,
                 connection: RoomConnection | None = None) -> None:
        self.server = Server(*server)
        host, port, tls = self.server
        self.preset_name = preset_name if preset_name in PRESETS else "colors"
        self.view = "top"
        self.page = 0
        self.board: LeaderboardAnswer | None = None
        self.games: list[RankedGame] | None = None
        self.connection = connection if connection is not None else RoomConnection(
            host, port, self._question(), tls=tls, player=online_player.hello(app, self.server))
        self._poll = 0.0
        self._ask_in: float | None = None  # a question waiting for the choice to rest
        self._rows = 10  # rows a page holds at this size (set while drawing)
        super().__init__(app)

    def _question(self) -> History | Leaderboard:
        if self.view == "history":
            return History()
        return Leaderboard(preset=self.preset_name)

    # ---- widgets -------------------------------------------------------------------------------
    def build(self) -> None:
        """Rules, which list, the page; Back."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(48 * s))
        self.label(pygame.Rect(0, int(16 * s), w, int(56 * s)), tr("board.title"), "#heading")
        third = (w - 4 * m) // 3
        y = int(80 * s)
        self.button(pygame.Rect(m, y, third, bh),
                    tr("fmt.pair", label=tr("stats.rules"), value=tr("preset." + self.preset_name)) + "  ◂ ▸",
                    lambda: self.step_preset(1), self.step_preset, object_id="#option")
        self.button(pygame.Rect(2 * m + third, y, third, bh), tr(f"board.{self.view}") + "  ◂ ▸",
                    self.toggle_view, lambda delta: self.toggle_view(), object_id="#option")
        arrows = "  ◂ ▸" if self._lines() else ""  # an empty list has no page to turn to
        self.button(pygame.Rect(3 * m + 2 * third, y, third, bh), self._page_text() + arrows,
                    lambda: self.step_page(1), self.step_page, object_id="#option")
        self.button(pygame.Rect((w - int(220 * s)) // 2, h - bh - int(20 * s), int(220 * s), bh),
                    tr("stats.back"), self.back)

    def _page_text(self) -> str:
        rows = self._rows
        total = len(self._lines())
        if not total:  # nothing to page through: said in words, not "0–0 / 0"
            return tr("board.no_page")
        first = min(total, self.page * rows + 1)
        return tr("board.page", first=first, last=min(total, (self.page + 1) * rows), total=total)

    def _lines(self) -> list[RankRow] | list[RankedGame]:
        if self.view == "history":
            return self._games()
        return self._rows_of_board()

    def _games(self) -> list[RankedGame]:
        return list(self.games or [])

    def _rows_of_board(self) -> list[RankRow]:
        return self.board.rows() if self.board is not None else []

    # ---- the connection ----------------------------------------------------------------------------
    def take(self, message: ServerMessage) -> None:
        """Take in one of the server's answers."""
        if (isinstance(message, LeaderboardAnswer) and message.preset == self.preset_name
                and message.top is not None):
            self.board = message
        elif isinstance(message, HistoryAnswer) and message.games is not None:
            self.games = message.played()
        elif isinstance(message, PlayerProfile):
            online_player.remember(self.app, self.server, message)
        elif isinstance(message, Error) and message.code == "too_many_requests":
            self._ask_in = RETRY  # asked too often: again in a moment

    def update(self, dt: float) -> None:
        """Ask once the choice rests; look for the server's answers."""
        super().update(dt)
        if self._ask_in is not None:
            self._ask_in -= dt
            if self._ask_in <= 0:
                self._ask_in = None
                self.connection.send(self._question())
        self._poll -= dt
        if self._poll > 0:
            return
        self._poll = POLL
        before = (repr(self.board), repr(self.games), self.connection.status)
        for message in self.connection.poll_messages():
            self.take(message)
        if (repr(self.board), repr(self.games), self.connection.status) != before:
            self.rebuild()

    def next_frame(self) -> float | None:
        """Look at the connection every `POLL`."""
        own = super().next_frame()
        return POLL if own is None else min(own, POLL)

    def exit(self) -> None:
        """The connection closes with the screen."""
        self.connection.close()

    # ---- actions --------------------------------------------------------------------------------
    def step_preset(self, delta: int) -> None:
        """The next or previous rule set's leaderboard."""
        self.preset_name = step_through(list(PRESETS), self.preset_name, delta)
        self.board, self.page = None, 0
        self._ask_in = ASK_REST
        self.rebuild()

    def toggle_view(self) -> None:
        """Top players, or my ranked games."""
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        self.page = 0
        self._ask_in = ASK_REST
        self.rebuild()

    def step_page(self, delta: int) -> None:
        """The next or previous page of the list."""
        pages = max(1, -(-len(self._lines()) // max(1, self._rows)))
        self.page = (self.page + delta) % pages
        self.rebuild()

    def back(self) -> None:
        """Back to the server's lobby."""
        self.app.pop()

    # ---- drawing -----------------------------------------------------------------------------
    def draw_extra(self, surface: pygame.Surface) -> None:
        """The page of the list and, for the leaderboard, the player's own rank."""
        w, h = surface.get_size()
        s = self.scale
        px = max(14, int(20 * s))
        line = int(line_height(px) * 1.15)
        top = int(80 * s) + max(40, int(48 * s)) + int(24 * s)
        bottom = h - max(40, int(48 * s)) - int(40 * s) - 2 * line
        x0, width = int(w * 0.06), int(w * 0.88)
        self._rows = max(1, (bottom - top - line) // line)
        if self.connection.status == CLOSED and self.board is None and self.games is None:
            why = tr("online.unreachable", address=server_text(self.server),
                     detail=self.connection.problem or "?")
            ui.fit(surface, why, (x0, top, width, 3 * line), px, lines=3, valign="top")
            return
        page = slice(self.page * self._rows, (self.page + 1) * self._rows)
        if self.view == "history":
            self._history(surface, self._games()[page], (x0, top, width), px, line)
        else:
            self._top(surface, self._rows_of_board()[page], (x0, top, width), px, line)
            self._own(surface, (x0, bottom + line // 2, width, line), px)

    def _top(self, surface: pygame.Surface, rows: list[RankRow], box: tuple[int, int, int], px: int,
             line: int) -> None:
        x0, y, width = box
        if self.board is None:
            ui.fit(surface, tr("board.loading"), (x0, y, width, line), px, align="left")
            return
        if not rows:  # nobody played it ranked, or nobody met enough opponents yet (the asker did play)
            empty = "board.empty_unmet" if self.board.own is not None else "board.empty"
            ui.fit(surface, tr(empty), (x0, y, width, line), px, align="left")
            return
        xs = [x0 + int(width * f) for f in (0, 0.1, 0.66, 0.84, 1.0)]
        heads = ("board.rank", "board.player", "board.points", "board.games")
        for x, right, key in zip(xs[:-1], xs[1:], heads, strict=True):
            ui.fit(surface, tr(key), (x, y, right - x - 6, line), px, color=ui.GOLD, bold=True, align="left")
        y += line
        for row in rows:
            cells = [str(_number(row.rank)), online_player.label(row, "?"), str(_number(row.xp)),
                     str(_number(row.games))]
            color = ui.GOLD if row.you else ui.CREAM
            for x, right, cell in zip(xs[:-1], xs[1:], cells, strict=True):
                ui.fit(surface, cell, (x, y, right - x - 6, line), px, color=color, align="left")
            y += line

    def _own(self, surface: pygame.Surface, box: tuple[int, int, int, int], px: int) -> None:
        board = self.board
        if board is None:
            return
        you = board.own
        if you is not None and you.rank is None and you.needs:  # not shown until they met enough people
            text = tr("board.needs", n=_number(you.needs), xp=_number(you.xp))
        elif you is not None:
            text = tr("board.you", rank=_number(you.rank), players=_number(board.players), xp=_number(you.xp))
        else:
            text = tr("board.unranked")
        ui.fit(surface, text, box, px, color=ui.GOLD, bold=True, align="left")

    def _history(self, surface: pygame.Surface, games: list[RankedGame], box: tuple[int, int, int], px: int,
                 line: int) -> None:
        x0, y, width = box
        if self.games is None:
            ui.fit(surface, tr("board.loading"), (x0, y, width, line), px, align="left")
            return
        if not games:
            ui.fit(surface, tr("board.no_games"), (x0, y, width, line), px, align="left")
            return
        for game in games[:max(1, self._rows // 2)]:  # two lines each
            ui.fit(surface, _when(game.at), (x0, y, int(width * 0.2) - 6, line), px, color=ui.GOLD,
                   align="left")
            ui.fit(surface, self.game_text(game), (x0 + int(width * 0.2), y, int(width * 0.8), 2 * line), px,
                   align="left", valign="top", lines=2)
            y += 2 * line

    @staticmethod
    def game_text(game: RankedGame) -> str:
        """One ranked game in words: rules, outcome, points, opponents."""
        preset, outcome = game.preset, game.outcome
        opponents = [o[:34] for o in game.opponents]
        shown = ", ".join(opponents[:MAX_OPPONENTS]) or "–"
        if len(opponents) > MAX_OPPONENTS:
            shown += " " + tr("lobby.more", n=len(opponents) - MAX_OPPONENTS)
        xp = game.xp
        points = f"{xp:+d}" if xp is not None and abs(xp) < 10**9 else "?"
        text = tr("board.game", preset=tr("preset." + preset) if preset in PRESETS else "?",
                  outcome=tr("board.outcome." + outcome) if outcome in (
                      "win", "loss", "tie", "abandoned", "penalty") else "?",
                  xp=points, opponents=shown)
        why = _reason(game.reason)
        return text if why is None else tr("board.game_reason", game=text, reason=why)


def _reason(reason: str | None) -> str | None:
    """Why fair play took a game's points (the server's ``reason``), in words; None: it did not."""
    if reason == "short":
        return tr("board.reason.short")
    if reason == "pair_cap":
        return tr("board.reason.pair_cap")
    return None


def _number(value: int | None) -> int:
    return value if value is not None and abs(value) < 10**9 else 0


def _when(at: float | None) -> str:
    """A game's date, in this computer's time."""
    if at is None or not 0 < at < 10**11:
        return "?"
    try:
        return datetime.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):  # past what this system's clock can say (Windows: year 3000)
        return "?"
