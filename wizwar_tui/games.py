"""The one place of the app shell that names each game's UI part (docs/architecture.md).

A ruleset name (``core.registry``) maps to ``"module:attribute"`` of its
:class:`~wizwar_tui.gameui.GameUI`; the module is imported on first use, so the menu loads only
the light UI-part objects and a game's screens load when it is played. Every other module of
the shell reaches a game through these objects, ``core.registry`` and the
``core.session.Session`` protocol.
"""

from __future__ import annotations

import importlib

from wizwar_tui.gameui import GameUI

#: ruleset name -> "module:attribute" of its UI part, in the menu's order (the default first)
UI_PARTS: dict[str, str] = {
    "wizwar": "wizwar_tui.wizwar:UI",
    "wizard-kings": "wizwar_tui.wizardkings:UI",
}

DEFAULT = "wizwar"

_loaded: dict[str, GameUI] = {}


def names() -> list[str]:
    """The games the app can show, the default first: those with a UI part, then every other
    registered ruleset (played on the shell's plain screens, :mod:`wizwar_tui.plain`). A UI
    part of a ruleset still being built (``registry.BUILDING``) is not listed (:func:`ui`
    finds it by name: ``wizwar play GAME``)."""
    from core import registry

    listed = registry.names()
    return [*(n for n in UI_PARTS if n in listed), *(n for n in listed if n not in UI_PARTS)]


def ui(name: str = "") -> GameUI:
    """The UI part of game ``name`` ("" for the default; a registered ruleset without one gets
    the shell's plain screens). Raises ``LookupError`` (the registry's ``UnknownRuleset``,
    in words) for a game the registry does not know."""
    key = (name or DEFAULT).strip().lower()
    if key not in UI_PARTS:
        from core import registry

        key = registry.canonical(key)  # the aliases ("wiz-war"), or the unknown-game error
        if key not in UI_PARTS:
            if key not in _loaded or _loaded[key].title != registry.get(key).title:
                from wizwar_tui.plain import plain_ui

                _loaded[key] = plain_ui(key, registry.get(key).title)
            return _loaded[key]
    if key not in _loaded:
        module, _, attr = UI_PARTS[key].partition(":")
        _loaded[key] = getattr(importlib.import_module(module), attr)
    return _loaded[key]


def all_uis() -> list[GameUI]:
    """Every game's UI part, in the menu's order."""
    return [ui(n) for n in names()]
