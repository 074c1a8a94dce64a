"""Generated card art: every card renders at its size, cards look different, the script writes sheets."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.client.art import CardArt, felt  # noqa: E402
from game.client.felt import draw_felt  # noqa: E402
from game.engine.cards import JOKER, Card, color_deck, standard_deck  # noqa: E402
from tools.art_sheets import main  # noqa: E402

ALL_CARDS = list(dict.fromkeys(standard_deck() + [JOKER] + color_deck()))


def pixels(surface):
    return pygame.image.tobytes(surface, "RGBA")


def count_pixels_near(surface, color, tolerance=40):
    """How many opaque pixels are within ``tolerance`` of ``color`` on every channel."""
    found = 0
    for y in range(surface.get_height()):
        for x in range(surface.get_width()):
            r, g, b, a = surface.get_at((x, y))
            if a > 200 and all(abs(c - t) <= tolerance for c, t in zip((r, g, b), color, strict=True)):
                found += 1
    return found


@pytest.mark.parametrize("width", [60, 200])
def test_every_card_of_every_deck_renders_at_card_size(width):
    art = CardArt(width)
    size = (width, round(width * 1.4))
    for card in ALL_CARDS:
        assert art.face(card).get_size() == size, card
        assert art.face(card, markers=True).get_size() == size, card
    assert art.back().get_size() == size
    assert art.blank().get_size() == size
    glow = art.glow()
    assert glow.get_width() > width and glow.get_height() > size[1]
    assert glow.get_width() - width == glow.get_height() - size[1] == 2 * art.glow_margin


def test_card_corners_are_transparent():
    face = CardArt(120).face(Card("AS"))
    assert face.get_at((0, 0)).a == 0
    assert face.get_at((60, 84)).a == 255


def test_faces_of_different_cards_differ():
    art = CardArt(80)
    codes = ["6H", "9H", "6S", "TD", "KC", "QC", "XJ", "R6", "R9", "B6", "W", "W+4", "Rskip", "Rrev"]
    images = {pixels(art.face(Card(code))) for code in codes}
    images.add(pixels(art.back()))
    assert len(images) == len(codes) + 1


def test_markers_change_action_ranks_only():
    art = CardArt(90)
    for code in ("JS", "QH", "KD", "XJ"):
        assert pixels(art.face(Card(code), markers=True)) != pixels(art.face(Card(code)))
    assert art.face(Card("5H"), markers=True) is art.face(Card("5H"))


def test_four_color_changes_diamonds_and_clubs_but_not_spades():
    two, four = CardArt(70), CardArt(70, four_color=True)
    for code in ("7D", "7C"):
        assert pixels(two.face(Card(code))) != pixels(four.face(Card(code)))
    assert pixels(two.face(Card("7S"))) == pixels(four.face(Card("7S")))
    assert pixels(two.face(Card("7H"))) == pixels(four.face(Card("7H")))
    assert count_pixels_near(four.face(Card("4D")), (24, 88, 200)) > 50
    assert count_pixels_near(two.face(Card("4D")), (24, 88, 200)) == 0


def test_cache_returns_the_same_surface():
    art = CardArt(100)
    card = Card("QS")
    assert art.face(card) is art.face(card)
    assert art.face(card, markers=True) is art.face(card, markers=True)
    assert art.face(card, markers=True) is not art.face(card)
    assert art.back() is art.back()
    assert art.glow() is art.glow()
    assert art.blank() is art.blank()
    assert art.suit_badge("H", 40) is art.suit_badge("H", 40)


def test_suit_badges_are_round_and_sized():
    art = CardArt(100)
    for suit in "SHDCRBGY":
        badge = art.suit_badge(suit, 44)
        assert badge.get_size() == (44, 44)
        assert badge.get_at((0, 0)).a == 0
        assert badge.get_at((22, 22)).a == 255
    with pytest.raises(ValueError):
        art.suit_badge("X", 44)


def test_felt_is_green_and_seeded():
    one, two = draw_felt((200, 120)), draw_felt((200, 120))
    assert one is not two and one.get_size() == (200, 120)
    assert pixels(one) == pixels(two)
    assert pixels(felt((200, 120))) == pixels(one)
    assert felt((200, 120)) is felt((200, 120))  # kept: the next screen at this size draws no felt
    r, g, b, _ = one.get_at((100, 60))
    assert g > r and g > b
    centre, corner = one.get_at((100, 60)), one.get_at((1, 1))
    assert centre.g > corner.g  # the vignette darkens the edges


def test_too_narrow_card_is_refused():
    with pytest.raises(ValueError, match="width"):
        CardArt(8)


def test_surfaces_are_converted_when_a_display_exists():
    pygame.display.init()
    try:
        pygame.display.set_mode((320, 240))
        face = CardArt(60).face(Card("8H"))
        assert face.get_flags() & pygame.SRCALPHA
        assert face.get_size() == (60, 84)
    finally:
        pygame.display.quit()


def test_script_writes_the_three_contact_sheets(tmp_path, capsys):
    assert main([str(tmp_path), "--width", "48", "--four-color"]) == 0
    printed = capsys.readouterr().out
    for name in ("standard.png", "action_markers.png", "colors.png"):
        path = tmp_path / name
        assert path.is_file() and path.stat().st_size > 0
        assert str(path) in printed
        assert pygame.image.load(str(path)).get_width() > 48
