"""Shared test isolation: every test gets its own empty data folder (so no test reads or writes the
player's saves) and starts in English, whatever language the test before it switched to; the
``app`` that UI tests drive, and the ``clock`` server tests move by hand."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def _bytecode_outside_the_checkout() -> None:
    """With PYTHONDONTWRITEBYTECODE set, every pytest worker compiled (and assertion-rewrote) every
    test module anew at each run, and every Python the suite starts (the game, the server, the
    tools: hundreds of them) compiled the game's modules anew: some 10 s per worker and 0.2 s per
    child. The compiled files go to a cache folder of their own instead (PYTHONPYCACHEPREFIX,
    outside the checkout, as the setting intends), for this process and every child it starts.
    Before anything else is imported, so that the test modules are cached too."""
    if not sys.dont_write_bytecode or sys.pycache_prefix is not None:
        return
    user = os.getuid() if hasattr(os, "getuid") else os.getlogin()
    prefix = str(Path(tempfile.gettempdir()) / f"huit-test-pycache-{user}")
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


_bytecode_outside_the_checkout()

import pytest  # noqa: E402

from game.client import i18n  # noqa: E402
from game.net.clock import ManualClock  # noqa: E402
from game.saves import ENV_VAR  # noqa: E402
from tests.client_support import make_app  # noqa: E402


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path_factory.mktemp("huit-data")))


@pytest.fixture(autouse=True)
def _english_again():
    """The language is one global of the client; a test that changes it must not change the next."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def app():
    """A real App on the dummy drivers (see `make_app`); its pending writes are finished after."""
    import pygame

    application = make_app()
    yield application
    application.store.flush()
    pygame.display.quit()


@pytest.fixture
def clock():
    """The server's clock, moved by the test instead of sleeping (`ManualClock`)."""
    return ManualClock()


@pytest.fixture(scope="session")
def chromium_browser():
    """One headless chromium for this pytest process, started by the first browser test that asks
    (`tests.browser_support.browser`), closed at the end."""
    from tests.browser_support import chromium

    with chromium() as launched:
        yield launched


# ---- the databases of the shared store suite (tests/pg_support.py) ---------------------------------
@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL for this pytest worker (`tools.scratch_pg`): started on first use, stopped at
    the end; the test skips when none can be had."""
    try:
        import psycopg  # noqa: F401

        from tools import scratch_pg
    except ImportError as exc:
        pytest.skip(f"no PostgreSQL driver ({exc.name}): pip install -e '.[test]'")
    try:
        scratch = scratch_pg.start()
    except scratch_pg.Unavailable as exc:
        pytest.skip(str(exc))
    yield scratch
    scratch.stop()


@pytest.fixture
def pg_url(pg_server):
    """A fresh, empty PostgreSQL database for this test (dropped after it): its URL."""
    url = pg_server.database()
    yield url
    pg_server.drop(url)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    """A new rooms' database, each kind in turn: an SQLite file's path, a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "rooms.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db):
    """The `RoomStore` on ``db`` (`pg_support.open_for_tests`), closed after the test."""
    from tests.pg_support import open_for_tests

    opened = open_for_tests(db)
    yield opened
    opened.close()


@pytest.fixture
def snoop_url(pg_url):
    """The URL of a role of the test database that may connect and nothing more (any role may
    ``NOTIFY``: what a stranger to Huit's roles can send), dropped after (`pg_support`)."""
    from tests.pg_support import connect_only_role

    with connect_only_role(pg_url) as url:
        yield url
