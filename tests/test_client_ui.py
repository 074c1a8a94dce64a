"""Headless UI tests: real pygame events posted into the real scenes."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.intents import Ready, TableCommand
from game.client.scenes.table import TableScene
from game.engine import PRESETS, Match, PlayerView
from tests.client_support import click, make_app, press, run_until, tap, top_name
from tests.support import make_match


def table_of(app) -> TableScene:
    for scene in app.stack.scenes:
        if isinstance(scene, TableScene):
            return scene
    raise AssertionError(f"no table in {app.stack.scenes}")


def start_table(app, match: Match, seats: list[SeatConfig]) -> TableScene:
    controller = MatchController(match, seats, rng=random.Random(1), speed=0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(1 / 60)
    return table


def keys_for_turn(table: TableScene) -> list[int]:
    """The keys a player would press for a sensible move in this view."""
    view: PlayerView = table.view
    legal = [str(a) for a in view.legal]
    if "card" in legal:
        return [pygame.K_c]
    if table.playable:
        target = min(table.playable)
        # Right from no selection lands on the first card.
        steps = target + 1 if table.selected is None else (target - table.selected) % len(view.hand)
        return [pygame.K_RIGHT] * steps + [pygame.K_RETURN]
    for action, key in (("draw", pygame.K_d), ("pass", pygame.K_p), ("end", pygame.K_e),
                        ("accept", pygame.K_a)):
        if action in legal:
            return [key]
    return []


def play_by_keys(app, frames: int = 20000) -> None:
    for _ in range(frames):
        name = top_name(app)
        if name == "ResultScene":
            return
        if name == "SuitPickerScene":
            press(app, pygame.K_RETURN)
        elif name == "HandoffScene":
            press(app, pygame.K_SPACE)
        elif name == "TableScene":
            table = app.stack.top
            if table.view.my_turn and not table.animator.busy:
                for key in keys_for_turn(table):
                    press(app, key, frames=1)
            app.frame(1 / 60)
        else:
            app.frame(1 / 60)
    raise AssertionError(f"no result after {frames} frames; top is {top_name(app)}")


def test_a_solo_game_is_played_to_the_result_by_keys_alone(app):
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    press(app, pygame.K_RETURN)  # New game (the focused menu entry)
    assert top_name(app) == "NewGameScene"
    press(app, pygame.K_RETURN)  # Start (focused by default)
    assert top_name(app) == "TableScene"
    assert table_of(app).controller.solo
    play_by_keys(app)
    assert top_name(app) == "ResultScene"
    assert table_of(app).controller.match.round.result is not None


def tap_center(app, rect) -> None:
    tap(app, pygame.Rect(rect).center)


def test_a_solo_game_is_played_to_the_result_by_touch_alone(app):
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    tap_center(app, app.stack.top.controls[0].element.rect)
    assert top_name(app) == "NewGameScene"
    start = next(c for c in app.stack.top.controls if c.element.text == "Start")
    tap_center(app, start.element.rect)
    assert top_name(app) == "TableScene"
    for _ in range(20000):
        name = top_name(app)
        if name == "ResultScene":
            break
        if name == "SuitPickerScene":
            tap_center(app, app.stack.top.rects[0])
            continue
        table = app.stack.top
        if name == "TableScene" and table.view.my_turn and not table.animator.busy:
            if table.playable:
                tap_center(app, table.hand_rects[min(table.playable)])
                continue
            if table.buttons:
                tap_center(app, table.buttons[-1].rect)
                continue
        app.frame(1 / 60)
    assert top_name(app) == "ResultScene"


def test_a_touch_is_handled_once_even_if_sdl_also_sends_a_mouse_click(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    pos = table.hand_rects[0].center
    w, h = app.size
    finger = {"touch_id": 1, "finger_id": 1, "x": pos[0] / w, "y": pos[1] / h, "dx": 0.0, "dy": 0.0,
              "pressure": 1.0}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, **finger))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, **finger))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True))
    submitted = []
    original = table.controller.submit
    table.controller.submit = lambda action, seat=None: (submitted.append(action), original(action, seat))
    app.frame(1 / 60)
    assert [str(a) for a in submitted] == ["play 3H"]


def test_tapping_an_unplayable_card_shows_the_engine_reason_and_changes_nothing(app):
    match = make_match("classic", ["3C 9H", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    before = list(match.round.hands[0])
    click(app, table.hand_rects[0].center)
    assert "You must follow" in table.toast
    assert table.message() == table.toast
    assert match.round.hands[0] == before
    assert match.round.to_act == 0


def test_the_suit_picker_announces_the_chosen_suit(app):
    # The computer holds no heart: it can only follow the announced hearts with the KH it draws.
    match = make_match("classic", ["8C 9S 2D", "5S 6S 4D"], "7H", "KH QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_RETURN)  # selects the first playable card, the eight
    press(app, pygame.K_RETURN)  # plays it
    assert top_name(app) == "SuitPickerScene"
    press(app, pygame.K_h)
    assert top_name(app) == "TableScene"
    assert run_until(app, lambda: table.controller.match.round.to_act == 0, 600)
    assert [c.code for c in table.controller.match.round.discard] == ["7H", "8C", "KH"]


def test_undo_takes_back_the_human_turn_and_the_computer_reply(app):
    match = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer", "easy")])
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)  # play 3H
    assert run_until(app, lambda: table.controller.match.round.to_act == 0, 600)
    assert len(table.controller.match.round.discard) >= 2
    press(app, pygame.K_u)
    restored = table.controller.match.round
    assert [c.code for c in restored.hands[0]] == ["3H", "9C", "4C"]
    assert [c.code for c in restored.discard] == ["7H"]
    assert restored.to_act == 0


def hot_seat_step(app, table: TableScene, name: str) -> None:
    """One step of a hot-seat game by keys: take the device (checking the cover hides the table),
    answer the suit picker, or play the shown player's turn; then one frame, recording its faces."""
    if name == "HandoffScene":
        table.painter.faces_drawn = []
        app.frame(1 / 60)
        assert table.painter.faces_drawn == [], "the table was drawn under the handoff cover"
        press(app, pygame.K_SPACE, frames=0)
    elif name == "SuitPickerScene":
        press(app, pygame.K_RETURN, frames=0)
    elif name == "TableScene" and table.view.my_turn and not table.animator.busy:
        for key in keys_for_turn(table):
            press(app, key, frames=0)
    table.painter.faces_drawn = []
    app.frame(1 / 60)


def test_hot_seat_never_draws_the_waiting_players_faces():
    """Two rounds of hot-seat duel: no frame shows a hand its owner is not holding the device for
    (every frame drawn, as a window shown again must be: in the smallest window, the cheapest)."""
    app = make_app((1024, 600), speed="fast")
    try:
        match = Match(PRESETS["duel"], 2, seed=4)
        seats = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")]
        controller = MatchController(match, seats, rng=random.Random(2), speed=2.0)
        table = TableScene(app, controller)
        app.start(table)
        handoffs = results = 0
        for _ in range(60000):
            name = top_name(app)
            if name == "ResultScene":
                results += 1
                if results == 2:
                    break
                for button in list(app.stack.top.buttons):
                    if isinstance(button.intent, Ready):
                        click(app, button.rect.center, frames=1)
                continue
            table.painter.faces_drawn = []
            if name == "HandoffScene":
                handoffs += 1
            hot_seat_step(app, table, name)
            if controller.match.status != "playing":
                continue
            r = controller.match.round
            viewer = controller.viewer
            drawn = set(table.painter.faces_drawn)
            leaked = (set(r.hands[1 - viewer]) - set(r.discard)) & drawn
            assert not leaked, f"seat {1 - viewer}'s {leaked} drawn while {viewer} holds the device"
            if controller.handoff_to is not None:
                assert not (set(r.hands[viewer]) - set(r.discard)) & drawn, "a hand shown before the handoff"
        assert results == 2
        assert handoffs >= 3
    finally:
        pygame.display.quit()


def test_a_key_pressed_as_the_handoff_cover_appears_does_not_reveal_the_next_hand(app):
    match = make_match("classic", ["3H 9C", "5H 6S"], "7H", "KD QD JD")
    seats = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")]
    table = start_table(app, match, seats)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # plays 3H: Ben's turn
    assert top_name(app) == "HandoffScene"
    press(app, pygame.K_RETURN)  # one Enter too many, straight away
    press(app, pygame.K_ESCAPE)
    assert top_name(app) in ("HandoffScene", "PauseScene")
    assert table.controller.viewer == 0
    for _ in range(30):
        app.frame(1 / 60)
    if top_name(app) == "PauseScene":
        press(app, pygame.K_ESCAPE)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene" and table.controller.viewer == 0
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_RETURN)
    assert top_name(app) == "TableScene" and table.controller.viewer == 1


def test_a_refused_tap_creates_no_undo_step(app):
    match = make_match("classic", ["3C 9H", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    click(app, table.hand_rects[0].center)
    assert "You must follow" in table.toast
    assert not table.controller.can_undo
    assert TableCommand.UNDO not in [b.intent for b in table.buttons]


def test_undo_does_not_show_the_draw_pile_order(app):
    match = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD 2C 5C 8D AS")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer", "easy")])
    before = [c.code for c in match.round.pile]
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert run_until(app, lambda: table.controller.match.round.to_act == 0, 600)
    press(app, pygame.K_u)
    after = [c.code for c in table.controller.match.round.pile]
    assert sorted(after) == sorted(before) and after != before


def test_refusals_are_explained_in_french(app):
    from game.client import i18n

    try:
        i18n.set_language("fr")
        match = make_match("classic", ["3C 9H", "5S 6S"], "7H", "KD QD JD")
        table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
        click(app, table.hand_rects[0].center)
        assert table.toast == "Vous devez jouer une carte ♥ ou un 7, ou bien un huit."  # issue 23: a sentence
    finally:
        i18n.set_language("en")


def test_the_turn_timer_keeps_running_under_the_suit_picker(app):
    match = make_match("action", ["8C 9S 2D", "5S 6S 4D"], "7H", "KH QD JD TD 2C 3C",
                       options={"runs": False, "twin_card": False})
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # plays the eight
    assert top_name(app) == "SuitPickerScene"
    for _ in range(11 * 60):
        app.frame(1 / 60)
    assert top_name(app) != "SuitPickerScene"
    assert len(table.controller.match.round.hands[0]) == 3  # two left, plus the penalty card


def test_a_seven_seat_result_fits_above_its_buttons():
    app = make_app((1280, 800))
    try:
        match = Match(PRESETS["points"], 7, seed=13)
        rng = random.Random(1)
        while match.status == "playing":
            match.apply(rng.choice(match.legal_actions()))
        seats = [SeatConfig("human")] + [SeatConfig("computer")] * 6
        start_table(app, match, seats)
        assert run_until(app, lambda: top_name(app) == "ResultScene", 50)
        result = app.stack.top
        app.frame(1 / 60)
        assert len(result.rows) == 7
        assert result.rows[-1].bottom <= min(b.rect.top for b in result.buttons)
    finally:
        pygame.display.quit()


def test_a_tiny_window_does_not_break_the_table(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    app.screen = pygame.display.set_mode((300, 200), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200))
    for _ in range(3):
        app.frame(1 / 60)
    assert app.size == (1024, 600)
    assert top_name(app) == "TableScene"


@pytest.mark.parametrize("size", [(1024, 600), (1024, 768), (1280, 800), (2560, 1080), (3840, 2160)])
def test_the_table_lays_out_at_every_supported_size(size):
    app = make_app(size)
    try:
        match = Match(PRESETS["points"], 7, seed=1)
        seats = [SeatConfig("human")] + [SeatConfig("computer")] * 6
        table = start_table(app, match, seats)
        app.frame(1 / 60)
        w, h = app.size
        for rect in table.hand_rects:
            assert rect.left >= 0 and rect.right <= w and rect.bottom <= h
        spots = table.layout.seat_spots(6)
        assert all(0 <= s.center[0] <= w and 0 <= s.center[1] <= h for s in spots)
    finally:
        pygame.display.quit()


def test_escape_opens_the_pause_menu_and_resume_returns(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableScene"


def test_kiosk_ignores_quit_and_returns_to_the_menu_when_idle():
    app = make_app(kiosk=True)
    try:
        match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
        start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        app.frame(1 / 60)
        assert app.running
        app.frame(200.0)  # a long idle stretch (clamped for updates, counted for idleness)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_the_hint_suggests_the_medium_players_move_and_enter_plays_it(app):
    match = make_match("classic", ["8C 4H 5S 6S", "KD QD JD TD"], "7H", "2C 3C 9C")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    assert TableCommand.HINT in [b.intent for b in table.buttons]
    press(app, pygame.K_h)
    assert table.selected == 1
    assert table.toast == "Suggestion: play 4♥"
    press(app, pygame.K_RETURN)
    assert "4H" in [c.code for c in table.controller.match.round.discard]


def test_playable_cards_lift_and_a_tap_on_the_pile_draws(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    assert table.playable == {0}
    assert table.hand_rects[0].top < table.hand_rects[1].top
    match = make_match("classic", ["3C 9C", "5S 6S"], "7H", "KH QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    click(app, pygame.Rect(table.layout.draw_pile).center)
    assert [c.code for c in table.controller.match.round.hands[0]] == ["3C", "9C", "KH"]


def open_new_game(app, preset: str) -> None:
    """From the menu, Enter opens the new-game form on the last preset played (``preset``)."""
    app.settings.last_preset = preset
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    press(app, pygame.K_RETURN)


def test_house_rules_chosen_before_the_game_are_the_rules_played():
    app = make_app()
    try:
        open_new_game(app, "points")
        scene = app.stack.top
        assert top_name(app) == "NewGameScene" and scene.preset_name == "points"
        jacks = next(c for c in scene.controls if c.element.text.startswith("Jacks skip"))
        assert jacks.element.text.endswith("off")
        click(app, jacks.element.rect.center)
        jacks = next(c for c in app.stack.top.controls if c.element.text.startswith("Jacks skip"))
        assert jacks.element.text.endswith("on")
        start = next(c for c in app.stack.top.controls if c.element.text == "Start")
        click(app, start.element.rect.center)
        assert top_name(app) == "TableScene"
        assert table_of(app).controller.match.rules.jacks_skip
    finally:
        pygame.display.quit()


def test_a_number_option_steps_through_its_declared_values_and_says_what_0_means():
    from game.engine import OPTIONS

    app = make_app()
    try:
        open_new_game(app, "classic")
        assert top_name(app) == "NewGameScene"

        def shown(label: str) -> str:
            control = next(c for c in app.stack.top.controls if c.element.text.startswith(label + ":"))
            return control.element.text.split(": ", 1)[1]

        steps = next(o for o in OPTIONS if o.name == "hand_size").steps
        seen = [shown("Cards per hand")]
        for _ in steps:
            button = next(c for c in app.stack.top.controls if c.element.text.startswith("Cards per hand"))
            click(app, button.element.rect.center)
            seen.append(shown("Cards per hand"))
        assert seen == ["by players", *map(str, steps[1:]), "by players"]
        assert shown("Turn timer (s)") == "off" and shown("Target score") == "one round"
        assert shown("Cards drawn per turn") == "no limit"  # classic draws until a card plays
    finally:
        pygame.display.quit()


def test_the_table_lists_the_options_in_force():
    from game.client.table_paint import options_in_force

    rules = PRESETS["points"].with_options(jacks_skip=True, turn_seconds=15)
    assert options_in_force(rules) == ["Jacks skip", "Reshuffle the discards", "15 s"]
    assert "Twin cards" in options_in_force(PRESETS["action"])


def test_mixed_hot_seat_hides_the_last_players_hand_while_computers_play():
    app = make_app(speed="fast")
    try:
        match = Match(PRESETS["classic"], 3, seed=6)
        seats = [SeatConfig("human", name="Ana"), SeatConfig("computer", "easy"),
                 SeatConfig("human", name="Ben")]
        controller = MatchController(match, seats, rng=random.Random(3), speed=2.0)
        table = TableScene(app, controller)
        app.start(table)
        computer_frames = 0
        for _ in range(20000):
            if controller.match.status != "playing" or computer_frames > 30:
                break
            hot_seat_step(app, table, top_name(app))
            r = controller.match.round
            if r.to_act == 1 and top_name(app) == "TableScene":
                computer_frames += 1
                shown = set(r.hands[controller.viewer]) - set(r.discard)
                assert not shown & set(table.painter.faces_drawn), "a hand face up while the computer plays"
        assert computer_frames > 30
    finally:
        pygame.display.quit()
