"""The Wiz-War rules: ``apply``, ``legal_actions``, ``to_move``, ``result``.

``apply(state, action)`` checks the action fully before it changes anything, so an illegal
action raises :class:`~core.engine.IllegalAction` with a reason and leaves the state as it
was. Every handler takes ``dry``: with ``dry=True`` it only checks (``legal_actions`` uses
this, so the list and ``apply`` can never disagree).

Where a rule lives:

- ``turn``: the turn and dispatch (``to_move``, ``apply``, playing a card in one's own turn,
  draws, the hand limit, passing the turn, durations counted)
- ``candidates``: the candidate actions behind ``legal_actions`` and ``sample_legal_action``
- ``movement``: walking, boosts, pushes, forced retreats
- ``sight``: line of sight
- ``stack`` and ``resolution``: opening answer windows; passing and resolving them
- ``counteractions``: answering a window with a card
- ``conditions``: what a duration effect forbids; Slow Death's tick
- ``objects``: objects, stones, treasures
- ``creations``: walls, doors, bushes, stone, Wall of Fire, Waterwall, Illusion Wall, sectors
- ``damage``: hit effects (one per attack card), lost turns, taking damage
- ``victory``: death, elimination, the win, ``result``
- ``attacks`` and ``neutrals``: the handlers of those card families
- ``_common``: helpers shared by all of them

Sources are cited per rule: "RB" is the rulebook text in seeds/001 (§2, 5th-edition text
revised by 6e), "FAQ" Tom Jolly's FAQ summary (seeds/001 §4), "DG" the implementer's digest
(seeds/000), "cards.md" the card reference in shared/.
"""

from __future__ import annotations

from core.wizwar.rules._common import SOURCE_CARD, Out, allowance, hand_limit, thing_name
from core.wizwar.rules.candidates import _candidates, legal_actions, sample_legal_action
from core.wizwar.rules.conditions import CONDITION_RULES
from core.wizwar.rules.counteractions import ANSWER_STONES
from core.wizwar.rules.damage import HIT_EFFECTS, HitEffect
from core.wizwar.rules.neutrals import MODIFIERS
from core.wizwar.rules.sight import _is_blocking, has_los
from core.wizwar.rules.stack import ESCAPES, STOPPERS, TURNERS, VOIDERS
from core.wizwar.rules.turn import apply, is_legal, to_move, why_illegal
from core.wizwar.rules.victory import result

__all__ = [
    "ANSWER_STONES", "CONDITION_RULES", "ESCAPES", "HIT_EFFECTS", "MODIFIERS", "SOURCE_CARD",
    "STOPPERS", "TURNERS", "VOIDERS", "HitEffect", "Out", "_candidates", "_is_blocking",
    "allowance", "apply", "hand_limit", "has_los", "is_legal", "legal_actions", "result",
    "sample_legal_action", "thing_name", "to_move", "why_illegal",
]
