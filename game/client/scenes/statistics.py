"""The Statistics screen: solo results per rule set and computer level, with a small chart.

One rule set at a time (◂ ▸ to change): a row per computer level with games, wins,
the wins the autopilot played (apart: they are not the player's, nor in their streak),
ties, best score and streaks, and a bar per level split the same way.
For a ranked rule set (``ranking_xp``: ``colors``), the ranking's experience points and
their history as a line. Beside them, for every rule set, the points this player earned
in ranked online games, and the tokens held there, per server, as each server last said
(kept on this device: `game.saves.player`). Under them, the last deals played (`game.saves.reviews`,
ten at most): its ◂ and ▸ buttons (or ← →) choose one, and a tap on its name opens its review
(`scenes.review`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import pygame

from game.engine import PRESETS
from game.saves import Record, Statistics
from game.saves.reviews import ReviewRecord

from .. import ui
from ..gui import GuiScene, step_through
from ..i18n import tr
from ..layout import line_height

if TYPE_CHECKING:
    from ..scene import SceneApp

LEVEL_ORDER: Final = ("easy", "medium", "hard", "mixed")
WIN, TIE, LOSS = (240, 208, 96), (170, 170, 170), (210, 90, 80)
AUTOPILOT = (110, 190, 255)  # wins the autopilot played: not the player's gold


class StatisticsScene(GuiScene):
    """Pushed over the menu; Back (or Esc) pops it."""

    def __init__(self, app: SceneApp) -> None:
        self.stats: Statistics = app.store.read_statistics()
        player = app.store.player.read()  # never made here: only a visit online makes a player
        self.online = player.servers if player is not None else {}
        played = [p for p in PRESETS if p in self.stats.records]
        last = app.settings.last_preset if app.settings.last_preset in PRESETS else next(iter(PRESETS))
        self.preset_name = last if last in self.stats.records or not played else played[0]
        self.deals = self._recent(app)
        self.deal = len(self.deals) - 1  # the newest first
        super().__init__(app)

    @staticmethod
    def _recent(app: SceneApp) -> list[list[ReviewRecord]]:
        """The kept deals, oldest first, each with its records (one per person who played it here)."""
        deals: dict[str, list[ReviewRecord]] = {}
        for record in app.store.read_reviews().records:
            deals.setdefault(record.key, []).append(record)
        return list(deals.values())

    @property
    def rows(self) -> list[tuple[str, Record]]:
        """(level, record) for the chosen rules, easiest first."""
        records = self.stats.records.get(self.preset_name, {})
        return [(lv, records[lv]) for lv in sorted(records, key=lambda lv: (
            LEVEL_ORDER.index(lv) if lv in LEVEL_ORDER else len(LEVEL_ORDER), lv))]

    def build(self) -> None:
        """Heading, the rules chooser and Back."""
        w, h = self.app.size
        s = self.scale
        self.label(pygame.Rect(0, int(20 * s), w, int(60 * s)), tr("stats.title"), "#heading")
        bw, bh = int(min(w * 0.5, 480 * s)), max(44, int(52 * s))
        self.button(pygame.Rect((w - bw) // 2, int(90 * s), bw, bh),
                    tr("fmt.pair", label=tr("stats.rules"), value=tr("preset." + self.preset_name)) + "  ◂ ▸",
                    lambda: self.step_preset(1), self.step_preset)
        back = pygame.Rect(w - int(240 * s) - int(20 * s), h - bh - int(20 * s), int(220 * s), bh)
        review = pygame.Rect(int(20 * s), back.top, back.left - int(40 * s), bh)
        if self.deals:
            # ◂ and ▸ of their own, for the mouse and touch (the keys' ← → step on the label too):
            # the label itself opens the chosen deal's review.
            arrow = bh
            label = review.inflate(-2 * (arrow + int(6 * s)), 0)
            self.button(pygame.Rect(review.left, review.top, arrow, bh), "◂", lambda: self.step_deal(-1),
                        self.step_deal, key="review.left")
            self.button(label, tr("stats.review", deal=self.deal_label(self.deals[self.deal][0])),
                        self.open_review, self.step_deal, key="review")
            self.button(pygame.Rect(review.right - arrow, review.top, arrow, bh), "▸",
                        lambda: self.step_deal(1), self.step_deal, key="review.right")
        else:
            self.label(review, tr("stats.review_none"), "#small")
        self.button(back, tr("stats.back"), self.back)

    @staticmethod
    def deal_label(record: ReviewRecord) -> str:
        """``Classic, deal 3 (solo)``."""
        return tr("stats.review_deal", preset=tr("preset." + record.preset), n=record.deal,
                  source=tr("review.mode." + record.mode))

    def step_deal(self, delta: int) -> None:
        """An older or newer deal (◂ ▸ on the review button)."""
        self.deal = (self.deal - delta) % len(self.deals)
        self.rebuild()

    def open_review(self) -> None:
        """The chosen deal's review."""
        self.app.push("Review", records=self.deals[self.deal])

    def step_preset(self, delta: int) -> None:
        """The next or previous rule set."""
        self.preset_name = step_through(list(PRESETS), self.preset_name, delta)
        self.rebuild()

    def back(self) -> None:
        """Close."""
        self.app.pop()

    # ---- drawing -----------------------------------------------------------------------------
    def draw_extra(self, surface: pygame.Surface) -> None:
        """The table of records, the bars, and for ``colors`` the ranking line."""
        w, h = surface.get_size()
        s = self.scale
        px = max(14, int(22 * s))
        top = int(90 * s) + max(44, int(52 * s)) + int(24 * s)
        rows = self.rows
        columns = ["stats.level", "stats.games", "stats.wins", "stats.autopilot", "stats.ties", "stats.best",
                   "stats.streak", "stats.best_streak"]
        x0, width = int(w * 0.08), int(w * 0.84)
        xs = [x0 + int(width * f) for f in (0, 0.20, 0.30, 0.40, 0.54, 0.64, 0.78, 0.88, 1.0)]
        if not rows:
            none_box = (x0, top, width, 2 * line_height(px))
            ui.fit(surface, tr("stats.none"), none_box, px, lines=2, valign="top")
        else:
            head = int(px * 0.8)
            head_h = 2 * line_height(head)  # "Meilleure série" may take two lines
            for x, right, key in zip(xs[:-1], xs[1:], columns, strict=True):
                ui.fit(surface, tr(key), (x, top, right - x - int(6 * s), head_h), head, color=ui.GOLD,
                       bold=True, align="left", valign="bottom", lines=2)
            y = top + head_h + int(px * 0.3)
            for level, rec in rows:
                best = "–" if rec.best is None else str(rec.best)
                cells = [tr("level." + level), rec.games, rec.wins, rec.autopilot_wins, rec.ties, best,
                         rec.streak, rec.best_streak]
                for x, right, cell in zip(xs[:-1], xs[1:], cells, strict=True):
                    cell_box = (x, y, right - x - int(6 * s), line_height(px))
                    ui.fit(surface, str(cell), cell_box, px, align="left")
                y += int(px * 1.5)
            self._bars(surface, pygame.Rect(x0, y + px, width, int(px * 1.3) * len(rows) + px * 2), rows, px)
        ranked = PRESETS[self.preset_name].ranking_xp
        if ranked:
            self._xp(surface, pygame.Rect(x0, int(h * 0.68), width // 2, int(h * 0.16)), px)
        if self.online:
            left = x0 + width // 2 if ranked else x0
            box = pygame.Rect(left, int(h * 0.68), x0 + width - left, 3 * line_height(px))
            self._online(surface, box, px)

    def _bars(self, surface: pygame.Surface, box: pygame.Rect, rows: list[tuple[str, Record]],
              px: int) -> None:
        small = int(px * 0.8)
        line = line_height(small)
        keys = (("stats.wins", WIN), ("stats.autopilot_short", AUTOPILOT), ("stats.ties", TIE),
                ("stats.losses", LOSS))
        legend_w = sum(ui.font(int(px * 0.7)).size(tr(key))[0] + px * 2 for key, _ in keys)
        title = ui.fit(surface, tr("stats.chart"), (box.left, box.top, box.width - legend_w, line), small,
                       color=ui.GOLD, align="left")
        x = max(title.right + px, box.right - legend_w)
        for key, color in keys:
            pygame.draw.rect(surface, color, (x, box.top + px // 5, px // 2, px // 2))
            label_w = ui.font(int(px * 0.7)).size(tr(key))[0]
            key_box = (x + px * 2 // 3, box.top, label_w + 2, line)
            ui.fit(surface, tr(key), key_box, int(px * 0.7), align="left")
            x += px * 2 // 3 + label_w + px
        label_w = int(box.width * 0.2)
        y = box.top + int(px * 1.4)
        bar_h = int(px * 1.0)
        for level, rec in rows:
            ui.fit(surface, tr("level." + level), (box.left, y, label_w - int(6 * self.scale), bar_h), small,
                   align="left")
            x = box.left + label_w
            full = box.width - label_w
            for count, color in ((rec.wins, WIN), (rec.autopilot_wins, AUTOPILOT), (rec.ties, TIE),
                                 (rec.losses, LOSS)):
                part = int(full * count / rec.games) if rec.games else 0
                if part:
                    pygame.draw.rect(surface, color, (x, y, part, bar_h))
                x += part
            y += int(px * 1.3)

    def _online(self, surface: pygame.Surface, box: pygame.Rect, px: int) -> None:
        """The online points of the chosen rule set and the tokens held, per server (two servers at
        most, three lines)."""
        servers = list(self.online.items())[:2]
        lines = [tr("stats.online_xp", server=server, xp=standing.xp[self.preset_name])
                 for server, standing in servers if self.preset_name in standing.xp]
        size = int(px * 0.85)
        if not lines:
            ui.fit(surface, tr("stats.online_none"), (box.left, box.top, box.width, line_height(size)), size,
                   align="left")
        # The balance is the profile's, whatever the rule set: under the points (or their absence).
        tokens = [tr("stats.online_tokens", server=server, tokens=standing.tokens)
                  for server, standing in servers if standing.tokens is not None]
        first = 1 if not lines else 0
        for i, line in enumerate((lines + tokens)[:3 - first], start=first):
            ui.fit(surface, line, (box.left, box.top + i * line_height(size), box.width, line_height(size)),
                   size, color=ui.GOLD, bold=i == 0, align="left")

    def _xp(self, surface: pygame.Surface, box: pygame.Rect, px: int) -> None:
        ui.fit(surface, tr("stats.xp", xp=self.stats.xp), (box.left, box.top, box.width, line_height(px)), px,
               color=ui.GOLD, bold=True, align="left")
        history = [0] + self.stats.xp_history
        if len(history) < 2:
            return
        chart = pygame.Rect(box.left, box.top + int(px * 1.6), box.width, box.height - int(px * 1.6))
        pygame.draw.rect(surface, (0, 0, 0), chart, width=1)
        low, high = min(history), max(history)
        span = max(1, high - low)
        points = [(chart.left + int(chart.width * i / (len(history) - 1)),
                   chart.bottom - int(chart.height * (v - low) / span)) for i, v in enumerate(history)]
        pygame.draw.lines(surface, WIN, False, points, max(2, int(3 * self.scale)))
