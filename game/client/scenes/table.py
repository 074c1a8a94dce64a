"""The table scene: play by tap, click or keyboard; computer turns; overlays when needed.

The scene is driven by a `TableControl` (a local `MatchController` or an online
`RemoteController`) and reads the game only through it. Input becomes intents
(`game.client.intents`): a tap on a card is ``Play(card)``, the D key or the Draw
button is ``Draw()``, U is `TableCommand.UNDO`; actions go to the controller,
commands are the table's own. What each tap, click, drag and key does is
`game.client.table_input.TableInput`'s, mixed into the scene. Events coming back
are turned into card flights and sounds. The scene pushes the suit picker when the
shown seat must announce a suit, the handoff cover when the device must change hands,
and the result screen once per finished deal; the overlays see it only as a `TableBelow`.

The hand is shown in the order `hand_order.HandOrder` lays it out (sorted by suit, by rank,
or as dealt: the small Sort control above the hand, or S), and a card dragged past a few
pixels moves within it instead of being played (dropped on the discard pile it is played,
as a tap would); indices into the hand (the keyboard's selection, the playable glow, the
rects tapped) are in that shown order.

The autopilot toggle (beside Menu, or O) lets the computer play the shown person's
turns at Medium's level until they press it again or make any move; the table says
when the turn timer switched it on by itself (two turns in a row ran out).
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import pygame

from game.engine import (
    Action,
    CallLastCard,
    Card,
    Denounce,
    Draw,
    Phase,
    Play,
    PlayerView,
    Status,
)
from game.engine import events as ev
from game.play.avatars import seat_avatars

from .. import layout as layout_mod
from ..action_words import ACTION_LABELS
from ..animation import Animator
from ..art import CardArt
from ..flights import fly
from ..hand_order import ShownHand, sort_button_rect
from ..i18n import reason, tr
from ..intents import TableCommand, TableIntent
from ..layout import LOG_LINES
from ..move_log import MoveLog
from ..reactions import board_for
from ..saving import cannot_write
from ..scene import Scene
from ..table_control import TableControl
from ..table_input import TableInput, hint_moves
from ..table_paint import TablePainter
from ..widgets import Button

if TYPE_CHECKING:
    from ..scene import SceneApp

TOAST = 2.8  # seconds an error message stays
PULSE_FRAME = 1 / 30  # the thinking glow is a slow pulse: this many seconds between its frames is enough
TIMER_TICK = 0.5  # a turn clock on screen is redrawn this often (whole seconds, and its red warning)



def only_move(legal: tuple[Action, ...]) -> Action | None:
    """The one thing left to do, when there is exactly one (its button is highlighted, and Enter
    does it): Draw with no card to play, Pass with nothing left to draw. Calling "Card" and
    denouncing come on top of a move, never instead of one, so they do not count."""
    moves = [a for a in legal if not isinstance(a, CallLastCard | Denounce)]
    if len(moves) == 1 and not isinstance(moves[0], Play):
        return moves[0]
    return None


class TableScene(TableInput, Scene):
    """The game table for one match, local or online (its input: `TableInput`)."""

    def __init__(self, app: SceneApp, controller: TableControl) -> None:
        super().__init__(app)
        self.controller = controller
        self.animator = Animator()
        controller.busy = lambda: self.animator.busy
        self.selected: int | None = None  # the hand index the keyboard points at
        self.toast = ""
        self.toast_left = 0.0
        self.card_rects: dict[Card, pygame.Rect] = {}
        self.buttons: list[Button[TableIntent]] = []
        self.autopilot_button: Button[TableIntent] | None = None  # the toggle beside Menu, when offered
        self.hand_rects: list[pygame.Rect] = []
        self.playable: set[int] = set()
        self._turn: tuple[object, ...] = ()
        self._result_of: int | None = None  # the deal whose result screen was shown
        self._asked: set[int] = set()  # abandoned seats whose vote was asked (online, ranked)
        self._save_error: str | None = None
        self._look: tuple[object, ...] = ()  # what the last update saw of what `draw` shows
        self.moves = MoveLog()  # what each seat did this round, for the log under the Menu button
        self.reactions = board_for(controller, app.settings)  # online: quick reactions (see reactions.py)
        self.hand = ShownHand(app.settings.hand_sort)  # how each seat's hand is laid out, a drag
        self.shown: tuple[Card, ...] = ()  # the shown seat's hand in the order it is drawn
        self.sort_button: Button[TableIntent] | None = None
        self.resize(app.size)

    def table_control(self) -> TableControl:
        """This table's controller: the game the App saves (see `Scene.table_control`)."""
        return self.controller

    # ---- set-up ------------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """Recompute the layout and rescale the art once for the new window size."""
        self.layout = layout_mod.compute(size, left_handed=self.app.settings.left_handed)
        self.painter = TablePainter(self.layout, four_color=self.app.settings.four_color)
        self.animator.clear()
        self.refresh()

    def enter(self) -> None:
        """Animate the deal (a game under way: its move log so far first)."""
        self._catch_up_log()
        self._animate(self.controller.take_events())

    def exit(self) -> None:
        """The table closes: an online seat leaves its room (it waits, keyed, for a rejoin)."""
        self.controller.leave()

    def resume(self) -> None:
        """Back from an overlay: settings may have changed, the shown seat too, and a new deal
        may be waiting to be animated (before the controller goes on)."""
        self.apply_settings()
        self._animate(self.controller.take_events())
        self.refresh()

    def apply_settings(self) -> None:
        """Show the table with the settings as they are now (the language, the four-colour deck,
        the left-handed layout, speed and undo): at once, even under the pause menu."""
        settings = self.app.settings
        if (self.painter.art.four_color != settings.four_color
                or self.layout.left_handed != settings.left_handed):
            self.resize(self.app.size)
        self.controller.apply_settings(speed=settings.speed_factor, undo_allowed=settings.undo_allowed)
        if settings.hand_sort != self.hand.order.sort:
            self.hand.order.set_sort(settings.hand_sort)
        self.refresh()
        self._look = ()  # words in another language are another look
        self.dirty = True

    # ---- what the overlays see (`TableBelow`) --------------------------------------------------
    @property
    def view(self) -> PlayerView:
        """The view of the seat the table shows."""
        return self.controller.view()

    @property
    def markers(self) -> bool:
        """Whether action badges are drawn on cards (the ``action`` rules)."""
        return markers_for(self.view)

    @property
    def art(self) -> CardArt:
        """The card art at the table's card size."""
        return self.painter.art

    @property
    def small_card(self) -> tuple[int, int]:
        """The size of the other seats' cards."""
        return self.layout.small_card

    @property
    def background(self) -> pygame.Surface:
        """The felt, at the window's size."""
        return self.painter.background

    @property
    def hot_seat(self) -> bool:
        """Two or more people share this device."""
        return len(self.controller.local_seats) >= 2

    def names(self) -> list[str]:
        """A display name per seat."""
        out = []
        controller = self.controller
        for i, seat in enumerate(controller.seats):
            if seat.name:
                out.append(seat.name)
            elif seat.is_human:
                mine = i == controller.viewer and not self.hot_seat  # solo, or online
                out.append(tr("table.you") if mine else tr("table.player", n=i + 1))
            else:
                out.append(tr("table.computer", n=i + 1))
        return out

    def say(self, text: str) -> None:
        """Show ``text`` in the message line for `TOAST` seconds (instead of whose turn it is)."""
        self.toast, self.toast_left = text, TOAST

    def avatars(self) -> list[int]:
        """The avatar shown at each seat: a person's choice (or default), a computer's by seat."""
        seats = self.controller.seats
        return seat_avatars([s.is_human for s in seats], [s.avatar for s in seats])

    # ---- what can be done now ----------------------------------------------------------------
    def refresh(self) -> None:
        """Recompute hand rects, playable cards and buttons from the current view."""
        view = self.view
        mine = view.to_act == view.seat and not self.animator.busy
        legal = view.legal if mine else ()
        arriving = len(self.animator.in_flight(("hand", view.seat)))
        hand = self.shown = self.hand.lay_out(view.seat, view.hand, arriving, self.layout)
        plays = {a.card for a in legal if isinstance(a, Play)}
        self.playable = {i for i, c in enumerate(hand) if c in plays}
        lift = int(self.layout.card[1] * 0.14)
        slots = self.layout.hand_slots(len(hand))
        self.hand_rects = [pygame.Rect(x, y - (lift if i in self.playable else 0), w, h)
                           for i, (x, y, w, h) in enumerate(slots)]
        turn = (view.seat, view.round_number, view.turn_no, view.to_act)
        if turn != self._turn:
            self._turn = turn
            # Another turn, or another player holding the device: the first Enter picks the
            # first playable card again.
            self.selected = None
        if self.selected is not None and self.selected >= len(hand):
            self.selected = len(hand) - 1 if hand else None
        self.buttons = self._make_buttons(view, legal)
        self.autopilot_button = self._make_autopilot_button(view)
        self.sort_button = None
        if view.seat in self.controller.local_seats and view.status == Status.PLAYING:
            label = tr("fmt.pair", label=tr("table.sort"), value=tr("sort." + self.hand.order.sort))
            self.sort_button = Button(TableCommand.SORT, label, pygame.Rect(sort_button_rect(self.layout)))

    def _make_buttons(self, view: PlayerView, legal: tuple[Action, ...]) -> list[Button[TableIntent]]:
        specs: list[tuple[TableIntent, str]] = []
        for action, key in ACTION_LABELS.items():
            if action in legal:
                label = tr(key)
                if isinstance(action, Draw) and view.phase == Phase.PENALTY:
                    label += f" {view.pending}"
                specs.append((action, label))
        names = self.names()
        for action in view.legal:  # a missed "Card" call may be denounced out of turn
            if isinstance(action, Denounce):
                specs.append((action, tr("table.denounce", name=names[action.seat])))
        if self.controller.can_undo:
            specs.append((TableCommand.UNDO, tr("table.undo")))
        if hint_moves(legal) and self.controller.seats[view.seat].is_human:  # even one: it says so
            specs.append((TableCommand.HINT, tr("table.hint")))
        bx, by, bw, bh_total = self.layout.buttons
        bw, bh = self.layout.button_size
        gap = int(bh * 0.25)
        bottom = by + bh_total
        hot = only_move(legal)
        out = []
        for i, (intent, label) in enumerate(reversed(specs)):
            rect = pygame.Rect(bx, bottom - (i + 1) * bh - i * gap, bw, bh)
            out.append(Button(intent, label, rect, hot=hot is not None and intent == hot))
        return out

    def _make_autopilot_button(self, view: PlayerView) -> Button[TableIntent] | None:
        """The toggle for the shown person, while a round is played and the controller offers it;
        lit while the autopilot plays for them."""
        controller = self.controller
        seat = view.seat
        if (not controller.can_autopilot or view.status != Status.PLAYING
                or seat not in controller.local_seats or not controller.seats[seat].is_human):
            return None
        on = controller.autopilot(seat)
        label = tr("fmt.pair", label=tr("table.autopilot"), value=tr("new.on" if on else "new.off"))
        return Button(TableCommand.AUTOPILOT, label, pygame.Rect(self.layout.autopilot_button), hot=on)

    def move_lines(self, last: int | None = None) -> list[str]:
        """The round's moves (or the ``last`` few) in words, oldest first (what the move log shows)."""
        names = self.names()
        viewer = self.controller.viewer
        you = viewer if names[viewer] == tr("table.you") else None
        return self.moves.lines(names, last=last, you=you)

    # ---- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Run flights, the controller, and open overlays when the game needs them."""
        if self.animator.busy:
            self.dirty = True  # cards move
        self.painter.clock += dt
        # The time went by for the message already shown; one said during this step (after a long
        # rest, the turn clock running out) stays its whole time.
        self.toast_left = max(0.0, self.toast_left - dt)
        for flight in self.animator.update(dt):
            if flight.sound:
                self.app.sound.play(flight.sound)
        self.controller.update(dt)
        if self.reactions is not None and self.reactions.update(dt):
            self.dirty = True  # a bubble came or went
        if self.controller.error is not None:
            colours = self.view.rules.deck == "colors"
            self.toast = reason(self.controller.error, self.names(), colours=colours)
            self.toast_left = TOAST
            self.controller.error = None
            self.app.sound.play("error")
        writer = self.app.store.writer
        save_error, problem = writer.error, writer.problem
        if save_error and problem is not None and save_error != self._save_error:
            # A full or read-only disk: say it once, in words (not the system's "File exists").
            self.toast, self.toast_left = tr("save.failed", detail=cannot_write(problem)), TOAST * 2
        self._save_error = save_error
        switched = self.controller.take_autopilot_notices()
        if switched:  # two turns in a row ran out: the table says the autopilot took over
            self.toast, self.toast_left = self.autopilot_started(switched), TOAST * 2
        news = self.controller.take_news()
        if news:  # online: a vote's result, said once
            self.toast, self.toast_left = news[-1], TOAST * 2
        self._catch_up_log()
        self._animate(self.controller.take_events())
        self.refresh()
        if not self.animator.busy:
            self._overlays()
            look = self.look()
            if look != self._look or self.controller.thinking is not None:  # the thinking glow pulses
                self._look, self.dirty = look, True
        else:
            self.dirty = True  # cards move

    def next_frame(self) -> float | None:
        """0 while cards fly; else the soonest of: the thinking glow's next frame, what the
        controller has due (a think delay, the turn clock running out; online, the next look
        at the connection), the message expiring, the turn clock's next change on screen."""
        if self.animator.busy:
            return 0.0
        times = []
        if self.controller.thinking is not None:
            times.append(PULSE_FRAME)
        due = self.controller.due()
        if due is not None:
            times.append(due)
        if self.toast_left > 0:
            times.append(self.toast_left)
        bubble = None if self.reactions is None else self.reactions.due()
        if bubble is not None:
            times.append(bubble)
        timer = self._timer()
        if timer is not None and timer > 0:
            times.append((timer % TIMER_TICK or TIMER_TICK) + 1e-3)  # just past the change
        return min(times, default=None)

    def autopilot_started(self, seats: list[int]) -> str:
        """What the table says when the turn timer put ``seats`` on the autopilot."""
        names = self.names()
        seat = seats[-1]
        if names[seat] == tr("table.you"):
            return tr("table.autopilot_started")
        return tr("table.autopilot_started_for", name=names[seat])

    def _timer(self) -> float | None:
        """The turn clock the table shows: the shown seat's, on its turn; online, also the clock
        the server runs for whoever is to act (so a player kept waiting sees the wait has an end)."""
        view = self.view
        return self.controller.timer_left if view.to_act == view.seat or self.controller.online else None

    def look(self) -> tuple[object, ...]:
        """Everything `draw` shows, as one value: at rest the table is redrawn when it changes
        (anything `draw` comes to show must be part of it)."""
        controller = self.controller
        timer = self._timer()
        autopilot = self.autopilot_button
        return (self.view, tuple(controller.seats), self.names(), self.message(), controller.thinking,
                None if timer is None else math.ceil(timer / TIMER_TICK), controller.handoff_to,
                self.selected, frozenset(self.playable), tuple(b.label for b in self.buttons),
                None if autopilot is None else autopilot.label, tuple(self.move_lines(last=LOG_LINES)),
                self.shown, None if self.sort_button is None else self.sort_button.label,
                None if self.hand.dragging is None else self.hand.dragging.pos,
                controller.undo_offered)

    def _overlays(self) -> None:
        if self.app.top is not self:
            return  # an overlay is already up (the suit picker keeps the table running)
        controller = self.controller
        view = self.view
        vote = controller.vote_due
        if vote is not None and vote not in self._asked:  # ranked online: someone abandoned
            self._asked.add(vote)  # asked once: Esc leaves the question unanswered
            self.app.push("Vote", table=self, seat=vote)
            return
        if view.status != Status.PLAYING:
            if self._result_of != view.round_number:  # once per finished deal
                self._result_of = view.round_number
                self.app.push("Result", table=self)
            return
        self._result_of = None  # the next deal (or a new match) is being played
        if controller.handoff_to is not None:
            self.app.push("Handoff", table=self, seat=controller.handoff_to)
            return
        if (view.phase == Phase.SUIT and view.to_act == view.seat and controller.seats[view.seat].is_human
                and not controller.plays_for(view.seat)):  # else the computer names it for them
            self.app.push("SuitPicker", table=self)

    def _catch_up_log(self) -> None:
        """A resumed game, a rejoined room or an undo: the move log is the round so far again."""
        past = self.controller.take_past()
        if past is not None:
            self.moves.clear()
            self.moves.observe(past)
            self.dirty = True

    def _animate(self, events: list[ev.Event]) -> None:
        """Turn events into flights and sounds (`flights`), the move log's lines and the turn's chime."""
        self.moves.observe(events)
        fly(events, animator=self.animator, layout=self.layout, view=self.view,
            speed=self.app.settings.speed_factor, sound=self.app.sound, tapped=self.card_rects)
        sound = self.app.sound
        for event in events:
            if isinstance(event, ev.TurnStarted):
                if event.seat == self.view.seat and self.controller.seats[event.seat].is_human:
                    sound.play("turn")
                    view = self.view
                    self.moves.mark((view.round_number, view.turn_no))  # where an undo comes back to
            elif isinstance(event, ev.RoundEnded):
                winners = event.result.winners
                here = self.controller.local_seats
                sound.play("win" if any(s in winners for s in here) else "lose")

    # ---- drawing -----------------------------------------------------------------------------
    def message(self) -> str:
        """The line under the piles: an error, whose turn it is, or what is pending. On the
        viewer's own turn, a notice (online: the countdown to a takeover) comes after "Your turn"
        rather than hide it (the two may take the box's two lines)."""
        if self.toast_left > 0:
            return self.toast
        names = self.names()
        notice = self.controller.notice(names)  # online: the connection, or who the room waits for
        view = self.view
        turn = self._turn_line(names)
        if notice and turn and view.to_act == view.seat:
            return tr("table.turn_and_notice", turn=turn, notice=notice)
        return notice or turn

    def _turn_line(self, names: list[str]) -> str:
        """Whose turn it is and what they are to do, or ``""``."""
        view = self.view
        if view.to_act is None:
            return ""
        if self.controller.plays_for(view.to_act):
            on = self.controller.autopilot(view.to_act)
            if view.to_act != view.seat:
                key = "table.autopilot_for" if on else "table.autopilot_lost_turn_for"
                return tr(key, name=names[view.to_act])
            return tr("table.autopilot_you" if on else "table.autopilot_lost_turn")
        if view.to_act == view.seat and self.controller.seats[view.seat].is_human:  # (a show: a computer)
            if view.phase == Phase.PENALTY:
                return tr("table.pending", n=view.pending)
            if view.phase == Phase.SUIT and self.app.top is not self:
                return ""  # the suit picker over the table says what to do
            return tr("table.your_turn")
        if self.controller.thinking is not None:
            return tr("table.thinking", name=names[view.to_act])
        return tr("table.turn_of", name=names[view.to_act])

    def picking_suit(self) -> bool:
        """Whether the suit picker is over the table: its panel reaches down to the shown seat's
        name plate, which is left out meanwhile rather than peek out from under it."""
        view = self.view
        return view.phase == Phase.SUIT and view.to_act == view.seat and self.app.top is not self

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the table from the shown seat's view (what it reads is `look`)."""
        view = self.view
        controller = self.controller
        levels = [None if s.is_human else s.level for s in controller.seats]
        thinking = controller.thinking
        timer = self._timer()
        # Hot-seat: once the shown player's turn is over the device is on its way to the next
        # person, so that hand stays face down while computers play in between.
        passing = self.hot_seat and view.to_act is not None and view.to_act != view.seat
        self.painter.ranked = getattr(controller, "ranked", None)  # online only: a room counts or not
        drag, rects = self.hand.dragging, self.hand_rects
        if drag is not None and self.hand.drag_at is not None:  # the dragged card under the pointer
            rects = list(rects)
            rects[self.hand.drag_at] = pygame.Rect(drag.rect(self.layout.card))
        picking = self.picking_suit()  # the picker's panel covers the hand's controls: left out, as the plate
        extra = [b for b in (None if picking else self.sort_button, self.autopilot_button) if b is not None]
        view = dataclasses.replace(view, hand=self.shown) if len(self.shown) == len(view.hand) else view
        self.painter.draw(surface, view, names=self.names(), levels=levels, animator=self.animator,
                          hand_rects=rects, playable=self.playable, selected=self.selected,
                          buttons=[*self.buttons, *extra],
                          message=self.message(), thinking=thinking, timer=timer,
                          markers=markers_for(view), hide_hand=passing or controller.handoff_to is not None,
                          moves=self.move_lines(last=LOG_LINES), avatars=self.avatars(),
                          plate=not picking, undo=controller.undo_offered,
                          menu=not controller.for_show)
        if self.reactions is not None:
            self.reactions.draw(surface, self.layout, button=self.reactions.open(view) and not picking)
        self.painter.draw_flights(surface, self.animator, markers_for(view))
        if drag is not None and not passing:  # on top of the hand it is moved in
            at = pygame.Rect(drag.rect(self.layout.card))
            shadow = pygame.Surface(at.size, pygame.SRCALPHA)
            shadow.fill((0, 0, 0, 90))
            surface.blit(shadow, at.move(int(6 * self.layout.scale), int(8 * self.layout.scale)))
            surface.blit(self.art.face(drag.card, markers=markers_for(view)), at)


def markers_for(view: PlayerView) -> bool:
    """Whether the cards of ``view``'s game are drawn with action badges (the ``action`` rules)."""
    return view.rules.card_markers
