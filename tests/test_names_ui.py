"""A refused name, told where it was typed: real key and text events into the Who are you?
screen (joining by a link) and the server's lobby, against a real server on 127.0.0.1."""

from __future__ import annotations

import html
import random

import pygame
import pytest

from game.client.app import open_link
from game.client.i18n import set_language, tr
from game.net.hosting import ServerThread
from tests.client_support import STEP, close_online_app, make_app, press, tap, top_name
from tests.net_support import Peer
from tests.test_online_ui import open_lobby, tap_button, type_into, until

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path):
    thread = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0,
                          rng=random.Random(0), burst=100_000.0)
    thread.start()
    assert thread.error is None
    yield thread
    thread.stop()


def _type(app, scene, text: str) -> None:
    """Tap the name field, empty it with Backspace, and type ``text`` as the keyboard would."""
    tap(app, scene.entry.rect.center)
    press(app, pygame.K_END, frames=1)  # the tap put the cursor where it landed
    for _ in range(len(scene.entry.get_text())):
        press(app, pygame.K_BACKSPACE, frames=1)
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    app.frame(STEP)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_who_are_you_says_why_a_bad_name_is_refused_and_joins_with_a_good_one(server, lang):
    app = make_app((1024, 600))  # a fresh device: no name yet
    set_language(lang)  # (the conftest sets English back)
    try:
        ben = Peer(server.port)
        ben.hello("Ben")
        joined = ben.create("duel", [HUMAN, HUMAN])
        open_link(app, f"huit://127.0.0.1:{server.port}/{joined['room']}")
        assert top_name(app) == "WhoAreYouScene"
        scene = app.stack.top
        refused = (("\u0410na", "scripts"), ("Ana \u29e33F2K9Q", "symbol"), ("A\u3164", "invisible"),
                   ("\u1676" * 24, "too_wide"))  # 24 columns, but drawn far wider than 24 W
        for name, reason in refused:
            _type(app, scene, name)
            press(app, pygame.K_RETURN)  # Enter joins: refused here, with the reason in the player's language
            assert top_name(app) == "WhoAreYouScene"
            assert scene.message == tr("lobby.name_refused", why=tr("name." + reason)), name
            assert html.escape(scene.message) in [getattr(e, "html_text", getattr(e, "text", ""))
                                     for e in scene.manager.get_sprite_group().sprites()]  # on screen
        assert app.settings.player_name == ""
        _type(app, scene, "Ana")
        press(app, pygame.K_RETURN)
        assert top_name(app) in ("WaitingRoomScene", "TableScene")
        assert ben.until(lambda m: m["type"] == "room" and m["seats"][1].get("name") == "Ana")
    finally:
        close_online_app(app)


def test_the_lobby_says_a_name_looks_like_another_players(server):
    abe = Peer(server.port)
    abe.hello("ABE")
    app = make_app((1024, 600), player_name="\u0410\u0412\u0415")  # Cyrillic АВЕ
    try:
        open_lobby(app)
        type_into(app, "server", f"127.0.0.1:{server.port}")
        set_language("fr")
        tap_button(app, "Public rooms and quick match")  # (built in English; its answers are said in French)
        assert top_name(app) == "ServerLobbyScene"
        scene = app.stack.top
        assert until(app, lambda: bool(scene.message))
        assert scene.message == tr("lobby.name_refused", why=tr("name.confusable"))
        assert "ressemble à celui d'un autre joueur" in scene.message
        # The connection still plays, under the server's default name, until the name is changed.
        assert until(app, lambda: scene.profile is not None)
        assert scene.profile.name == "Player" and scene.profile.tag
        app.frame(STEP)
        assert scene.message == tr("lobby.name_refused", why=tr("name.confusable"))
    finally:
        close_online_app(app)


def test_play_online_goes_to_no_server_with_a_refused_name_and_says_why(server):
    app = make_app((1024, 600))
    try:
        open_lobby(app)
        scene = app.stack.top
        type_into(app, "name", "\uff21\uff2e\uff21")  # ＡＮＡ: full-width letters
        type_into(app, "server", f"127.0.0.1:{server.port}")
        tap_button(app, "Public rooms and quick match")
        assert top_name(app) == "LobbyScene"  # not the server's lobby as "Player"
        assert app.stack.top.message == tr("lobby.name_refused", why=tr("name.form"))
        assert app.settings.player_name == ""
        assert scene is app.stack.top
    finally:
        close_online_app(app)


def test_a_name_is_measured_as_the_game_draws_it():
    from game.client.online_player import drawn_too_wide

    app = make_app((1024, 600))
    try:
        assert not drawn_too_wide("W" * 24) and not drawn_too_wide("\u4e2d" * 12)  # the widest Latin; 12 wide
        assert drawn_too_wide("\u1676" * 24)  # Canadian syllabics: one column each, drawn nearly two
    finally:
        close_online_app(app)
