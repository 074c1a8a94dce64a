"""Shared test isolation: every test gets its own empty data folder (so no test reads or writes the
player's saves) and starts in English, whatever language the test before it switched to; the
``app`` that UI tests drive, and the ``clock`` server tests move by hand."""

from __future__ import annotations

import pytest

from game.client import i18n
from game.net.clock import ManualClock
from game.saves import ENV_VAR
from tests.client_support import make_app


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
