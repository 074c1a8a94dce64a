"""Room codes a person can read aloud and type (issue 31, section 3): no look-alike characters,
still unguessable, typed in any case with or without dashes, and rooms made before codes
(ids from ``secrets.token_urlsafe(9)``, kept in rooms.sqlite3 and in old links) still open."""

from __future__ import annotations

import itertools
import urllib.request

import pytest

from game.net import seating
from game.net.links import read_link
from game.net.room_codes import ALPHABET, CODE, ENTROPY_BITS, canonical, is_code, lookalike, new_code
from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}
LOOKALIKES = ("0OQD", "1IL7", "2Z", "5S", "8B", "6G", "UV", "MN")
"""Groups a person may take for one another, aloud, handwritten or in a small font: a code holds
at most one character of each."""
NEVER = "0O1IL2Z5S8B"  # the look-alikes: none of them at all
OLD_ID = "AbC_1defGH-j"  # what secrets.token_urlsafe(9) made: 12 characters, case matters


def test_a_new_code_is_five_groups_of_three_from_the_alphabet():
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000  # no repeat in 2000 (the chance of one is about 4e-13)
    for code in itertools.islice(codes, 50):
        assert CODE.match(code) and is_code(code) and len(code) == 19 and code.count("-") == 4
    assert set("".join(codes).replace("-", "")) == set(ALPHABET)  # every character drawn


def test_the_alphabet_has_no_look_alikes_and_codes_hold_over_60_bits():
    for group in LOOKALIKES:
        assert len(set(group) & set(ALPHABET)) <= 1, group
    assert not set(NEVER) & set(ALPHABET)
    assert "".join(sorted(set(ALPHABET))) == ALPHABET and len(ALPHABET) == 18
    assert ENTROPY_BITS > 62.5 and pytest.approx(15 * 4.1699, abs=0.01) == ENTROPY_BITS


@pytest.mark.parametrize("typed", ["K7M-4AX-P9T-E3F-HWR", "k7m-4ax-p9t-e3f-hwr", "k7m4axp9te3fhwr",
                                   " K7M 4AX P9T E3F HWR ", "k7m–4ax—p9t.e3f_hwr", "K7m-4aX p9T-e3F hWr"])
def test_a_code_is_read_in_any_case_with_or_without_dashes(typed):
    assert canonical(typed) == "K7M-4AX-P9T-E3F-HWR"


@pytest.mark.parametrize("old", [OLD_ID, "abc", "ROOM-1", "x" * 64, "K7M-4AX-P9T-E3F-HWRK"])
def test_an_id_that_is_not_a_code_is_kept_exactly(old):
    assert canonical(old) == old


@pytest.mark.parametrize(("typed", "wrong"), [("k7m-4ax-p9t-e3f-hw0", "0"), ("K7M-4AX-P9T-E3F-HWO", "O"),
                                              ("k7m 4ax p9t e3f hw1", "1"), ("K7M4AXP9TE3FHWS", "S"),
                                              ("l7m-4ax-p9t-e3f-hwr", "L")])
def test_a_look_alike_typed_into_a_code_is_named(typed, wrong):
    assert lookalike(typed) == wrong
    assert canonical(typed) == typed  # not silently turned into another room


@pytest.mark.parametrize("text", ["K7M-4AX-P9T-E3F-HWR", OLD_ID, "huit://h:1/K7M-4AX-P9T-E3F-HWR", "hello"])
def test_no_look_alike_is_claimed_for_a_code_or_anything_else(text):
    assert lookalike(text) is None


def test_a_link_with_a_code_in_lower_case_is_the_same_room():
    assert read_link("huit://h:1/k7m4axp9te3fhwr").room == "K7M-4AX-P9T-E3F-HWR"
    assert read_link("https://h/r/k7m-4ax-p9t-e3f-hwr").room == "K7M-4AX-P9T-E3F-HWR"
    assert read_link(f"huit://h:1/{OLD_ID}").room == OLD_ID  # an old link: exactly as it was


# ---- on a server -------------------------------------------------------------------------------
def _page(port: int, room: str) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"http://127.0.0.1:{port}/r/{room}", timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_new_room_has_a_code_that_is_joined_however_it_is_typed(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        assert is_code(ana.room_id)
        typed = ana.room_id.lower().replace("-", " ")
        ben = Peer(thread.port)
        assert ben.join(typed, name="Ben")["room"] == ana.room_id
        assert _page(thread.port, ana.room_id.lower().replace("-", "")) == 200
    finally:
        thread.stop()


def test_a_wrong_code_is_refused_like_any_unknown_room_saying_nothing_of_others(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        near = ana.room_id[:-1] + next(c for c in ALPHABET if c != ana.room_id[-1])  # one character off
        answers = []
        for guess in (near, new_code(), "nope", ana.room_id[:-1]):
            guesser = Peer(thread.port)
            answers.append(guesser.join(guess, name="Eve"))
            guesser.close()
        assert {a["code"] for a in answers} == {"unknown_room"}
        assert len({a["message"] for a in answers}) == 1  # near or far, the same words
        assert {_page(thread.port, g) for g in (near, new_code())} == {404}
    finally:
        thread.stop()


def test_a_room_made_before_codes_still_opens_by_its_old_id_and_link(tmp_path, monkeypatch):
    db = tmp_path / "rooms.sqlite3"
    monkeypatch.setattr(seating, "new_code", lambda: OLD_ID)  # the server of before: its id
    thread = start_server(db)
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        assert ana.room_id == OLD_ID
        key = ana.key
        ana.close()
    finally:
        thread.stop()
    monkeypatch.undo()
    thread = start_server(db)  # today's server, on the same rooms.sqlite3
    try:
        link = read_link(f"huit://127.0.0.1:{thread.port}/{OLD_ID}")
        assert link.room == OLD_ID
        back = Peer(thread.port)
        assert back.join(link.room, seat=0, key=key)["type"] == "joined"
        ben = Peer(thread.port)
        assert ben.join(OLD_ID, name="Ben")["type"] == "joined"
        assert _page(thread.port, OLD_ID) == 200
        assert Peer(thread.port).join(OLD_ID.lower(), name="Eve")["code"] == "unknown_room"  # case kept
        new = Peer(thread.port)
        new.create("duel", [HUMAN, HUMAN], name="Cy")
        assert is_code(new.room_id)
    finally:
        thread.stop()
