"""Names and tags nobody can copy (issue 32, part 5), replayed against a real server.

Each bad name the attack found is sent in a ``hello`` (a new profile) and in a ``profile``
change, and must be refused with its reason and nothing stored; tags are the server's, unique
among look-alike names, kept by a rename while still unique; two keys racing for one tag end
with two tags; a version 2 database gives every profile a tag when it is opened."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading

import pytest

from game.net.profiles import (
    NAME_REASONS,
    TAG_ALPHABET,
    TAG_LENGTH,
    player_id,
    skeleton,
)
from game.net.sqlite_schema import PLAYERS_SCHEMA, SCHEMA, VERSION
from game.net.sqlitestore import SQLiteRoomStore
from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}

ATTACKS = [  # (what the attacker sent, the reason the server now gives)
    ("\u2800", "invisible"),  # braille blank
    ("\u3164", "invisible"), ("\u115f", "invisible"), ("\u1160", "invisible"),  # Hangul fillers
    ("\uffa0", "invisible"),
    ("\u0301", "marks"),  # a lone combining accent
    ("A\u034fna", "invisible"), ("Ana\ufe0f", "invisible"),  # grapheme joiner, variation selector
    ("Ana\u17b4", "scripts"),  # a Khmer inherent vowel (invisible) on a Latin name
    ("\u17b4", "marks"),  # ...and alone
    ("Ana \u01c23F2", "tag"), ("Ana \u29e33F2", "symbol"), ("Ana \u2a693F2", "symbol"),
    ("Ana \U0001d12a3F2", "symbol"),  # look-alike tag signs: ǂ ⧣ ⩩ 𝄪
    ("\u0410na", "scripts"),  # a Cyrillic А with a Latin "na"
    ("a" + "\u0301" * 23, "marks"),  # 23 combining marks on one letter
    ("\ufdfd" * 24, "symbol"),  # 24 × the widest character there is
    ("\U0001d400\U0001d427\U0001d41a", "form"),  # 𝐀𝐧𝐚: mathematical bold letters
    ("\u4e2d" * 13, "too_wide"),  # 13 East Asian wide letters: 26 columns
    ("...", "blank"),
]


@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def _answer(peer: Peer) -> dict:
    return peer.until(lambda m: m["type"] in ("profile", "error"))


@pytest.mark.parametrize(("name", "reason"), ATTACKS)
def test_each_bad_name_of_the_attack_is_refused_in_a_hello_with_its_reason(server, name, reason):
    attacker = Peer(server.port)
    key = secrets.token_urlsafe(24)
    attacker.send(type="hello", player=key, name=name)
    refused = _answer(attacker)
    assert (refused["type"], refused["code"], refused["reason"]) == ("error", "bad_name", reason)
    assert server.server.profiles.get(player_id(key)) is None  # nothing stored


@pytest.mark.parametrize(("name", "reason"), ATTACKS)
def test_each_bad_name_of_the_attack_is_refused_as_a_new_name(server, name, reason):
    ana = Peer(server.port)
    ana.hello("Ana")
    ana.send(type="profile", name=name)
    refused = _answer(ana)
    assert (refused["code"], refused["reason"]) == ("bad_name", reason)
    assert Peer(server.port).hello(key=ana.player_key)["name"] == "Ana"


@pytest.mark.parametrize("name", ["Zoë", "Zoe\u0308", "Jean-Luc", "O'Brien", "Nguyễn Thị", "Алёна",
                                  "日本語テスト", "김민수", "Ἀλέξανδρος", "\u4e2d" * 12])
def test_names_of_one_writing_system_with_their_accents_are_welcome(server, name):
    answer = Peer(server.port).hello(name)
    assert answer["type"] == "profile" and answer["name"] == name.strip().replace("e\u0308", "ë")


def test_a_name_that_looks_like_another_players_is_refused_and_the_same_name_gets_its_own_tag(server):
    ana = Peer(server.port).hello("ABE")
    for look_alike in ("\u0410\u0412\u0415", "\u0391\u0392\u0395", "abe", "Abe"):  # Cyrillic, Greek, cases
        peer = Peer(server.port)
        peer.send(type="hello", player=secrets.token_urlsafe(24), name=look_alike)
        refused = _answer(peer)
        assert (refused["code"], refused["reason"]) == ("bad_name", "confusable"), look_alike
    twin = Peer(server.port).hello("ABE")  # the same name, written the same way: allowed, told apart
    assert twin["name"] == ana["name"] and twin["tag"] != ana["tag"]
    # A name change to a look-alike is refused the same way, and changes nothing.
    ben = Peer(server.port)
    ben.hello("Ben")
    ben.send(type="profile", name="\u0410\u0412\u0415")
    assert _answer(ben)["reason"] == "confusable"
    assert Peer(server.port).hello(key=ben.player_key)["name"] == "Ben"


def test_the_server_gives_every_tag_and_never_one_twice_for_one_name(server):
    tags = [Peer(server.port).hello("Ana")["tag"] for _ in range(8)]
    assert len(set(tags)) == len(tags)
    assert all(len(t) == TAG_LENGTH and set(t) <= set(TAG_ALPHABET) for t in tags)


def _scripted(*tags: str):
    """A tag drawer that gives ``tags`` in turn, one character a call."""
    chars = iter("".join(tags))
    return lambda alphabet: next(chars)


def test_two_keys_racing_for_one_tag_get_two_tags(server):
    # The server's random draw is made to give both newcomers the same first tag.
    server.server.profiles.draw = _scripted("SAMETG", "SAMETG", "K9Q3F2")
    peers = [Peer(server.port) for _ in range(2)]
    answers: list[dict] = []
    threads = [threading.Thread(target=lambda p=p: answers.append(p.hello("Ana"))) for p in peers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(a["tag"] for a in answers) == ["K9Q3F2", "SAMETG"]


def test_a_rename_keeps_the_tag_while_unique_for_the_new_name_else_gets_a_new_one(server):
    server.server.profiles.draw = _scripted("SAMETG", "SAMETG", "NEWTG1")
    ana, ben = Peer(server.port), Peer(server.port)
    assert ana.hello("Ana")["tag"] == "SAMETG"
    assert ben.hello("Ben")["tag"] == "SAMETG"  # another name: the same tag is no look-alike
    created = ben.create("duel", [HUMAN, HUMAN])
    assert created["type"] == "joined"
    ben.drain()
    ana.send(type="profile", name="Anabelle")
    assert _answer(ana)["tag"] == "SAMETG"  # still unique for Anabelle: kept
    ben.send(type="profile", name="Anabelle")
    renamed = _answer(ben)
    assert (renamed["name"], renamed["tag"]) == ("Anabelle", "NEWTG1")  # Ana's: a new one
    # The room Ben sits in showed his new name and tag (before the answer).
    assert ben.room is not None and (ben.room["seats"][0]["name"], ben.room["seats"][0]["tag"]) == (
        "Anabelle", "NEWTG1")
    assert Peer(server.port).hello(key=ben.player_key)["tag"] == "NEWTG1"


def test_a_version_2_database_gives_every_profile_a_tag_unique_per_look_alike_name(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("PRAGMA user_version=2;" + SCHEMA + PLAYERS_SCHEMA)
    people = [("a" * 64, "Ana"), ("b" * 64, "Ana"), ("c" * 64, "ana"), ("d" * 64, "Ben")]
    for i, (player, name) in enumerate(people):
        db.execute("INSERT INTO profiles VALUES (?, ?, 0, ?, ?)", (player, name, float(i), float(i)))
    seats = json.dumps([{"kind": "human", "level": "medium", "name": "Ana", "key_hash": "0" * 64,
                         "player": "a" * 64, "address": "192.0.2.1", "avatar": 0},
                        {"kind": "human", "level": "medium", "name": "", "key_hash": None}])
    db.execute("INSERT INTO rooms VALUES ('old', ?, ?, 7, NULL, 1.0, 1.0, '', 1, 'private')",
               (json.dumps({"preset": "duel", "options": {}}), seats))
    db.commit()
    db.close()
    store = SQLiteRoomStore(path)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 4
        tags = {player: store.profile(player).tag for player, _ in people}
        assert all(len(t) == TAG_LENGTH and set(t) <= set(TAG_ALPHABET) for t in tags.values())
        anas = [tags["a" * 64], tags["b" * 64], tags["c" * 64]]
        assert len(set(anas)) == 3  # one skeleton: three tags
        assert {p for p, _, _ in store.look_alikes(skeleton("ANA"))} == {"a" * 64, "b" * 64, "c" * 64}
        rooms, broken = store.load()
        assert broken == [] and rooms[0].seats[0].tag == tags["a" * 64]  # the seat shows the profile's
    finally:
        store.close()
    SQLiteRoomStore(path).close()  # and it opens as version 3 from then on


def test_the_lobby_and_the_leaderboard_show_the_tags_the_server_gave(server):
    ana = Peer(server.port)
    ana.hello("Ana")
    created = ana.create("duel", [HUMAN, HUMAN], public=True)
    assert created["type"] == "joined"
    twin = Peer(server.port)
    twin.hello("Ana")
    twin.send(type="lobby", watch=False)
    listing = twin.until(lambda m: m["type"] == "lobby")
    shown = [(s["name"], s["tag"]) for room in listing["rooms"] for s in room["seats"] if s["kind"] == "human"
             and s.get("name")]
    assert shown == [("Ana", ana.profile["tag"])] and ana.profile["tag"] != twin.profile["tag"]


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_every_reason_a_name_is_refused_for_is_translated(lang):
    from pathlib import Path

    po = Path(__file__).parents[1] / "game" / "locale" / lang / "LC_MESSAGES" / "huit.po"
    catalogue = po.read_text("utf-8")
    missing = [r for r in NAME_REASONS if f'msgid "name.{r}"\nmsgstr "' not in catalogue
               or f'msgid "name.{r}"\nmsgstr ""' in catalogue]
    assert missing == []
    assert {reason for _, reason in ATTACKS} | {"confusable"} <= set(NAME_REASONS)
