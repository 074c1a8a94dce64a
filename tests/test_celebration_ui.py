"""A win worth seeing: the celebration on a won match, by real games and real events."""

from __future__ import annotations

import random

import pygame

from game.client.celebration import DURATION, Celebration
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import tr
from game.client.scenes.table import TableScene
from tests.client_support import STEP, make_app, press, rect_of, run_until, tap, top_name
from tests.support import make_match


def won_game(app, seats=None, hands=("3H", "5S")) -> TableScene:
    """A one-deal classic game the person at seat 0 wins with their first tap, up to its result."""
    match = make_match("classic", list(hands), "7H", "KD QD JD TD 9D")
    seats = seats or [SeatConfig("human"), SeatConfig("computer")]
    controller = MatchController(match, seats, rng=random.Random(1), speed=app.settings.speed_factor)
    table = TableScene(app, controller)
    app.start(table)

    def ready() -> bool:
        if top_name(app) == "HandoffScene":  # same device: the first person takes the device
            press(app, pygame.K_SPACE, frames=0)
        return top_name(app) == "TableScene" and not table.animator.busy and bool(table.playable)

    assert run_until(app, ready, 2000)
    tap(app, table.hand_rects[min(table.playable)].center)
    assert run_until(app, lambda: top_name(app) == "ResultScene", 2000)
    return table


def test_a_won_match_opens_with_a_celebration_that_ends_by_itself_and_the_loop_rests_after():
    app = make_app(speed="fast")
    try:
        won_game(app)
        result = app.stack.top
        assert result.celebration is not None and result.celebration.running
        assert app.due() is not None and app.due() <= 0.05  # frames while the confetti falls
        app.frame(STEP, lazy=True)
        drawn = app.draws
        app.frame(STEP, lazy=True)
        assert app.draws == drawn + 1  # it moves: each frame is drawn
        assert run_until(app, lambda: result.celebration is None, int(DURATION / STEP) + 10)
        app.frame(STEP, lazy=True)  # the screen once more, without it
        app.store.flush()  # the deal's files written (until then the loop rightly looks again soon)
        drawn = app.draws
        for _ in range(30):
            app.frame(STEP, lazy=True)
        assert app.draws == drawn  # at rest: nothing drawn until input
        assert app.due() is None
    finally:
        pygame.display.quit()


def test_any_key_ends_the_celebration_at_once():
    app = make_app(speed="fast")
    try:
        won_game(app)
        result = app.stack.top
        press(app, pygame.K_LSHIFT)
        assert result.celebration is None
        assert top_name(app) == "ResultScene"  # the key did nothing else
    finally:
        pygame.display.quit()


def test_a_tap_on_a_button_during_the_celebration_does_what_the_button_says():
    app = make_app(speed="fast")
    try:
        won_game(app)
        assert app.stack.top.celebration is not None
        tap(app, rect_of(app, tr("result.menu")).center)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_a_lost_match_has_no_celebration():
    app = make_app(speed="fast")
    try:
        match = make_match("classic", ["5S", "3H"], "7H", "KD QD JD TD 9D", first=1)
        controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer")],
                                     rng=random.Random(1), speed=2.0)
        app.start(TableScene(app, controller))
        assert run_until(app, lambda: top_name(app) == "ResultScene", 3000)
        assert app.stack.top.celebration is None
    finally:
        pygame.display.quit()


def test_instant_animations_mean_no_celebration(app):
    won_game(app)
    assert app.stack.top.celebration is None


def test_at_a_same_device_table_any_person_winning_is_celebrated():
    app = make_app(speed="fast")
    try:
        seats = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")]
        won_game(app, seats)
        assert app.stack.top.celebration is not None
    finally:
        pygame.display.quit()


def test_the_confetti_is_drawn_and_shrinks_away():
    surface = pygame.Surface((640, 400))
    party = Celebration((640, 400), seed=3)
    party.update(1.0)
    party.draw(surface)
    assert party.drawn > 50
    party.update(DURATION)
    party.draw(surface)
    assert party.drawn == 0 and not party.running


def test_online_the_winners_screen_celebrates_and_the_others_do_not():
    from game.client.scenes.result import ResultScene
    from game.engine import PRESETS, Match
    from tests.every_screen import online_table

    app = make_app(speed="fast")
    try:
        seen: dict[bool, bool] = {}  # seat 0 won → celebrated
        for seed in range(40):  # duels played to the end by first legal moves; this device is seat 0
            match = Match(PRESETS["duel"], 2, seed)
            while match.status == "playing":
                seat = match.to_act
                match.apply(match.view(seat).legal[0], seat)
            won = 0 in match.view(0).winners and 1 not in match.view(0).winners
            seen[won] = ResultScene(app, online_table(app, match)).celebration is not None
            if len(seen) == 2:
                break
        assert seen == {True: True, False: False}
    finally:
        pygame.display.quit()


def test_a_tie_that_includes_the_person_here_is_not_celebrated():
    """A blocked deal, the person here and a computer sharing the lowest hand: nobody won, so no
    confetti (the headline says it is a tie)."""
    from game.engine import Pass

    app = make_app(speed="fast")
    try:
        match = make_match("classic", ["2S AD", "KC 9D", "2C AS"], "4H")  # no draw pile: all pass
        seats = [SeatConfig("human"), SeatConfig("computer"), SeatConfig("computer")]
        controller = MatchController(match, seats, rng=random.Random(1), speed=2.0)
        table = TableScene(app, controller)
        app.start(table)
        def can_pass() -> bool:
            return not table.animator.busy and any(b.intent == Pass() for b in table.buttons)

        assert run_until(app, can_pass, 3000)
        tap(app, next(b for b in table.buttons if b.intent == Pass()).rect.center)  # the person passes
        assert run_until(app, lambda: top_name(app) == "ResultScene", 3000)
        result = app.stack.top
        assert result.view.result.tie and result.view.result.totals[0] == result.view.result.totals[2]
        assert result.headline() == tr("result.tie")
        assert result.celebration is None
    finally:
        pygame.display.quit()


def test_only_one_sides_win_is_celebrated_never_winners_from_two_sides():
    """What a server could say: winners from two sides is a tie, not a win of the person here;
    partners winning together (pair play) is their side's win."""
    from dataclasses import replace

    from game.client.celebration import won_here
    from game.engine import PRESETS, Match, Status

    view = Match(PRESETS["classic"], 4, seed=1).view(0)
    over = replace(view, status=Status.MATCH_OVER)
    assert won_here(replace(over, winners=(0,)), [0], 1.0)
    assert not won_here(replace(over, winners=(1,)), [0], 1.0)
    assert not won_here(replace(over, winners=(0, 1)), [0], 1.0)  # shared with an opponent: a tie
    assert not won_here(replace(over, winners=()), [0], 1.0)
    pairs = replace(over, rules=replace(over.rules, pairs=True))
    assert won_here(replace(pairs, winners=(0, 2)), [0], 1.0)  # partners sit opposite
    assert not won_here(replace(pairs, winners=(0, 1)), [0], 1.0)
    assert not won_here(replace(over, winners=(0,)), [0], 0.0)  # instant: no motion
