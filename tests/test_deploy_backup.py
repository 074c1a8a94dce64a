"""Backups of a cluster's database (docs/deploy.md, "Backups"), on a real PostgreSQL: a database a
server wrote profiles, a room mid-game and a ranked game's points and tokens into, dumped by
``pg_dump`` while the server runs and restored by ``pg_restore`` into a fresh database, is the
same table by table, and a server started on the copy gives a returning player their seat as
they left it, with the leaderboard, history and tokens as they were. The server writing the
database connects with the options of the recipe's ``HUIT_DB`` (``deploy/cluster/huit-server.env``:
TCP keepalives, a user timeout, ``sslmode``, which a Unix socket ignores).

``pg_dump`` and ``pg_restore`` are the ``pgserver`` wheel's (the test extra), else the system's
(with ``HUIT_TEST_PG``); without them the test skips with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from game.net.profiles import player_id
from game.net.roomstore import Encounter, RankedLine, TokenLine
from game.net.stores import open_store
from tests.net_support import Peer, start_server
from tests.pg_support import rows

psycopg = pytest.importorskip("psycopg", reason="no PostgreSQL driver: pip install -e '.[test]'")

HUMAN = {"kind": "human"}
ENV_FILE = Path(__file__).resolve().parent.parent / "deploy" / "cluster" / "huit-server.env"


def pg_program(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: the pgserver wheel's, else one on the PATH; skip without."""
    try:
        import pgserver  # type: ignore[import-untyped]
    except ImportError:
        found = None
    else:
        wheel = Path(pgserver.__file__).parent / "pginstall" / "bin" / name
        found = str(wheel) if wheel.exists() else None
    found = found or shutil.which(name)
    if found is None:
        pytest.skip(f"no {name} (the pgserver wheel of the test extra has one)")
    return found


def with_recipe_options(url: str) -> str:
    """``url`` with the connection options the recipe's ``HUIT_DB`` gives (its query)."""
    lines = ENV_FILE.read_text(encoding="utf-8").splitlines()
    (line,) = [line for line in lines if line.startswith("HUIT_DB=")]
    options = urlsplit(line.removeprefix("HUIT_DB=")).query
    assert "keepalives_idle" in options and "tcp_user_timeout" in options
    parts = urlsplit(url)
    return urlunsplit(parts._replace(query="&".join(q for q in (parts.query, options) if q)))


LIVE: frozenset[str] = frozenset({"presence"})
"""Tables of who is connected where now, not data: a dump has the seats connected when it was
taken, which the instance that had them removes when it stops (and any instance sweeps once it
is dead)."""


def tables(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every table of the database but the `LIVE` ones, with its rows in a stable order."""
    names = [name for (name,) in rows(url, "SELECT table_name FROM information_schema.tables "
                                           "WHERE table_schema = current_schema() ORDER BY table_name")
             if name not in LIVE]
    return {name: sorted(rows(url, f'SELECT * FROM "{name}"'), key=repr) for name in names}


def rank_a_game(url: str, ana: str, ben: str) -> None:
    """A ranked duel Ana won against Ben, as the server's store writes it: both lines, their
    tokens and their encounters, in one commit."""
    store = open_store(url)
    try:
        lines = [RankedLine("ranked-room", 3, ana, "duel", 2, 20, "win", 1000.0, ("Ben #BBBBBB",)),
                 RankedLine("ranked-room", 3, ben, "duel", 2, 10, "loss", 1000.0, ("Ana #AAAAAA",))]
        tokens = [TokenLine("ranked-room", 3, ana, 10, 7, 1000.0, True, (ben,)),
                  TokenLine("ranked-room", 3, ben, -10, 7, 1000.0, True, (ana,))]
        met = [Encounter("ranked-room", 3, "duel", ana, ben, "198.51.100.1", "198.51.100.2", 1000.0),
               Encounter("ranked-room", 3, "duel", ben, ana, "198.51.100.2", "198.51.100.1", 1000.0)]
        assert store.rank(lines, tokens, met) == lines
    finally:
        store.close()


def standing(url: str, ana: str, ben: str) -> tuple[object, ...]:
    """What the ranking says of Ana and Ben, read through the store."""
    store = open_store(url)
    try:
        return (store.leaderboard("duel", 10, ana), store.history(ben, None, 10), store.wallet(ana),
                store.wallet(ben), store.points(ana), store.profile(ana))
    finally:
        store.close()


def test_a_dump_restored_into_a_fresh_database_serves_the_rooms_and_ranking_as_they_were(pg_server, tmp_path):
    pg_dump, pg_restore = pg_program("pg_dump"), pg_program("pg_restore")
    source = pg_server.database()
    server = start_server(with_recipe_options(source))
    try:
        ana, ben = Peer(server.port), Peer(server.port, 1)
        assert ana.hello("Ana")["type"] == "profile" and ben.hello("Ben")["type"] == "profile"
        assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        assert ben.join(ana.room_id)["type"] == "joined"
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update")
            peer.drain(0.1)
        actor = ana if ana.my_turn else ben
        assert actor.play_one()["type"] == "update"
        if actor is ben:
            ana.until(lambda m: m["type"] == "update")
        seen, room_id, key = ana.view, ana.room_id, ana.key
        ids = player_id(ana.player_key), player_id(ben.player_key)
        rank_a_game(source, *ids)
        # The dump is taken while the server runs, its players connected.
        dump = tmp_path / "huit.dump"
        done = subprocess.run([pg_dump, "--format=custom", f"--file={dump}", source],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        ana.close(), ben.close()
    finally:
        server.stop()

    copy = pg_server.database()
    done = subprocess.run([pg_restore, "--no-owner", "--exit-on-error", "--single-transaction", "-d", copy,
                           str(dump)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    written = tables(source)
    assert all(written[name] for name in ("rooms", "log", "profiles", "ratings", "ranked", "wallets",
                                          "encounters", "huit_schema")), written
    assert tables(copy) == written
    assert standing(copy, *ids) == standing(source, *ids)

    server = start_server(copy)
    try:
        again = Peer(server.port)
        assert again.join(room_id, seat=0, key=key)["type"] == "joined"
        again.until(lambda m: m["type"] == "update")
        shown = ("hand", "to_act", "legal")
        assert [again.view[k] for k in shown] == [seen[k] for k in shown]
        again.close()
    finally:
        server.stop()
