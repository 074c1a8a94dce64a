"""Table geometry: every size from 1024×600 to 3840×2160 and 4:3 to 21:9, big hands."""

import pytest

from game.client.layout import MIN_TOUCH, compute

SIZES = [(1024, 600), (1024, 768), (1280, 800), (1920, 1080), (2560, 1080), (3840, 2160)]


def visible_strips(slots):
    """Width of each card's tappable strip (the part the next card in its row does not cover)."""
    strips = []
    for i, (x, y, w, _h) in enumerate(slots):
        nxt = slots[i + 1] if i + 1 < len(slots) else None
        strips.append(w if nxt is None or nxt[1] != y else nxt[0] - x)
    return strips


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("count", [1, 7, 15, 25, 40])
def test_hand_fits_the_window_with_finger_sized_cards(size, count):
    layout = compute(size)
    slots = layout.hand_slots(count)
    assert len(slots) == count
    w, h = size
    for x, y, cw, ch in slots:
        assert x >= 0 and x + cw <= w and y >= 0 and y + ch <= h
    assert min(visible_strips(slots)) >= min(MIN_TOUCH, layout.card[0])


def test_a_big_hand_goes_to_two_rows():
    layout = compute((1280, 800))
    rows = {y for _, y, _, _ in layout.hand_slots(25)}
    assert len(rows) == 2
    assert len({y for _, y, _, _ in layout.hand_slots(7)}) == 1


@pytest.mark.parametrize("size", SIZES)
def test_buttons_are_touch_sized_and_inside_the_window(size):
    layout = compute(size)
    bw, bh = layout.button_size
    assert bh >= MIN_TOUCH and bw >= MIN_TOUCH
    x, y, w, h = layout.buttons
    assert x >= 0 and x + w <= size[0] and y + h <= size[1]


def test_left_handed_layout_puts_the_buttons_on_the_left():
    right = compute((1280, 800))
    left = compute((1280, 800), left_handed=True)
    assert right.buttons[0] > 640 > left.buttons[0]
    assert left.hand_area[0] > right.hand_area[0]


@pytest.mark.parametrize("others", range(1, 7))
def test_other_seats_do_not_overlap_the_piles(others):
    layout = compute((1280, 800))
    piles_top = min(layout.draw_pile[1], layout.discard[1])
    for spot in layout.seat_spots(others):
        x, y, w, h = spot.fan
        assert y + h <= piles_top or x + w < layout.draw_pile[0] or x > layout.discard[0] + layout.card[0]
