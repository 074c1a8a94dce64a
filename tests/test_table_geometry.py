"""Never cramped, never wrong: the table's boxes at every size, the direction ring's sense,
the keyboard cursor, and which button is highlighted."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.layout import compute, overlaps
from game.client.scenes.table import TableScene
from game.client.table_paint import CURSOR
from game.engine import Draw, Match, Pass, preset
from tests.client_support import make_app, press
from tests.support import act, make_match

# 4:3 to 21:9, 1024×600 to 3840×2160.
SIZES = [(1024, 600), (1024, 768), (1280, 800), (1366, 768), (1440, 900), (1600, 1200), (1920, 1080),
         (2560, 1080), (2560, 1440), (3440, 1440), (3840, 2160)]


def inside(rect, size) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]


def contains(outer, inner) -> bool:
    return pygame.Rect(outer).contains(pygame.Rect(inner))


@pytest.mark.parametrize("left_handed", [False, True])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_two_seats_piles_hand_buttons_info_or_menu_overlap(size, left_handed):
    layout = compute(size, left_handed=left_handed)
    for others in range(0, 7):
        regions = layout.regions(others)
        names = list(regions)
        for i, a in enumerate(names):
            assert inside(regions[a], size), (others, a, regions[a])
            for b in names[i + 1:]:
                assert not overlaps(regions[a], regions[b]), (others, a, regions[a], b, regions[b])
        for spot in layout.seat_spots(others):
            for part in (spot.fan, spot.label, spot.count):
                assert contains(spot.box, part), (others, spot)
            assert not overlaps(spot.fan, spot.label) and not overlaps(spot.label, spot.count)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_centre_holds_the_piles_and_their_labels_and_the_ring_crosses_no_text(size):
    layout = compute(size)
    ring = pygame.Rect(layout.ring)
    for part in (layout.draw_pile, layout.discard, layout.suit_badge, layout.pile_label, layout.pending):
        assert ring.contains(pygame.Rect(part))
    keep_clear = [layout.draw_pile, layout.discard, layout.suit_badge, layout.pile_label, layout.pending,
                  layout.message_box, layout.timer_box, layout.info, layout.log, layout.menu_button,
                  layout.hand_area, layout.buttons] + [s.box for s in layout.seat_spots(6)]
    for direction in (1, -1):
        for x, y in layout.ring_points(direction):
            assert 0 <= x < size[0] and 0 <= y < size[1]
            for box in keep_clear:
                assert not pygame.Rect(box).collidepoint(x, y), (direction, (x, y), box)
    assert not overlaps(layout.message_box, layout.timer_box)


# ---- the direction of play ----------------------------------------------------------------------
def screen_sense(points: list[tuple[float, float]]) -> int:
    """1 if going round ``points`` in order turns clockwise on the screen (y down), -1 if not."""
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True))
    assert abs(area) > 1, "the seats are in a line: no sense to check"
    return 1 if area > 0 else -1


def arrow_sense(layout, arrow) -> int:
    """1 if the arrowhead turns clockwise round the ring's centre on the screen, -1 if not."""
    rx, ry, rw, rh = layout.ring
    cx, cy = rx + rw / 2, ry + rh / 2
    tx, ty = arrow.tip[0] - cx, arrow.tip[1] - cy
    hx, hy = arrow.heading
    cross = tx * hy - ty * hx
    assert abs(cross) > 1e-6
    return 1 if cross > 0 else -1


def points_table(app, players: int, direction: int) -> TableScene:
    rules = preset("points", {"aces_reverse": True})
    match = Match(rules, players, seed=players)
    match.round.direction = direction
    seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * (players - 1)
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.stack.apply_requests()
    return table


@pytest.mark.parametrize("players", range(2, 8))
def test_the_arrows_turn_the_way_play_goes_from_the_seats_on_the_screen(players):
    app = make_app((1280, 800))
    try:
        for direction in (1, -1):
            table = points_table(app, players, direction)
            table.draw(app.screen)
            layout, view = table.layout, table.view
            arrows = table.painter.arrows_drawn
            if players == 2:
                # Two players: a Reverse gives the turn back, there is no order to show.
                assert arrows == []
                continue
            where = {view.seat: pygame.Rect(layout.hand_area).center}
            others = [(view.seat + k) % players for k in range(1, players)]
            for seat, spot in zip(others, layout.seat_spots(len(others)), strict=True):
                where[seat] = spot.center
            order = [(view.seat + direction * k) % players for k in range(players)]
            rx, ry, rw, rh = layout.ring
            centre = (rx + rw / 2, ry + rh / 2)
            play = screen_sense([(where[s][0] - centre[0], where[s][1] - centre[1]) for s in order])
            assert len(arrows) == 2
            assert [arrow_sense(layout, a) for a in arrows] == [play, play], (players, direction)
            for arrow in arrows:  # each head sits at the end its arc runs to, not at its start
                arc = layout.arc_points(arrow)
                mx, my = arc[len(arc) // 2]
                assert (arrow.tip[0] - mx) * arrow.heading[0] + (arrow.tip[1] - my) * arrow.heading[1] > 0
            # From the shown seat at the bottom, the next seat is reached going the arrows' way.
            next_x = where[order[1]][0] - where[view.seat][0]
            if abs(next_x) > 1:
                assert (next_x < 0) == (play == 1)  # clockwise from the bottom goes left first
    finally:
        pygame.display.quit()


def test_a_reverse_played_at_the_table_flips_the_arrows():
    app = make_app()
    try:
        match = make_match("points", ["AH 5C", "9H 7D", "3H 4D"], "4H", "KS QS JS TS",
                           options={"aces_reverse": True})
        seats = [SeatConfig("human"), SeatConfig("computer"), SeatConfig("computer")]
        table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
        app.start(table)
        app.frame(1 / 60)
        before = [arrow_sense(table.layout, a) for a in table.painter.arrows_drawn]
        press(app, pygame.K_RETURN)  # selects the ace
        press(app, pygame.K_RETURN, frames=1)  # plays it
        assert table.view.direction == -1
        app.frame(1 / 60)
        after = [arrow_sense(table.layout, a) for a in table.painter.arrows_drawn]
        assert before == [1, 1] and after == [-1, -1]
    finally:
        pygame.display.quit()


def _dealt(app, rules, players: int, seed: int) -> TableScene:
    """A table just after the deal (seat 0 shown), drawn once."""
    seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * (players - 1)
    match = Match(rules, players, seed=seed)
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.stack.apply_requests()
    table.draw(app.screen)
    return table


def test_the_direction_is_shown_at_every_table_of_three_or_more_even_without_a_reverse():
    app = make_app((1280, 800))
    try:
        assert not preset("classic").reverse_ranks and not preset("classic").aces_reverse
        for players in (3, 4):
            table = _dealt(app, preset("classic"), players, seed=players)
            assert [arrow_sense(table.layout, a) for a in table.painter.arrows_drawn] == [1, 1]
        table = _dealt(app, preset("duel"), 2, seed=1)
        assert table.painter.arrows_drawn == []  # two players: no order to show
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("players", [3, 4])
def test_colours_starts_with_the_player_on_your_right_and_the_arrows_say_so(players):
    app = make_app((1280, 800))
    try:
        for seed in range(30):
            match = Match(preset("colors"), players, seed=seed)
            if match.round.direction == -1 and match.round.to_act == 0 and match.round.phase == "play":
                break
        else:
            raise AssertionError("no deal where seat 0 starts counter-clockwise")
        table = _dealt(app, preset("colors"), players, seed=seed)
        view, layout = table.view, table.layout
        assert view.direction == -1
        assert [arrow_sense(layout, a) for a in table.painter.arrows_drawn] == [-1, -1]
        nxt = (view.seat + view.direction) % players
        spots = layout.seat_spots(players - 1)
        right = spots[-1].center  # the last spot: down the right column, or the top row's right end
        assert spots[(nxt - view.seat) % players - 1].center == right
        assert right[0] > pygame.Rect(layout.hand_area).centerx
    finally:
        pygame.display.quit()


# ---- the keyboard cursor ------------------------------------------------------------------------
def colour_near(surface, rect: pygame.Rect, colour, reach: int) -> int:
    """How many pixels within ``reach`` outside ``rect`` have ``colour`` (give or take a little)."""
    found = 0
    area = rect.inflate(2 * reach, 2 * reach).clip(surface.get_rect())
    for x in range(area.left, area.right, 2):
        for y in range(area.top, area.bottom, 2):
            if rect.collidepoint(x, y):
                continue
            r, g, b, *_ = surface.get_at((x, y))
            if abs(r - colour[0]) + abs(g - colour[1]) + abs(b - colour[2]) < 30:
                found += 1
    return found


@pytest.mark.parametrize(("name", "hand", "top", "four_color"), [
    ("classic", ["3H 9C 4H 5H", "5S 6S 2D 3D"], "7H", False),
    ("classic", ["3D 9C 4D 5D", "5S 6S 2H 3H"], "7D", True),
    ("colors", ["B3 G9 B4 B5", "Y5 Y6 Y2 Y3"], "B7", False),
])
def test_the_keyboard_cursor_is_not_the_playable_glow(name, hand, top, four_color):
    app = make_app(four_color=four_color)
    try:
        match = make_match(name, hand, top, "KD QD JD TD" if name == "classic" else "R1 R2 R3 R4")
        table = TableScene(app, MatchController(match, [SeatConfig("human"), SeatConfig("computer")],
                                                rng=random.Random(1), speed=0))
        app.start(table)
        app.frame(1 / 60)
        assert table.playable == {0, 2, 3}
        press(app, pygame.K_RIGHT)  # the cursor on the first card (playable)
        press(app, pygame.K_RIGHT)  # ... then on the second (not playable)
        assert table.selected == 1
        table.draw(app.screen)
        reach = max(8, int(table.layout.card[0] * 0.3))
        cursor_at = table.hand_rects[1]
        assert colour_near(app.screen, cursor_at, CURSOR, reach) > 40
        # The glowing playable cards carry no cursor colour at all.
        last = table.hand_rects[3]
        assert colour_near(app.screen, pygame.Rect(last.right - 4, last.top, 4, last.height), CURSOR, 6) == 0
        glow = table.painter.art.glow()
        gold = max(((x, y) for x in range(0, glow.get_width(), 3) for y in range(0, glow.get_height(), 3)),
                   key=lambda p: glow.get_at(p)[3])
        r, g, b, _ = glow.get_at(gold)
        assert abs(r - CURSOR[0]) + abs(g - CURSOR[1]) + abs(b - CURSOR[2]) > 200
    finally:
        pygame.display.quit()


# ---- the highlighted button ---------------------------------------------------------------------
def colours_table(app, hands, top, pile="R1 R2 R3 R4 R5 R6"):
    match = make_match("colors", hands, top, pile)
    table = TableScene(app, MatchController(match, [SeatConfig("human"), SeatConfig("computer")],
                                            rng=random.Random(1), speed=0))
    app.start(table)
    app.frame(1 / 60)
    return table


def test_in_colours_draw_is_not_highlighted_while_a_card_plays(app):
    table = colours_table(app, ["B3 G9 Y4", "Y5 Y6 Y2"], "B7")
    assert Draw() in table.view.legal and table.playable
    assert [b.hot for b in table.buttons] == [False] * len(table.buttons)
    press(app, pygame.K_RETURN)  # Enter selects the playable card, it does not draw
    assert table.selected == 0 and len(table.view.hand) == 3


def test_the_only_move_is_highlighted_and_enter_takes_it(app):
    table = colours_table(app, ["G3 G9 Y4", "Y5 Y6 Y2"], "B7")
    assert not table.playable
    hot = [b.intent for b in table.buttons if b.hot]
    assert hot == [Draw()]
    press(app, pygame.K_RETURN)
    app.frame(1 / 60)
    view = table.view
    assert len(view.hand) == 4  # drew R1
    if Pass() in view.legal and not table.playable:
        assert [b.intent for b in table.buttons if b.hot] == [Pass()]


def test_a_choice_between_liar_and_accept_highlights_neither(app):
    match = make_match("colors", ["W+4 R5", "Y5 Y6"], "R3", "B1 B2 B3 B4 B5 B6")
    act(match, "play W+4", "suit B")
    table = TableScene(app, MatchController(match, [SeatConfig("computer"), SeatConfig("human")],
                                            rng=random.Random(1), speed=0))
    app.start(table)
    app.frame(1 / 60)
    assert table.view.to_act == 1 and len([b for b in table.buttons]) >= 2
    assert not any(b.hot for b in table.buttons)
    press(app, pygame.K_RETURN)
    assert table.view.to_act == 1  # Enter takes no side

