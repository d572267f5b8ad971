"""Each card's own rules, and the registry the shared machinery asks.

A card brings a :class:`CardRules` record (declared next to its behaviour, in its family's
module under ``core/wizwar/rules/cards/``) and registers it with :func:`register`; the shared
machinery (the turn, the stack, movement, line of sight, ``legal_actions``) looks a card up
with :func:`card_rules` and calls its hooks instead of naming the card. A creation that stays
on an edge (Wall of Fire, Illusion Wall) brings an :class:`EdgeRules` record the same way,
found by the edge's kind with :func:`edge_rules`.

The records are filled when ``core.wizwar.rules.cards`` is imported (``core.wizwar.rules``
does so), before any rule runs. Looking up a slug that registered nothing returns the empty
record :data:`NO_RULES` (every hook absent).

Source: the rules of each card are cited where its record is declared (cards.md rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.wizwar.actions import Action
from core.wizwar.board import Edge
from core.wizwar.state import Condition, Counter, EdgeState, State, Window, Wizard

if TYPE_CHECKING:
    from core.wizwar.rules._common import Out
    from core.wizwar.rules.rows import Near, Row

#: A card's effect when its owner plays it in his own turn: ``(state, wizard, action, card
#: id, dry, out)``; raises ``IllegalAction`` when refused; with ``dry`` it only checks.
Play = Callable[[State, Wizard, Action, int, bool, "Out"], None]
#: What a condition named after the card forbids its wizard: ``(state, wizard, action)`` ->
#: the reason, or "" when it allows the action (cards.md §1.6).
Forbids = Callable[[State, Wizard, Action], str]


@dataclass(frozen=True)
class HitEffect:
    """What one hit of an attack does: ``base`` gives its damage before counteractions and
    stones (it may also move the victim); ``after`` its other effects, which happen only if
    not all the damage was stopped (RB: secondary effects are stopped with the damage).
    One per attack card (cards.md rows); the stack machinery never names a card."""

    base: Callable[[State, Window, Wizard, int, Out], int]
    after: Callable[[State, Window, Wizard, int, int, str, Out], None] | None = None
    damage: bool = True  # its hits deal damage (Absorb, Blunt, Reverse can answer them)
    credit: bool = True  # a kill by it gives the killer the victim's cards
    #: a fixed amount printed on the card (Sudden Death's 10), or 0: the hit's quantity
    #: instead of the number V, so Reflection splits it (cards.md reflection)
    fixed: int = 0


@dataclass(frozen=True)
class Answering:
    """The window a counteraction is played on, as its answer check sees it.

    Attributes:
        win: the open window (``state.windows[0]``).
        side: "attacker" or "defender": the answering player's side of it.
        src: the card the window comes from (``SOURCE_CARD`` resolved: a Slow Death tick is
            Slow Death's), or ``punch``.
        spell_attack: the window is an attack by a spell (not a punch, weapon or object).
        name: the counteraction's printed name.
    """

    win: Window
    side: str
    src: str
    spell_attack: bool
    name: str


@dataclass(frozen=True)
class AnswerPlay:
    """What an accepted counteraction puts on the stack besides itself: the index of the
    counter it answers (-1: the attack), its target (a square or an edge, "" for none), its
    number's value and card."""

    answers: int = -1
    target: str = ""
    value: int = 0
    ncid: int | None = None


@dataclass(frozen=True)
class EdgeRules:
    """How a creation standing on an edge behaves, found by the edge's kind (cards.md §1.8).
    A kind without a record (a wall, a door, a jammed door) blocks walkers, pushes and
    sight, and can be attacked.

    Attributes:
        kind: the ``EdgeState.kind`` it stands as (``wall-of-fire``).
        crossable: ``(state, wizard, edge state) -> bool``: the wizard may walk through it,
            be pushed, dragged or retreat through it (None: never, like a wall).
        cross_damage: magical damage each crossing deals as indirect damage, with the kind as
            its source (a push adds it to the push's damage instead); 0 for none.
        cross_event: ``(event kind, text after the seat)`` told when a wizard walks through.
        attackable: ``(edge state, seat) -> bool``: the seat may punch, attack or destroy it
            as a wall (None: always).
        illusory: "destroying" it only ends the destroyer's belief in it: it stays, at full
            strength, for the others.
        quenched: a Waterwall may be cast on it, and puts it out.
        blocks: what a walker who may not cross it is told stands in the way ("" for its
            kind).
        first_sight: ``(state, wizard, edge, out) -> bool``, called (not in a dry run) before
            a wizard who may cross it walks through: True stops the walk in front of it.
        settle: ``(state, out)``, run after every action while an edge of this kind stands.
    """

    kind: str
    crossable: Callable[[State, Wizard, EdgeState], bool] | None = None
    cross_damage: int = 0
    cross_event: tuple[str, str] = ("", "")
    attackable: Callable[[EdgeState, str], bool] | None = None
    illusory: bool = False
    quenched: bool = False
    blocks: str = ""
    first_sight: Callable[[State, Wizard, Edge, Out], bool] | None = None
    settle: Callable[[State, Out], None] | None = None


@dataclass(frozen=True)
class CardRules:
    """One card's own rules: the hooks the shared machinery asks about it.

    Attributes:
        slug: the card (a ``core.wizwar.cards`` slug), or an attack source that is no card
            (``punch``, ``slow-death-tick``: they bring only a hit effect).
        play: its effect when played in its owner's turn (None: it cannot be played so).
        forbids: what a condition named after it forbids its wizard (None: nothing).
        hit: what one hit of it does, for an attack (None: it is no attack).
        edge: the creation it leaves on an edge, if any (also registered by kind).
        drawn: ``(state, wizard, card id, out) -> None``: the card goes off when drawn
            instead of going to the hand (Trap!).
        candidates: ``(state, near, slug) -> rows``: the actions worth a dry run with it in
            its holder's own turn, near him (``legal_actions``; the far targets are
            ``reach.own_turn_rows``'s); None: only discarding it.
        answers: ``(state, near, slug) -> rows``: the same while he answers a window.
        source: where its rules come from (cards.md row, rulebook section, FAQ).

    What a condition named after the card does to its wizard (cards.md §1.6), beyond what it
    ``forbids``:

    Attributes:
        moves_cap: at most this many squares a turn, boosts included, and in a forced retreat.
        base_moves: his base movement becomes this (a displayed stone's, then a condition's:
            the condition wins).
        to_hit: an attack on him hits only on a d4 roll of at most this (0: always hits); the
            lowest applies; ``to_hit_as`` names him so in the roll's event.
        rooted: he cannot be made to walk a forced retreat.
        through_doors: he walks through doors, even jammed ones.
        through_bushes: entering a thornbush does not catch him.
        immune: the damage he takes none of: "physical" or "all" ("" for none);
            ``immune_as`` names him so in the event.
        attack_refused: ``(state, attacker, condition, target) -> reason``: why this condition
            on the attacker forbids attacking ``target`` ("" when it does not).
        target_refused: ``(state, target, condition, card) -> reason``: why this condition on
            the target forbids an attack with ``card`` on him ("" when it does not).
        ends_on_attack: it ends when its caster attacks its wizard.
        after_draw: ``(state, wizard, condition, out) -> None``: runs when its wizard draws a
            card (Slow Death's tick); the first such condition of each card only.

    As a counteraction standing on the stack (cards.md §1.5):

    Attributes:
        answer: ``(state, wizard, action, answering) -> AnswerPlay``: whether it may answer
            this window, and what it puts on the stack; raises ``IllegalAction`` with the
            reason (None: it answers nothing).
        answers_indirect: it answers indirect damage too (Absorb, Blunt).
        answer_targets: it takes a target or a number when it answers (the escapes and
            blocks); any other counteraction's target is implied.
        stops: answering the attack itself, it ends the whole attack (Full Shield, Absorb
            Spell, the escapes and blocks).
        voids: it voids the counteraction it answered (Anti-Anti, Absorb Spell).
        turns: it turns the attack, wholly or by half, on the other side (the Reflections).
        escape: an escape or block, which Anti-Anti cannot void.
        captures: the card it cancelled goes to its player's hand (Absorb Spell).
        on_stop: ``(state, counter, out)``: what it does when it stops the attack (Teleport
            moves its player away, Wall of Fire stands...).
        split: ``(state, window, counter, hits, out)``: how it changes the hits (each
            ``[victim seat, value, credit seat]``), in the order played (the Reflections).
        reduce: ``(state, victim, damage, out) -> (damage, reversed)``: how it changes the
            damage of its player, in the order he played them; ``reversed`` when the damage
            became life (Absorb, Blunt, Reverse).

    As a displayed magic stone (cards.md §1.4, §2.3):

    Attributes:
        hand_limit: its owner's hand limit becomes this (Brainstone).
        number_bonus: added last to an action of its owner's that used a number card
            (Powerstone).
        sight_through: its owner's spells see through this many walls (Visionstone).
        damage_step: ``(state, wizard, damage, physical, out) -> damage or None``: step 4 of
            the resolution for its owner, None when it does not apply; the stones go in
            ``damage_order`` and the first that applies decides (Shieldstone, Soulstone,
            Bloodstone).
        after_dealing: ``(state, owner, victim, damage, physical, out)``: after its owner's
            attack dealt damage to another wizard (Shadowstone).

    As a condition or modifier on sight and numbers:

    Attributes:
        sees_own_square_only: its wizard's spells reach only his own square (Blind).
        pivot: as a modifier, its player's next spell traces its line in two legs through the
            square it names (Around the Corner).
        modify: ``(value, modifier number, number use, used a number card) -> (value, used)``:
            as a modifier, how it changes the next action's number; modifiers apply by
            ``modify_phase`` (Add, then Amplify, then Extend), each in the order played.
        recasts: it casts another spell again, and is not itself a spell cast this turn
            (Reuse Spell).

    For an object used in an attack:

    Attributes:
        kept_striking: it stays in its owner's hand when it strikes (not when thrown).
        lands: where it ends after the attack: "thrown" (in the target's square when thrown),
            "always" (there, thrown or not), "" (it is discarded or kept).
    """

    slug: str
    play: Play | None = None
    forbids: Forbids | None = None
    hit: HitEffect | None = None
    edge: EdgeRules | None = None
    drawn: Callable[[State, Wizard, int, Out], None] | None = None
    candidates: Callable[[State, Near, str], list[Row]] | None = None
    answers: Callable[[State, Near, str], list[Row]] | None = None
    moves_cap: int | None = None
    base_moves: int | None = None
    to_hit: int = 0
    to_hit_as: str = ""
    rooted: bool = False
    through_doors: bool = False
    through_bushes: bool = False
    immune: str = ""
    immune_as: str = ""
    attack_refused: Callable[[State, Wizard, Condition, Wizard], str] | None = None
    target_refused: Callable[[State, Wizard, Condition, str], str] | None = None
    ends_on_attack: bool = False
    answer: Callable[[State, Wizard, Action, Answering], AnswerPlay] | None = None
    answers_indirect: bool = False
    answer_targets: bool = False
    stops: bool = False
    voids: bool = False
    turns: bool = False
    escape: bool = False
    captures: bool = False
    on_stop: Callable[[State, Counter, Out], None] | None = None
    split: Callable[[State, Window, Counter, list[list], Out], None] | None = None
    reduce: Callable[[State, Wizard, int, Out], tuple[int, bool]] | None = None
    hand_limit: int | None = None
    number_bonus: int = 0
    sight_through: int = 0
    damage_step: Callable[[State, Wizard, int, bool, Out], int | None] | None = None
    damage_order: int = 0
    after_dealing: Callable[[State, Wizard, Wizard, int, bool, Out], None] | None = None
    sees_own_square_only: bool = False
    pivot: bool = False
    modify: Callable[[int, object, str, bool], tuple[int, bool]] | None = None
    modify_phase: int = 0
    recasts: bool = False
    kept_striking: bool = False
    lands: str = ""
    after_draw: Callable[[State, Wizard, Condition, Out], None] | None = None
    source: str = ""


#: The empty record: a slug that registered nothing has no hooks.
NO_RULES = CardRules("")

_CARDS: dict[str, CardRules] = {}
_EDGES: dict[str, EdgeRules] = {}


def register(*records: CardRules) -> None:
    """Register each card's record (and its edge creation, by kind). Raises ``ValueError``
    when a slug or an edge kind is already registered (and then registers none of them)."""
    for r in records:  # checked before anything is registered: a refusal changes nothing
        if r.slug in _CARDS:
            raise ValueError(f"card rules for {r.slug} registered twice")
        if r.edge is not None and r.edge.kind in _EDGES:
            raise ValueError(f"edge rules for {r.edge.kind} registered twice")
    for r in records:
        _CARDS[r.slug] = r
        if r.edge is not None:
            _EDGES[r.edge.kind] = r.edge


def card_rules(slug: str) -> CardRules:
    """The record of ``slug`` (:data:`NO_RULES` when it registered none)."""
    return _CARDS.get(slug, NO_RULES)


def edge_rules(kind: str) -> EdgeRules | None:
    """The rules of a creation standing on an edge, by its kind (None for a printed wall,
    door, a created plain wall, or any kind that registered none)."""
    return _EDGES.get(kind)


def settling_edges() -> list[EdgeRules]:
    """The edge kinds with a ``settle`` hook, in the order registered."""
    return [r for r in _EDGES.values() if r.settle is not None]


def conditions_of(w: Wizard) -> list[tuple[Condition, CardRules]]:
    """Each condition on ``w`` with its card's record, in the order they were put on him."""
    return [(c, card_rules(c.slug)) for c in w.conditions]


def through_doors(w: Wizard) -> bool:
    """A condition on ``w`` lets him walk through doors (Mist-Body)."""
    return any(card_rules(c.slug).through_doors for c in w.conditions)


def through_bushes(w: Wizard) -> bool:
    """A condition on ``w`` keeps thornbushes from catching him (Mist-Body)."""
    return any(card_rules(c.slug).through_bushes for c in w.conditions)


def moves_cap(w: Wizard) -> int | None:
    """The lowest cap a condition on ``w`` puts on his squares a turn (Slow), or None."""
    caps = [r.moves_cap for _c, r in conditions_of(w) if r.moves_cap is not None]
    return min(caps) if caps else None


def rooted(w: Wizard) -> bool:
    """A condition on ``w`` keeps him from being made to walk (Lock in Place, Medusa)."""
    return any(card_rules(c.slug).rooted for c in w.conditions)


def displayed_rules(state: State, w: Wizard) -> list[CardRules]:
    """The record of each card ``w`` displays, in the order displayed."""
    return [card_rules(state.face(c)) for c in w.displayed]


def registered() -> list[str]:
    """Every slug with a record, sorted."""
    return sorted(_CARDS)


def hit_effect(source: str) -> HitEffect:
    """The hit effect of the attack ``source`` (a card slug or ``punch``). Raises
    ``KeyError`` for a source that is no attack."""
    h = card_rules(source).hit
    if h is None:
        raise KeyError(source)
    return h
