"""The Wiz-War ruleset: the game-agnostic contract of ``core.engine`` for Wiz-War.

``new_game(config, seed)``, ``to_move``, ``legal_actions``, ``apply``, ``view``, ``result``,
``state_hash``; actions via ``parse``/``Action``. The names load on first use (PEP 562), so
importing one submodule (the card data, say) does not load the whole rules engine.
"""

from __future__ import annotations

import importlib
from typing import Any

# ``view`` is both a submodule and a function: bind the function now, so that a later
# ``import core.wizwar.view`` cannot leave the module where the function should be.
from core.wizwar.view import View, view

_WHERE = {
    "Action": "actions", "NotationError": "actions", "parse": "actions",
    "RULES_VERSION": "game", "RULESET": "game", "GameConfig": "game", "new_game": "game",
    "apply": "rules", "is_legal": "rules", "legal_actions": "rules", "result": "rules",
    "to_move": "rules", "why_illegal": "rules",
    "State": "state", "state_hash": "state",
}

__all__ = [
    "Action", "GameConfig", "NotationError", "RULES_VERSION", "RULESET", "State", "View",
    "apply", "is_legal", "legal_actions", "new_game", "parse", "result", "state_hash",
    "to_move", "view", "why_illegal",
]


def __getattr__(attr: str) -> Any:
    """``core.wizwar.<name>``: the ruleset's public names (and ``name``/``version``), loaded
    from their module on first use. Raises ``AttributeError`` for anything else."""
    if attr in ("name", "version"):
        game = importlib.import_module("core.wizwar.game")
        return game.RULESET if attr == "name" else game.RULES_VERSION
    if attr in _WHERE:
        value = getattr(importlib.import_module(f"core.wizwar.{_WHERE[attr]}"), attr)
        globals()[attr] = value
        return value
    raise AttributeError(f"module 'core.wizwar' has no attribute {attr!r}")
