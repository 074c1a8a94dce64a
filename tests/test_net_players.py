"""Players and the lobby, for real: profiles by player key, public rooms listed and joined by a
stranger, private rooms never listed, and every new bad input refused with nothing changed."""

from __future__ import annotations

import json
import logging
import secrets

import pytest

from game.net.clock import ManualClock
from game.net.lobby import PUSH_INTERVAL
from game.net.profiles import AVATARS, DEFAULT_AVATAR, TAG_ALPHABET, TAG_LENGTH, player_id
from game.play.avatars import COMPUTERS, PEOPLE
from tests.net_support import Peer, start_server

HUMAN, EASY = {"kind": "human"}, {"kind": "computer", "level": "easy"}


@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def test_a_version_one_game_is_told_to_update(server):
    old = Peer(server.port)
    old.send(type="ping", v=1)
    refused = old.recv()
    assert refused["code"] == "version" and "update Huit" in refused["message"] and refused["v"] == 2


def test_hello_makes_a_profile_once_and_the_key_brings_it_back_with_the_same_tag(server):
    ana = Peer(server.port)
    first = ana.hello("  Ana  ", avatar=5)
    assert first["type"] == "profile" and first["created"] is True
    assert (first["name"], first["avatar"], first["xp"]) == ("Ana", 5, {})
    # The server gave the tag: six characters of Crockford's base 32, not a function of the key.
    assert len(first["tag"]) == TAG_LENGTH and set(first["tag"]) <= set(TAG_ALPHABET)
    again = Peer(server.port)
    back = again.hello("Someone else", key=ana.player_key, avatar=9)
    assert back["created"] is False
    assert (back["name"], back["avatar"], back["tag"]) == ("Ana", 5, first["tag"])
    assert ana.player_key not in json.dumps(back)  # the key never comes back


def test_two_players_of_one_name_are_told_apart_by_their_tags(server):
    tags = [Peer(server.port).hello("Ana")["tag"] for _ in range(6)]
    assert len(set(tags)) == 6  # the server never gives one name's tag twice


def test_a_player_changes_their_name_and_avatar(server):
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.send(type="profile", name="Anabelle", avatar=PEOPLE[-1])
    changed = ana.until(lambda m: m["type"] in ("profile", "error"))
    assert (changed["name"], changed["avatar"]) == ("Anabelle", PEOPLE[-1])
    later = Peer(server.port)
    assert later.hello(key=ana.player_key)["name"] == "Anabelle"


@pytest.mark.parametrize(("name", "reason"), [
    ("", "empty"), ("   ", "empty"), ("x" * 25, "too_long"), ("An\na", "control"),
    ("An\u202ea", "control"), ("An\ud800a", "control"), ("An\x00", "control"), (7, "not_text"),
    (["Ana"], "not_text"), (None, "not_text"), ("Ana #3F2", "tag"), ("Ana \uff033F2", "tag"),
])
def test_a_refused_name_gets_a_reason_and_changes_nothing(server, name, reason):
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.send(type="profile", name=name)
    refused = ana.until(lambda m: m["type"] in ("profile", "error"))
    assert refused["code"] == "bad_name" and refused["reason"] == reason and refused["message"]
    newcomer = Peer(server.port)
    newcomer.send(type="hello", player=secrets.token_urlsafe(24), name=name)
    assert newcomer.recv()["code"] == "bad_name"
    assert Peer(server.port).hello(key=ana.player_key)["name"] == "Ana"


@pytest.mark.parametrize(("name", "reason"), [
    ("An\u202ea", "control"), ("\u2066Ana", "control"), ("A\u200bna", "control"), ("x" * 25, "too_long"),
    ("  " + "x" * 25, "too_long"), ("Ana #3F2", "tag"), ("Ana#3F2", "tag"), ("Ana \uff033F2", "tag"),
    ("Ana \ufe5f3F2", "tag"),
])
def test_a_seat_name_given_without_a_profile_keeps_to_the_rules_of_names(server, name, reason):
    anon = Peer(server.port)
    for seats, fields in (([HUMAN, HUMAN], {"name": name}), ([{"kind": "human", "name": name}, HUMAN], {}),
                          ([HUMAN, {"kind": "computer", "level": "easy", "name": name}], {})):
        refused = anon.create("duel", seats, **fields)
        assert (refused["code"], refused["reason"]) == ("bad_name", reason) and refused["message"]
    host = Peer(server.port)
    host.create("points", [HUMAN, HUMAN, HUMAN], name="Host")
    refused = Peer(server.port).join(host.room_id, name=name)
    assert (refused["code"], refused["reason"]) == ("bad_name", reason)
    status = host.until(lambda m: m["type"] == "room")
    assert status["waiting_for"] == [1, 2] and server.server.rooms[host.room_id].seats[1].key_hash is None


def test_a_seat_name_is_trimmed_and_a_blank_one_is_no_name(server):
    ana = Peer(server.port)
    assert ana.create("points", [HUMAN, HUMAN, {"kind": "computer", "name": " Robo "}], name="  Ana ")[
        "type"] == "joined"
    ben = Peer(server.port)
    assert ben.join(ana.room_id, name="   ")["type"] == "joined"
    status = ben.until(lambda m: m["type"] == "room")
    assert [s["name"] for s in status["seats"]] == ["Ana", "", "Robo"]


def test_a_players_seat_ignores_the_name_sent_with_it_even_one_like_a_tag(server):
    ana, ben = Peer(server.port), Peer(server.port)
    ana.hello("Ana")
    ben.hello("Ben")
    assert ana.create("duel", [HUMAN, HUMAN], name="Zed #3F2")["type"] == "joined"
    assert ben.join(ana.room_id, name="Ana #3F2")["type"] == "joined"
    status = ben.until(lambda m: m["type"] == "room")
    assert [(s["name"], s["tag"]) for s in status["seats"]] == [("Ana", ana.profile["tag"]),
                                                               ("Ben", ben.profile["tag"])]


def test_a_name_of_twenty_four_characters_is_trimmed_and_kept(server):
    ana = Peer(server.port)
    assert ana.hello(" " + "é" * 24 + " ")["name"] == "é" * 24


@pytest.mark.parametrize("key", ["short", "x" * 129, "a" * 31 + "!", "\ud800" * 40, 12345, None, ["k" * 40]])
def test_a_player_key_that_is_not_one_is_bad_key(server, key):
    peer = Peer(server.port)
    peer.send(type="hello", player=key)
    assert peer.recv()["code"] == "bad_key"


def test_a_new_player_without_an_avatar_gets_a_persons_default(server):
    assert Peer(server.port).hello("Ana")["avatar"] == DEFAULT_AVATAR and DEFAULT_AVATAR in PEOPLE


@pytest.mark.parametrize("avatar", [AVATARS, -1, True, 1.0, "3", None, COMPUTERS[0], COMPUTERS[-1]])
def test_an_avatar_outside_the_peoples_pictures_is_refused(server, avatar):
    peer = Peer(server.port)
    peer.send(type="hello", player=secrets.token_urlsafe(24), avatar=avatar)
    assert peer.recv()["code"] == "bad_message"
    peer.hello("Ana")
    peer.send(type="profile", avatar=avatar)
    assert peer.recv()["code"] == "bad_message"
    peer.send(type="profile")
    assert peer.recv()["code"] == "bad_message"


def test_a_connection_speaks_for_one_player(server):
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.send(type="hello", player=secrets.token_urlsafe(24))
    assert ana.recv()["code"] == "bad_message"
    stranger = Peer(server.port)
    for message in ({"type": "profile", "name": "X"}, {"type": "history"},
                    {"type": "queue", "preset": "duel", "players": 2}):
        stranger.send(**message)
        assert stranger.recv()["code"] == "no_profile"


def test_new_profiles_and_profile_changes_are_counted_per_address_and_player(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", profiles_per_hour=3, renames_per_hour=2)
    try:
        peers = [Peer(thread.port) for _ in range(4)]
        assert [p.hello(f"P{i}")["type"] for i, p in enumerate(peers[:3])] == ["profile"] * 3
        assert peers[3].hello("P4")["code"] == "too_many_profiles"
        assert peers[0].hello(key=peers[0].player_key)["type"] == "profile"  # a known key is no new profile
        ana = peers[0]
        for name in ("A1", "A2"):
            ana.send(type="profile", name=name)
            assert ana.recv()["name"] == name
        ana.send(type="profile", name="A2")  # no change: not counted, not refused
        assert ana.recv()["type"] == "profile"
        ana.send(type="profile", name="A3")
        refused = ana.recv()
        assert refused["code"] == "too_many_changes"
        assert Peer(thread.port).hello(key=ana.player_key)["name"] == "A2"
    finally:
        thread.stop()


# ---- the lobby ------------------------------------------------------------------------------------
def lobby(peer: Peer, **fields) -> dict:
    peer.send(type="lobby", **fields)
    return peer.until(lambda m: m["type"] == "lobby")


def test_a_public_room_is_listed_and_a_stranger_takes_its_free_seat(server):
    ana = Peer(server.port, 1)
    ana.hello("Ana", avatar=3)
    assert ana.create("points", [HUMAN, EASY, HUMAN], public=True)["type"] == "joined"
    ben = Peer(server.port, 2)
    ben.hello("Ben")
    listing = lobby(ben)
    assert listing["listed"] == 1 and isinstance(listing["now"], float)
    [room] = listing["rooms"]
    assert room["room"] == ana.room_id and room["preset"] == "points" and room["players"] == 3
    assert (room["taken"], room["free"], room["computers"]) == (1, 1, 1)
    assert room["seats"] == [{"kind": "human", "name": "Ana", "tag": ana.profile["tag"], "avatar": 3},
                             {"kind": "computer", "level": "easy"}, {"kind": "free"}]
    assert listing["now"] - room["since"] >= 0
    assert ben.join(room["room"])["type"] == "joined" and ben.seat == 2
    status = ben.until(lambda m: m["type"] == "room")
    assert status["kind"] == "public" and status["seats"][2]["name"] == "Ben"
    assert status["seats"][2]["tag"] == ben.profile["tag"]
    assert lobby(Peer(server.port))["rooms"] == []  # started: no longer listed


def test_a_private_room_is_never_listed_nor_named_to_anyone_else(server):
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.create("duel", [HUMAN, HUMAN])
    secret_room = ana.room_id
    cid = Peer(server.port)
    cid.hello("Cid")
    cid.create("duel", [HUMAN, HUMAN], public=True)
    watcher = Peer(server.port)
    listing = lobby(watcher)
    assert [r["room"] for r in listing["rooms"]] == [cid.room_id]
    ben = Peer(server.port)
    ben.hello("Ben")
    ben.send(type="leaderboard", preset="duel")
    ben.send(type="history")
    ben.send(type="queue", preset="duel", players=2)
    ben.send(type="unqueue")
    ben.drain(0.2)
    watcher.drain(0.2)
    for frame in [*watcher.frames, *ben.frames, *cid.frames]:
        assert secret_room not in frame


def test_public_rooms_need_a_player_and_public_is_true_or_false(server):
    anon = Peer(server.port)
    assert anon.create("duel", [HUMAN, HUMAN], public=True)["code"] == "no_profile"
    for bad in (1, "yes", None, [True]):
        assert anon.create("duel", [HUMAN, HUMAN], public=bad)["code"] == "bad_message"
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.create("duel", [HUMAN, HUMAN], public=True)
    assert anon.join(ana.room_id)["code"] == "no_profile"
    anon.send(type="lobby", watch="yes")
    assert anon.recv()["code"] == "bad_message"
    assert lobby(anon)["listed"] == 1  # looking needs no profile


def test_watchers_see_the_lobby_change_live(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)
    try:
        watcher = Peer(thread.port)
        assert lobby(watcher)["rooms"] == []
        ana = Peer(thread.port)
        ana.hello("Ana")
        ana.create("duel", [HUMAN, HUMAN], public=True)
        pushed = watcher.until(lambda m: m["type"] == "lobby")
        assert [r["room"] for r in pushed["rooms"]] == [ana.room_id]
        ben = Peer(thread.port)
        ben.hello("Ben")
        ben.join(ana.room_id)
        clock.advance(PUSH_INTERVAL)  # at most one listing a second
        assert watcher.until(lambda m: m["type"] == "lobby")["rooms"] == []
        lobby(watcher, watch=False)
        seen = len(watcher.frames)
        cid = Peer(thread.port)
        cid.hello("Cid")
        cid.create("duel", [HUMAN, HUMAN], public=True)
        clock.advance(PUSH_INTERVAL)
        watcher.drain(0.3)
        assert watcher.frames[seen:] == []  # no longer watching
        assert [r["room"] for r in lobby(watcher)["rooms"]] == [cid.room_id]
    finally:
        thread.stop()


def test_a_seat_in_a_room_shows_the_players_tag_but_never_their_key(server):
    ana, ben = Peer(server.port, 1), Peer(server.port, 2)
    ana.hello("Ana")
    ben.hello("Ben")
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id, name="ignored")
    status = ben.until(lambda m: m["type"] == "room" and m["state"] == "playing")
    assert [s["name"] for s in status["seats"]] == ["Ana", "Ben"]
    assert status["kind"] == "private" and status["ranked"] is False
    for peer in (ana, ben):
        peer.drain(0.2)
    for frame in [*ana.frames, *ben.frames]:
        for secret in (ana.player_key, ben.player_key, player_id(ana.player_key), player_id(ben.player_key)):
            assert secret not in frame
    assert ana.key not in "".join(ben.frames) and ben.key not in "".join(ana.frames)


def test_a_known_key_still_gets_its_fields_checked(server):
    ana = Peer(server.port)
    ana.hello("Ana")
    again = Peer(server.port)
    again.send(type="hello", player=ana.player_key, avatar=99)
    assert again.recv()["code"] == "bad_message"
    again.send(type="hello", player=ana.player_key, name="\x07")
    assert again.recv()["code"] == "bad_name"


def test_listings_leaderboards_and_histories_are_answered_at_most_once_a_second(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        peer = Peer(thread.port)
        peer.hello("Ana")
        codes = []
        for kind in ("lobby", "leaderboard", "history") * 3:
            peer.send(type=kind, preset="duel", watch=False)
            codes.append(peer.until(lambda m: m["type"] != "profile")["type"])
        assert codes[:5] == ["lobby", "leaderboard", "history", "lobby", "leaderboard"]
        assert codes[5:] == ["error"] * 4
        clock.advance(1.0)
        peer.send(type="leaderboard", preset="duel")
        assert peer.recv()["type"] == "leaderboard"
    finally:
        thread.stop()


def test_no_player_key_nor_seat_key_is_ever_logged(server, caplog):
    caplog.set_level(logging.DEBUG)
    ana, ben = Peer(server.port, 1), Peer(server.port, 2)
    ana.hello("Ana")
    ben.hello("Ben")
    ana.create("duel", [HUMAN, HUMAN], public=True)
    ben.join(ana.room_id)
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "update")
    ben.send(type="profile", name="Benjamin")
    ben.until(lambda m: m["type"] == "profile")
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"])
    # (The test's own client connections log their frames at DEBUG: only the server's records count.)
    logged = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records
                       if r.name.startswith(("huit", "websockets.server")))
    assert "room" in logged  # the server did log, and...
    for secret in (ana.player_key, ben.player_key, ana.key, ben.key, player_id(ana.player_key)):
        assert secret not in logged


def test_a_public_room_whose_people_are_all_away_is_not_listed_until_one_is_back(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)
    try:
        ana = Peer(thread.port)
        ana.hello("Ana")
        ana.create("points", [HUMAN, HUMAN, HUMAN], public=True)
        watcher = Peer(thread.port)
        assert [r["room"] for r in lobby(watcher)["rooms"]] == [ana.room_id]
        ana.close()  # nobody of the room is here: a stranger would start a game with an absent creator
        clock.advance(PUSH_INTERVAL)
        assert watcher.until(lambda m: m["type"] == "lobby")["rooms"] == []
        assert lobby(Peer(thread.port))["rooms"] == []
        back = Peer(thread.port)
        back.hello(key=ana.player_key)
        assert back.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
        clock.advance(PUSH_INTERVAL)
        assert [r["room"] for r in watcher.until(lambda m: m["type"] == "lobby")["rooms"]] == [ana.room_id]
    finally:
        thread.stop()


def test_a_restarted_server_lists_no_public_room_before_its_people_are_back(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db)
    try:
        ana = Peer(thread.port)
        ana.hello("Ana")
        ana.create("duel", [HUMAN, HUMAN], public=True)
        assert lobby(Peer(thread.port))["listed"] == 1
    finally:
        thread.stop()
    again = start_server(db)
    try:
        assert lobby(Peer(again.port))["listed"] == 0
        back = Peer(again.port)
        back.hello(key=ana.player_key)
        assert back.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
        assert lobby(Peer(again.port))["listed"] == 1
    finally:
        again.stop()
