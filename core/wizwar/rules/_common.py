"""Shared helpers of the Wiz-War rules: the event collector, target parsing, dice and
random picks, number cards and the Powerstone, discarding, the limits on any attack, the hand
limit and the movement allowance.

Sources: RB Combat (attack limits), RB The Cards (hand limit), RB Movement (allowance);
cards.md §1.1-1.4 (targets, number cards, random loss), cards.md powerstone, speedstone,
brainstone.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.engine import Event, IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import Edge, Square, parse_edge, parse_square
from core.wizwar.rules.hooks import (
    card_rules,
    conditions_of,
    displayed_rules,
    edge_rules,
    moves_cap,
)
from core.wizwar.state import BASE_MOVES, HAND_LIMIT, Condition, ScriptExhausted, State, Wizard


def _ceil_half(n: int) -> int:
    return (n + 1) // 2


class Out:
    """Collects the events of one action."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, kind: str, text: str, **data: object) -> None:
        self.events.append(Event(kind, text, dict(data)))


def hand_limit(state: State, w: Wizard) -> int:
    """7, or what a displayed stone makes it (9 with a Brainstone; RB The Cards; DG §3)."""
    for r in displayed_rules(state, w):
        if r.hand_limit is not None:
            return r.hand_limit
    return HAND_LIMIT


def allowance(state: State, w: Wizard) -> int:
    """This turn's movement: 3 (4 with a displayed Speedstone) plus the boost (RB Movement;
    cards.md speedstone)."""
    cap = moves_cap(w)
    if cap is not None:  # cards.md slow: at most 1 square a turn, no boost or Speedstone
        return cap
    base = BASE_MOVES
    for c in w.displayed:  # cards.md speedstone: 4
        stone = card_rules(state.face(c)).base_moves
        if stone is not None:
            base = stone
    for _c, r in conditions_of(w):  # cards.md shrink: base movement 2
        if r.base_moves is not None:
            base = r.base_moves
    return base + state.turn.boost


def _target_wizard(state: State, text: str) -> Wizard:
    try:
        w = state.wizard(text)
    except KeyError:
        raise IllegalAction(f"there is no player {text}") from None
    if not w.in_game or w.at is None:
        raise IllegalAction(f"{text} is not on the board")
    return w


def _edge(state: State, text: str) -> Edge:
    try:
        e = parse_edge(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    x, y, side = e
    lay = state.layout
    if not lay.has_square((x, y)):
        raise IllegalAction(f"{text} is not an edge of this board")
    return lay.edge_key((x, y), side)


def _square(state: State, text: str) -> Square:
    try:
        sq = parse_square(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    if not state.layout.has_square(sq):
        raise IllegalAction(f"{text} is not a square of this board")
    return sq


def _number(state: State, w: Wizard, a: Action, use: str) -> tuple[int, int | None]:
    """Resolve ``+N``: (final value V, number card id). Default 1 without a number card (RB).

    The fixed order of cards.md §1.3: Add (its own number card), Amplify x2 each, Extend x2
    for a duration, then +1 once for a displayed Powerstone if any number card was used.
    """
    if a.number is not None and use in ("none", "-", "modifier") and a.card:
        raise IllegalAction(f"{a.card} takes no number card (cards.md §1.3)")
    cid = None
    if a.number is not None:
        cid = state.find_in_hand(w.seat, str(a.number))
        if cid is None or not C.is_number(str(a.number)):
            raise IllegalAction(f"you hold no number card {a.number}")
    return _final_number(state, w, a.number, use), cid


def _final_number(state: State, w: Wizard, n: int | None, use: str) -> int:
    value = 1 if n is None else n
    used_card = n is not None
    mods = state.turn.modifiers if state.turn.active == w.seat and not state.windows else []
    if use in ("power", "duration", "count", "distance", "boost") and mods:
        played = [(card_rules(str(slug)), num) for slug, num in mods]
        for phase in sorted({r.modify_phase for r, _n in played if r.modify is not None}):
            for r, num in played:  # Add, then Amplify, then Extend (cards.md §1.3)
                if r.modify is not None and r.modify_phase == phase:
                    value, used_card = r.modify(value, num, use, used_card)
    if used_card:
        value += _powerstone(state, w)
    return value


def _powerstone(state: State, w: Wizard) -> int:
    """What displayed stones add, last, to an action that used a number card (+1 with a
    Powerstone; cards.md §1.3 step 4, powerstone)."""
    return max((r.number_bonus for r in displayed_rules(state, w)), default=0)


def _discard_cards(state: State, cids: Iterable[int | None]) -> None:
    for c in cids:
        if c is None:
            continue
        for w in state.wizards:
            if c in w.hand:
                w.hand.remove(c)
            if c in w.displayed:
                w.displayed.remove(c)
        if c not in state.discard:
            state.discard.append(c)


def _take_from_hand(w: Wizard, cid: int | None) -> None:
    if cid is None:
        return
    if cid in w.hand:
        w.hand.remove(cid)
    if cid in w.displayed:
        w.displayed.remove(cid)


def _vacant(state: State, sq: Square) -> bool:
    """No wizard, no thornbush, no stone block (cards.md §1.8: objects and home bases ok)."""
    return (not state.wizards_at(sq) and sq not in state.bushes and sq not in state.stones)


def _creatable_square(state: State, sq: Square) -> str:
    """Why a square creation cannot go on ``sq`` ("" if it can). Source: RB (nothing may be
    created on a home base or an occupied square); cards.md §1.8."""
    if state.wizards_at(sq):
        return "a wizard stands there"
    if state.tokens_at(sq):
        return "something lies there"
    if state.home_owner(sq) is not None:
        return "nothing can be created on a home base"
    return ""


def _check_attack(state: State, w: Wizard, target: Wizard | None, card: str = "") -> None:
    """The limits on any attack (RB Combat; FAQ; cards.md §1.1), and those the conditions on
    the target (``CardRules.target_refused``: Medusa) and on the attacker
    (``CardRules.attack_refused``: Buddy) add. Raises ``IllegalAction`` with the reason."""
    for c, r in conditions_of(target) if target is not None else []:
        if r.target_refused is not None and target is not None and \
                (why := r.target_refused(state, target, c, card)):
            raise IllegalAction(why)  # (Medusa: only Swap and Teleport Opponent)
    if state.round <= 1:
        raise IllegalAction("no attacks in the first round (RB Combat; FAQ errata)")
    if state.turn.attacked:
        raise IllegalAction("you have already attacked this turn (one attack a turn)")
    if target is not None and target.seat == w.seat:
        raise IllegalAction("you cannot attack yourself (6e rule)")
    if target is not None and state.allies(w.seat, target.seat):
        raise IllegalAction(f"{target.seat} is your team-mate: you may not attack him "
                            "(rulebook, Team play option)")
    for c, r in conditions_of(w) if target is not None else []:
        if r.attack_refused is not None and target is not None and \
                (why := r.attack_refused(state, w, c, target)):
            raise IllegalAction(why)  # (Buddy)


def _may_attack(state: State, w: Wizard) -> bool:
    """``_check_attack(state, w, None)`` passes: an attack is allowed now at all (not in the
    first round, not a second one this turn). Candidate rows of attacks at walls, doors and
    bushes are left out when it fails (their dry run would refuse them by that very check).
    Source: RB Combat; FAQ errata."""
    try:
        _check_attack(state, w, None)
    except IllegalAction:
        return False
    return True


def _roll(state: State) -> int:
    """One d4 roll: from the scenario's forced dice, else the game RNG."""
    if state.script.dice is not None:
        if not state.script.dice:
            raise ScriptExhausted("the scenario ran out of dice")
        return state.script.dice.pop(0)
    return state.rng.d4()


def _pick(state: State, cids: list[int]) -> int:
    """One card chosen at random from ``cids`` (a hand, in its public order): from the
    scenario's forced picks (by slug), else the game RNG (cards.md §1.4 random loss)."""
    if state.script.picks is not None:
        if not state.script.picks:
            raise ScriptExhausted("the scenario ran out of picks")
        slug = state.script.picks.pop(0)
        for c in cids:
            if state.face(c) == slug:
                return c
        raise ScriptExhausted(f"the forced pick {slug} is not in that hand")
    return cids[state.rng.below(len(cids))]


def _attack_target(state: State, w: Wizard, a: Action) -> Wizard:
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target: @P2")
    return _target_wizard(state, a.targets[0])


def _neutral_edge(state: State, w: Wizard, a: Action) -> Edge:
    if a.number is not None:
        raise IllegalAction(f"{a.card} takes no number card (cards.md §1.3)")
    if a.args:
        raise IllegalAction(f"{a.card} takes no {a.args[0][0]}=")
    if len(a.targets) != 1 or ":" not in a.targets[0]:
        raise IllegalAction(f"{a.card} needs a side as its target, e.g. @c3:e")
    return _edge(state, a.targets[0])


def _seat_order_from(state: State, seat: str) -> list[Wizard]:
    seats = state.seats
    i = seats.index(seat)
    order = seats[i:] + seats[:i]
    return [state.wizard(s) for s in order if state.wizard(s).in_game]


def _door_of_square(state: State, w: Wizard, a: Action) -> Edge:
    e = _neutral_edge(state, w, a)
    assert w.at is not None
    if e not in [k for _s, k in state.layout.edges_of(w.at)]:
        raise IllegalAction(f"{a.targets[0]} is not a side of your square")
    es = state.edges.get(e)
    if es is None or not es.kind.startswith("door"):
        raise IllegalAction(f"there is no door at {a.targets[0]}")
    return e


def _add_condition(w: Wizard, cond: Condition) -> None:
    w.conditions = [c for c in w.conditions if c.slug != cond.slug] + [cond]


def _empty_edge(state: State, e: Edge, text: str, water: bool = False) -> None:
    """An edge creation needs an empty edge of the board (cards.md §1.8); a Waterwall
    (``water``) may also go on a creation it puts out (FAQ: a Waterwall on a Wall of Fire).
    Raises ``IllegalAction`` otherwise."""
    es = state.edges.get(e)
    er = edge_rules(es.kind) if es is not None else None
    if es is not None and not (water and er is not None and er.quenched):
        raise IllegalAction(f"{text} is not empty")
    x, y, side = e
    if state.layout.neighbor((x, y), side) is None:
        raise IllegalAction(f"{text} is the board's edge")


#: Stack sources that are not cards themselves, and the card they come from.
SOURCE_CARD = {"slow-death-tick": "slow-death"}


def thing_name(text: str) -> str:
    """A carried thing in words, for event texts: ``P1.t2`` -> ``P1's treasure 2``, an
    object's slug -> its card name; anything else as it is."""
    seat, dot, n = text.partition(".t")
    if dot and seat[:1] == "P" and seat[1:].isdigit() and n.isdigit():
        return f"{seat}'s treasure {n}"
    cd = C.BY_SLUG.get(text)
    return cd.name if cd is not None else text


def _name(slug: str) -> str:
    if slug == "punch":
        return "punch"
    if slug in SOURCE_CARD:
        return C.card(SOURCE_CARD[slug]).name + " tick"
    return C.card(slug).name


def _displayed(state: State, w: Wizard, slug: str) -> bool:
    return any(state.face(c) == slug for c in w.displayed)
