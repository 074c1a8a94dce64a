"""What the player reads: one word for a round per language, "colour" with the colour deck,
refusals that agree with each other and with what is legal, and sentences that read as sentences."""

from __future__ import annotations

import random
import re

import pygame
import pytest

from game.ai import player_for
from game.client import i18n, ui
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import reason
from game.client.rules_text import RULES_TEXT
from game.client.scenes.table import TableScene
from game.engine import PRESETS, Draw, IllegalAction, Match, Pass, Play, Status
from game.engine.explain import why_not
from tests.client_support import press, top_name
from tests.support import act, make_match


def player_texts(lang: str) -> list[str]:
    """Every string a player may read in ``lang`` (placeholders taken out)."""
    texts = list(i18n.catalogue(lang).values()) + list(RULES_TEXT[lang].values())
    return [re.sub(r"{\w+}", "", text) for text in texts]


def test_a_round_is_a_round_in_english_and_a_manche_in_french():
    assert not [t for t in player_texts("en") if re.search(r"\bdeals?\b", t, re.IGNORECASE)]
    assert not [t for t in player_texts("fr") if re.search(r"\bdonnes?\b", t, re.IGNORECASE)]
    en, fr = i18n.catalogue("en"), i18n.catalogue("fr")
    assert en["table.round"].startswith("Round") and fr["table.round"].startswith("Manche")
    assert ", round {deal}," in en["save.summary"] and ", manche {deal}," in fr["save.summary"]


def table_for(app, match, seats) -> TableScene:
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.frame(1 / 60)
    return table


def test_the_colour_deck_says_colour(app):
    match = make_match("colors", ["W R4", "B5 G6"], "R3", "B1 B2 B3 B4")
    act(match, "play W")
    table_for(app, match, [SeatConfig("human"), SeatConfig("computer")])
    app.frame(1 / 60)
    assert top_name(app) == "SuitPickerScene"
    with ui.recording() as drawn:
        app.frame(1 / 60)
    texts = [d.text for d in drawn]
    assert "Choose the colour" in texts and "Choose the suit" not in texts
    error = why_not(match.round, Play(match.round.hands[0][0]), 0)
    assert reason(error, colours=True) == "Choose the colour to announce first."
    assert reason(error) == "Choose the suit to announce first."


def test_must_follow_reads_as_a_sentence():
    match = make_match("classic", ["3C 9H", "5S 6S"], "AH", "KD QD JD")
    with pytest.raises(IllegalAction) as caught:
        act(match, "play 3C")
    assert reason(caught.value) == "You must follow with a ♥ card or an ace, or play an eight."
    colours = make_match("colors", ["G3 B9", "Y5 Y6"], "R7", "B1 B2 B3")
    with pytest.raises(IllegalAction) as caught:
        act(colours, "play G3")
    assert reason(caught.value, colours=True) == ("You must follow with a red card or a 7, "
                                                  "or play a wild card.")
    wild = make_match("classic", ["8S 3C", "5S 6S"], "7H", "KD QD JD")
    act(wild, "play 8S", "suit H")
    with pytest.raises(IllegalAction) as caught:
        act(wild, "1: play 5S")
    assert reason(caught.value) == "You must follow with a ♥ card, or play an eight."
    i18n.set_language("fr")
    assert reason(caught.value) == "Vous devez jouer une carte ♥, ou bien un huit."


def refusal_texts(app, keys) -> list[str]:
    table = app.stack.top
    seen = []
    for key in keys:
        press(app, key)
        seen.append(table.toast)
    return seen


def test_d_then_p_refusals_agree_with_each_other(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    table_for(app, match, [SeatConfig("human"), SeatConfig("computer")])
    draw, pas = refusal_texts(app, [pygame.K_d, pygame.K_p])
    assert draw == "You may not draw while you hold a card that plays."
    assert pas == "You cannot pass: you can still play a card."


def test_a_pass_refusal_names_only_what_is_legal():
    """Over seeded games of every preset, the reason a pass is refused lists exactly the moves
    that are legal then (never "or draw" when drawing is refused)."""
    medium, seen = player_for("medium"), set()
    for name, rules in PRESETS.items():
        for seed in range(4):
            match = Match(rules, min(rules.max_players, rules.min_players + seed % 2), seed)
            rng = random.Random(seed)
            while match.status == Status.PLAYING:
                r, seat = match.round, match.to_act
                legal = match.legal_actions()
                if Pass() not in legal:
                    key = why_not(r, Pass(), seat).key
                    plays = any(isinstance(a, Play) for a in legal)
                    draws = Draw() in legal
                    expected = {(True, True): "cannot_pass", (True, False): "cannot_pass_play",
                                (False, True): "cannot_pass_draw"}.get((plays, draws))
                    if key not in ("mid_turn", "must_stack_or_draw", "choose_suit_first", "answer_wild_four"):
                        assert key == expected, (name, seed, str(r), key)
                        if Draw() not in legal:
                            assert "draw" not in i18n.tr(f"why.{key}").split(":")[1]
                    seen.add(key)
                match.apply(medium.choose(match.view(seat), rng), seat)
    assert {"cannot_pass_play", "cannot_pass_draw"} <= seen
