"""The screen is always what the game is: after any input, once the loop has done what it does at
rest, the frame on screen equals a full redraw of the current state.

Every scene registered in `game.client.registry` is visited by real events (posted into a real
App, at 1024×600 and 1920×1080), and after each step the loop is left to run as `App.run` runs it
with no further input (`settle`: lazy frames, `App.due`, the rests it takes, in simulated time).
Then the display surface is compared, pixel for pixel, with every visible scene drawn afresh into
another surface once pygame_gui has finished whatever it had pending (`reference`). A scene
registered later and not visited here fails the walk: add it to `walk_local` or `walk_online`, or
to one of the small walks per area they call (`walk_reactions`, `walk_takeover_countdown`,
`walk_leave_ranked`, `walk_who_are_you`; `walk_attract` runs a kiosk App of its own).

The three cases first reported (issue 31) are tests of their own: the question before a 7-seat
save is replaced, Continue of a same-device game saved under the hand-off cover, and an accented
letter typed into a name field (as text input, and as a dead key's composition then its text).
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pygame
import pytest

from game.client import registry
from game.client.app import App
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import tr
from game.client.pacing import FRAME
from game.client.saving import mode_of
from game.engine import PRESETS, Match
from game.net.clock import ManualClock
from game.net.hosting import ServerThread
from game.net.messages import REACTIONS
from game.net.ranking import ABANDON_AFTER
from tests.client_support import close_online_app, labels, make_app, tap, top_name
from tests.net_support import Peer
from tests.screen_support import (
    REST_LIMIT,
    SIZES,
    Walk,
    post_key,
    settle,
    type_accent_by_dead_key,
    type_accent_by_text,
)
from tests.support import make_match


# ---- games to resume -----------------------------------------------------------------------------
def save_seven_seat_solo(app: App) -> None:
    """A 7-seat Points game a few moves in, in the solo slot."""
    match = Match(PRESETS["points"], 7, 5)
    for _ in range(20):
        match.apply(match.legal_actions()[0], match.to_act)
    seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * 6
    app.store.games.write("solo", MatchController(match, seats, rng=random.Random(1)).to_save())
    app.store.flush()
    app.settings.last_preset = "points"
    app.settings.last_players["points"] = 7


def save_hot_seat_under_the_cover(app: App) -> None:
    """A same-device game saved while the cover asks to pass the device to the next person."""
    seats = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Benoît"),
             SeatConfig("computer", "easy")]
    controller = MatchController(Match(PRESETS["classic"], 3, 6), seats, rng=random.Random(2), speed=0)
    for _ in range(200):  # the people play until the device must change hands mid-game
        match = controller.match
        controller.update(1.0)
        if controller.handoff_to is not None:
            if match.round.turn_no > 3:
                break
            controller.accept_handoff(controller.handoff_to)
            continue
        if match.status == "playing" and seats[match.to_act].is_human:
            controller.submit(match.legal_actions()[0], match.to_act)
    assert controller.handoff_to is not None
    app.store.games.write(mode_of(controller), controller.to_save())
    app.store.flush()


def start_menu(app: App) -> None:
    """The menu, as at start-up."""
    app.go_to_menu()
    app.stack.apply_requests()


# ---- the three cases first reported ----------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_question_before_a_seven_seat_save_is_replaced_shows_whole_at_once(size):
    app = make_app(size)
    try:
        save_seven_seat_solo(app)
        walk = Walk(app, f"replace-{size[0]}x{size[1]}")
        start_menu(app)
        walk.check("the menu")
        walk.tap("Solo against the computer")
        walk.tap("Start", "the question: title, text and both buttons")
        assert top_name(app) == "ReplaceSaveScene"
        walk.tap("Keep my game")
        walk.tap("Start", "the question again")
        walk.tap("Replace it", "the new table")
        walk.finish()
    finally:
        app.store.flush()
        pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_continue_of_a_game_saved_under_the_hand_off_cover_shows_the_cover_at_once(size):
    app = make_app(size)
    try:
        save_hot_seat_under_the_cover(app)
        walk = Walk(app, f"handoff-{size[0]}x{size[1]}")
        start_menu(app)
        walk.check("the menu")
        walk.tap_starting("Continue: Same device", "the cover for the next person")
        assert top_name(app) == "HandoffScene"
        tap(app, (size[0] // 2, size[1] // 2), frames=0)
        walk.check("the table from that person's seat")
        walk.finish()
    finally:
        app.store.flush()
        pygame.display.quit()


@pytest.mark.parametrize("how", ["text", "dead key"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_accented_letter_typed_into_a_name_shows_at_once_and_once(size, how):
    app = make_app(size)
    try:
        walk = Walk(app, f"accent-{how.replace(' ', '-')}-{size[0]}x{size[1]}")
        start_menu(app)
        walk.check("the menu")
        walk.tap("Same device", "the same-device form")
        form = app.stack.top
        entry = form.entries[0]
        walk.click(entry.rect.center, "the first name field takes the typing")
        assert entry.is_focused
        before = entry.get_text()
        if how == "text":
            type_accent_by_text("é")
        else:
            type_accent_by_dead_key("´", "e", "é")
        walk.check("é typed")
        assert entry.get_text() == before + "é"
        post_key(pygame.K_RETURN)
        walk.check("the name kept")
        walk.finish()
        assert entry.get_text() == before + "é"  # once
    finally:
        app.store.flush()
        pygame.display.quit()


# ---- every scene ---------------------------------------------------------------------------------
def walk_local(walk: Walk) -> None:
    """Every screen of the game played on this device, by taps and keys."""
    app = walk.app
    start_menu(app)
    walk.check("the menu, at start-up")
    walk.key(pygame.K_DOWN, "the focus ring moved")
    walk.tap("Settings")
    walk.tap_starting("Volume", "the volume stepped")
    walk.tap_starting("Clear", "clear data asks first")
    walk.key(pygame.K_ESCAPE, "back to the settings")
    walk.key(pygame.K_ESCAPE, "back to the menu")
    walk.tap("Statistics")
    walk.key(pygame.K_ESCAPE, "back to the menu")
    walk.tap("How to play")
    walk.key(pygame.K_DOWN, "the rules scrolled")
    walk.key(pygame.K_ESCAPE, "back to the menu")
    walk.tap("Same device", "the same-device form")
    entry = app.stack.top.entries[1]
    walk.click(entry.rect.center, "a name field takes the typing")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Zoé", window=None))
    walk.check("a name typed")
    walk.key(pygame.K_RETURN, "the name kept")
    texts = [c.element.text for c in app.stack.top.controls]
    seat = next(i for i, text in enumerate(texts) if text.startswith("Seat 1: Human"))
    avatar = app.stack.top.controls[seat - 1].element
    walk.click(avatar.rect.center, "the avatar picker")
    assert top_name(app) == "AvatarPickerScene"
    walk.key(pygame.K_ESCAPE, "back to the form")
    walk.tap("Back", "back to the menu")
    walk.tap("Solo against the computer", "the solo form")
    walk.tap_starting("Rules", "another rule set")
    walk.tap("Start", "the table, the computers playing until my turn")
    assert top_name(app) == "TableScene"
    walk.key(pygame.K_ESCAPE, "the pause menu")
    walk.tap(tr("pause.rules"), "the rules in play")
    assert top_name(app) == "RulesInPlayScene"
    walk.key(pygame.K_ESCAPE, "back to the pause menu")
    walk.key(pygame.K_ESCAPE, "back to the table")
    walk.key(pygame.K_m, "the move log")
    walk.key(pygame.K_ESCAPE, "back to the table")
    walk.key(pygame.K_RETURN, "a card selected (or a draw)")
    # The suit picker: an eight to play.
    match = make_match("classic", ["8C 9S 2D", "5S 6S 4D"], "7H", "KH QD JD")
    controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer")],
                                 rng=random.Random(1), speed=0)
    app.replace("Table", controller=controller)
    walk.check("a table with an eight in hand")
    walk.key(pygame.K_RETURN, "the eight selected")
    walk.key(pygame.K_RETURN, "the suit picker")
    assert top_name(app) == "SuitPickerScene"
    walk.key(pygame.K_h, "hearts announced, the computer plays")
    # The result of a finished deal.
    match = Match(PRESETS["points"], 7, seed=13)
    rng = random.Random(1)
    while match.status == "playing":
        match.apply(rng.choice(match.legal_actions()))
    app.replace("Table", controller=MatchController(
        match, [SeatConfig("human")] + [SeatConfig("computer")] * 6, rng=random.Random(1), speed=0))
    walk.check("the result of a 7-seat deal")
    assert top_name(app) == "ResultScene"
    walk.key(pygame.K_DOWN, "the focus moved on the result")
    # The deal's review: its analysis under way (long enough to be seen), a step, stopped, closed.
    from game.client.scenes import review
    from game.review.background import Analysis

    slow = partial(Analysis, guesses=5000)
    review.Analysis = slow  # type: ignore[misc]  # put back below
    try:
        walk.tap("Review", "the review, its analysis under way", limit=None)
        walk.key(pygame.K_RIGHT, "the next step while it analyses", limit=None)
        walk.tap("Stop the analysis", "the analysis stopped")
        walk.tap("Back", "back to the result")
    finally:
        review.Analysis = Analysis  # type: ignore[misc]
    # The hand-off cover, from Continue.
    save_hot_seat_under_the_cover(app)
    app.go_to_menu()
    walk.check("the menu with Continue lines")
    walk.tap_starting("Continue: Same device", "the hand-off cover")
    assert top_name(app) == "HandoffScene"
    tap(app, (app.size[0] // 2, app.size[1] // 2), frames=0)
    walk.check("the table from the next person's seat")
    walk.key(pygame.K_ESCAPE, "the pause menu over it")
    walk.tap(tr("pause.menu"), "back to the menu")
    # The question before a saved game is replaced.
    save_seven_seat_solo(app)
    start_menu(app)
    walk.check("the menu")
    walk.tap("Solo against the computer")
    walk.tap("Start", "the question before the save is replaced")
    assert top_name(app) == "ReplaceSaveScene"
    walk.tap("Keep my game", "back to the form")
    walk.tap("Back", "back to the menu")
    walk.tap("Play with a friend", "the online lobby")
    walk.key(pygame.K_ESCAPE, "back to the menu")


def walk_free_seat(walk: Walk, thread: ServerThread) -> None:
    """The owner of a public room of three seats frees the seat a guest took (issue 32)."""
    app = walk.app
    app.settings.last_preset, app.settings.last_players = "classic", {"classic": 3}
    start_menu(app)
    walk.tap("Play with a friend")
    walk.tap_starting("Public rooms", "the server's lobby")
    walk.until(lambda: app.stack.top.profile is not None)
    walk.tap_starting("Create", "the online form")
    walk.tap_starting("Create", "the waiting room of three seats")
    scene = app.stack.top
    walk.until(lambda: scene.remote.status is not None)
    guest = Peer(thread.port, address="203.0.113.9")
    assert guest.hello("Cid")["type"] == "profile"
    assert guest.join(str(scene.remote.room_id))["type"] == "joined"
    walk.until(lambda: "Free the seat" in labels(app))
    walk.check("the owner's waiting room, a guest seated")
    walk.tap("Free the seat", "the guest's seat freed")
    walk.until(lambda: "Free the seat" not in labels(app))
    walk.check("the seat free again")
    guest.close()
    walk.key(pygame.K_ESCAPE, "the room left")


def walk_online(walk: Walk, tmp_path: Path) -> None:
    """The online screens against a real server on 127.0.0.1: the lobby, the server's lobby and its
    leaderboard, the waiting room; a ranked duel (reactions, the countdown when the opponent leaves,
    the online pause and leaving asked first, the vote); then joining by link with no name."""
    app = walk.app
    clock = ManualClock()
    thread = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0,
                          rng=random.Random(0), burst=100_000.0, clock=clock, proxy_headers=True,
                          trusted_proxies=["127.0.0.1"])
    thread.start()
    assert thread.error is None
    try:
        start_menu(app)
        walk.check("the menu")
        walk.tap("Play with a friend", "the lobby")
        lobby = app.stack.top
        field = lobby.entries["server"]
        walk.click(field.rect.center, "the server field takes the typing")
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"127.0.0.1:{thread.port}", window=None))
        walk.check("the address typed")
        walk.key(pygame.K_RETURN, "the address kept")
        walk.tap_starting("Public rooms", "the server's lobby")
        assert top_name(app) == "ServerLobbyScene"
        scene = app.stack.top
        walk.until(lambda: scene.profile is not None)
        walk.check("the server's lobby with my profile")
        walk.tap("Leaderboard")
        walk.until(lambda: app.stack.top.board is not None)
        walk.check("the leaderboard")
        walk.key(pygame.K_ESCAPE, "back to the server's lobby")
        walk.tap_starting("Create", "the online form")
        walk.tap_starting("Create", "the waiting room")
        assert top_name(app) == "WaitingRoomScene"
        walk.until(lambda: app.stack.top.link is not None)
        walk.check("the waiting room with its link")
        walk.key(pygame.K_ESCAPE, "the room left")
        walk_free_seat(walk, thread)
        # The vote: a ranked duel whose other player leaves.
        start_menu(app)
        walk.check("the menu")
        walk.tap("Play with a friend")
        walk.tap_starting("Public rooms", "the server's lobby")
        walk.until(lambda: app.stack.top.profile is not None)
        for _ in range(8):
            if [c.element.text for c in app.stack.top.controls if c.element.text.startswith("Rules: Duel")]:
                break
            walk.tap_starting("Rules")
        walk.tap_starting("Find a game", "looking for a game")
        ben = Peer(thread.port, address="203.0.113.7")
        assert ben.hello("Ben")["type"] == "profile"
        ben.send(type="queue", preset="duel", players=2)
        walk.until(lambda: top_name(app) == "TableScene")
        controller = app.table_controller()
        walk.until(lambda: controller.ranked is True)
        ben.until(lambda m: m["type"] == "update")
        walk_reactions(walk, ben)
        seat = ben.seat
        ben.close()
        walk.until(lambda: seat in (controller.status.waiting_for if controller.status else []))
        walk.until(lambda: seat in controller.takeover)
        walk.check("the table waiting for Ben, the countdown to the takeover")
        walk_takeover_countdown(walk)
        walk_leave_ranked(walk)
        clock.advance(ABANDON_AFTER)
        walk.until(lambda: top_name(app) == "VoteScene")
        walk.check("the vote")
        walk.key(pygame.K_LEFT, "the other choice")
        walk_who_are_you(walk, thread.port)
    finally:
        close_online_app(app)
        thread.stop()


def walk_reactions(walk: Walk, ben: Peer) -> None:
    """At an online table: the palette (R), a reaction sent (a digit), my bubble and its going after
    `BUBBLE` seconds (the check's later half), then Ben's bubble at his seat, and its going."""
    app = walk.app
    table = app.stack.top
    walk.until(lambda: table.reactions is not None and table.reactions.open(table.view))
    walk.key(pygame.K_r, "the reactions palette")
    assert top_name(app) == "ReactionsScene"
    walk.key(pygame.K_1, "a reaction sent, the palette closed", limit=None)
    assert top_name(app) == "TableScene"
    walk.until(lambda: table.reactions.bubbles.get(table.controller.viewer, ("",))[0] == REACTIONS[0])
    walk.check("my bubble at my seat, then gone")  # the later half is past BUBBLE: gone
    assert not table.reactions.bubbles
    ben.send(type="react", reaction="well_played")
    other = 1 - table.controller.viewer
    walk.until(lambda: other in table.reactions.bubbles)
    walk.check("Ben's bubble at his seat, then gone")
    assert not table.reactions.bubbles


def walk_takeover_countdown(walk: Walk) -> None:
    """The countdown before a computer takes an absent player's seat ticks once a second by itself:
    the screen follows each second, and the loop draws about once a second, not at display rate."""
    app = walk.app
    table = app.stack.top
    for _ in range(12):  # my turn says "Your turn", not the countdown: I play until it is Ben's
        if not table.view.my_turn:
            break
        before = table.selected, table.view
        walk.key(pygame.K_RETURN, "a card selected, or played (or a draw) while Ben is away", limit=None)
        walk.until(lambda before=before: (table.selected, table.view) != before  # the server answered
                   and not table.animator.busy)
        walk.check("the server's answer")
    shown = table.message()
    assert "a computer takes the seat in" in shown, shown
    walk.rests_between_changes("the countdown ticking", 3.0, most=5)
    assert table.message() != shown  # it did tick


def walk_leave_ranked(walk: Walk) -> None:
    """The online pause (the game goes on, the countdown ticking under it), its Back to menu asking
    first in a ranked game, Stay, and back to the table."""
    app = walk.app
    walk.key(pygame.K_ESCAPE, "the online pause over the ticking table")
    assert top_name(app) == "PauseScene"
    texts = walk.texts()
    assert tr("pause.title_online") in texts and tr("pause.title") not in texts
    table = app.stack.scenes[-2]
    shown = table.message()
    walk.rests_between_changes("the online pause, the countdown ticking under it", 2.0, most=4)
    assert table.message() != shown, "the game goes on: its countdown too, under the pause"
    walk.tap(tr("pause.menu"), "leaving a ranked game asks first")
    assert top_name(app) == "LeaveRankedScene"
    shown = table.message()
    walk.rests_between_changes("the question, the countdown ticking under it", 2.0, most=4)
    assert table.message() != shown, "the game goes on: its countdown too, under the question"
    walk.key(pygame.K_RIGHT, "Leave in focus")
    walk.key(pygame.K_ESCAPE, "Stay: back to the pause")
    assert top_name(app) == "PauseScene"
    walk.key(pygame.K_ESCAPE, "back to the table")
    assert top_name(app) == "TableScene"


def walk_who_are_you(walk: Walk, port: int) -> None:
    """A device with no name yet joins a friend's room by its link typed in the lobby: who joins is
    asked first (a name typed), then Join seats the player."""
    from tests.net_support import Peer

    app = walk.app
    cleo = Peer(port, address="203.0.113.9")
    try:
        cleo.hello("Cléo")
        room = cleo.create("duel", [{"kind": "human"}, {"kind": "human"}])["room"]
        app.settings.player_name = ""  # a fresh device (what a first start has)
        start_menu(app)
        walk.check("the menu")
        walk.tap("Play with a friend", "the lobby, no name")
        field = app.stack.top.entries["link"]
        walk.click(field.rect.center, "the link field takes the typing")
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"huit://127.0.0.1:{port}/{room}",
                                             window=None))
        walk.check("the link typed")
        walk.key(pygame.K_RETURN, "who joins is asked first")
        assert top_name(app) == "WhoAreYouScene"
        entry = app.stack.top.entry
        walk.click(entry.rect.center, "the name field takes the typing")
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Léa", window=None))
        walk.check("a name typed")
        walk.key(pygame.K_RETURN, "Enter joins", limit=None)
        walk.until(lambda: top_name(app) == "TableScene")
        walk.check("the friend's table")
        assert app.settings.player_name == "Léa"
    finally:
        cleo.close()


def walk_attract(walk: Walk, size: tuple[int, int]) -> None:
    """A kiosk idle at its menu past its attract delay: the computers' game under the banner (at its
    first rest and while it plays on), then the first tap goes back to the menu, which rests until
    the next attract game (its own App: a kiosk)."""
    delay = 3.0
    app = make_app(size, kiosk=True)
    walk.app = app
    try:
        app.attract_after = delay
        start_menu(app)
        walk.check("the kiosk's menu", limit=None)
        due = app.due()
        assert due is not None and FRAME < due <= delay  # it rests until the attract game
        settle(app, delay, woken=False)  # the rest runs out: the attract game, until its first rest
        assert top_name(app) == "AttractScene"
        walk.compare("the attract game", "at its first rest")
        texts = walk.texts()
        assert tr("attract.banner") in texts and tr("attract.demo") in texts
        settle(app, REST_LIMIT, woken=False)
        walk.compare("the attract game", f"{REST_LIMIT:g} s later")
        tap(app, (size[0] // 2, size[1] // 2), frames=0)
        walk.check("the first tap: back to the menu", limit=None)
        assert top_name(app) == "MenuScene"
        due = app.due()
        assert due is not None and FRAME < due <= delay  # at rest until the next attract game
    finally:
        app.store.flush()
        pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_scene_shows_what_it_is_after_every_step_with_no_further_input(size, tmp_path):
    label = f"walk-{size[0]}x{size[1]}"
    app = make_app(size, player_name="Ana")
    walk = Walk(app, label)
    try:
        walk_local(walk)
    except BaseException:
        app.store.flush()
        pygame.display.quit()
        raise
    walk_online(walk, tmp_path)  # closes the app
    walk_attract(walk, size)  # a kiosk: an App of its own
    walk.finish()
    missing = sorted(set(registry.SCENES) - walk.visited)
    assert not missing, (f"registered scenes the walk never showed: {missing}: add them to walk_local "
                         f"or walk_online in {__file__}")
