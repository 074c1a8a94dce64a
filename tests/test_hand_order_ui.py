"""Sorting and arranging the hand: by suit, by rank, as dealt, and a card dragged within the hand
(mouse and touch), by real events into a real table; the engine's hand never moves."""

from __future__ import annotations

import random

import pygame

from game.client.controller import MatchController, SeatConfig
from game.client.hand_order import HandOrder, sorted_hand
from game.client.scenes.table import TableScene
from game.client.settings import Settings
from game.engine import Card, Match
from tests.client_support import STEP, click, label_starting, make_app, press, tap_label
from tests.support import make_match


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card(c) for c in text.split())


def codes(hand) -> str:
    return " ".join(c.code for c in hand)


def start_table(app, match: Match, seats: list[SeatConfig]) -> TableScene:
    controller = MatchController(match, seats, rng=random.Random(1), speed=0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    return table


def solo(app, hand: str = "9C 3H KS 5H 3C", start: str = "7H") -> TableScene:
    match = make_match("classic", [hand, "5S 6S 4D 4C 2D"], start, "KD QD JD TD 9D")
    return start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])


def played(table: TableScene, code: str) -> bool:
    """Whether the person played ``code`` (the computer may have answered on it since)."""
    round_ = table.controller.match.round
    return Card(code) in round_.discard and Card(code) not in round_.hands[0]


def engine_hand(table: TableScene) -> str:
    return codes(table.controller.match.round.hands[0])


def drag(app, start: tuple[int, int], end: tuple[int, int], steps: int = 6) -> None:
    """A real mouse drag: press, moves, release."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, steps + 1):
        pos = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame(STEP)
    app.frame(STEP)


def finger(app, kind: int, pos: tuple[int, int]) -> None:
    w, h = app.size
    pygame.event.post(pygame.event.Event(kind, touch_id=1, finger_id=1, x=pos[0] / w, y=pos[1] / h,
                                         dx=0.0, dy=0.0, pressure=1.0))


def test_sorting_by_suit_and_by_rank_lays_out_suits_and_ranks_in_order():
    hand = cards("9C 3H KS 5H 3C XJ")
    assert codes(sorted_hand(hand, "suit")) == "KS 3H 5H 3C 9C XJ"
    assert codes(sorted_hand(hand, "rank")) == "3H 3C 5H 9C KS XJ"
    assert codes(sorted_hand(hand, "dealt")) == "9C 3H KS 5H 3C XJ"


def test_the_s_key_steps_the_sort_and_the_engine_hand_is_untouched(app):
    table = solo(app)
    assert codes(table.shown) == "9C 3H KS 5H 3C"
    press(app, pygame.K_s)
    assert app.settings.hand_sort == "suit"
    assert codes(table.shown) == "KS 3H 5H 3C 9C"
    assert engine_hand(table) == "9C 3H KS 5H 3C"
    press(app, pygame.K_s)
    assert codes(table.shown) == "3H 3C 5H 9C KS"
    press(app, pygame.K_s)
    assert codes(table.shown) == "9C 3H KS 5H 3C"


def test_the_sort_control_on_the_table_sorts_and_is_remembered(app):
    table = solo(app)
    assert table.sort_button is not None
    click(app, table.sort_button.rect.center)
    assert codes(table.shown) == "KS 3H 5H 3C 9C"
    assert app.store.flush()
    assert Settings.from_json(app.settings.to_json()).hand_sort == "suit"
    # A new table starts sorted the remembered way.
    again = solo(app)
    assert codes(again.shown) == "KS 3H 5H 3C 9C"


def test_playable_cards_still_glow_after_sorting_and_a_tap_plays_the_shown_card(app):
    table = solo(app)
    press(app, pygame.K_s)  # by suit: KS 3H 5H 3C 9C; on 7H the hearts play
    assert {table.shown[i].code for i in table.playable} == {"3H", "5H"}
    assert all(table.hand_rects[i].top < table.hand_rects[0].top for i in table.playable)
    click(app, table.hand_rects[2].center)  # 5H where it is shown
    assert played(table, "5H")


def test_the_arrows_follow_the_shown_order(app):
    table = solo(app)
    press(app, pygame.K_s)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert table.shown[table.selected].code == "3H"
    press(app, pygame.K_RETURN)
    assert played(table, "3H")


def test_a_mouse_drag_moves_a_card_within_the_hand_without_playing_it(app):
    table = solo(app)
    first, last = table.hand_rects[0], table.hand_rects[-1]
    drag(app, first.center, (last.centerx + 5, first.centery))
    assert codes(table.shown) == "3H KS 5H 3C 9C"
    assert engine_hand(table) == "9C 3H KS 5H 3C"
    assert len(table.controller.match.round.discard) == 1  # nothing played


def test_a_drag_in_progress_shows_the_card_under_the_pointer_and_the_others_making_room(app):
    table = solo(app)
    start = table.hand_rects[0].center
    end = (table.hand_rects[-1].centerx, start[1] - 40)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    app.frame(STEP)
    assert table.hand.dragging is not None
    assert codes(table.shown) == "3H KS 5H 3C 9C"  # the preview: 9C where it would drop
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame(STEP)
    assert table.hand.drag is None and codes(table.shown) == "3H KS 5H 3C 9C"


def test_a_small_wobble_is_still_a_tap_that_plays(app):
    table = solo(app)
    rect = table.hand_rects[1]  # 3H, playable on 7H
    drag(app, rect.center, (rect.centerx + 3, rect.centery + 2), steps=2)
    assert played(table, "3H")


def test_a_card_dropped_on_the_discard_pile_is_played_if_legal(app):
    table = solo(app)
    rect = table.hand_rects[3]  # 5H
    drag(app, rect.center, pygame.Rect(table.layout.discard).center)
    assert played(table, "5H")


def test_an_unplayable_card_dropped_on_the_pile_is_refused_and_stays(app):
    table = solo(app)
    rect = table.hand_rects[2]  # KS on 7H
    drag(app, rect.center, pygame.Rect(table.layout.discard).center)
    assert codes(table.controller.match.round.discard) == "7H"
    assert table.toast  # the engine's reason, in words
    assert "KS" in codes(table.shown)


def test_a_touch_drag_moves_the_card_once_even_with_sdl_mouse_events(app):
    table = solo(app)
    start = table.hand_rects[0].center
    end = (table.hand_rects[2].centerx + 4, start[1])
    finger(app, pygame.FINGERDOWN, start)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=True))
    for x in range(start[0], end[0] + 1, max(1, (end[0] - start[0]) // 5)):
        finger(app, pygame.FINGERMOTION, (x, start[1]))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, start[1]), rel=(0, 0),
                                             buttons=(1, 0, 0), touch=True))
    finger(app, pygame.FINGERMOTION, end)
    finger(app, pygame.FINGERUP, end)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1, touch=True))
    app.frame(STEP)
    app.frame(STEP)
    assert codes(table.shown) == "3H KS 9C 5H 3C"
    assert len(table.controller.match.round.discard) == 1


def test_a_touch_tap_still_plays(app):
    table = solo(app)
    pos = table.hand_rects[1].center
    finger(app, pygame.FINGERDOWN, pos)
    finger(app, pygame.FINGERUP, pos)
    app.frame(STEP)
    assert played(table, "3H")


def test_a_moved_order_stays_until_the_next_sort_choice():
    order = HandOrder("dealt")
    hand = cards("9C 3H KS 5H")
    order.move(0, hand, 0, 3)
    assert codes(order.shown(0, hand)) == "3H KS 5H 9C"
    assert codes(order.shown(0, cards("9C KS 5H"))) == "KS 5H 9C"  # 3H played: the gap closes
    order.set_sort("suit")
    assert codes(order.shown(0, cards("9C KS 5H"))) == "KS 5H 9C"
    assert not order.moved(0)


def test_a_card_drawn_goes_where_the_sort_puts_it():
    order = HandOrder("suit")
    hand = cards("9C 3H KS 5H")
    order.move(0, hand, 1, 3)  # by suit KS 3H 5H 9C, then 3H moved to the end
    assert codes(order.shown(0, hand)) == "KS 5H 9C 3H"
    assert codes(order.shown(0, hand + cards("4C"))) == "KS 5H 4C 9C 3H"
    dealt = HandOrder("dealt")
    dealt.move(0, hand, 0, 2)
    assert codes(dealt.shown(0, hand + cards("4C"))) == "3H KS 9C 5H 4C"  # as dealt: at the end


def test_a_new_deal_is_laid_out_by_the_sort():
    order = HandOrder("rank")
    order.move(0, cards("9C 3H"), 0, 1)
    assert codes(order.shown(0, cards("KD 2S 7H"))) == "2S 7H KD"


def test_a_card_drawn_at_the_table_lands_in_its_sorted_place(app):
    match = make_match("classic", ["3C 9S", "5S 6S"], "7H", "KH QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_s)  # by suit: 9S 3C
    click(app, pygame.Rect(table.layout.draw_pile).center)
    assert engine_hand(table) == "3C 9S KH"
    assert codes(table.shown) == "9S KH 3C"


def test_hot_seat_people_each_keep_their_own_order():
    order = HandOrder("dealt")
    a, b = cards("9C 3H KS"), cards("2D 4D 6D")
    order.move(0, a, 0, 2)
    assert codes(order.shown(0, a)) == "3H KS 9C"
    assert codes(order.shown(1, b)) == "2D 4D 6D"


def test_old_settings_files_load_with_the_hand_as_dealt():
    settings = Settings.from_json({"language": "fr", "speed": "fast"})
    assert settings.hand_sort == "dealt"
    assert Settings.parse({"hand_sort": "colour"})[1] == ["hand_sort"]
    assert Settings.from_json({"hand_sort": "rank"}).hand_sort == "rank"


def test_the_settings_screen_steps_the_hand_order_and_the_table_follows():
    app = make_app()
    try:
        table = solo(app)
        press(app, pygame.K_ESCAPE)
        app.push("Settings")
        app.frame(STEP)
        tap_label(app, label_starting(app, "Hand order: "))
        assert app.settings.hand_sort == "suit"
        assert label_starting(app, "Hand order: ") == "Hand order: By suit"
        tap_label(app, "Back")
        tap_label(app, "Resume")
        assert codes(table.shown) == "KS 3H 5H 3C 9C"
    finally:
        pygame.display.quit()


def test_a_table_opened_or_continued_is_sorted_by_the_setting():
    app = make_app(hand_sort="rank")
    try:
        table = solo(app)
        assert codes(table.shown) == "3H 3C 5H 9C KS"
    finally:
        pygame.display.quit()
