"""The result screen: who won, the cards left in each hand and, where points carry over, the scores.

In a game to a target (a Points game) each hand shows its value, the round's points and the
running total (the pair's, when partners' points add up), and a chart shows the race to the
target deal by deal. A one-round (Quick) game shows who went out and the cards each held (with
their value when a blocked round was decided by it), and no running score. Either way, beside the
hands, the deal's points and how they were counted, card by card (`deal_score`). "New round"
asks the controller for the next deal: at once on this device (in hot-seat play
once every human at the table has confirmed), online once every player has asked
(the button then says so, and the screen stays until the server deals). The screen
closes when the shown seat's view says the next deal is being played; the table
then animates it. When the match is won here, "New game" starts another with the
same seats and rules. The screen reads the game only from the shown seat's view
and the controller's past results. Online, the other players' names come with their
tags (``Ana #3F2K9Q``). A match won here opens with a short celebration (`celebration`) that any
input ends, and which never stands in the way of the buttons. When the screen opens, the deal's
review data is kept (`review_data.records_of_table`: one record per person who played it here, or
this player's seat online) and "Review" opens it (`scenes.review`; hot-seat, behind the cover).
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

import pygame

from game.engine import PlayerView, RoundResult, Status
from game.engine.scoring import team_of

from .. import deal_score, stakes, ui
from ..art import CardArt
from ..celebration import FRAME, Celebration, won_here
from ..i18n import tr
from ..intents import Ready, ResultChoice, ResultIntent
from ..keymap import Nav
from ..layout import line_height
from ..remote import with_tags
from ..review_data import records_of_table
from ..saving import start_match
from ..scene import Scene
from ..score_chart import draw_chart
from ..table_paint import pooled
from ..widgets import Button, button_input

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp

class ResultScene(Scene):
    """Opaque screen over the finished round."""

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        super().__init__(app)
        self.table = table
        self.controller = table.controller
        self.confirmed: set[int] = set()
        self._hand_art: CardArt | None = None
        self.rows: list[pygame.Rect] = []  # where each seat's line was drawn (for tests)
        self.buttons: list[Button[ResultIntent]] = []
        self.closed = False  # leaving (back to the table, a new game, the menu): input is over
        self._look: tuple[object, ...] = ()
        self.celebration: Celebration | None = None
        people = [s for s in self.controller.local_seats if self.controller.seats[s].is_human]
        self.reviews = records_of_table(self.controller, self.names())
        app.store.add_reviews(self.reviews)  # kept for Statistics' recent deals too
        if won_here(self.view, people, app.settings.speed_factor):
            self.celebration = Celebration(app.size, seed=self.view.round_number)
        self.resize(app.size)

    def names(self) -> list[str]:
        """A name per seat, as the table writes them, with each other person's tag online
        (``Ana #3F2K9Q``): the result has room for it, and two Anas are told apart."""
        return with_tags(self.controller.seats, self.table.names())

    @property
    def view(self) -> PlayerView:
        """The shown seat's view of the finished deal (or, once dealt, of the next one)."""
        return self.controller.view()

    @property
    def final(self) -> bool:
        """Whether the match itself is won (no further deal of this match)."""
        view = self.view
        return view.status == Status.MATCH_OVER and bool(view.target)

    def resize(self, size: tuple[int, int]) -> None:
        """Buttons along the bottom."""
        w, h = size
        scale = ui.scale_for(size)
        bw, bh = int(240 * scale), max(44, int(56 * scale))
        names = self.names()
        specs: list[tuple[ResultIntent, str]] = []
        controller = self.controller
        here = controller.local_seats
        if self.final:
            if controller.can_rematch:
                specs.append((ResultChoice.AGAIN, tr("menu.new")))
        elif len(here) >= 2:  # hot-seat: each player at the table confirms
            for seat in here:  # "Léa: ready for the next round", ticked once she said so
                label = ("✓ " if seat in self.confirmed else "") + tr("result.ready_next", name=names[seat])
                specs.append((Ready(seat), label))
        elif not (controller.online and self.view.status == Status.MATCH_OVER):  # online: no deal after
            label = tr("online.waiting_round") if controller.awaiting_deal else tr("result.new_round")
            specs.append((ResultChoice.AGAIN, label))
        if self.reviews:
            specs.append((ResultChoice.REVIEW, tr("result.review")))
        specs.append((ResultChoice.MENU, tr("result.menu")))
        gap = int(20 * scale)
        bw = min(bw, (w - 2 * gap - (len(specs) - 1) * gap) // len(specs))  # seven people fit too
        total = len(specs) * bw + (len(specs) - 1) * gap
        x0, y = (w - total) // 2, h - bh - int(30 * scale)
        self.buttons = [Button(intent, label, pygame.Rect(x0 + i * (bw + gap), y, bw, bh),
                               hot=intent not in (ResultChoice.MENU, ResultChoice.REVIEW))
                        for i, (intent, label) in enumerate(specs)]

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Buttons by tap; Enter for the first, Esc for the menu."""
        if self.closed:
            return True  # a second press in the same frame must not deal twice
        if self.celebration is not None and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN,
                                                           pygame.MOUSEBUTTONUP):
            self.celebration, self.dirty = None, True  # any input ends it, and still does its work
        return button_input(event, self.buttons, self.activate, self.key)

    def key(self, key: Nav) -> None:
        """Enter takes the first button still to take (the next deal, or a player's Ready); Esc
        goes to the menu."""
        if key is Nav.ACTIVATE:
            pending = [b for b in self.buttons if b.intent not in (ResultChoice.MENU, ResultChoice.REVIEW)
                       and not self._confirmed(b.intent)]
            if pending:
                self.activate(pending[0].intent)
        elif key is Nav.BACK:
            self.activate(ResultChoice.MENU)

    def _confirmed(self, intent: ResultIntent) -> bool:
        return isinstance(intent, Ready) and intent.seat in self.confirmed

    def activate(self, intent: ResultIntent) -> None:
        """Carry out a button."""
        self.app.sound.play("click")
        match intent:
            case ResultChoice.MENU if self.controller.leaving_is_abandon:
                self.app.push("LeaveRanked", table=self.table)  # between two deals of a ranked match
            case ResultChoice.MENU:
                self.closed = True
                self.app.go_to_menu()
            case ResultChoice.REVIEW:
                self.app.push("Review", records=self.reviews)
            case Ready(seat=seat):
                self.confirmed.add(seat)
                if self.confirmed >= set(self.controller.local_seats):
                    self.next_round()
                else:
                    self.resize(self.app.size)
            case ResultChoice.AGAIN if self.final:
                self.new_game()
            case ResultChoice.AGAIN:
                self.next_round()

    def next_round(self) -> None:
        """Ask for the next deal (once); back to the table as soon as it is being played."""
        if self.view.status != Status.PLAYING and not self.controller.awaiting_deal:
            self.controller.next_round()
        if not self._back_when_dealt():
            self.resize(self.app.size)  # online: "Waiting for the others…"

    def update(self, dt: float) -> None:
        """Follow the game (online: the room) until the next deal is being played."""
        if self.closed:
            return
        if self.celebration is not None:
            self.celebration.update(dt)
            if not self.celebration.running:
                self.celebration = None
            self.dirty = True  # the confetti moves (once more when it ends: the screen without it)
        if self.view.status != Status.PLAYING:
            self.controller.update(dt)
        if not self._back_when_dealt():
            controller = self.controller  # online, the room's news: the points earned, who is away
            look = (self.view, tuple(controller.results), controller.earned, controller.tokens_moved,
                    controller.earned_less, controller.notice(self.names()))
            if look != self._look:
                self._look, self.dirty = look, True

    def next_frame(self) -> float | None:
        """What the controller has due while this screen follows it (online: the next look)."""
        if self.closed:
            return None
        due = self.controller.due()
        if self.celebration is not None:
            return FRAME if due is None else min(FRAME, due)
        return due

    def _back_when_dealt(self) -> bool:
        """Close when the shown seat's view says the next deal is being played (the table animates it)."""
        if self.closed or self.view.status != Status.PLAYING:
            return self.closed
        self.closed = True
        self.app.pop()
        return True

    def new_game(self) -> None:
        """A fresh match with the same rules and seats."""
        self.closed = True
        start_match(self.app, self.view.rules, list(self.controller.seats))

    # ---- drawing -----------------------------------------------------------------------------
    def headline(self) -> str:
        """Who won, or why nobody did."""
        view = self.view
        result = view.result
        names = self.names()
        if self.final:
            winners = view.winners
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
        solo = len(self.controller.local_seats) < 2  # solo, or online
        mine = seat == self.controller.viewer and solo
        if mine and config.is_human and not config.name:
            return tr("result.you_win")
        return tr("result.winner", name=self.names()[seat])

    def draw(self, surface: pygame.Surface) -> None:
        """Headline, per-seat hands and points, the chart, the buttons."""
        surface.blit(self.table.background, (0, 0))
        w, h = surface.get_size()
        scale = ui.scale_for((w, h))
        title = tr("result.match_over") if self.final else tr("result.title")
        margin = int(20 * scale)
        line = pygame.Rect(margin, int(16 * scale), w - 2 * margin, line_height(int(26 * scale)))
        ui.fit(surface, title, line, int(26 * scale))
        line = pygame.Rect(margin, line.bottom + int(3 * scale), w - 2 * margin, line_height(int(46 * scale)))
        ui.fit(surface, self.headline(), line, int(46 * scale), bold=True, color=ui.GOLD)
        view = self.view
        result = view.result
        top = int(140 * scale)
        said = [tr("result.blocked")] if result is not None and result.blocked and not result.tie else []
        earned = self.controller.earned  # a ranked game online: the points it brought
        if earned is not None:
            said.append(tr("result.earned", points=f"{earned:+d}"))
        tokens = self.controller.tokens_moved  # and the tokens its stakes moved
        if tokens is not None:
            said.append(stakes.moved_text(tokens))
        less = self.controller.earned_less  # the server's fair play took them: say why
        if less == "short":
            said.append(tr("board.reason.short"))
        elif less == "pair_cap":
            said.append(tr("board.reason.pair_cap"))
        if said:
            box = (margin, line.bottom + 2, w - 2 * margin, top - line.bottom - 4)
            ui.fit(surface, "  ·  ".join(said), box, int(20 * scale), color=ui.GOLD if earned else ui.CREAM)
        if result is not None:
            self._hands(surface, view, result, top, scale)
        # Beside the hands, the deal's score and how it was counted; in a Points game, above the race.
        panel, counting = self.chart_box((w, h)), deal_score.lines(view, self.names())
        if view.target:
            used = deal_score.height(counting, panel.width, scale, panel.height // 2)
            deal_score.draw(surface, counting, pygame.Rect(panel.left, panel.top, panel.width, used), scale)
            gap = int(8 * scale) if used else 0
            self._chart(surface, view, pygame.Rect(panel.left, panel.top + used + gap, panel.width,
                                                   panel.height - used - gap), scale)
        else:
            notice_room = line_height(int(20 * scale)) + int(16 * scale)  # the online notice's line
            bottom = min(b.rect.top for b in self.buttons) - notice_room
            deal_score.draw(surface, counting, pygame.Rect(panel.left, panel.top, panel.width,
                                                           bottom - panel.top), scale)
        for button in self.buttons:
            button.draw(surface, scale)
        notice = self.controller.notice(self.names())  # online: who has not asked yet...
        if notice:
            height = line_height(int(20 * scale))
            bottom = min(b.rect.top for b in self.buttons) - int(4 * scale)
            ui.fit(surface, notice, (margin, bottom - height, w - 2 * margin, height), int(20 * scale))
        if self.celebration is not None:  # over the screen, the buttons drawn again on top of it
            self.celebration.draw(surface)
            for button in self.buttons:
                button.draw(surface, scale)

    def chart_box(self, size: tuple[int, int]) -> pygame.Rect:
        """Where the score chart goes (right of the hands)."""
        w, h = size
        scale = ui.scale_for(size)
        return pygame.Rect(int(w * 0.62), int(140 * scale), int(w * 0.34), int(h * 0.48))

    def _hands(self, surface: pygame.Surface, view: PlayerView, result: RoundResult, top: int,
               scale: float) -> None:
        names = self.names()
        px = max(14, int(19 * scale))
        x = int(40 * scale)
        y = top + int(px * 1.6)
        bottom = min(b.rect.top for b in self.buttons) - int(12 * scale)
        players = view.players
        # Rows share the height left above the buttons; the cards shrink to fit seven seats.
        row_h = min(int(self.table.small_card[1] + 12 * scale), (bottom - y) // players)
        card_h = max(24, row_h - int(6 * scale))
        art = self._art(int(card_h / 1.4))
        sw, sh = art.size
        cx = x + int(170 * scale)
        nx = cx + int(250 * scale) + sw
        small = int(px * 0.85)
        self.rows = []
        markers = self.table.markers
        right = self.chart_box(surface.get_size()).left - int(12 * scale)
        header_h = line_height(small)
        hand_header = (cx, top, nx - cx - int(12 * scale), header_h)
        ui.fit(surface, tr("result.hand"), hand_header, small, align="left")
        ui.fit(surface, "  ·  ".join(tr(key) for key in self.columns(view, result)),
               (nx, top, right - nx, header_h), small, align="left")
        row_px = min(px, max(12, row_h // 2))
        for seat in range(players):
            winner = seat in result.winners
            middle = y + sh // 2
            name_box = (x, middle - line_height(row_px) // 2, cx - x - int(8 * scale), line_height(row_px))
            # A long name with its tag ("Maximilienne-Éléonore #3F2K9Q") takes a second line in the row.
            two = min(row_h, 2 * line_height(row_px))
            ui.fit(surface, names[seat], (x, middle - two // 2, name_box[2], two), row_px, bold=winner,
                   align="left", lines=2, color=ui.GOLD if winner else ui.CREAM)
            hand = result.hands[seat]
            step = min(int(sw * 0.55), int(250 * scale) // max(1, len(hand)))
            for i, card in enumerate(hand):
                surface.blit(art.face(card, markers=markers), (cx + i * step, y))
            self.rows.append(pygame.Rect(x, y, surface.get_width() - 2 * x, sh))
            figures = "  ·  ".join(self.figures(view, result, seat))
            ui.fit(surface, figures, (nx, name_box[1], right - nx, name_box[3]), row_px, align="left")
            y += row_h

    @staticmethod
    def columns(view: PlayerView, result: RoundResult) -> list[str]:
        """The keys of the figures shown beside each hand: in a Points game the hand's value, the
        round's points and the total (the pair's, when partners' points add up); in a Quick game
        the cards each held (and their value when a blocked round was decided by it), no points."""
        if view.target:
            return ["result.value", "result.points", "result.pair_total" if pooled(view) else "result.total"]
        return ["result.left", "result.value"] if result.blocked else ["result.left"]

    @staticmethod
    def figures(view: PlayerView, result: RoundResult, seat: int) -> list[str]:
        """One seat's figures under `columns`."""
        if view.target:
            return [str(result.totals[seat]), f"+{result.points[seat]}", str(view.standings[seat])]
        held = len(result.hands[seat])
        if not held and not result.blocked:
            left = tr("result.went_out")
        else:
            left = tr("result.card_one") if held == 1 else tr("result.cards", n=held)
        return [left, str(result.totals[seat])] if result.blocked else [left]

    def _art(self, width: int) -> CardArt:
        """Card art for the hands at ``width`` px (kept while the size stays)."""
        width = max(17, width)
        if self._hand_art is None or self._hand_art.width != width:
            self._hand_art = CardArt(width, four_color=self.app.settings.four_color)
        return self._hand_art

    def _chart(self, surface: pygame.Surface, view: PlayerView, box: pygame.Rect, scale: float) -> None:
        results = self.controller.results
        names = self.names()
        # One line per seat, or per pair when partners' points add up (the race the target ends).
        teams = sorted({team_of(s, view.players, True) for s in range(view.players)}) if pooled(view) \
            else [(s,) for s in range(view.players)]
        series = [list(accumulate(sum(r.points[s] for s in team) for r in results)) for team in teams]
        legends = [tr("table.pair", a=names[t[0]], b=names[t[1]]) if len(t) == 2 else names[t[0]]
                   for t in teams]
        draw_chart(surface, box, scale, series, legends, view.target, final=self.final)
