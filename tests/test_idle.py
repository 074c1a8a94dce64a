"""At rest the game rests: what each screen has due, one long update for a rest, drawing only on
change, the loop waiting for input, and F11's window coming back where it was, within the screen.

Frames are stepped by hand (`App.frame` with ``rested`` for the time a loop slept); the loop
itself (`App.run`) is run on the menu and stopped from another thread. Nothing here measures
speed: ``python -m tools.client_bench --idle`` prints the CPU figures.
"""

from __future__ import annotations

import random
import threading

import pygame
import pytest

from game.client.app import KIOSK_IDLE, App
from game.client.controller import MatchController, SeatConfig
from game.client.gui import CURSOR_POLL
from game.client.pacing import FRAME, Pacer
from game.client.remote import ONLINE_POLL, RemoteController
from game.client.scene import Scene
from game.client.scenes.handoff import GRACE, HandoffScene
from game.client.scenes.table import TIMER_TICK, TOAST, TableScene
from game.client.window import windowed_place
from game.engine import PRESETS, Match, preset
from game.net.client import CONNECTED
from game.net.messages import from_server
from tests.client_support import STEP, click, make_app, open_menu, press, rect_of, run_until, top_name


class Clock(Scene):
    """A scene that records the ``dt`` of every update it gets."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.updates: list[float] = []

    def update(self, dt: float) -> None:
        self.updates.append(dt)


def table_app(app: App, seats: list[SeatConfig], rules=None, *, seed: int = 3) -> TableScene:
    """A table of ``seats`` on ``app`` (a fresh match), shown at once."""
    match = Match(rules or PRESETS["classic"], len(seats), seed)
    controller = MatchController(match, seats, rng=random.Random(seed), speed=app.settings.speed_factor)
    table = TableScene(app, controller)
    app.start(table)
    return table


def my_turn(app: App, table: TableScene) -> bool:
    """Run frames until the shown seat is to play and nothing moves on the table."""
    def ready() -> bool:
        view = table.view
        return app.stack.top is table and view.to_act == view.seat and not table.animator.busy
    return run_until(app, ready)


# ---- what is due ---------------------------------------------------------------------------------
def test_the_menu_at_rest_asks_for_no_frame_and_is_not_drawn_again(app):
    open_menu(app)
    assert app.due() is None and not app.moving
    drawn = app.draws
    for _ in range(5):
        app.frame(STEP, rested=STEP, lazy=True)
    assert app.draws == drawn


def test_a_key_on_the_menu_redraws_it_once(app):
    open_menu(app)
    app.frame(STEP, lazy=True)
    drawn = app.draws
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode="", scancode=0))
    app.frame(STEP, lazy=True)
    app.frame(STEP, lazy=True)
    assert app.draws == drawn + 1
    assert app.stack.top.focus == 1


def test_a_bare_pointer_move_over_the_waiting_table_is_not_drawn(app):
    table = table_app(app, [SeatConfig("human"), SeatConfig("computer")])
    assert my_turn(app, table)
    app.frame(STEP, lazy=True)
    drawn = app.draws
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(1, 1), buttons=(0, 0, 0)))
    app.frame(STEP, lazy=True)
    assert app.draws == drawn
    assert app.due() is None  # human's turn, no clock: nothing until input


def test_a_long_rest_is_one_update_and_a_long_frame_is_clamped(app):
    clock = Clock(app)
    app.start(clock)
    app.frame(10.0, rested=10.0)
    assert clock.updates == [10.0]  # the time slept, in one update: no burst of steps
    clock.updates.clear()
    app.frame(10.0)  # a frame that took 10 s (no rest): cut to MAX_STEPS steps, as before
    assert clock.updates == [STEP] * 5


def test_a_computers_think_takes_its_time_however_few_frames_are_drawn():
    app = make_app(speed="normal")
    try:
        table = table_app(app, [SeatConfig("computer", "easy"), SeatConfig("human")])
        controller = table.controller
        assert run_until(app, lambda: controller.think_left is not None and not table.animator.busy)
        left = controller.think_left
        assert left > 0.2
        turn = controller.match.round.turn_no
        assert table.next_frame() is not None and table.next_frame() < FRAME * 3  # the thinking glow
        assert controller.due() == pytest.approx(left)
        app.frame(left / 2, rested=left / 2, lazy=True)  # half the think slept through: not yet
        assert controller.match.round.turn_no == turn
        assert controller.due() == pytest.approx(left / 2)
        app.frame(left / 2 + 0.01, rested=left / 2 + 0.01, lazy=True)
        assert controller.match.round.turn_no > turn  # the rest of it: the computer has played
        assert app.moving  # and its card flies
    finally:
        pygame.display.quit()


def test_a_visible_turn_clock_is_redrawn_as_it_changes():
    app = make_app(speed="normal")
    try:
        rules = preset("classic", {"turn_seconds": 30})
        table = table_app(app, [SeatConfig("human"), SeatConfig("computer", "easy")], rules)
        assert my_turn(app, table)
        app.frame(STEP, lazy=True)
        due = table.next_frame()
        assert due is not None and 0 < due <= TIMER_TICK + 0.01
        left = table.controller.timer_left
        drawn = app.draws
        app.frame(due, rested=due, lazy=True)
        assert table.controller.timer_left == pytest.approx(left - due)
        assert app.draws == drawn + 1
    finally:
        pygame.display.quit()


def test_a_refusal_message_is_due_to_go_and_goes(app):
    table = table_app(app, [SeatConfig("human"), SeatConfig("computer")])
    assert my_turn(app, table)
    press(app, pygame.K_p)  # passing before drawing is refused: a message
    assert table.toast_left > 0
    assert app.due() == pytest.approx(table.toast_left)
    drawn = app.draws
    app.frame(TOAST, rested=TOAST, lazy=True)
    assert table.toast_left == 0 and app.draws == drawn + 1


def test_a_kiosk_at_rest_wakes_for_its_idle_timeout():
    app = make_app(kiosk=True)
    try:
        table = table_app(app, [SeatConfig("human"), SeatConfig("computer")])
        assert my_turn(app, table)
        app.frame(STEP)  # the table, just shown, has its first update (see the next test)
        app.idle = 0.0
        assert app.due() == pytest.approx(KIOSK_IDLE)
        app.frame(KIOSK_IDLE, rested=KIOSK_IDLE, lazy=True)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_the_hand_off_cover_is_due_at_the_end_of_its_grace(app):
    table = table_app(app, [SeatConfig("human"), SeatConfig("human")])
    cover = HandoffScene(app, table, 1)
    app.stack.push(cover)
    app.stack.apply_requests()
    assert app.due() == 0  # a scene just shown is updated once before any rest
    app.frame(STEP, lazy=True)
    assert app.due() == pytest.approx(GRACE - STEP)
    app.frame(GRACE, rested=GRACE, lazy=True)
    assert cover.shown >= GRACE and app.due() is None


def test_a_focused_text_field_blinks_and_nothing_else_moves_in_the_lobby(app):
    from game.client.scenes.lobby import LobbyScene

    app.start(LobbyScene(app))
    app.frame(STEP)
    lobby = app.stack.top
    lobby.manager.set_focus_set(None)
    app.frame(STEP)
    assert app.due() is None
    click(app, next(iter(lobby.entries.values())).rect.center)  # into a text field
    assert app.due() == pytest.approx(CURSOR_POLL)


class QuietLine:
    """A connection to a room that says nothing (what `RemoteController` reads of one)."""

    room, seat, host, port, status, connected, problem = "r", 0, "127.0.0.1", 1, CONNECTED, True, None

    def __init__(self) -> None:
        self.inbox: list[dict] = []

    def poll(self) -> list[dict]:
        out, self.inbox = self.inbox, []
        return out

    def poll_messages(self) -> list:  # what RemoteController reads: the inbox as types
        return [message for message in map(from_server, self.poll()) if message is not None]


def test_an_online_controller_is_looked_at_every_poll_interval_and_at_once_with_news_held():
    remote = RemoteController(QuietLine())  # type: ignore[arg-type]
    assert remote.due() == ONLINE_POLL
    remote.connection.inbox = [{"type": "update", "view": None}, {"type": "update", "view": None}]
    remote.busy = lambda: True  # cards in flight: the updates wait their turn
    remote.update(STEP)
    assert remote.due() == 0.0


def test_cards_in_flight_make_the_table_move(app):
    app.settings.speed = "normal"
    table = table_app(app, [SeatConfig("human"), SeatConfig("computer")])
    table.controller.apply_settings(speed=1.0, undo_allowed=True)
    assert run_until(app, lambda: table.animator.busy)
    assert table.next_frame() == 0.0 and app.moving


# ---- the loop ------------------------------------------------------------------------------------
def test_the_loop_draws_the_menu_once_then_waits_until_it_is_woken(app):
    open_menu(app)
    drawn = app.draws
    woken = threading.Event()

    def stop() -> None:
        app.running = False
        app.wake()
        woken.set()

    timer = threading.Timer(0.5, stop)
    timer.start()
    app.run()  # returns only because the wake-up reached the resting loop
    timer.join()
    assert woken.is_set()
    assert app.draws - drawn <= 1  # the first frame may draw; then nothing changed


def test_a_wake_up_from_another_thread_ends_a_rest_without_a_limit():
    pygame.display.init()
    try:
        pygame.display.set_mode((64, 64))
        pygame.event.clear()
        pacer = Pacer(signals=False)
        try:
            threading.Timer(0.1, pacer.wake).start()
            slept = pacer.rest(None)
            assert slept < 10  # it returned: the rest had no limit of its own
        finally:
            pacer.release()
    finally:
        pygame.display.quit()


# ---- F11 -----------------------------------------------------------------------------------------
def test_a_window_comes_back_no_larger_than_the_screen_and_wholly_on_it():
    assert windowed_place((1280, 800), (100, 50), (1920, 1080)) == ((1280, 800), (100, 50))
    assert windowed_place((2500, 1400), (300, 200), (1920, 1080)) == ((1920, 1080), (0, 0))
    assert windowed_place((1280, 800), (1500, 900), (1920, 1080)) == ((1280, 800), (640, 280))
    assert windowed_place((1280, 800), (-40, -10), (1920, 1080)) == ((1280, 800), (0, 0))
    assert windowed_place((1280, 800), None, (1920, 1080)) == ((1280, 800), (320, 140))


def test_f11_twice_brings_the_window_back_fitted_to_the_desktop():
    app = make_app((1280, 800))
    try:
        open_menu(app)
        desktop = pygame.display.get_desktop_sizes()[0]
        press(app, pygame.K_F11)
        assert app.fullscreen
        press(app, pygame.K_F11, frames=3)
        assert not app.fullscreen
        w, h = app.screen.get_size()
        assert w <= desktop[0] and h <= desktop[1]
        assert app.windowed_size == (min(1280, desktop[0]), min(800, desktop[1]))
        x, y = pygame.display.get_window_position()
        assert 0 <= x <= desktop[0] - w and 0 <= y <= desktop[1] - h
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_kiosk_mode_keeps_fullscreen_on_f11():
    app = make_app(kiosk=True)
    try:
        open_menu(app)
        press(app, pygame.K_F11)
        assert app.fullscreen
    finally:
        pygame.display.quit()


def test_a_pointer_onto_a_menu_button_redraws_once_when_it_is_hovered(app):
    open_menu(app)
    app.frame(STEP, lazy=True)
    centre = rect_of(app, "Settings").center
    pygame.mouse.set_pos(centre)  # pygame_gui finds hover from where the pointer is
    drawn = app.draws
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(4):
        app.frame(STEP, lazy=True)
    assert [c.element.text for c in app.stack.top.controls if c.element.hovered] == ["Settings"]
    assert app.draws == drawn + 1
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(centre[0] + 2, centre[1]), rel=(2, 0),
                                         buttons=(0, 0, 0)))
    pygame.mouse.set_pos((centre[0] + 2, centre[1]))
    for _ in range(4):
        app.frame(STEP, lazy=True)
    assert app.draws == drawn + 1  # still on the same button: nothing to draw
    assert app.due() is None


def test_a_screen_opened_by_a_key_is_drawn_whole_in_that_frame_before_the_loop_rests(app):
    """pygame_gui finishes a new widget's picture in its first update: a screen drawn before
    any update (a key woke the loop from a rest, so no fixed step ran) used to show only the
    felt and the focus ring until the next input."""
    open_menu(app)
    menu = app.stack.top
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    pygame.event.post(enter)
    app.frame(0.001, lazy=True)  # woken by the key: no fixed step, the new screen drawn at once
    opened = app.stack.top
    assert opened is not menu and opened.controls
    screen = pygame.display.get_surface()
    edges = [(c.element.rect.x + 2, c.element.rect.centery) for c in opened.controls]
    first = [tuple(screen.get_at(p)) for p in edges]
    for _ in range(3):
        app.frame(STEP)
    assert first == [tuple(screen.get_at(p)) for p in edges]  # nothing more came with later frames
