"""The stack, opening side: declaring an attack (to-hit rolls against Invisible and
Shrink, the objects it uses), opening attack and indirect-damage windows, and reading which
counters stand.

Sources: cards.md §1.5 (declaring an attack, answer windows, indirect damage); RB Combat;
DG §7.
"""

from __future__ import annotations

from core.wizwar import cards as C
from core.wizwar.rules._common import SOURCE_CARD, Out, _discard_cards, _roll, _take_from_hand
from core.wizwar.rules.hooks import card_rules, conditions_of
from core.wizwar.rules.objects import _finish_objects
from core.wizwar.state import State, Window, Wizard


def _other_side(win: Window, seat: str) -> str:
    return win.defender if seat == win.attacker else win.attacker


def needs_sight_or_square(source: str) -> bool:
    """Whether the attack ``source`` (a card slug, ``punch``, or a stack source such as a
    Slow Death tick) needs line of sight to its target or the target's own square: only
    such attacks roll to hit against the invisible or shrunk, and only they can be escaped
    with Invisible or blocked. Swap and Telepath (any player) and a Slow Death tick (it comes
    from a draw) need neither.
    Source: cards.md invisible, shrink ("every attack aimed at you that needs LOS or your
    square"); §1.5 (Declaring an attack)."""
    if source == "punch":
        return True
    if source in SOURCE_CARD:
        return False
    return C.card(source).target.startswith(("los", "same", "adjacent"))


def _to_hit(state: State, w: Wizard, target: Wizard, o: Out, slug: str) -> bool:
    """The d4 to-hit roll against a target whose condition makes him hard to hit, made when
    the attack is declared, and only for an attack that needs line of sight or the target's
    square (:func:`needs_sight_or_square`): the lowest such condition applies (Invisible: it
    hits only on a 1; Shrink: on 1-2). Source: cards.md invisible, shrink; §1.5 Declaring an
    attack."""
    if not needs_sight_or_square(slug):
        return True
    hard = [r for _c, r in conditions_of(target) if r.to_hit]
    if hard:
        best = min(hard, key=lambda r: r.to_hit)
        roll = _roll(state)
        o("roll", f"{w.seat} rolls {roll} to hit the {best.to_hit_as} {target.seat}", roll=roll)
        return roll <= best.to_hit
    return True


def _declare(state: State, w: Wizard, target: Wizard, slug: str, cid: int | None,
             ncid: int | None, value: int, o: Out, *, mode: str = "", physical: bool = False,
             push_dir: str = "") -> None:
    """Declare an attack on a wizard: use up the turn's attack, roll to hit if needed, then
    open the answer window (cards.md §1.5)."""
    state.turn.attacked = True
    if not card_rules(slug).kept_striking or mode == "throw":  # a blade that strikes stays
        _take_from_hand(w, cid)
    _take_from_hand(w, ncid)
    name = "a punch" if slug == "punch" else C.card(slug).name
    # attacking your Buddy ends the Buddy spell you cast on him (cards.md buddy)
    target.conditions = [c for c in target.conditions
                         if not (c.caster == w.seat and card_rules(c.slug).ends_on_attack)]
    o("attack", f"{w.seat} attacks {target.seat} with {name}"
      + (f" ({value})" if ncid is not None else ""), seat=w.seat, target=target.seat,
      card=slug, value=value)
    if not _to_hit(state, w, target, o, slug):
        o("miss", f"the {name} misses {target.seat}", seat=w.seat)
        _finish_objects(state, slug, cid, mode, target.at)
        _discard_cards(state, [c for c in (cid, ncid) if c is not None and _is_spent(state, c)])
        return
    _open_attack(state, w, target, slug, value, cid, ncid, mode=mode, physical=physical,
                 push_dir=push_dir)


def _is_spent(state: State, cid: int) -> bool:
    """Cards discarded after their action: everything but objects (cards.md §1.1)."""
    return C.card(state.face(cid)).kind not in (C.OBJECT, C.STONE)


def _open_attack(state: State, w: Wizard, target: Wizard, slug: str, value: int,
                 cid: int | None, ncid: int | None, *, mode: str = "", physical: bool = False,
                 push_dir: str = "") -> None:
    """Put an attack on the stack and hand the answer to its target. Playing the attack
    counts as the attacker's pass (notation.md, the stack)."""
    state.windows.insert(0, Window(
        kind="attack", attacker=w.seat, defender=target.seat, source=slug, value=value,
        to_answer=target.seat, cid=cid, number_cid=ncid, target=target.seat, mode=mode,
        physical=physical, passes=1, push_dir=push_dir))


def _voided(win: Window) -> set[int]:
    """Indexes of the counteractions voided so far: each standing Anti-Anti, or Absorb Spell
    aimed at a counteraction, voids the card it answered, last played first (an Anti-Anti
    voided in turn voids nothing). Source: cards.md §1.5 (Resolving, step 1)."""
    voided: set[int] = set()
    for i in range(len(win.counters) - 1, -1, -1):
        c = win.counters[i]
        if i not in voided and card_rules(c.slug).voids and c.answers >= 0:
            voided.add(c.answers)
    return voided


def _victims(state: State, win: Window) -> list[str]:
    """Who the attack now points at: the defender, and the attacker once a standing
    Reflection or Full Reflection (not voided by an Anti-Anti or taken by Absorb Spell) has
    turned it, or half of it, back on him (cards.md reflection, full-reflection; §1.5)."""
    out = [win.defender]
    voided = _voided(win)
    if any(card_rules(c.slug).turns and i not in voided for i, c in enumerate(win.counters)):
        out.append(win.attacker)
    return out


def _latest_standing(win: Window, side: str) -> int:
    """Index of the latest counteraction of ``side`` not voided by an Anti-Anti, or -1."""
    voided = {c.answers for c in win.counters if card_rules(c.slug).voids}
    for i in range(len(win.counters) - 1, -1, -1):
        c = win.counters[i]
        if c.side == side and i not in voided:
            return i
    return -1


def _open_indirect(state: State, victims: list[Wizard], n: int, source: str, *,
                   physical: bool, cause: str) -> None:
    """Indirect damage: each damaged wizard gets one answer window (Absorb, Blunt), in seat
    order from the active player (cards.md §1.5 Indirect damage; RB)."""
    new = [Window(kind="indirect", attacker=cause, defender=v.seat, source=source, value=n,
                  to_answer=v.seat, physical=physical) for v in victims]
    state.windows[0:0] = new
