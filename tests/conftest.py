"""Every test gets its own empty data folder, so no test reads or writes the player's saves."""

from __future__ import annotations

import pytest

from game.saves import ENV_VAR


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path_factory.mktemp("huit-data")))
