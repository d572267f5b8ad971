"""Test-wide setup: no test writes into the real user folders (saved games, seat tokens)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_home(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Point XDG_DATA_HOME (platformdirs' user data folder) at a fresh temp folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
