"""The review of a deal, "where the game was lost": the deal step by step from one seat, and the
seat's three costliest decisions by Hard's reckoning.

It opens on the records of one deal (`game.saves.reviews`: one per person who played it here,
or this player's seat online), from the result screen or from Statistics. With several people
(a hot-seat deal) it first asks whose review to show, then covers the screen, "Pass the device
to Léa", as the table does, until that person taps: a review shows one seat's cards only.

The review shows each step of the deal as that seat saw it and nothing more (its hand, the
pile's top card and the suit, the hands' sizes, the draw pile's size, the move log so far): it
draws only from the seat's views and the events redacted for it. Meanwhile the analysis
(`game.review.background.Analysis`) runs in worker processes with a progress bar; Escape or
the button stops it (what it judged stays, it may be resumed, and it says nothing of the
decisions it did not judge), and the screen keeps its frame rate and answers input all along.
When it is done, the three costliest decisions are listed and marked on their steps, each with
what Hard would have played and about how much more chance of winning it would have given.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Final

import pygame

from game.engine import PlayerView
from game.review.analysis import Cost, costliest
from game.review.background import Analysis
from game.review.story import Story
from game.saves.reviews import ReviewRecord

from .. import ui
from ..action_words import action_words
from ..art import CardArt
from ..gui import GuiScene
from ..i18n import tr
from ..layout import line_height
from ..move_log import MoveLog, suit_words
from ..review_data import ReviewDataError, story_from_json

if TYPE_CHECKING:
    from ..scene import SceneApp

POLL: Final = 1 / 30
"""How often the screen looks for the workers' results while they run (it draws at that rate)."""
LOG_LINES: Final = 9
MARK = (230, 120, 60)  # a costly decision's frame


def points_text(cost: Cost) -> str:
    """``about 12% more chance of winning``."""
    return tr("review.points", points=cost.points)


def counted(key: str, n: int, **values: object) -> str:
    """The catalogue's plural forms, as elsewhere in the game: ``key_one`` when ``n`` is 1."""
    return tr(f"{key}_one", **values) if n == 1 else tr(key, **values)


def stopped_text(analysis: Analysis) -> str:
    """What a stopped (or failed) analysis judged: never a verdict on what it did not judge."""
    key = "review.cancelled" if analysis.cancelled else "review.failed"
    return counted(key, analysis.total, done=len(analysis.results), total=analysis.total)


def own_moves_text(story: Story) -> str | None:
    """How many of the seat's moves were the player's own, when the autopilot or the clock
    played some (None when every move was theirs)."""
    others = story.played_for_it()
    if not others:
        return None
    mine = len(story.decisions())
    if not mine:
        return tr("review.own_moves_none")
    return counted("review.own_moves", mine, mine=mine, total=mine + others)


class ReviewScene(GuiScene):
    """Pushed over the result screen or Statistics; Back (or Esc once the analysis is over) pops it."""

    def __init__(self, app: SceneApp, records: list[ReviewRecord], *,
                 analyse: Callable[[Story], Analysis] | None = None) -> None:
        self.analyse = analyse or Analysis  # what starts the analysis (a test may give its own)
        self.records = list(records)
        self.record: ReviewRecord | None = None
        self.covered = False  # a hot-seat review waits behind the cover until its person taps
        self.story: Story | None = None
        self.problem: str | None = None
        self.analysis: Analysis | None = None
        self.index = 0
        self.marked: list[Cost] = []
        self._art: CardArt | None = None
        self._seen_progress = -1
        if len(self.records) == 1:
            self.choose(self.records[0], build=False)
        super().__init__(app)

    # ---- choosing whose review ---------------------------------------------------------------
    def choose(self, record: ReviewRecord, *, build: bool = True) -> None:
        """Review ``record``'s seat: behind the cover first when it is a hot-seat deal."""
        self.record = record
        self.covered = record.mode == "hotseat"
        if not self.covered:
            self._open()
        if build:
            self.rebuild()

    def uncover(self) -> None:
        """The person whose review it is took the device."""
        self.covered = False
        self._open()
        self.rebuild()

    def _open(self) -> None:
        """Read the story and start its analysis."""
        assert self.record is not None
        try:
            self.story = story_from_json(self.record.story)
        except ReviewDataError as exc:
            self.problem = tr("review.unreadable", detail=str(exc)[:80])
            return
        self.index = 0
        self.analysis = self.analyse(self.story)

    @property
    def stage(self) -> str:
        """``pick`` (whose review?), ``cover`` (pass the device), or ``review``."""
        if self.record is None:
            return "pick"
        return "cover" if self.covered else "review"

    @property
    def name(self) -> str:
        """The reviewed seat's name."""
        assert self.record is not None
        return self.record.names[self.record.seat]

    # ---- widgets -----------------------------------------------------------------------------
    def build(self) -> None:
        """The buttons of the stage."""
        w, h = self.app.size
        s = self.scale
        bh = max(44, int(52 * s))
        margin = int(20 * s)
        if self.stage == "pick":
            self.label(pygame.Rect(0, int(20 * s), w, int(60 * s)), tr("review.pick"), "#heading")
            bw = int(min(w * 0.6, 520 * s))
            for i, record in enumerate(self.records):
                rect = pygame.Rect((w - bw) // 2, int(110 * s) + i * (bh + margin // 2), bw, bh)
                name = record.names[record.seat]
                self.button(rect, tr("review.seat", name=name), partial(self.choose, record))
            self.button(pygame.Rect((w - int(220 * s)) // 2, h - bh - margin, int(220 * s), bh),
                        tr("review.back"), self.back)
            return
        if self.stage == "cover":
            bw = int(min(w * 0.6, 520 * s))
            self.button(pygame.Rect((w - bw) // 2, int(h * 0.62), bw, bh), tr("review.show", name=self.name),
                        self.uncover)
            self.button(pygame.Rect((w - int(220 * s)) // 2, h - bh - margin, int(220 * s), bh),
                        tr("review.back"), self.back)
            return
        specs: list[tuple[str, Callable[[], None], bool]] = []
        if self.story is not None:
            last = len(self.story.moments) - 1
            specs += [(tr("review.previous"), partial(self.step, -1), self.index > 0),
                      (tr("review.next"), partial(self.step, 1), self.index < last),
                      (tr("review.next_costly"), self.next_costly, True)]
        if self.running:
            specs.append((tr("review.cancel"), self.cancel, True))
        elif self.resumable:
            specs.append((tr("review.resume"), self.resume, True))
        specs.append((tr("review.back"), self.leave, True))
        gap = margin
        bw = min(int(250 * s), (w - 2 * margin - (len(specs) - 1) * gap) // len(specs))
        total = len(specs) * bw + (len(specs) - 1) * gap
        x0, y = (w - total) // 2, h - bh - margin
        for i, (text, act, enabled) in enumerate(specs):
            # A way that goes nowhere (Previous on the first step) is greyed and out of the
            # keyboard's order: the focus starts on one that does something.
            element = self.button(pygame.Rect(x0 + i * (bw + gap), y, bw, bh), text, act,
                                  self.step if self.story is not None else None, key=text, focusable=enabled)
            if not enabled:
                element.disable()  # type: ignore[no-untyped-call]  # (pygame_gui leaves it unannotated)

    @property
    def running(self) -> bool:
        """Whether the analysis is under way."""
        return self.analysis is not None and not self.analysis.done

    @property
    def resumable(self) -> bool:
        """Whether the analysis stopped before judging every decision (it may go on)."""
        return self.analysis is not None and self.analysis.done and not self.analysis.whole

    # ---- input -------------------------------------------------------------------------------
    def step(self, delta: int) -> None:
        """The step before or after."""
        if self.story is None:
            return
        self.show_step(self.index + delta)

    def show_step(self, index: int) -> None:
        """Show step ``index`` (the buttons change at either end: Previous, Next)."""
        assert self.story is not None
        last = len(self.story.moments) - 1
        before, self.index = self.index, max(0, min(last, index))
        self.dirty = True
        if (before == 0) != (self.index == 0) or (before == last) != (self.index == last):
            # Previous or Next comes or goes: the focus stays on the button it was on (Enter on
            # Next twice goes two steps on, never back to Previous, now first in the order).
            self.focus_chosen = self.focus_chosen or bool(self.controls)
            self.rebuild()

    def next_costly(self) -> None:
        """The next marked decision (round to the first)."""
        if not self.marked:
            return
        later = [c.moment for c in self.marked if c.moment > self.index]
        self.show_step(later[0] if later else self.marked[0].moment)

    def cancel(self) -> None:
        """Stop the analysis (what it judged so far stays)."""
        if self.analysis is not None and not self.analysis.done:
            self.analysis.cancel()
            self._settle()
            self.rebuild()

    def resume(self) -> None:
        """Go on with a stopped analysis, from the decisions it had not judged."""
        if self.analysis is not None and self.resumable:
            self.analysis.resume()
            self._seen_progress = -1
            self.rebuild()

    def back(self) -> None:
        """Esc: stop a running analysis first (the review stays), else close."""
        if self.running and self.stage == "review":
            self.cancel()
            return
        self.leave()

    def leave(self) -> None:
        """The Back button: close (a running analysis stops)."""
        self._stop()
        self.app.pop()

    def _stop(self) -> None:
        if self.analysis is not None:
            self.analysis.cancel()
            self.analysis.close()

    def exit(self) -> None:
        """Popped: no worker outlives the screen."""
        self._stop()

    def closing(self) -> None:
        """The game is ending: stop the workers."""
        self._stop()

    # ---- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Take the workers' results; the progress bar moves as they come."""
        super().update(dt)
        analysis = self.analysis
        if analysis is None:
            return
        was_running = not analysis.done
        analysis.take_results()
        done = len(analysis.results)
        if done != self._seen_progress:
            self._seen_progress, self.dirty = done, True
        if was_running and analysis.done:
            self._settle()
            self.rebuild()

    def _settle(self) -> None:
        assert self.analysis is not None
        self.marked = costliest(self.analysis.costs)

    def next_frame(self) -> float | None:
        """Every `POLL` while the analysis runs (the bar moves), else as a still screen."""
        if self.running:
            return POLL
        return super().next_frame()

    # ---- drawing -----------------------------------------------------------------------------
    def draw_extra(self, surface: pygame.Surface) -> None:
        """The stage's texts; in the review, the step as the seat saw it and the analysis."""
        w, h = surface.get_size()
        s = self.scale
        margin = int(24 * s)
        if self.stage == "pick":
            return
        if self.stage == "cover":
            title = pygame.Rect(margin, int(h * 0.25), w - 2 * margin, 2 * line_height(int(44 * s)))
            used = ui.fit(surface, tr("handoff.title", name=self.name), title, int(44 * s), bold=True,
                          color=ui.GOLD, lines=2, valign="top")
            hint_h = 2 * line_height(int(22 * s))
            hint = pygame.Rect(margin, used.bottom + int(16 * s), w - 2 * margin, hint_h)
            ui.fit(surface, tr("review.cover", name=self.name), hint, int(22 * s), lines=2, valign="top")
            return
        record = self.record
        assert record is not None
        head = pygame.Rect(margin, int(12 * s), w - 2 * margin, line_height(int(30 * s)))
        ui.fit(surface, tr("review.title", deal=record.deal, preset=tr("preset." + record.preset),
                           name=self.name), head, int(30 * s), bold=True, color=ui.GOLD)
        if self.problem is not None or self.story is None:
            box = pygame.Rect(margin, int(h * 0.3), w - 2 * margin, 3 * line_height(int(24 * s)))
            ui.fit(surface, self.problem or "", box, int(24 * s), lines=3)
            return
        split = int(w * 0.56)
        top = head.bottom + int(10 * s)
        bottom = h - max(44, int(52 * s)) - int(36 * s)
        self._draw_step(surface, pygame.Rect(margin, top, split - margin * 2, bottom - top))
        self._draw_analysis(surface, pygame.Rect(split, top, w - split - margin, bottom - top))

    def frame_view(self) -> PlayerView:
        """The view the shown step is drawn from (the seat's own: tests check every frame's)."""
        assert self.story is not None
        return self.story.moments[self.index].view

    def _draw_step(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        story, record = self.story, self.record
        assert story is not None and record is not None
        s = self.scale
        moment = story.moments[self.index]
        view = moment.view
        px = max(14, int(20 * s))
        line = line_height(px)
        y = box.top + int(8 * s)  # inside a marked step's frame
        ui.fit(surface, tr("review.step", step=self.index + 1, steps=len(story.moments)),
               (box.left, y, box.width, line), px, align="left", color=ui.GOLD)
        y += line + int(6 * s)
        # The pile's top card and the suit in force; the hands' sizes and the draw pile's.
        art = self.art(max(40, int(min(box.width * 0.16, box.height * 0.22))))
        markers = view.rules.card_markers  # the action rules' badges, as the table draws them
        if view.discard:
            surface.blit(art.face(view.top, markers=markers), (box.left, y))
        counts_x = box.left + art.size[0] + int(16 * s)
        small = max(ui.MIN_PX, int(px * 0.85))
        small_line = line_height(small)
        lines = []
        if view.suit is not None:
            lines.append(tr("review.suit", suit=suit_words(view.suit)))
        lines.append(tr("review.pile", n=view.draw_count))
        mine = len(lines) + record.seat  # the reviewed seat's line, in bold
        for seat in range(view.players):
            name = record.names[seat] if seat < len(record.names) else str(seat + 1)
            lines.append(tr("review.hand_count", name=name, n=view.hand_counts[seat]))
        per = max(1, art.size[1] // small_line)
        column_w = (box.right - counts_x) // (1 + (len(lines) - 1) // per)
        for i, text in enumerate(lines):
            col, row = divmod(i, per)
            ui.fit(surface, text, (counts_x + col * column_w, y + row * small_line, column_w - int(6 * s),
                                   small_line), small, align="left", bold=i == mine)
        y += max(art.size[1], min(len(lines), per) * small_line) + int(12 * s)
        # The seat's hand.
        hand = view.hand
        if hand:
            step_x = min(art.size[0] + int(4 * s), (box.width - art.size[0]) // max(1, len(hand) - 1)) \
                if len(hand) > 1 else 0
            for i, card in enumerate(hand):
                surface.blit(art.face(card, markers=markers), (box.left + i * step_x, y))
            y += art.size[1] + int(10 * s)
        # What the seat did from here, and what the review says of it.
        said = []
        if moment.action is not None:
            said.append((tr("review.you_played", action=action_words(moment.action)), ui.CREAM))
        for cost in self.marked:
            if cost.moment == self.index:
                better = tr("review.hard_would", action=action_words(cost.best), points=points_text(cost))
                said.append((better, ui.GOLD))
                pygame.draw.rect(surface, MARK, box.inflate(int(12 * s), 0), max(2, int(3 * s)),
                                 border_radius=int(10 * s))
        for text, color in said:
            room = (box.left, y, box.width, 2 * line)
            if y + 2 * line > box.bottom:
                break
            used = ui.fit(surface, text, room, px, color=color, align="left", lines=2, valign="top")
            y = used.bottom + int(4 * s)

    def _draw_analysis(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        story, analysis = self.story, self.analysis
        assert story is not None
        s = self.scale
        px = max(14, int(19 * s))
        line = line_height(px)
        y = box.top
        if not story.complete:
            used = ui.fit(surface, tr("review.partial"), (box.left, y, box.width, 2 * line), int(px * 0.85),
                          lines=2, align="left", valign="top")
            y = used.bottom + int(6 * s)
        if analysis is None or not analysis.total:
            ui.fit(surface, tr("review.nothing"), (box.left, y, box.width, 2 * line), px, lines=2,
                   align="left", valign="top")
            y += 2 * line + int(8 * s)
        elif not analysis.done:
            judged = len(analysis.results)
            ui.fit(surface, tr("review.analysing", done=judged, total=analysis.total),
                   (box.left, y, box.width, line), px, align="left")
            y += line + int(4 * s)
            bar = pygame.Rect(box.left, y, box.width, max(10, int(16 * s)))
            pygame.draw.rect(surface, (0, 0, 0), bar, border_radius=bar.height // 2)
            fill = bar.copy()
            fill.width = int(bar.width * analysis.progress)
            if fill.width:
                pygame.draw.rect(surface, ui.GOLD, fill, border_radius=bar.height // 2)
            y = bar.bottom + int(12 * s)
        else:
            whole = analysis.whole
            if not whole:  # stopped: what it judged, and nothing said of the rest
                used = ui.fit(surface, stopped_text(analysis), (box.left, y, box.width, 2 * line),
                              int(px * 0.85), lines=2, align="left", valign="top")
                y = used.bottom + int(6 * s)
            if self.marked:
                heading = tr("review.costliest") if whole else tr("review.costliest_so_far")
                ui.fit(surface, heading, (box.left, y, box.width, line), px, bold=True,
                       color=ui.GOLD, align="left")
                y += line + int(4 * s)
                small = max(ui.MIN_PX, int(px * 0.85))
                for cost in self.marked:
                    text = tr("review.costly_line", step=cost.moment + 1, played=action_words(cost.played),
                              best=action_words(cost.best), points=points_text(cost))
                    used = ui.fit(surface, text, (box.left, y, box.width, 2 * line_height(small)), small,
                                  align="left", lines=2, valign="top",
                                  color=ui.GOLD if cost.moment == self.index else ui.CREAM)
                    y = used.bottom + int(6 * s)
            elif whole:  # a verdict on the deal only once every decision was judged
                used = ui.fit(surface, tr("review.none_costly"), (box.left, y, box.width, 2 * line), px,
                              lines=2, align="left", valign="top")
                y = used.bottom + int(6 * s)
        own = own_moves_text(story)
        if own is not None:  # the autopilot's or the clock's moves are not the player's
            small = max(ui.MIN_PX, int(px * 0.8))
            used = ui.fit(surface, own, (box.left, y, box.width, 3 * line_height(small)), small, lines=3,
                          align="left", valign="top")
            y = used.bottom + int(6 * s)
        # The move log as the seat saw it, up to this step.
        log = MoveLog()
        for moment in story.moments[:self.index + 1]:
            log.observe(moment.events)
        assert self.record is not None
        small = max(ui.MIN_PX, int(px * 0.8))
        small_line = line_height(small)
        room = max(0, (box.bottom - y - small_line) // small_line)
        if room:
            ui.fit(surface, tr("review.log"), (box.left, y, box.width, small_line), small, color=ui.GOLD,
                   align="left")
            y += small_line
            for text in log.lines(list(self.record.names), last=min(room, LOG_LINES), you=self.record.seat):
                ui.fit(surface, text, (box.left, y, box.width, small_line), small, align="left")
                y += small_line

    def art(self, width: int) -> CardArt:
        """Card art at ``width`` px (kept while the size stays)."""
        if self._art is None or self._art.width != width:
            self._art = CardArt(width, four_color=self.app.settings.four_color)
        return self._art
