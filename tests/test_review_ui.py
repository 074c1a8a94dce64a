"""The review of a deal, by real pygame events into real scenes: it opens from the result screen
and from Statistics, its progress bar moves while the screen steps through the deal, Escape stops
the analysis, every frame draws only the reviewed seat's cards, and a hot-seat deal is reviewed
seat by seat behind the cover."""

from __future__ import annotations

import random
import time

import pygame
import pytest

from game.client.art import CardArt
from game.client.controller import MatchController, SeatConfig
from game.client.scenes.table import TableScene
from game.engine import Status
from tests.client_support import STEP, make_app, press, run_until, tap_label, top_name
from tests.review_support import played

WAIT = 120.0  # seconds an analysis is given at most in a test (the loop is bounded by it, never timed)


@pytest.fixture
def app():
    application = make_app((1280, 800))
    yield application
    top = application.stack.top
    if type(top).__name__ == "ReviewScene":
        top.exit()
    application.store.flush()
    pygame.display.quit()


def at_result(app, match, seats) -> None:
    """A table whose deal is over: the result screen opens over it."""
    assert match.status != Status.PLAYING
    app.start(TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0)))
    app.stack.apply_requests()
    assert run_until(app, lambda: top_name(app) == "ResultScene", 100), top_name(app)


def solo(players: int) -> list[SeatConfig]:
    return [SeatConfig("human", name="Ana")] + [SeatConfig("computer", "medium")] * (players - 1)


def until_done(app, scene) -> None:
    deadline = time.monotonic() + WAIT
    while scene.running and time.monotonic() < deadline:
        app.frame(STEP)
        time.sleep(0.01)
    assert not scene.running


def test_the_review_opens_from_the_result_screen_and_steps_while_its_bar_moves(app):
    match = played("duel", seed=3)
    at_result(app, match, solo(2))
    tap_label(app, "Review")
    assert top_name(app) == "ReviewScene"
    scene = app.stack.top
    assert scene.stage == "review" and scene.running and scene.next_frame() is not None
    seen_progress = {scene.analysis.progress}
    steps_while_running = 0
    deadline = time.monotonic() + WAIT
    while scene.running and time.monotonic() < deadline:
        before = scene.index
        press(app, pygame.K_RIGHT, frames=1)  # the screen answers while the workers work
        if scene.running:
            steps_while_running += scene.index == before + 1
        seen_progress.add(scene.analysis.progress)
        time.sleep(0.01)
    assert not scene.running and steps_while_running >= 1
    assert len(seen_progress) >= 3  # 0, some, all: the bar moved
    assert len(scene.marked) <= 3
    assert [c.moment for c in scene.marked] == sorted(c.moment for c in scene.marked)
    if scene.marked:  # the next costly decision jumps to a marked step
        tap_label(app, "Next costly move")
        assert scene.index in [c.moment for c in scene.marked]
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ResultScene"


def test_escape_while_analysing_cancels_the_workers_then_closes(app):
    at_result(app, played("classic", 4, seed=11), solo(4))
    tap_label(app, "Review")
    scene = app.stack.top
    assert scene.running
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ReviewScene" and not scene.running
    assert scene.analysis.cancelled and scene.analysis.alive() == 0
    assert "Stop the analysis" not in [c.element.text for c in scene.controls]
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ResultScene"


def test_every_frame_draws_only_the_reviewed_seats_cards(app, monkeypatch):
    match = played("classic", 3, seed=21)
    at_result(app, match, solo(3))
    tap_label(app, "Review")
    scene = app.stack.top
    scene.analysis.cancel()
    drawn: list[object] = []
    real_face = CardArt.face

    def face(self, card, *, markers=False):
        drawn.append(card)
        return real_face(self, card, markers=markers)

    monkeypatch.setattr(CardArt, "face", face)
    replay = match.rewound(0)
    log = list(match.log)
    for step in range(len(scene.story.moments)):
        assert scene.index == step
        truth = replay.view(0)
        shown = scene.frame_view()
        assert shown.seat == 0 and shown.hand == truth.hand and shown.hand_counts == truth.hand_counts
        drawn.clear()
        app.stack.top.draw(app.screen)
        allowed = set(truth.hand) | {truth.top}
        assert drawn and set(drawn) <= allowed, (step, drawn)
        if step < len(log):
            head, text = log[step]
            replay.play_log([(head, text)])
        press(app, pygame.K_RIGHT, frames=1)


def test_a_hot_seat_deal_is_reviewed_seat_by_seat_behind_the_cover(app, monkeypatch):
    match = played("classic", 3, seed=21)
    seats = [SeatConfig("human", name="Léa"), SeatConfig("human", name="Marc"),
             SeatConfig("computer", "medium")]
    at_result(app, match, seats)
    tap_label(app, "Review")
    scene = app.stack.top
    assert scene.stage == "pick" and scene.analysis is None
    drawn: list[object] = []
    def face(self, card, *, markers=False):
        drawn.append(card)
        return pygame.Surface((2, 2))

    monkeypatch.setattr(CardArt, "face", face)
    tap_label(app, "Marc's review")
    assert scene.stage == "cover" and scene.analysis is None and scene.story is None
    scene.draw(app.screen)
    assert drawn == []  # behind the cover: no card at all
    tap_label(app, "I am Marc: show")
    assert scene.stage == "review" and scene.story.seat == 1
    scene.analysis.cancel()
    scene.draw(app.screen)
    assert drawn and set(drawn) <= set(scene.frame_view().hand) | {scene.frame_view().top}


def test_the_review_opens_from_statistics_on_the_last_deals(app):
    at_result(app, played("duel", seed=3), solo(2))
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(STEP)
    app.push("Statistics")
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    assert len(scene.deals) == 1
    label = next(c.element.text for c in scene.controls if c.key == "review")
    assert "Duel, deal 1 (solo)" in label
    tap_label(app, label)
    assert top_name(app) == "ReviewScene"
    review = app.stack.top
    assert review.stage == "review" and review.story is not None and review.story.seat == 0
    until_done(app, review)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "StatisticsScene"


def test_a_review_that_cannot_be_read_says_so(app):
    at_result(app, played("duel", seed=3), solo(2))
    record = app.stack.top.reviews[0]
    broken = type(record)(record.key, record.mode, record.seat, record.names, record.preset, record.deal,
                          {"rules": {}, "complete": True, "moments": "no"})
    app.push("Review", records=[broken])
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    assert scene.problem is not None and scene.problem.startswith("This deal's review cannot be read")
    assert scene.analysis is None


def test_an_online_deal_is_reviewed_from_what_the_server_sent_this_seat(app):
    from game.ai.players import Medium
    from game.client.remote import RemoteController
    from game.client.review_data import story_from_json
    from game.engine import PRESETS, Match
    from game.review.story import story_of_deal
    from tests.test_table_contract import ScriptedRoom

    match = Match(PRESETS["duel"], 2, 3)
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    app.start(TableScene(app, controller))
    app.stack.apply_requests()
    rng, bots = random.Random(3), [Medium(), Medium()]
    for _ in range(2000):
        if match.status != Status.PLAYING:
            break
        app.frame(STEP)
        seat = match.to_act
        if controller.view().to_act != seat or controller.view().turn_no != match.view(0).turn_no:
            continue  # this client has not seen the last move yet
        action = bots[seat].choose(match.view(seat), rng)
        if seat == 0:
            controller.submit(action, 0)  # this player's move, sent to the server
        else:
            room._update(match.apply(action, 1))  # the other player's, as the server tells it
    assert run_until(app, lambda: top_name(app) == "ResultScene", 300), top_name(app)
    result = app.stack.top
    assert [r.mode for r in result.reviews] == ["online"] and result.reviews[0].seat == 0
    story = story_from_json(result.reviews[0].story)
    assert story == story_of_deal(match, 0).slim()  # the same as the record would give: nothing more
    tap_label(app, "Review")
    scene = app.stack.top
    assert top_name(app) == "ReviewScene" and scene.stage == "review" and scene.analysis.total > 0
    until_done(app, scene)
    assert len(app.store.read_reviews().records) == 1
