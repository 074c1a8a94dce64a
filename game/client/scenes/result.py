"""The result screen: who won, the cards left in each hand and their points, the scores.

For multi-deal games a chart shows the running scores deal by deal. "New round"
needs every human at the table to confirm in hot-seat play; when the match is won,
"New game" starts another with the same seats and rules. Online, "New round" tells
the server this seat is ready, and the screen stays until the server deals.
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

import pygame

from game.engine import Match, RoundResult

from .. import ui
from ..art import CardArt
from ..i18n import tr
from ..remote import RemoteController
from ..scene import Scene
from ..widgets import Button, tapped

if TYPE_CHECKING:
    from ..app import App
    from .table import TableScene

CHART_COLORS = [(240, 208, 96), (120, 200, 255), (255, 130, 120), (150, 230, 140),
                (220, 150, 255), (255, 190, 90), (200, 200, 200)]


class ResultScene(Scene):
    """Opaque screen over the finished round."""

    def __init__(self, app: App, table: TableScene) -> None:
        super().__init__(app)
        self.table = table
        self.controller = table.controller
        self.confirmed: set[int] = set()
        self._hand_art: CardArt | None = None
        self.rows: list[pygame.Rect] = []  # where each seat's line was drawn (for tests)
        self.buttons: list[Button] = []
        self.resize(app.size)

    @property
    def match(self) -> Match:
        """The finished match (or the match between deals)."""
        return self.controller.match

    @property
    def online(self) -> bool:
        """Whether the server deals the next round (an online table)."""
        return isinstance(self.controller, RemoteController)

    @property
    def final(self) -> bool:
        """Whether the match itself is won (no further deal of this match)."""
        return self.match.status == "match_over" and bool(self.match.target)

    def resize(self, size: tuple[int, int]) -> None:
        """Buttons along the bottom."""
        w, h = size
        scale = ui.scale_for(size)
        bw, bh = int(240 * scale), max(44, int(56 * scale))
        names = self.table.names()
        specs: list[tuple[str, str]] = []
        humans = self.controller.humans
        if isinstance(self.controller, RemoteController):
            if not self.final:
                ready = self.controller.accepted
                specs.append(("again", tr("online.waiting_round") if ready else tr("result.new_round")))
        elif len(humans) >= 2 and not self.final:
            for seat in humans:
                label = ("✓ " if seat in self.confirmed else "") + names[seat]
                specs.append((f"ready {seat}", label))
        else:
            specs.append(("again", tr("menu.new") if self.final else tr("result.new_round")))
        specs.append(("menu", tr("result.menu")))
        gap = int(20 * scale)
        total = len(specs) * bw + (len(specs) - 1) * gap
        x0, y = (w - total) // 2, h - bh - int(30 * scale)
        self.buttons = [Button(intent, label, pygame.Rect(x0 + i * (bw + gap), y, bw, bh),
                               hot=intent != "menu")
                        for i, (intent, label) in enumerate(specs)]

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Buttons by tap; Enter for the first, Esc for the menu."""
        if event.type == pygame.MOUSEBUTTONUP:
            button = tapped(self.buttons, event.pos)
            if button is not None:
                self.activate(button.intent)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                pending = [b for b in self.buttons if b.intent != "menu" and not self._confirmed(b.intent)]
                if pending:
                    self.activate(pending[0].intent)
            elif event.key == pygame.K_ESCAPE:
                self.activate("menu")
            return True
        return event.type == pygame.MOUSEBUTTONDOWN

    def _confirmed(self, intent: str) -> bool:
        return intent.startswith("ready ") and int(intent.split()[1]) in self.confirmed

    def activate(self, intent: str) -> None:
        """Carry out a button."""
        self.app.sound.play("click")
        if intent == "menu":
            self.app.go_to_menu()
        elif intent.startswith("ready "):
            self.confirmed.add(int(intent.split()[1]))
            if self.confirmed >= set(self.controller.humans):
                self.next_round()
            else:
                self.resize(self.app.size)
        elif intent == "again" and self.online:
            if not self.controller.accepted:
                self.controller.next_round()  # the server deals once every player is ready
                self.resize(self.app.size)
        elif intent == "again":
            if self.final:
                self.new_game()
            else:
                self.next_round()

    def update(self, dt: float) -> None:
        """Online: follow the room, and go back to the table when the server deals again."""
        if not self.online:
            return
        self.controller.update(dt)
        if self.match.status == "playing":
            self.table.result_shown = False
            self.app.stack.pop()

    def next_round(self) -> None:
        """Deal again and go back to the table."""
        self.controller.next_round()
        self.table.result_shown = False
        self.table._animate(self.controller.take_events())
        self.app.stack.pop()

    def new_game(self) -> None:
        """A fresh match with the same rules and seats."""
        from .newgame import start_match

        start_match(self.app, self.match.rules, self.controller.seats)

    # ---- drawing -----------------------------------------------------------------------------
    def headline(self) -> str:
        """Who won, or why nobody did."""
        result = self.match.round.result
        names = self.table.names()
        if self.final:
            winners = self.match.winners
            if len(winners) == 1:
                return self.winner_line(winners[0])
            return tr("result.winners", names=" & ".join(names[s] for s in winners))
        if result is None:
            return ""
        if result.tie:
            return tr("result.tie")
        if len(result.winners) > 1:
            return tr("result.winners", names=" & ".join(names[s] for s in result.winners))
        assert result.winner is not None
        return self.winner_line(result.winner)

    def winner_line(self, seat: int) -> str:
        """``You win!`` for the solo player, else ``<name> wins!``."""
        config = self.controller.seats[seat]
        mine = seat == self.controller.viewer and not self.controller.hot_seat  # solo, or online
        if mine and config.is_human and not config.name:
            return tr("result.you_win")
        return tr("result.winner", name=self.table.names()[seat])

    def draw(self, surface: pygame.Surface) -> None:
        """Headline, per-seat hands and points, the chart, the buttons."""
        surface.blit(self.table.painter.background, (0, 0))
        w, h = surface.get_size()
        scale = ui.scale_for((w, h))
        title = tr("result.match_over") if self.final else tr("result.title")
        ui.text(surface, title, (w // 2, int(24 * scale)), int(26 * scale), anchor="midtop")
        ui.text(surface, self.headline(), (w // 2, int(60 * scale)), int(46 * scale), bold=True,
                color=ui.GOLD, anchor="midtop")
        result = self.match.round.result
        top = int(140 * scale)
        if result is not None and result.blocked and not result.tie:
            ui.text(surface, tr("result.blocked"), (w // 2, top - int(24 * scale)), int(20 * scale),
                    anchor="midtop")
        if result is not None:
            self._hands(surface, result, top, scale)
        if len(self.match.results) > 1 or self.match.target:
            self._chart(surface, pygame.Rect(int(w * 0.62), top, int(w * 0.34), int(h * 0.48)), scale)
        for button in self.buttons:
            button.draw(surface, scale)
        if isinstance(self.controller, RemoteController):
            notice = self.controller.notice(self.table.names())
            if notice:
                ui.text(surface, notice, (w // 2, min(b.rect.top for b in self.buttons) - int(8 * scale)),
                        int(20 * scale), anchor="midbottom")

    def _hands(self, surface: pygame.Surface, result: RoundResult, top: int, scale: float) -> None:
        names = self.table.names()
        px = max(14, int(19 * scale))
        x = int(40 * scale)
        y = top + int(px * 1.6)
        bottom = min(b.rect.top for b in self.buttons) - int(12 * scale)
        players = self.match.players
        # Rows share the height left above the buttons; the cards shrink to fit seven seats.
        row_h = min(int(self.table.layout.small_card[1] + 12 * scale), (bottom - y) // players)
        card_h = max(24, row_h - int(6 * scale))
        art = self._art(int(card_h / 1.4))
        sw, sh = art.size
        cx = x + int(170 * scale)
        nx = cx + int(250 * scale) + sw
        small = int(px * 0.85)
        self.rows = []
        ui.text(surface, tr("result.hand"), (cx, top), small)
        ui.text(surface, f"{tr('result.value')}  ·  {tr('result.points')}  ·  {tr('result.total')}",
                (nx, top), small)
        for seat in range(players):
            winner = seat in result.winners
            middle = y + sh // 2
            ui.text(surface, names[seat], (x, middle), min(px, max(12, row_h // 2)), bold=winner,
                    anchor="midleft", color=ui.GOLD if winner else ui.CREAM)
            hand = result.hands[seat]
            step = min(int(sw * 0.55), int(250 * scale) // max(1, len(hand)))
            for i, card in enumerate(hand):
                surface.blit(art.face(card, markers=self.table.markers), (cx + i * step, y))
            self.rows.append(pygame.Rect(x, y, surface.get_width() - 2 * x, sh))
            figures = f"{result.totals[seat]}  ·  +{result.points[seat]}  ·  {self.match.scores[seat]}"
            ui.text(surface, figures, (nx, middle), min(px, max(12, row_h // 2)), anchor="midleft")
            y += row_h

    def _art(self, width: int) -> CardArt:
        """Card art for the hands at ``width`` px (kept while the size stays)."""
        width = max(17, width)
        if self._hand_art is None or self._hand_art.width != width:
            self._hand_art = CardArt(width, four_color=self.app.settings.four_color)
        return self._hand_art

    def _chart(self, surface: pygame.Surface, box: pygame.Rect, scale: float) -> None:
        results = self.match.results
        players = self.match.players
        series = [list(accumulate(r.points[s] for r in results)) for s in range(players)]
        top = max([self.match.target] + [max(s) for s in series] + [1])
        pygame.draw.rect(surface, (10, 40, 30), box, border_radius=int(10 * scale))
        inner = box.inflate(-int(40 * scale), -int(40 * scale))
        if self.match.target:
            ty = inner.bottom - int(inner.height * self.match.target / top)
            pygame.draw.line(surface, (200, 80, 80), (inner.left, ty), (inner.right, ty),
                             max(1, int(2 * scale)))
        names = self.table.names()
        for seat, values in enumerate(series):
            color = CHART_COLORS[seat % len(CHART_COLORS)]
            points = [(inner.left + int(inner.width * i / max(1, len(values))),
                       inner.bottom - int(inner.height * v / top)) for i, v in enumerate([0] + values)]
            if len(points) > 1:
                pygame.draw.lines(surface, color, False, points, max(2, int(3 * scale)))
            for p in points:
                pygame.draw.circle(surface, color, p, max(3, int(4 * scale)))
            ui.text(surface, names[seat], (box.left + int(12 * scale), box.bottom + int(8 * scale) + seat
                                           * int(22 * scale)), int(16 * scale), color=color)
