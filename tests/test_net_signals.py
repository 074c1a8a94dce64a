"""The signals between instances are signed (`game.net.pg_signals`): a role that may only connect to
the database cannot close a player's connection or send a table a reaction by a forged signal;
during a rolling upgrade, while an instance of a release that did not sign lives, its unsigned
signals are still heard; a release before reads a signed signal's fields as it meant them."""

from __future__ import annotations

import json

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.net.pg_news import MARK
from game.net.pg_signals import SEPARATOR, SIGNED_NAME_END, read_signal, signal_payload
from game.net.pgcluster import CHANNEL, instance_name
from game.net.requests import REACTIONS
from tests.net_support import Peer, start_server
from tests.test_net_instances import HUMAN

KEY = bytes(range(32))
TEXTS = {  # what each kind of signal says, as the servers write them
    "taken": "ROOM-1 1 host-12-ab12cd~s~e 1765000000.25",
    "reaction": f"ROOM-1 0 {REACTIONS[0]}",
    "seat": "playerhash ROOM-2 3 seatkey host-12-ab12cd~s~e ticket7",
    "queue": "queuehash host-12-ab12cd~s~e",
}


def heard(payload: str) -> tuple[str, str]:
    """A payload as an instance hears it: the kind, and the rest (`pgcluster.PgCluster._hear`)."""
    head, _, what = payload.partition(" ")
    assert head.startswith("!")
    return head[1:], what


@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_a_signal_signed_with_the_databases_key_reads_as_its_text(kind):
    assert read_signal(*heard(signal_payload(kind, TEXTS[kind], KEY)), KEY) == (TEXTS[kind], True)


@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_a_signal_unsigned_or_signed_with_another_key_or_for_another_kind_is_not_signed(kind):
    text = TEXTS[kind]
    signed = heard(signal_payload(kind, text, KEY))[1]
    assert read_signal(kind, text, KEY) == (text, False)
    other = heard(signal_payload(kind, text, bytes(32)))[1]
    assert read_signal(kind, other, KEY) == (other, False)
    moved = heard(signal_payload("reaction" if kind != "reaction" else "taken", text, KEY))[1]
    assert read_signal(kind, moved, KEY) == (moved, False)  # a mark is good for its own kind only
    changed = text + "x" + signed[len(text):]
    assert read_signal(kind, changed, KEY) == (changed, False)  # ... and its own text only
    assert read_signal(kind, signed, None) == (signed, False)  # no key (a schema before): none is signed


@given(text=st.text(max_size=80), mark=st.text(max_size=40))
def test_any_mark_reads_as_not_signed_without_raising(text, mark):
    what = f"{text}{SEPARATOR}{mark}"
    assert read_signal("taken", what, KEY) == (what, False)


@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_a_release_before_reads_a_signed_signals_fields_as_it_meant_them(kind):
    """Releases before split a signal's text on spaces and read its fields from the front: the mark
    comes after every field they read."""
    text = TEXTS[kind]
    _, what = heard(signal_payload(kind, text, KEY))
    assert what.split()[:len(text.split())] == text.split()


def test_an_instance_says_in_its_name_that_it_signs_and_still_ends_with_the_news_mark():
    name = instance_name()
    assert name.endswith(SIGNED_NAME_END) and name.endswith(MARK)


# ---- on PostgreSQL, for real ---------------------------------------------------------------------
def duel_across(servers) -> tuple[Peer, Peer]:
    ana, ben = Peer(servers[0].port, 1), Peer(servers[1].port, 2)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    ana.until(lambda m: m["type"] == "update")
    ben.until(lambda m: m["type"] == "update")
    return ana, ben


def said_since(peer: Peer, start: int, wait: float = 1.5) -> list[dict]:
    """What ``peer`` was told from its ``start``-th frame on, once ``wait`` seconds pass with nothing."""
    peer.drain(wait)
    return [json.loads(frame) for frame in peer.frames[start:]]


def notify(url: str, payloads: list[str]) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        for payload in payloads:
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def test_a_role_that_may_only_connect_cannot_close_a_players_connection_or_send_a_reaction(pg_url, snoop_url):
    servers = [start_server(pg_url), start_server(pg_url)]
    try:
        ana, ben = duel_across(servers)
        room, seat = ana.room_id, ana.seat
        forged = []
        for key in (None, bytes(32)):  # unsigned, and signed with a key that is not the database's
            forged += [signal_payload("taken", f"{room} {seat} someone-else~s~e 1e300", key),
                       signal_payload("reaction", f"{room} {ben.seat} {REACTIONS[1]}", key)]
        ana.drain(0.2)
        start = len(ana.frames)
        notify(snoop_url, forged)
        said = said_since(ana, start)
        assert [m for m in said if m["type"] in ("error", "reaction")] == [], said
        assert seat in servers[0].server.service.seated.get(room, {})  # still seated here
        ben.send(type="react", reaction=REACTIONS[0])  # a reaction sent for real, signed, still comes
        got = ana.until(lambda m: m["type"] in ("reaction", "error"), 20)
        assert got.get("reaction") == REACTIONS[0] and got["seat"] == ben.seat, got
        ana.close(), ben.close()
    finally:
        for server in servers:
            server.stop()


def test_during_a_roll_an_unsigned_signal_is_heard_while_an_instance_that_does_not_sign_lives(pg_url):
    servers = [start_server(pg_url), start_server(pg_url)]
    # An instance of a release before: it reads carried news (~e) but does not sign (no ~s).
    old = psycopg.connect(pg_url, autocommit=True, application_name="huit:host-12-abcdef~e")
    try:
        ana, ben = duel_across(servers)
        notify(pg_url, [f"!reaction {ana.room_id} {ben.seat} {REACTIONS[2]}"])  # as that release sends it
        got = ana.until(lambda m: m["type"] in ("reaction", "error"), 20)
        assert got.get("reaction") == REACTIONS[2] and got["seat"] == ben.seat, got
        old.close()  # the roll is over: an unsigned signal is dropped (who signs is asked again a beat later)
        ana.drain(1.2)
        start = len(ana.frames)
        notify(pg_url, [f"!reaction {ana.room_id} {ben.seat} {REACTIONS[3]}"])
        assert [m for m in said_since(ana, start) if m["type"] == "reaction"] == []
        ana.close(), ben.close()
    finally:
        old.close()
        for server in servers:
            server.stop()
