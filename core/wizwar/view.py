"""What one player may know: ``view(state, player)``.

The app and the bots only ever get a :class:`View`. It holds the public board and the
viewer's own hand; other players' hands are counts; the draw pile is a count; the discard
pile, displayed cards and the stack are public (RB: cards are discarded face up).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.wizwar.board import Edge, Layout, Square
from core.wizwar.state import State


@dataclass(frozen=True)
class PlayerInfo:
    """Public facts of one player."""

    seat: str
    name: str
    life: int
    at: Square | None
    home: Square | None
    carrying: str
    hand_size: int
    displayed: tuple[str, ...]
    lost_turns: int
    alive: bool
    out: bool
    conditions: tuple[str, ...]
    durations: tuple[tuple[str, str, int], ...] = ()
    """One (slug, caster, turns) per condition, in the order of ``conditions``: ``turns`` is
    how many more of this wizard's turns must begin before the effect can end (at the start
    of one of the caster's turns, cards.md §1.6); -1 for a permanent one (Slow Death)."""


@dataclass(frozen=True)
class StackCard:
    """One card on the open stack (public)."""

    player: str
    card: str
    number: int | None
    note: str


@dataclass(frozen=True)
class StackInfo:
    """The open answer window: the attack (or indirect damage) and the answers so far."""

    kind: str
    attacker: str
    defender: str
    source: str
    value: int
    to_answer: str
    counters: tuple[StackCard, ...]
    arg: str = ""
    """A card-specific argument fixed when the attack was played, public like the action:
    the card Card Erasure names, the square Teleport Opponent sends to ("" for none)."""


@dataclass(frozen=True)
class View:
    """One player's view of the game (``viewer`` "" = a spectator who sees no hand).
    ``options`` are the game's public options (``crossed``, ``doors``, ``team``: 0 or 1)."""

    viewer: str
    layout: Layout
    edges: dict[Edge, tuple[str, int]]
    open_doors: tuple[Edge, ...]
    bushes: dict[Square, int]
    stones: tuple[Square, ...]
    tokens: dict[Square, tuple[str, ...]]
    players: tuple[PlayerInfo, ...]
    hand: tuple[str, ...]
    displayed: tuple[str, ...]
    active: str
    round: int
    to_move: tuple[str, ...]
    stack: tuple[StackInfo, ...]
    discarding: tuple[str, ...]
    deck_size: int
    discard: tuple[str, ...]
    winner: str
    eliminated: tuple[str, ...]
    moves_left: int
    attacked: bool
    picked_up: bool
    deck_kind: str
    options: dict[str, int] = field(default_factory=dict)
    retreats: tuple[tuple[str, str, int], ...] = ()
    """The forced retreats still to walk, in order, public: ``(seat, from-square, squares)``
    (Go Away, Ugly: the first is walked at once, out of turn; cards.md §1.8)."""
    choice: tuple[str, ...] = ()
    """Telepath's pending choice, public: ``(chooser, target)``, or ``()``."""

    def player(self, seat: str) -> PlayerInfo:
        """The public info of ``seat``. Raises ``KeyError``."""
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def edge_state(self, e: Edge) -> str:
        """notation.md edge value: wall, door, door-open, open."""
        if e in self.open_doors:
            return "door-open"
        if e in self.edges:
            return self.edges[e][0]
        return "open"


def view(state: State, seat: str) -> View:
    """The view of ``seat`` (``""`` for a spectator)."""
    from core.wizwar.rules import allowance, to_move

    players = []
    for w in state.wizards:
        players.append(PlayerInfo(
            w.seat, w.name, w.life, w.at, w.home, w.carrying, len(w.hand),
            tuple(state.face(c) for c in w.displayed), w.lost_turns, w.alive, w.out,
            tuple(c.slug for c in w.conditions),
            tuple((c.slug, c.caster, max(0, c.duration - c.count) if c.duration else -1)
                  for c in w.conditions)))
    hand: tuple[str, ...] = ()
    displayed: tuple[str, ...] = ()
    if seat:
        me = state.wizard(seat)
        hand = tuple(state.face(c) for c in me.hand)
        displayed = tuple(state.face(c) for c in me.displayed)
    stack = []
    for win in state.windows:
        stack.append(StackInfo(
            win.kind, win.attacker, win.defender, win.source, win.value, win.to_answer,
            tuple(StackCard(c.player, c.slug,
                            None if c.number_cid is None else c.value, c.target)
                  for c in win.counters), win.arg))
    tokens = state.tokens_by_square()  # one pass over the tokens, not one per square
    active = state.wizard(state.turn.active)
    left = allowance(state, active) - state.turn.moves_used if not state.turn.stopped else 0
    return View(
        viewer=seat, layout=state.layout,
        edges={e: (v.kind, v.hp) for e, v in state.edges.items()},
        open_doors=tuple(state.turn.open_doors), bushes=dict(state.bushes),
        stones=tuple(state.stones), tokens=tokens, players=tuple(players), hand=hand,
        displayed=displayed, active=state.turn.active, round=state.round,
        to_move=tuple(to_move(state)), stack=tuple(stack),
        discarding=tuple(state.discarding), deck_size=len(state.deck),
        discard=tuple(state.face(c) for c in state.discard), winner=state.winner,
        eliminated=tuple(state.eliminated), moves_left=max(0, left),
        attacked=state.turn.attacked, picked_up=state.turn.picked_up,
        deck_kind=state.deck_kind,
        options={k: v for k, v in state.options.items() if isinstance(v, int)},
        retreats=tuple((str(r[0]), str(r[1]), int(r[2])) for r in state.retreats),
        choice=tuple(state.choice))


__all__ = ["View", "PlayerInfo", "StackInfo", "StackCard", "view"]
