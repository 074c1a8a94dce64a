"""The room's web page is one a player sends a non-technical friend (issue 31, section 3): in the
visitor's language, what Huit is, who is seated, a big "Open in Huit" button, where to download
it (``--download-url``), the menu's real words, never "over" beside seats said to wait, every
name escaped, and the crossed swords of a ranked room (or "Friendly: not ranked")."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.client.catalogues import load
from game.engine import PRESETS
from game.net.room_page import CSP, STYLE, pick_language, render
from game.net.rooms import Room, Seat
from game.net.swords import SHAPE, svg
from tests.net_support import Peer, start_server
from tests.test_net_web import get

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}
HOSTILE = ('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "O'Brien & \"Co\"",
           "\u202eevil\u202c مرحبا", "x" * 3000)


def _room(names: list[str | None], kind: str = "private", **state: object) -> Room:
    """A duel-sized room whose seats are taken by ``names`` (None: free)."""
    rules = PRESETS["classic"]
    seats = [Seat("human", name=n or "", key_hash=None if n is None else "h" * 64, connected=True)
             for n in names]
    room = Room("K7M-4AX-P9T-E3F-HWR", rules, seats, 1, None, kind=kind)
    for name, value in state.items():
        setattr(room, name, value)
    return room


@pytest.mark.parametrize(("accept", "asked", "lang"), [
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7", "", "fr"),
    ("de;q=0.1, es;q=0.5", "", "es"),
    ("ja, zh-TW;q=0.9", "", "en"),
    ("", "", "en"),
    ("en;q=0.2, fr;q=0.2", "", "en"),  # equal weights: the first
    ("q=;;,,,fr;q=abc, de", "", "de"),  # junk is skipped
    ("fr", "de", "de"),  # ?lang= wins
    ("fr", "xx", "fr"),
    ("fr;q=0.9," * 5000, "", "fr"),  # a huge header is read only so far
])
def test_the_page_speaks_the_visitors_language(accept, asked, lang):
    assert pick_language(accept, asked) == lang


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("You are invited to play Huit", "Open in Huit", "“Play with a friend”", "“Join”", "Get Huit")),
    ("fr", ("Vous êtes invité à jouer à Huit", "Ouvrir dans Huit", "« Jouer avec un ami »",
            "« Rejoindre »", "Obtenir Huit", "Huit américain")),
    ("es", ("Abrir en Huit", "Conseguir Huit")),
    ("de", ("In Huit öffnen", "Huit holen")),
])
def test_the_page_uses_the_catalogues_and_the_menus_own_words(lang, words):
    page = html.unescape(render(_room(["Ana", None]), "h.example", 8765, False, lang))
    for word in words:
        assert word in page, word
    assert f'<html lang="{lang}">' in page
    menu = load(lang)["menu.online"]
    assert menu in page  # the words the game's menu shows, whatever they are today


def test_the_page_over_http_picks_french_from_accept_language(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        status, headers, body = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}",
                                    headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
        assert status == 200 and headers["Content-Language"] == "fr" and headers["Vary"] == "Accept-Language"
        assert "Ouvrir dans Huit" in body and "Amicale : ne compte pas" in body
    finally:
        thread.stop()


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_only_text_on_the_page(name):
    page = render(_room([name, None]), "h.example", 8765, False)
    assert f"<bdi>{html.escape(name)}</bdi>" in page  # isolated: an RTL mark stops at its name
    assert "<script" not in page and "<img" not in page and "onerror=alert" not in page.replace(
        html.escape('"><img src=x onerror=alert(1)>'), "")
    # Only the tags the page writes itself.
    assert set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", page)) <= {
        "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "section", "span", "ul",
        "li", "bdi", "a", "code"}


def test_a_hostile_name_through_the_server_is_escaped(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana = Peer(thread.port)
        # The server refuses < and > in names (symbols); the punctuation a name may hold is escaped.
        ana.create("duel", [HUMAN, HUMAN], name='O\'Brien & "Co"')
        _, _, body = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}")
        assert '"Co"' not in body and "O&#x27;Brien &amp; &quot;Co&quot;" in body
    finally:
        thread.stop()


def test_a_game_that_is_over_never_lists_seats_as_waiting():
    class Over(Room):
        state = "match_over"  # type: ignore[assignment]

    room = _room(["Ana", None])
    room.__class__ = Over
    room.seats[0].connected = False  # gone, as people are once it is over
    page = render(room, "h.example", 8765, False)
    assert "This game is over." in page
    assert "wait" not in page.lower() and "for you" not in page and "(away)" not in page
    assert '<span class="free">free</span>' in page


def test_the_download_link_is_the_operators_else_a_copy_from_the_friend():
    room = _room(["Ana", None])
    page = render(room, "h.example", 8765, False, "en", "https://example.org/huit/releases?x=1&y=2")
    assert ('<a class="download" href="https://example.org/huit/releases?x=1&amp;y=2">Download Huit</a>'
            in page)
    page = render(room, "h.example", 8765, False, "en", None)
    assert 'class="download"' not in page and "Ask the friend who sent you this link" in page


def test_a_server_with_a_download_url_puts_it_on_its_pages(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", download_url="https://example.org/get-huit")
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        _, _, body = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}")
        assert 'href="https://example.org/get-huit"' in body
    finally:
        thread.stop()


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_serve_help_lists_download_url():
    done = _serve("--help")
    assert done.returncode == 0 and "--download-url URL" in done.stdout


@pytest.mark.parametrize("url", ["ftp://example.org/x", "javascript:alert(1)", "https://", 'https://e.org/"x',
                                 "https://e.org/a b", "https://e.org/" + "x" * 600])
def test_a_bad_download_url_is_refused_in_one_line(tmp_path, url):
    done = _serve("--db", str(tmp_path / "rooms.sqlite3"), "--download-url", url)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "argument --download-url" in lines[0], done.stderr
    assert not (tmp_path / "rooms.sqlite3").exists()


def test_a_ranked_room_shows_the_swords_and_a_friendly_one_says_so():
    private = render(_room(["Ana", None]), "h.example", 8765, False)
    assert "Friendly: not ranked" in private and "<svg" not in private
    public = render(_room(["Ana", None], kind="public"), "h.example", 8765, False, "fr")
    assert '<svg class="swords"' in public and "Classée" in public
    assert public.count("<polygon") == len(SHAPE)  # the shape the game draws, polygon for polygon


def test_the_page_loads_nothing_and_allows_only_its_own_style():
    page = render(_room(["Ana", None], kind="public"), "h.example", 8765, False)
    assert f"<style>{STYLE}</style>" in page and "unsafe-inline" not in CSP and "default-src 'none'" in CSP
    assert "http://www.w3.org/2000/svg" in svg(10, "x")  # a namespace, never fetched
    assert "src=" not in page and "<link" not in page and "url(" not in page and "@import" not in page


def test_a_finished_game_offers_no_button_to_it_and_online_undo_is_no_house_rule():
    class Over(Room):
        state = "match_over"  # type: ignore[assignment]

    room = _room(["Ana", "Ben"])
    room.rules = room.rules.with_options(undo=False, jacks_skip=True)  # online rooms play without undo
    waiting = render(room, "h.example", 8765, False, lang="fr")
    assert "Valets" in waiting or "valets" in waiting  # a real house rule is told
    assert "Annuler" not in waiting and "Ouvrir dans Huit" in waiting
    assert "Les valets font passer : oui" in waiting  # French spacing, the catalogue's own pair
    room.__class__ = Over
    over = render(room, "h.example", 8765, False, lang="fr")
    assert "Cette partie est terminée" in over
    assert 'class="open"' not in over and "K7M-4AX-P9T-E3F-HWR" not in over


def test_play_in_the_browser_is_the_main_button_and_open_in_huit_the_second():
    room = _room(["Ana", None])
    with_browser = render(room, "h.example", 8765, False, browser=f"/play/{room.room_id}")
    browser_at = with_browser.index('<a class="browser"')
    open_at = with_browser.index('<a class="open second"')
    assert browser_at < open_at  # the friend with nothing installed sees the browser first
    filled = re.search(r"a\.browser\{[^}]*\}", STYLE)
    outlined = re.search(r"a\.open\.second\{[^}]*\}", STYLE)
    assert filled and "background:#0b5d2a" in filled.group(0) and "color:#fff" in filled.group(0)
    assert outlined and "background:#fff" in outlined.group(0) and "border:2px" in outlined.group(0)
    alone = render(room, "h.example", 8765, False)  # no browser client: the game's link is the main one
    assert '<a class="open" href=' in alone and 'class="browser"' not in alone
