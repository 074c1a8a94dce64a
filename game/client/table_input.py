"""The table's input: what each tap, click, drag and key does at the table.

Tuxemon's model (`tuxemon/platform`): raw input is mapped in one place. Keys become intents
through `keymap.table_key` (no raw key is read here); a tap or click becomes the intent of what
is under it (a button carries its intent; a card of the hand is ``Play(card)``, the draw pile
``Draw()``); a card pressed and moved is dragged (`hand_order.ShownHand`) and dropped. `intent` is
the one dispatch of every intent, whichever way it came: an engine action goes to the controller
for the shown seat, a `TableCommand` is the table's own (the hint, undo, pause, the autopilot,
the move log, the reactions, the hand's sort). The keyboard's selection (`selected`: the hand
index Enter plays) is kept by the table, which draws it.

`TableInput` is mixed into the table scene (`scenes.table.TableScene`) before `Scene`; what it
uses of the table is declared below, public, and the table defines it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pygame

from game.ai import Medium
from game.engine import Action, CallLastCard, Card, Denounce, Draw, Pass, Play, PlayerView

from . import keymap
from .action_words import ACTION_LABELS
from .animation import Animator
from .hand_order import HandDrag, ShownHand, drop_of, next_sort
from .i18n import card_words, tr
from .intents import TableCommand, TableIntent
from .keymap import Nav
from .layout import TableLayout
from .move_log import MoveLog
from .reactions import ReactionBoard, button_rect
from .table_control import TableControl
from .widgets import Button, tapped

if TYPE_CHECKING:
    from .scene import SceneApp


def hint_moves(legal: tuple[Action, ...]) -> list[Action]:
    """The moves a hint chooses among: calling "Card" and denouncing come on top of a move."""
    return [a for a in legal if not isinstance(a, CallLastCard | Denounce)]


class TableInput:
    """Taps, clicks, drags and keys at the table, and the dispatch of their intents (a mixin of
    `TableScene`; see the module docstring)."""

    # What it uses of the table (the scene keeps them; see `TableScene`):
    app: SceneApp
    controller: TableControl
    layout: TableLayout
    animator: Animator
    moves: MoveLog  # the round's moves: the move log (M) and undo's rewind
    reactions: ReactionBoard | None  # online: the quick reactions
    hand: ShownHand  # the shown hand's order and the drag under way
    shown: tuple[Card, ...]  # the shown seat's hand in the order it is drawn
    hand_rects: list[pygame.Rect]  # where each card of ``shown`` is drawn
    playable: set[int]  # the indices of ``shown`` that may be played
    selected: int | None  # the hand index the keyboard points at
    card_rects: dict[Card, pygame.Rect]  # a played card's rectangle: its flight starts there
    buttons: list[Button[TableIntent]]
    autopilot_button: Button[TableIntent] | None
    sort_button: Button[TableIntent] | None
    dirty: bool

    @property
    def view(self) -> PlayerView:
        """The view of the seat the table shows (the table answers).

        Raises:
            NotImplementedError: a class that is not a table.
        """
        raise NotImplementedError

    @property
    def hot_seat(self) -> bool:
        """Whether two or more people share this device (the table answers).

        Raises:
            NotImplementedError: a class that is not a table.
        """
        raise NotImplementedError

    def refresh(self) -> None:
        """Recompute what can be done now from the view (the table does).

        Raises:
            NotImplementedError: a class that is not a table.
        """
        raise NotImplementedError

    def say(self, text: str) -> None:
        """Show ``text`` in the message line for a while (the table does).

        Raises:
            NotImplementedError: a class that is not a table.
        """
        raise NotImplementedError

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps and clicks act on release (a card pressed and moved is dragged instead); keys as
        listed in the README."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            return not self._hand_hidden() and self.hand.press(event.pos, self.hand_rects, self.layout.scale)
        if event.type == pygame.MOUSEMOTION and self.hand.drag is not None:
            if self.hand.drag.motion(event.pos):
                self.refresh()
                self.dirty = True
            return True
        if event.type == pygame.MOUSEBUTTONUP:
            drag = self.hand.release(event.pos)
            if drag is not None:
                self.drop(drag)
                return True
            return self.tap(event.pos)
        if event.type == pygame.KEYDOWN:
            return self.key(keymap.table_key(event))
        return False

    def tap(self, pos: tuple[int, int]) -> bool:
        """A tap or click at ``pos``."""
        if pygame.Rect(self.layout.menu_button).collidepoint(pos) and not self.controller.for_show:
            self.intent(TableCommand.PAUSE)
            return True
        if pygame.Rect(self.layout.log).collidepoint(pos) and self.moves.moves:
            self.open_moves()
            return True
        if self.autopilot_button is not None and self.autopilot_button.hit(pos):
            self.intent(TableCommand.AUTOPILOT)
            return True
        reactions = self.reactions
        if reactions is not None and reactions.open(self.view) and button_rect(self.layout).collidepoint(pos):
            self.intent(TableCommand.REACT)
            return True
        if self.sort_button is not None and self.sort_button.hit(pos):
            self.intent(TableCommand.SORT)
            return True
        button = tapped(self.buttons, pos)
        if button is not None:
            self.intent(button.intent)
            return True
        for i in range(len(self.hand_rects) - 1, -1, -1):
            if self.hand_rects[i].collidepoint(pos):
                self.selected = i
                self.play_index(i)
                return True
        if pygame.Rect(self.layout.draw_pile).collidepoint(pos):
            self.intent(Draw())
            return True
        return False

    def drop(self, drag: HandDrag) -> None:
        """A dragged card let go: on the discard pile it is played (as a tap would); over the hand
        it takes the place it was dropped at; anywhere else it goes back (`hand_order.drop_of`)."""
        self.refresh()  # the order without the preview
        view = self.view
        held = len(view.hand) - len(self.animator.in_flight(("hand", view.seat)))
        drop = drop_of(drag, self.shown, held, self.layout)
        if drop is not None and drop.target is None:
            self.selected = drop.index
            self.hand_rects[drop.index] = pygame.Rect(drag.rect(self.layout.card))  # it flies from there
            self.play_index(drop.index)
        elif drop is not None and drop.target is not None:
            self.hand.order.move(view.seat, view.hand[:held], drop.index, drop.target)
            self.selected = drop.target if self.selected is not None else None
            self.app.sound.play("click")
        self.refresh()
        self.dirty = True

    def _hand_hidden(self) -> bool:
        """Whether the shown hand is face down (hot-seat: on its way to the next person)."""
        view = self.view
        passing = self.hot_seat and view.to_act is not None and view.to_act != view.seat
        return passing or self.controller.handoff_to is not None

    def sort_next(self) -> None:
        """The Sort control or S: the next sort, remembered in the settings (any moved order ends)."""
        settings = self.app.settings
        settings.hand_sort = next_sort(self.hand.order.sort)
        self.hand.order.set_sort(settings.hand_sort)
        self.app.save_settings()
        self.app.sound.play("click")
        self.say(tr("fmt.pair", label=tr("settings.hand_sort"), value=tr("sort." + settings.hand_sort)))
        self.refresh()
        self.dirty = True

    def key(self, key: TableIntent | Nav | None) -> bool:
        """Keyboard play (the keys are `keymap.table_key`'s): arrows choose, Enter plays, D draws,
        P passes, E ends, C calls "Card", N denounces, L calls Liar, A accepts, H suggests a move,
        U undoes, M shows the round's moves, O turns the autopilot on or off, Esc pauses.

        Enter plays the selected card; with none selected, the first Enter selects the first
        playable card; with no card to play it takes the one move left (the highlighted button:
        Draw, or Pass), and does nothing when there is a choice to make (Liar or Accept)."""
        hand = self.shown
        match key:
            case Nav.LEFT | Nav.RIGHT if hand:
                step = -1 if key is Nav.LEFT else 1
                start = self.selected if self.selected is not None else (-1 if step == 1 else len(hand))
                self.selected = (start + step) % len(hand)
            case Nav.ACTIVATE:
                if self.selected is not None:
                    self.play_index(self.selected)
                elif self.playable:
                    self.selected = min(self.playable)  # first Enter shows which card it would play
                else:
                    hot = [b for b in self.buttons if b.hot]  # the only move left: Draw or Pass
                    if hot:
                        self.intent(hot[-1].intent)
            case TableCommand.DENOUNCE:
                # N: the first denounce button, if a missed "Card" call can be denounced.
                denounce = next((b.intent for b in self.buttons if isinstance(b.intent, Denounce)), None)
                if denounce is None:
                    return False
                self.intent(denounce)
            case None | Nav():
                return False
            case intent:
                self.intent(intent)
        return True

    def play_index(self, index: int) -> None:
        """Play the card at ``index`` of the shown hand (the engine explains a refusal)."""
        hand = self.shown
        if 0 <= index < len(hand):
            self.card_rects[hand[index]] = self.hand_rects[index].copy()
            self.controller.submit(Play(hand[index]), self.view.seat)

    def intent(self, intent: TableIntent) -> None:
        """Carry out a button or key: an action for the shown seat, or a command to the table."""
        match intent:
            case TableCommand.HINT:
                self.hint()
            case TableCommand.UNDO:
                if self.controller.undo():
                    self.animator.clear()
                    view = self.view
                    self.moves.rewind((view.round_number, view.turn_no))
                    self.app.sound.play("draw")
            case TableCommand.PAUSE:
                self.open_pause()
            case TableCommand.AUTOPILOT:
                self.toggle_autopilot()
            case TableCommand.MOVES:
                self.open_moves()
            case TableCommand.REACT:
                if self.reactions is not None and self.reactions.open(self.view):
                    self.app.push("Reactions", table=self, board=self.reactions)
            case TableCommand.SORT:
                self.sort_next()
            case TableCommand.DENOUNCE:
                pass  # the N key finds the seat to denounce (`key`); a button carries `Denounce(seat)`
            case action:
                self.controller.submit(action, self.view.seat)

    def hint(self) -> None:
        """Suggest a move (the Medium player's choice): select the card, or name the action; with
        one move only, say so ("Only one card can be played", "No card can be played: draw")."""
        view = self.view
        moves = hint_moves(view.legal)
        if not view.my_turn or not moves:
            return
        if len(moves) == 1 and not any(isinstance(a, Denounce) for a in view.legal):  # denouncing: a choice
            self.say(self.only_move_hint(moves[0]))
            return
        action = Medium().choose(view, random.Random(view.turn_no))
        if isinstance(action, Play):
            self.selected = self.shown.index(action.card)
            message = tr("table.hint_play", card=card_words(action.card))
        else:
            message = tr("table.hint_action", action=tr(ACTION_LABELS.get(action, "table.draw")))
        self.say(message)

    def only_move_hint(self, action: Action) -> str:
        """What the hint says when ``action`` is the one move there is (a card is selected too)."""
        if isinstance(action, Play):
            self.selected = self.view.hand.index(action.card)
            return tr("table.hint_only_card", card=card_words(action.card))
        if isinstance(action, Draw):
            return tr("table.hint_draw")
        if isinstance(action, Pass):
            return tr("table.hint_pass")
        return tr("table.hint_only_action", action=tr(ACTION_LABELS.get(action, "table.draw")))

    def open_pause(self) -> None:
        """Esc or the Menu button: the pause overlay."""
        self.app.push("Pause", table=self)

    def open_moves(self) -> None:
        """M or a tap on the move log: every move of the round, over the table."""
        self.app.push("Moves", table=self)

    def toggle_autopilot(self) -> None:
        """The toggle or O: the computer plays the shown person's turns, or gives them back."""
        button = self.autopilot_button
        if button is None:
            return
        seat = self.view.seat
        on = not self.controller.autopilot(seat)
        try:
            self.controller.set_autopilot(seat, on)
        except ValueError:
            return
        self.app.sound.play("click")
        self.say(tr("table.autopilot_now_on" if on else "table.autopilot_now_off"))
        self.refresh()
