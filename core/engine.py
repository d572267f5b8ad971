"""The game-agnostic contract every ruleset of the engine provides (design.md, core/).

A ruleset is a module or object with:
``new_game(config, seed) -> State``, ``to_move(state) -> list[player]``,
``legal_actions(state, player) -> list[Action]``, ``apply(state, action) -> list[Event]``
(raises :class:`IllegalAction` and leaves the state exactly as it was),
``view(state, player) -> View`` and ``result(state)``; plus ``state_hash(state) -> str``.
Wiz-War is the first ruleset (``core.wizwar``); ArcoMage and Wizard Kings come later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class IllegalAction(ValueError):
    """An action the rules refuse. ``reason`` says why in words a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """Something that happened, for the app to show and the log to tell.

    Attributes:
        kind: a short tag, e.g. ``"damage"``, ``"move"``, ``"card"``, ``"turn"``, ``"win"``.
        text: one line in plain words (what a player would read in the event log).
        data: tag-specific details (str keys; ints, strs and lists only).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class Ruleset(Protocol):
    """The functions a ruleset module exposes (structural type for documentation and checks)."""

    name: str
    version: int

    def new_game(self, config: Any, seed: int) -> Any: ...
    def to_move(self, state: Any) -> list[str]: ...
    def legal_actions(self, state: Any, player: str) -> list[Any]: ...
    def apply(self, state: Any, action: Any) -> list[Event]: ...
    def view(self, state: Any, player: str) -> Any: ...
    def result(self, state: Any) -> Any: ...
    def state_hash(self, state: Any) -> str: ...
