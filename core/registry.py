"""The one place that names the engine's rulesets (design.md, core/).

A ruleset is found by name, from a log header, a handshake, a discovery TXT record, the command
line (``wizwar play [GAME]``) or a scenario file's ``ruleset`` key. Each entry names the module
and attribute that hold the ruleset object; the module is imported on first use, so asking for
one game never loads another.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the menu lists the names only: the engine loads with a game (start-up)
    from core.engine import Ruleset

#: name -> "module:attribute" of the ruleset object. The first is the default game.
RULESETS: dict[str, str] = {
    "wizwar": "core.wizwar.ruleset:RULESET",
    "arcomage": "core.arcomage.ruleset:RULESET",
    "wizard-kings": "core.wizardkings.ruleset:RULESET",
}

#: Rulesets still being built: found by name (scenario files, logs, the conformance suite, tests)
#: but not listed by :func:`names`, so the menu, ``wizwar play``'s help and discovery do not
#: offer them until they are complete.
BUILDING: dict[str, str] = {}

#: Other spellings people type for a ruleset name.
ALIASES: dict[str, str] = {"wiz-war": "wizwar"}

DEFAULT = "wizwar"

_loaded: dict[str, Ruleset] = {}


def names() -> list[str]:
    """The registered ruleset names, the default first."""
    return list(RULESETS)


def canonical(name: str) -> str:
    """The registry name for ``name`` (case and the aliases folded). Raises
    :class:`UnknownRuleset` listing the known names."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in RULESETS and key not in BUILDING:
        from core.engine import UnknownRuleset

        shown = "".join(ch for ch in str(name) if ch.isprintable())[:40]
        raise UnknownRuleset(f"unknown game {shown!r}: this wizwar plays "
                             f"{', '.join(RULESETS)}")
    return key


def get(name: str = DEFAULT) -> Ruleset:
    """The ruleset called ``name``. Raises :class:`UnknownRuleset`."""
    key = canonical(name)
    if key not in _loaded:
        module, _, attr = (RULESETS.get(key) or BUILDING[key]).partition(":")
        _loaded[key] = getattr(importlib.import_module(module), attr)
    return _loaded[key]


def all_rulesets(*, building: bool = False) -> list[Ruleset]:
    """Every registered ruleset (loads them all); with ``building``, also those still being
    built (:data:`BUILDING`: the conformance suite runs them too)."""
    return [get(n) for n in [*RULESETS, *(BUILDING if building else ())]]
