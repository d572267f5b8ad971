"""The Wiz-War rules: ``apply``, ``legal_actions``, ``to_move``, ``result``.

``apply(state, action)`` checks the action fully before it changes anything, so an illegal
action raises :class:`~core.engine.IllegalAction` with a reason and leaves the state as it
was. Every handler takes ``dry``: with ``dry=True`` it only checks (``legal_actions`` uses
this, so the list and ``apply`` can never disagree).

Where a rule lives:

- ``turn``: the turn and dispatch (``to_move``, ``apply``, playing a card in one's own turn,
  draws, the hand limit, passing the turn, durations counted)
- ``candidates``: the candidate actions behind ``legal_actions`` and ``sample_legal_action``
  (``rows``: the row form and the context a card's candidate hook gets; ``reach``: the far
  targets)
- ``movement``: walking, boosts, pushes, forced retreats
- ``sight``: line of sight
- ``stack`` and ``resolution``: opening answer windows; passing and resolving them
- ``conditions``: asking a wizard's conditions what they forbid; Slow Death's tick
- ``objects``: objects, stones, treasures
- ``damage``: taking damage, lost turns
- ``victory``: death, elimination, the win, ``result``
- ``hooks``: each card's record (``CardRules``, ``EdgeRules``) and the registry the
  shared machinery asks instead of naming cards
- ``cards/``: the cards by family, each card's record next to its behaviour (attacks,
  hit effects, neutrals, creations, counteractions, stones, Trap!)
- ``_common``: helpers shared by all of them

Sources are cited per rule: "RB" is the rulebook text in seeds/001 (§2, 5th-edition text
revised by 6e), "FAQ" Tom Jolly's FAQ summary (seeds/001 §4), "DG" the implementer's digest
(seeds/000), "cards.md" the card reference in shared/.
"""

from __future__ import annotations

from core.wizwar.rules import cards
from core.wizwar.rules._common import SOURCE_CARD, Out, allowance, hand_limit, thing_name
from core.wizwar.rules.candidates import _candidates, legal_actions, sample_legal_action
from core.wizwar.rules.cards.counteractions import ANSWER_STONES
from core.wizwar.rules.cards.neutrals import MODIFIERS
from core.wizwar.rules.hooks import CardRules, EdgeRules, HitEffect, card_rules, edge_rules
from core.wizwar.rules.sight import _is_blocking, has_los
from core.wizwar.rules.turn import apply, is_legal, to_move, why_illegal
from core.wizwar.rules.victory import result

__all__ = [
    "ANSWER_STONES", "MODIFIERS", "SOURCE_CARD", "CardRules", "EdgeRules", "HitEffect", "Out",
    "_candidates", "_is_blocking", "allowance", "apply", "card_rules", "cards", "edge_rules",
    "hand_limit", "has_los", "is_legal", "legal_actions", "result", "sample_legal_action",
    "thing_name", "to_move", "why_illegal",
]
