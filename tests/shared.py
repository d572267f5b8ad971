"""Where the shared reference folder is: ``$WIZWAR_SHARED``, else ``../shared`` beside the repo.

A fresh clone without it still passes its own tests: the tests that read the shared scenarios
or seeds are skipped with a reason that names the folder. ``.ci/run`` (which has the folder)
sets ``WIZWAR_REQUIRE_SHARED=1``, so there a missing folder fails instead of skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_ROOT = Path(os.environ.get("WIZWAR_SHARED") or ROOT.parent / "shared")


def path(sub: str) -> Path:
    """``SHARED_ROOT / sub`` (it may not exist; see :func:`need`)."""
    return SHARED_ROOT / sub


def need(sub: str) -> Path:
    """``SHARED_ROOT / sub``, or skip the calling test when it is absent (fail instead when
    ``WIZWAR_REQUIRE_SHARED`` is set)."""
    p = path(sub)
    if not p.is_dir():
        msg = (f"the shared reference folder {p} is absent (set WIZWAR_SHARED to where "
               "shared/ is)")
        if os.environ.get("WIZWAR_REQUIRE_SHARED"):
            pytest.fail(msg)
        pytest.skip(msg)
    return p


def existing(*subs: str) -> list[str]:
    """The shared folders among ``subs`` that exist, as strings (for collecting files)."""
    return [str(path(s)) for s in subs if path(s).is_dir()]
