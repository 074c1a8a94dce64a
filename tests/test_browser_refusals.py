"""Every refusal the server can send a browser at the table, shown in chromium in the game's own
sentence, in each of its four languages (issue 35's "every refusal shown"; before, four refusals
were replayed in a browser).

One page is seated by a scripted server (`tests.browser_support.ScriptedServer`), then every case is
sent to it as an ``error`` frame, one after the other:

- an illegal action (``illegal``) for every reason the engine gives (`game.engine.explain.REASONS`,
  with the colour deck's own words where the game has them): the sentence is what the pygame game
  shows for it (`game.client.i18n.reason`, the names as the page shows them);
- every other code a seated page can be sent (answering its moves, votes, reactions, autopilot, next
  deal; the server's own doing; taking the seat back after a drop): the catalogue's sentence the
  pygame game's online client shows (``online.error.<code>`` with the server's words as its detail).

A code that leaves the table (the seat lost, or a fatal one) is read where the page shows it, then
the script seats the page again (``joined``). Which codes cannot reach a seated page is said in
`NOT_AT_TABLE`, and a test holds that every code the server's source sends is in one list or the
other, so a new code needs a decision here.
"""

from __future__ import annotations

import re
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from game.client.i18n import reason, set_language, tr
from game.engine.errors import IllegalAction
from game.engine.explain import REASONS, english
from tests.browser_support import browser, needs_browser, site
from tests.test_browser_frames import ROOM, VIEW, status
from tests.test_browser_screens import seated, update

__all__ = ["browser", "site"]  # the fixtures, shared from tests.browser_support

browser_only = needs_browser

NAMES = ["Ben #3F2K9Q", "Ana #7H4K9W"]
"""The seats' names as the page shows them (`status`'s seats: a name and its tag)."""

ILLEGAL: list[tuple[str, dict[str, Any], bool]] = [
    ("round_over", {}, False),
    ("finish_round", {}, False),
    ("match_won", {}, False),
    ("no_seat", {"seat": 5}, False),
    ("denounce_self", {}, False),
    ("denounce_nobody", {"seat": 1}, False),
    ("not_your_turn", {"to_act": 1}, False),
    ("no_timer", {}, False),
    ("choose_suit_first", {}, False),
    ("choose_suit_first", {}, True),
    ("answer_wild_four", {}, True),
    ("not_held", {"card": "TH"}, False),
    ("not_held", {"card": "Rskip"}, True),
    ("must_stack_or_draw", {"n": 4}, False),
    ("only_drawn_card", {}, False),
    ("again_same_suit", {"suit": "S"}, False),
    ("run_next_only", {}, False),
    ("ten_not_last", {}, False),
    ("must_follow", {"suit": "H", "card": "9H", "wild": "eight"}, False),
    ("must_follow", {"suit": "S", "card": "8S", "wild": "eight"}, False),  # over a wild: the suit alone
    ("must_follow", {"suit": None, "card": "QC", "wild": "eight_or_joker"}, False),
    ("must_follow", {"suit": "R", "card": "R5", "wild": "wild"}, True),
    ("must_follow", {"suit": None, "card": "W", "wild": "wild"}, True),
    ("suit_after_wild", {}, False),
    ("suit_after_wild", {}, True),
    ("nothing_to_draw", {}, False),
    ("drew_already", {}, False),
    ("mid_turn", {}, False),
    ("draw_while_playable", {}, False),
    ("cannot_pass", {}, False),
    ("cannot_pass_play", {}, False),
    ("cannot_pass_draw", {}, False),
    ("nothing_to_end", {}, False),
    ("card_call_when", {}, False),
    ("no_wild_four", {}, True),
    ("not_allowed", {"action": "timeout draw"}, False),
]
"""Each engine reason with values as the engine gives them, and whether the colour deck is in play."""

AT_TABLE: list[tuple[str, str | None]] = [
    # answering what the table sends: a move, the autopilot, the next deal, a vote, a reaction...
    ("not_started", None), ("not_joined", None), ("no_vote", None), ("already_voted", None),
    ("too_many_votes", None), ("too_many_reactions", None), ("not_playing", None),
    ("too_many_computers", None), ("too_many_requests", None), ("too_many_changes", None),
    ("bad_message", None), ("bad_json", None), ("too_large", None), ("unknown_type", None),
    ("rate_limited", None), ("server_error", None),
    # the server's own doing
    ("replaced", None), ("flooding", None),
    ("seat_freed", "away"), ("seat_freed", "owner"), ("seat_freed", None),
    # taking the seat back after a dropped connection
    ("bad_key", None), ("unknown_room", None), ("abandoned", None), ("version", None),
    ("too_many_connections", None),
]
"""Every other code a seated page can be sent (with a ``reason`` where the code has one)."""

NOT_AT_TABLE = {
    "bad_rules": "create, queue, leaderboard and history only",
    "no_profile": "a public seat, a queue or a history before hello: the page is seated",
    "no_tokens": "a public seat, a public room or a queue: the stake is asked before sitting",
    "one_seat": "claiming, creating or queueing: the page already sits",
    "too_many_seats": "the same",
    "too_many_rooms": "create only (the browser never creates a room)",
    "server_full": "create only",
    "too_many_profiles": "a hello with an unknown player key: a seated page's key is known",
    "seat_taken": "claiming a seat (tests/test_browser_play.py replays a full room)",
    "no_free_seat": "the same",
    "already_joined": "a second join on one connection: the page joins once per connection",
    "bad_name": "a name given to take a seat (tests/test_browser_play.py replays a refused name)",
    "not_owner": "free_seat only: a browser never owns a public room",
    "game_started": "the same",
}
"""The codes a seated page is never sent, and why."""

MESSAGE = "the server's own words"


def server_codes() -> set[str]:
    """Every error code the server's source sends (`Refusal`, `RoomError`, `Error(code=...)`)."""
    found: set[str] = set()
    pattern = re.compile(r'(?:Refusal|RoomError)\(\s*"([a-z_]+)"|Error\(code="([a-z_]+)"')
    for path in Path("game/net").rglob("*.py"):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found


def game_sentence(frame: dict[str, Any], colours: bool) -> str:
    """What the pygame game's online client shows for ``frame`` (game/client/remote.py's reading
    of an error: an illegal move by its reason, a freed seat by who freed it, any other code by its
    catalogue sentence around the server's words, an unknown one in the server's words)."""
    code, detail = frame["code"], frame["message"]
    if code == "illegal":
        refused = IllegalAction(detail, key=frame["reason"], values=frame["values"])
        return reason(refused, NAMES, colours=colours)
    if code == "seat_freed" and frame.get("reason") in ("owner", "away"):
        return tr(f"online.error.seat_freed.{frame['reason']}")
    text = tr(f"online.error.{code}", detail=detail)
    return detail if text == f"online.error.{code}" else text


def cases() -> list[tuple[dict[str, Any], bool]]:
    """Every frame the walk sends, with whether the colour deck is in play."""
    out: list[tuple[dict[str, Any], bool]] = []
    for key, values, colours in ILLEGAL:
        out.append(({"type": "error", "code": "illegal", "message": english(key, values), "reason": key,
                     "values": values, "v": 2}, colours))
    for code, why in AT_TABLE:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": f"{MESSAGE} ({code})", "v": 2}
        if why is not None:
            frame["reason"] = why
        out.append((frame, False))
    return out


def test_every_server_code_is_replayed_at_the_table_or_said_why_not():
    replayed = {code for code, _ in AT_TABLE} | {"illegal"}
    assert replayed.isdisjoint(NOT_AT_TABLE)
    assert server_codes() - replayed - set(NOT_AT_TABLE) == set()


def test_every_engine_reason_is_replayed():
    assert {key for key, _, _ in ILLEGAL} == set(REASONS)


def test_the_sentences_walked_are_the_games_own_and_differ_from_the_servers():
    # The walk checks the page against the game's sentence: each must really be the game's words.
    for frame, colours in cases():
        said = game_sentence(frame, colours)
        assert said and said != frame["message"] or frame["code"] == "illegal", frame
        assert "{" not in said, (frame, said)


SHOWN = ("() => (document.querySelector(\"[data-testid='notice'], [data-testid='error-text']\") || {})"
         ".textContent")
"""The sentence the page shows for an error: at the table (or the seat page) or on the error page."""


def said(page: Any, expected: str) -> tuple[str, str]:
    """The sentence the page shows once it shows ``expected`` (what it shows instead, after a wait),
    and the client's state then; the sentence taken off the page (`REMOVE`), read in the same call."""
    from playwright.sync_api import TimeoutError as Timeout

    with suppress(Timeout):  # a wrong sentence: the one shown is returned, and the walk goes on
        page.wait_for_function(f"expected => ({SHOWN})() === expected", arg=expected, timeout=WRONG_MS)
    text, now = page.evaluate(f"() => {{ const text = ({SHOWN})(); ({REMOVE})();"
                              " return [text, document.getElementById('huit').dataset.state || '']; }")
    return str(text), str(now)


REMOVE = ("() => document.querySelectorAll(\"[data-testid='notice'], [data-testid='error-text']\")"
          ".forEach(e => e.remove())")
"""Take the sentence shown off the page, so that the next case waits for its own (the page shows the
refusal it keeps again only when it draws itself anew: a new table, below)."""


WRONG_MS = 3_000
"""How long a sentence is awaited before what the page shows instead is taken (a wrong one)."""

COLOURS_VIEW = {**VIEW, "hand": ["R5", "B7", "Gskip"], "discard": ["R3"], "legal": ["play R5", "draw"],
                "rules": {"preset": "colors", "options": {}}}


@browser_only
@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_every_refusal_at_the_table_is_shown_in_the_games_own_sentence(browser, site, lang):
    set_language(lang)  # the game's sentences in the page's language (conftest sets English back)
    classic, colours = update(VIEW), update(COLOURS_VIEW)
    context, page, script = seated(browser, site, [status(ROOM), classic])
    if lang != "en":  # the page's language, chosen as a player does: in the settings
        page.click("[data-testid='settings']")
        page.select_option("[data-testid='language']", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.click("[data-testid='close-panel']")
    seat_again = [{"type": "joined", "room": ROOM, "seat": 0, "players": 2, "v": 2}, status(ROOM)]
    shown: list[tuple[str, str]] = []
    try:
        deck = False
        for frame, in_colours in cases():
            if in_colours != deck:  # the colour deck's words come with a colors table
                deck = in_colours
                script.send(colours if deck else classic)
                page.wait_for_selector("[data-testid='card-R5']" if deck else "[data-testid='card-7H']")
                page.evaluate(REMOVE)
            script.send(frame)
            expected = game_sentence(frame, in_colours)
            text, now = said(page, expected)
            shown.append((text, expected))
            if now != "playing":  # the seat lost, or a fatal code: the script seats the page again
                for each in [*seat_again, colours if deck else classic]:
                    script.send(each)
                page.wait_for_selector("#huit[data-state='playing']")
                page.evaluate(REMOVE)
        wrong = [(said, expected) for said, expected in shown if said != expected]
        assert not wrong, wrong
        assert len(shown) == len(ILLEGAL) + len(AT_TABLE)
    finally:
        context.close()
