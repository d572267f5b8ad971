"""A browser tab's app for tests/test_web.py: the test ruleset "Pick a number"
(``tests/pick_ruleset.py``) made known to the registry, then the real tab app
(``python -m wizwar_tui.web``'s ``main``) with the same arguments."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from core import registry  # noqa: E402
from wizwar_tui.web import main  # noqa: E402

registry.BUILDING.setdefault("pick-a-number", "pick_ruleset:RULESET")

if __name__ == "__main__":
    sys.exit(main())
