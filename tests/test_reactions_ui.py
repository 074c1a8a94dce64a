"""Quick reactions seen from the game (issue 31, section 5): the button and R open the palette,
a tap or a digit sends, the bubble shows at the sender's seat by itself (the table marks itself
dirty when it comes and when it goes, and rests in between), a muted player's reactions are
never shown, and a refusal is said in words. One real App against a friend on a real server."""

from __future__ import annotations

import secrets

import pygame
import pytest

from game.client.reactions import BUBBLE, GLYPHS, button_rect
from game.net.messages import REACTIONS
from tests.client_support import make_app, press, run_until, tap, tap_label, top_name
from tests.test_online_ui import Friend, close_online_app, create_duel, until
from tests.test_online_ui import server as server  # noqa: F401  (the fixture)


@pytest.fixture
def app():
    application = make_app(player_name="Ana")
    yield application
    close_online_app(application)


@pytest.fixture
def friend(app, server):  # noqa: F811
    """Ben, who said hello (so he has a tag), seated at the app's duel; the table is up."""
    link = create_duel(app, server.port)
    ben = Friend(server.port, {"type": "hello", "player": secrets.token_urlsafe(24), "name": "Ben"})
    ben.send({"type": "join", "room": link.rsplit("/", 1)[1]})
    assert until(app, lambda: top_name(app) == "TableScene")
    table = app.stack.top
    # Ben said hello: the table names him with his tag ("Ben #3F2", the stakes of issue 31).
    assert until(app, lambda: table.names()[0] == "Ana" and table.names()[1].startswith("Ben #")
                 and table.reactions.open(table.view))
    yield ben
    ben.close()


def heard(friend: Friend, seconds: float = 5.0) -> list[tuple[int, str]]:
    """The reactions the friend heard so far (waits a little for one to come)."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        friend.drain()
        found = [(m["seat"], m["reaction"]) for m in friend.messages if m["type"] == "reaction"]
        if found:
            return found
        time.sleep(0.01)
    return []


def test_every_reaction_has_a_picture_in_the_bundled_font():
    pygame.font.init()
    from game.client import ui

    for bold in (False, True):
        font = ui.font(40, bold)
        missing = font.metrics("\ue000")[0]  # a private-use character: the font's empty box
        for reaction in REACTIONS:
            assert font.metrics(GLYPHS[reaction])[0] != missing, reaction


def test_a_friends_reaction_shows_at_their_seat_by_itself_and_goes_after_three_seconds(app, friend):
    table = app.stack.top
    app.frame(1 / 60)
    friend.send({"type": "react", "reaction": "well_played"})
    drawn = app.draws
    assert until(app, lambda: 1 in table.reactions.bubbles)
    app.frame(1 / 60, lazy=True)  # the loop's way: drawn only when something changed
    assert app.draws > drawn  # the bubble reached the screen without any input
    assert table.reactions.bubbles[1][0] == "well_played"
    due = table.next_frame()
    assert due is not None and due <= BUBBLE
    drawn = app.draws
    app.frame(BUBBLE + 0.1, rested=BUBBLE + 0.1, lazy=True)  # a rest as long as the bubble's time
    assert 1 not in table.reactions.bubbles
    assert app.draws > drawn  # and its going too


def test_the_button_opens_the_palette_and_a_tap_sends_a_reaction(app, friend):
    table = app.stack.top
    tap(app, button_rect(table.layout).center)
    assert top_name(app) == "ReactionsScene"
    tap_label(app, f"{GLYPHS['thanks']} Thanks!")
    assert top_name(app) == "TableScene"
    assert heard(friend) == [(0, "thanks")]
    assert until(app, lambda: table.reactions.bubbles.get(0, ("",))[0] == "thanks")  # my own bubble


def test_r_and_a_digit_send_a_reaction_from_the_keyboard(app, friend):
    press(app, pygame.K_r)
    assert top_name(app) == "ReactionsScene"
    press(app, pygame.K_8)
    assert top_name(app) == "TableScene"
    assert heard(friend) == [(0, REACTIONS[7])]


def test_esc_closes_the_palette_without_sending(app, friend):
    press(app, pygame.K_r)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableScene"
    assert heard(friend, 0.3) == []


def test_a_muted_player_is_not_shown_and_the_choice_is_kept(app, friend):
    table = app.stack.top
    ben = table.names()[1]  # "Ben #3F2": his name and tag
    press(app, pygame.K_r)
    tap_label(app, f"{ben}'s reactions: on")
    assert f"{ben}'s reactions: off" in [b.label for b in app.stack.top.buttons]
    tag = table.controller.seats[1].tag
    assert tag and app.settings.muted_players == [tag]
    assert app.store.settings.read()["muted_players"] == [tag]  # kept for the next games
    press(app, pygame.K_ESCAPE)
    friend.send({"type": "react", "reaction": "oops"})
    friend.send({"type": "ping", "ref": "after"})
    assert until(app, lambda: not table.controller.reactions and any(
        m.get("ref") == "after" for m in (friend.drain() or friend.messages)))
    run_until(app, lambda: False, frames=30)
    assert 1 not in table.reactions.bubbles


def test_everyones_reactions_can_be_muted_but_mine_still_show(app, friend):
    table = app.stack.top
    press(app, pygame.K_r)
    tap_label(app, "Everyone's reactions: on")
    assert app.settings.reactions_muted
    press(app, pygame.K_1)  # hello, from me
    friend.send({"type": "react", "reaction": "wow"})
    assert until(app, lambda: 0 in table.reactions.bubbles)
    run_until(app, lambda: False, frames=30)
    assert 1 not in table.reactions.bubbles


def test_a_reaction_too_soon_is_refused_in_words(app, friend):
    table = app.stack.top
    press(app, pygame.K_r)
    press(app, pygame.K_1)
    press(app, pygame.K_r)
    press(app, pygame.K_2)
    assert until(app, lambda: table.toast.startswith("Not so fast"))


def test_a_table_on_this_device_has_no_reactions(app):
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    from game.client.controller import MatchController, SeatConfig
    from game.engine import Match, preset

    controller = MatchController(Match(preset("duel"), 2, seed=1),
                                 [SeatConfig("human"), SeatConfig("computer", "easy")])
    app.replace("Table", controller=controller)
    app.stack.apply_requests()
    app.frame(1 / 60)
    assert app.stack.top.reactions is None
    press(app, pygame.K_r)
    assert top_name(app) == "TableScene"


def test_a_players_switch_keeps_its_own_state_under_the_switch_for_everyone(app, friend):
    ben = app.stack.top.names()[1]  # "Ben #3F2": his name and tag
    press(app, pygame.K_r)
    tap_label(app, "Everyone's reactions: on")
    tap_label(app, f"{ben}'s reactions: on")  # still on: muting everyone did not mute Ben on his own
    tap_label(app, "Everyone's reactions: off")
    labels = [b.label for b in app.stack.top.buttons]
    assert "Everyone's reactions: on" in labels and f"{ben}'s reactions: off" in labels
    assert not app.settings.reactions_muted and len(app.settings.muted_players) == 1
