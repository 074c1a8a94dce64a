"""Avatars and seat names as data: the catalogue, the pictures, what saves and settings keep of them,
and the layout's room for an avatar beside every seat's name."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import i18n
from game.client.avatar_art import avatar_image
from game.client.controller import MatchController, SeatConfig
from game.client.layout import compute
from game.client.settings import Settings, clean_name, is_name
from game.engine import PRESETS, Match
from game.play import avatars
from game.play.avatars import (
    AVATARS,
    CATALOGUE,
    COMPUTERS,
    PEOPLE,
    computer_avatar,
    person_default,
    seat_avatars,
)
from game.saves import SavedSeat, SaveError, decode_game, encode_game, games
from game.saves.document import pack
from game.saves.games import table_to_plain
from game.saves.unpickler import plain_dumps
from tests.test_table_geometry import SIZES


# ---- the catalogue -------------------------------------------------------------------------------
def test_the_catalogue_holds_24_avatars_sixteen_for_people_eight_for_computers():
    assert AVATARS == 24 == len(CATALOGUE) and [a.id for a in CATALOGUE] == list(range(24))
    assert len(PEOPLE) == 16 and len(COMPUTERS) == 8 and not set(PEOPLE) & set(COMPUTERS)
    assert len({a.name for a in CATALOGUE}) == 24
    assert games.AVATARS == AVATARS  # the saves' own bound, kept the same


def test_the_catalogue_is_plain_data_the_server_may_import():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(avatars))
    imported = {n.module if isinstance(n, ast.ImportFrom) else a.name
                for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
                for a in (n.names if isinstance(n, ast.Import) else [n])}
    assert imported <= {"__future__", "dataclasses", "typing"}


def test_computers_keep_their_seats_avatar_and_people_get_distinct_defaults():
    assert [computer_avatar(s) for s in range(8)] == list(COMPUTERS)
    assert len({person_default(i) for i in range(7)}) == 7
    assert all(person_default(i) in PEOPLE for i in range(8))
    humans = [True, False, True, False, False, True, False]
    shown = seat_avatars(humans, [13, 2, None, None, None, 99, None])
    assert shown[0] == 13 and shown[2] == person_default(1) and shown[5] == person_default(2)  # 99: no avatar
    assert [shown[s] for s in (1, 3, 4, 6)] == [computer_avatar(s) for s in (1, 3, 4, 6)]
    assert seat_avatars([False, True], [3, 3])[0] == computer_avatar(0)  # a computer never wears a person's
    assert seat_avatars([True], [computer_avatar(0)]) == [person_default(0)]  # nor a person a computer's


def test_every_avatar_has_a_name_in_both_languages():
    for lang in i18n.LANGUAGES:
        names = [i18n.CATALOGUE[lang].get(f"avatar.{a.name}") for a in CATALOGUE]
        assert all(names) and len(set(names)) == 24, lang


# ---- the pictures ----------------------------------------------------------------------------------
def test_every_avatar_is_drawn_round_distinct_and_once_per_size():
    pygame.init()
    pictures = [avatar_image(a, 48) for a in range(AVATARS)]
    for picture in pictures:
        assert picture.get_size() == (48, 48)
        assert picture.get_at((1, 1)).a == 0 and picture.get_at((24, 24)).a == 255  # a disc
    raw = [pygame.image.tobytes(p, "RGBA") for p in pictures]
    assert len(set(raw)) == AVATARS
    for a in range(AVATARS):  # no two alike, even at a glance: they differ in many pixels
        for b in range(a + 1, AVATARS):
            differing = sum(1 for i in range(0, len(raw[a]), 4)
                            if max(abs(raw[a][i + c] - raw[b][i + c]) for c in range(3)) > 40)
            assert differing > 200, (CATALOGUE[a].name, CATALOGUE[b].name)
    assert avatar_image(5, 48) is pictures[5]  # drawn once
    assert avatar_image(5, 48, True) is not pictures[5]
    assert avatar_image(99, 30).get_size() == (30, 30)  # an unknown id is a plain disc, not a crash


# ---- saves ----------------------------------------------------------------------------------------
def table_with_avatars() -> MatchController:
    match = Match(PRESETS["classic"], 3, 5)
    seats = [SeatConfig("human", name="Ana", avatar=13), SeatConfig("human", name="Ben", avatar=4),
             SeatConfig("computer", "hard")]
    return MatchController(match, seats, rng=random.Random(2))


def test_a_save_keeps_each_seats_name_and_avatar():
    saved = decode_game(encode_game(table_with_avatars().to_save()))
    assert saved.seats == [SavedSeat("human", "medium", "Ana", 13), SavedSeat("human", "medium", "Ben", 4),
                           SavedSeat("computer", "hard", "", None)]
    resumed = MatchController.from_save(saved)
    assert [(s.name, s.avatar) for s in resumed.seats] == [("Ana", 13), ("Ben", 4), ("", None)]


def test_a_save_from_before_avatars_reads_with_the_seats_defaults():
    payload = table_to_plain(table_with_avatars().to_save())
    payload["seats"] = [tuple(s[:3]) for s in payload["seats"]]
    saved = decode_game(pack("game", 2, plain_dumps(payload)))
    assert [s.avatar for s in saved.seats] == [None, None, None]
    assert [s.name for s in saved.seats] == ["Ana", "Ben", ""]


@pytest.mark.parametrize("avatar", [24, -1, "fox", 2.0, True])
def test_a_seat_naming_no_avatar_is_refused(avatar):
    payload = table_to_plain(table_with_avatars().to_save())
    payload["seats"][0] = ("human", "medium", "Ana", avatar)
    with pytest.raises(SaveError) as refused:
        decode_game(pack("game", 2, plain_dumps(payload)))
    assert refused.value.key == "invalid" and "avatar" in str(refused.value)


# ---- settings ---------------------------------------------------------------------------------------
def test_names_and_avatars_are_checked_like_every_setting():
    kept = {"people_names": ["Ana", "Benoît Émile", "A" * 24], "people_avatars": [4, 13, 0]}
    settings, ignored = Settings.parse(kept)
    assert (settings.people_names, settings.people_avatars, ignored) == (kept["people_names"], [4, 13, 0], [])
    for wrong in ([""], ["A" * 25], ["Ana\n"], ["Ana\x1b[2J"], ["\u202eana"], ["   "], "Ana", [5],
                  ["Ana"] * 8):
        settings, ignored = Settings.parse({"people_names": wrong})
        assert settings.people_names == [] and ignored == ["people_names"], wrong
    for wrong in ([computer_avatar(0)], [24], ["fox"], [True], [0] * 8, 4):
        settings, ignored = Settings.parse({"people_avatars": wrong})
        assert settings.people_avatars == [] and ignored == ["people_avatars"], wrong


def test_a_typed_name_is_cleaned_to_one_line_of_at_most_24_characters():
    assert clean_name("  Ana \t Maria\n ") == "Ana Maria"
    assert clean_name("Ben\x07\u200b\u202e") == "Ben"
    assert len(clean_name("x" * 40)) == 24 and is_name(clean_name("x" * 40))
    assert clean_name("\x00\x01") == "" and not is_name("")


# ---- room for the avatar ---------------------------------------------------------------------------
@pytest.mark.parametrize("left_handed", [False, True])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_seats_avatar_sits_in_its_box_beside_its_name_and_count(size, left_handed):
    layout = compute(size, left_handed=left_handed)
    for others in range(0, 7):
        for spot in [*layout.seat_spots(others), layout.me]:
            box, avatar = pygame.Rect(spot.box), pygame.Rect(spot.avatar)
            assert box.contains(avatar) and avatar.width == avatar.height == layout.avatar_px
            for line in (spot.label, spot.count):
                assert not avatar.colliderect(line) and pygame.Rect(line).left > avatar.right - 1
                assert box.contains(pygame.Rect(line))
            assert not avatar.colliderect(spot.fan)
    me = pygame.Rect(layout.me.box)
    assert me.bottom <= layout.hand_area[1]  # just above the hand
    assert not me.colliderect(pygame.Rect(layout.buttons))  # on the side away from the buttons
