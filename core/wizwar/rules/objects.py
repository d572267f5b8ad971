"""Objects, stones and treasures: picking up and dropping, throwing an object, where a
thrown object lands, displaying a stone, and the stones' part in damage (Bloodstone,
Shieldstone, Soulstone, Shadowstone).

Sources: RB Objects; RB Winning (treasures); FAQ (one object at a time); cards.md rows of the
objects and stones.
"""

from __future__ import annotations

from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import Square, blocked_count, sightlines, square_name
from core.wizwar.rules._common import Out, _square, _take_from_hand, thing_name
from core.wizwar.rules.hooks import card_rules, conditions_of, displayed_rules
from core.wizwar.rules.sight import _is_blocking
from core.wizwar.state import State, Wizard


def _throw_object(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Throw an object that is no weapon (a magic stone, the Master Key) at a square in a clear
    line: it lands there, or just before a thornbush or stone block; a displayed stone is
    displayed no more. It does no damage and is no attack, whoever stands there.
    Source: FAQ (you can throw objects, not treasures; thrown objects do no damage unless a
    card says so); RB Objects (where a thrown object lands); cards.md §1.4 (throwing)."""
    name = C.card(a.card).name
    if a.number is not None or len(a.targets) != 1 or a.targets[0].startswith("P") or \
            any(k != "mode" for k, _ in a.args):
        raise IllegalAction(f"throw the {name} at a square, e.g. @c3 mode=throw; a thrown "
                            "object does no damage (FAQ)")
    sq = _square(state, a.targets[0])
    assert w.at is not None
    land = _throw_landing(state, w.at, sq)
    if dry:
        return
    _take_from_hand(w, cid)
    state.floor.append((land, cid))
    o("throw", f"{w.seat} throws the {name} to {square_name(land)}", seat=w.seat)


def _throw_landing(state: State, frm: Square, to: Square) -> Square:
    """Where a thrown object lands: the target square, or the square just before a thornbush
    or stone block on the line. Walls, closed doors on the line make the throw impossible.
    Source: RB Objects; cards.md §1.4."""
    best = None
    for sl in sightlines(state.layout, frm, to):
        if blocked_count(sl, lambda e: _is_blocking(state, e)) == 0:
            best = sl
            break
    if best is None:
        raise IllegalAction(f"no clear line to throw to {square_name(to)}")
    prev = frm
    for s in best.squares[1:]:
        if s in state.bushes or s in state.stones:
            return prev
        prev = s
    return to


def _display(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Display a magic stone: from now on its power works; it still counts in the hand.
    Source: RB The Cards (stones are displayed face up after use); cards.md §1.4."""
    if a.targets or a.args or a.number is not None:
        raise IllegalAction(f"{a.card} takes no target or number")
    if cid in w.displayed or any(state.face(c) == a.card for c in w.displayed):
        raise IllegalAction(f"your {C.card(a.card).name} is already displayed")
    if dry:
        return
    w.displayed.append(cid)
    o("stone", f"{w.seat} displays the {C.card(a.card).name}", seat=w.seat, card=a.card)


def _pickup(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Pick up one object or treasure in your square; it ends your turn; one treasure at most.
    Source: RB Objects (your turn ends if you pick up any object; only one treasure);
    FAQ (not two objects at once)."""
    text = a.targets[0]
    at = w.at
    if "." in text:
        if state.treasures.get(text) != at or text not in state.treasures:
            raise IllegalAction(f"{text} is not in your square")
        if w.carrying:
            raise IllegalAction("you can carry only one treasure (RB Objects)")
        if dry:
            return
        state.treasures[text] = None
        w.carrying = text
    else:
        cid = next((c for s, c in state.floor if s == at and state.face(c) == text), None)
        if cid is None:
            raise IllegalAction(f"there is no {text} in your square")
        if dry:
            return
        state.floor.remove((at, cid))  # type: ignore[arg-type]
        w.hand.append(cid)
    state.turn.picked_up = True
    o("pickup", f"{w.seat} picks up {thing_name(text)}; the turn is over", seat=w.seat,
      thing=text)


def _drop(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Drop a carried treasure or an object in your square, during your own turn.
    Source: RB Objects (Dropping and Retrieving Objects)."""
    text = a.targets[0]
    at = w.at
    assert at is not None
    if "." in text:
        if w.carrying != text:
            raise IllegalAction(f"you are not carrying {text}")
        if dry:
            return
        w.carrying = ""
        state.treasures[text] = at
    else:
        cid = state.find_in_hand(w.seat, text)
        if cid is None:
            raise IllegalAction(C.not_held(text))
        if C.card(text).kind not in (C.OBJECT, C.STONE):
            raise IllegalAction(f"{text} is not an object")
        if dry:
            return
        _take_from_hand(w, cid)
        state.floor.append((at, cid))
    o("drop", f"{w.seat} drops {thing_name(text)} at {square_name(at)}", seat=w.seat,
      thing=text)


def _stones_step(state: State, w: Wizard, dmg: int, *, physical: bool, o: Out) -> int:
    """Step 4 of the resolution: the victim's displayed stones, in a fixed order:
    Shieldstone (no physical damage), Soulstone (no magical damage at 3 life or less),
    Bloodstone (1 less). Source: cards.md §1.5 step 4, §2.3; FAQ (Bloodstone before the
    Fireball burns it)."""
    if dmg <= 0:
        return dmg
    rules = [r for _c, r in conditions_of(w) if r.immune]
    for r in rules:  # DG §12: the statue (Medusa) is immune to damage, Trap! included
        if r.immune == "all":
            o("stone", f"{w.seat} is {r.immune_as} and takes no damage")
            return 0
    for r in rules if physical else []:  # cards.md mist-body: no physical damage
        if r.immune == "physical":
            o("stone", f"{w.seat} is {r.immune_as} and takes no physical damage")
            return 0
    steps = {r.slug: r for r in displayed_rules(state, w) if r.damage_step is not None}
    for r in sorted(steps.values(), key=lambda r: r.damage_order):
        assert r.damage_step is not None
        after = r.damage_step(state, w, dmg, physical, o)
        if after is not None:
            return after
    return dmg


def _shadowstone(state: State, credit: str, victim: Wizard, dmg: int, physical: bool,
                 o: Out) -> None:
    """After an attack credited to ``credit`` dealt ``dmg`` to ``victim``: the attacker's
    displayed stones act (Shadowstone: physical damage becomes his life; cards.md
    shadowstone)."""
    if not credit or credit == victim.seat:
        return
    w = state.wizard(credit)
    for r in displayed_rules(state, w) if w.in_game else []:
        if r.after_dealing is not None:
            r.after_dealing(state, w, victim, dmg, physical, o)


def _finish_objects(state: State, slug: str, cid: int | None, mode: str,
                    landing: Square | None) -> None:
    """A thrown object lands in the target's square (RB Objects); a stabbing dagger stays."""
    lands = card_rules(slug).lands
    if cid is None or not lands or (lands == "thrown" and mode != "throw"):
        return
    if landing is not None and all(c != cid for _s, c in state.floor):
        state.floor.append((landing, cid))
