"""The Wiz-War ruleset: the game-agnostic contract of ``core.engine`` for Wiz-War.

``new_game(config, seed)``, ``to_move``, ``legal_actions``, ``apply``, ``view``, ``result``,
``state_hash``; actions via ``parse``/``Action``.
"""

from core.wizwar.actions import Action, NotationError, parse
from core.wizwar.game import RULES_VERSION, RULESET, GameConfig, new_game
from core.wizwar.rules import apply, is_legal, legal_actions, result, to_move, why_illegal
from core.wizwar.state import State, state_hash
from core.wizwar.view import View, view

name = RULESET
version = RULES_VERSION

__all__ = [
    "Action", "GameConfig", "NotationError", "RULES_VERSION", "RULESET", "State", "View",
    "apply", "is_legal", "legal_actions", "new_game", "parse", "result", "state_hash",
    "to_move", "view", "why_illegal",
]
