"""Damage and hit effects: what one hit of each attack does (``HIT_EFFECTS``, one entry
per attack card), lost turns, and taking damage.

Sources: RB Combat; cards.md §1.4 (hit effects), §1.7 (lost turns); the attack rows of
cards.md; FAQ.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.wizwar import cards as C
from core.wizwar.board import (
    parse_square,
    square_name,
)
from core.wizwar.rules._common import (
    Out,
    _add_condition,
    _discard_cards,
    _pick,
    _seat_order_from,
    _take_from_hand,
    _vacant,
)
from core.wizwar.rules.movement import _away, _enter_bush, _push, _reverse
from core.wizwar.state import (
    Condition,
    State,
    Window,
    Wizard,
)


@dataclass(frozen=True)
class HitEffect:
    """What one hit of an attack does: ``base`` gives its damage before counteractions and
    stones (it may also move the victim); ``after`` its other effects, which happen only if
    not all the damage was stopped (RB: secondary effects are stopped with the damage).
    One entry per attack card (cards.md rows); the stack machinery never names a card."""

    base: Callable[[State, Window, Wizard, int, Out], int]
    after: Callable[[State, Window, Wizard, int, int, str, Out], None] | None = None
    damage: bool = True  # its hits deal damage (Absorb, Blunt, Reverse can answer them)
    credit: bool = True  # a kill by it gives the killer the victim's cards
    #: a fixed amount printed on the card (Sudden Death's 10), or 0: the hit's quantity
    #: instead of the number V, so Reflection splits it (cards.md reflection)
    fixed: int = 0


def _points(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return value


def _points_plus_two(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return value + 2


def _push_hit(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    """Waterbolt: the target is pushed away from the caster; a reflected half pushes the
    caster away from the target (cards.md waterbolt, reflection; §1.8)."""
    d = win.push_dir
    if victim.seat != win.defender:
        d = _reverse(win.push_dir)
        other = state.wizard(win.defender)
        if other.at is not None and victim.at is not None and other.at != victim.at:
            dx, dy = victim.at[0] - other.at[0], victim.at[1] - other.at[1]
            if abs(dx) != abs(dy):
                d = _away(other.at, victim.at, "")
    return _push(state, victim, d, value, o)


def _stun(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
          o: Out) -> None:
    """Lightning Blast: the wizard loses a turn (RB Number cards; FAQ lost turns); not one
    this hit is killing (his death follows once every hit has landed, cards.md §1.9)."""
    if victim.in_game and victim.life > 0:
        _lose_turn(state, victim, o)


def _burn_stones(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Fireball: if damage reached him, every magic stone he holds burns (cards.md fireball;
    FAQ: Bloodstone reduces the hit before it burns). A wizard this hit kills keeps his
    stones for the one who takes his cards (RB Combat, kill credit)."""
    if dmg <= 0 or not victim.in_game or victim.life <= 0:
        return
    burnt = [c for c in victim.hand  # an unknown face here is no stone: see State.face
             if (cd := C.BY_SLUG.get(state.face(c))) and cd.kind == C.STONE]
    if burnt:
        _discard_cards(state, burnt)
        o("burn", f"{victim.seat}'s magic stones burn")


def _drain(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Power Drain: the caster of this hit gains its full number, even if Blunted; nothing if
    all of it was stopped (DG §12; cards.md power-drain)."""
    w = state.wizard(credit)
    if w.in_game:
        w.life += value
        o("drain", f"{credit} drains {value} life", seat=credit)


def _nothing(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return 0


def _curse(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """A duration curse (Blind, No Spell, Slow, Lock in Place, Medusa): the condition lasts
    ``value`` of the victim's turns and ends at the start of one of its caster's turns
    (RB Number cards; FAQ; cards.md §1.6)."""
    if victim.in_game:
        _add_condition(victim, Condition(win.source, credit, value))
        o("condition", f"{victim.seat} is under {C.card(win.source).name} for {value} turn(s)",
          seat=victim.seat, condition=win.source)


def _stone_dead(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    """Stone Dead: N magical damage for each magic stone he holds, displayed or not (the
    stones counted become known to all). Source: cards.md stone-dead (AF)."""
    stones = [c for c in victim.hand
              if (cd := C.BY_SLUG.get(state.face(c))) and cd.kind == C.STONE]
    state.exposed.extend(stones)
    return value * len(stones)


def _swap_places(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Swap: caster and target trade squares, taking what they carry; entering effects
    apply (cards.md swap; DG §12)."""
    me = state.wizard(credit)
    if not (victim.in_game and me.in_game) or me.seat == victim.seat:
        return
    me.at, victim.at = victim.at, me.at
    o("move", f"{me.seat} and {victim.seat} swap places", seat=me.seat)
    # each opens its window in front: the later in seat order from the active player first,
    # so the earlier answers first (cards.md §1.5 Indirect damage)
    for w in reversed([x for x in _seat_order_from(state, state.turn.active)
                       if x.seat in (me.seat, victim.seat)]):
        if w.at in state.bushes:
            _enter_bush(state, w, o)


def _put_elsewhere(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                   credit: str, o: Out) -> None:
    """Teleport Opponent: the target is put on the chosen square if it is still vacant
    (cards.md teleport-opponent)."""
    sq = parse_square(win.arg)
    if victim.in_game and _vacant(state, sq):
        victim.at = sq
        o("move", f"{victim.seat} is teleported to {win.arg}", seat=victim.seat,
          path=[win.arg])


def _steal(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Thought Steal: the caster of this hit takes N cards at random from the victim's hand;
    displayed cards go back into the hand first. Against Reflection each side takes half
    from the other (cards.md thought-steal, §1.4; DG §12)."""
    thief = state.wizard(credit)
    if not (victim.in_game and thief.in_game):
        return
    victim.displayed.clear()
    taken = 0
    for _ in range(value):
        if not victim.hand:
            break
        c = _pick(state, list(victim.hand))
        victim.hand.remove(c)
        thief.hand.append(c)
        taken += 1
    o("steal", f"{credit} takes {taken} card(s) from {victim.seat}", seat=credit)


def _erase(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Card Erasure: if the target holds the named card, in hand or displayed, he discards
    one copy; if not, everyone learns it missed (cards.md card-erasure)."""
    c = state.find_in_hand(victim.seat, win.arg)
    if c is None:
        o("miss", f"{victim.seat} holds no {C.card(win.arg).name}", seat=victim.seat)
        return
    _discard_cards(state, [c])
    o("discard", f"{victim.seat} loses his {C.card(win.arg).name}", seat=victim.seat,
      card=win.arg)


def _drop_things(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Drop Object: the target drops up to N of the things named (treasures or objects he
    holds) in his own square; names he does not hold are wasted (RB Objects; cards.md
    drop-object)."""
    if not victim.in_game or victim.at is None:
        return
    dropped = 0
    for name in win.arg.split(","):
        if dropped >= value:
            break
        if "." in name:
            if victim.carrying == name:
                victim.carrying = ""
                state.treasures[name] = victim.at
                dropped += 1
                o("drop", f"{victim.seat} drops {name}", seat=victim.seat)
            continue
        c = state.find_in_hand(victim.seat, name)
        if c is not None and C.card(name).kind in (C.OBJECT, C.STONE):
            _take_from_hand(victim, c)
            state.floor.append((victim.at, c))
            dropped += 1
            o("drop", f"{victim.seat} drops the {C.card(name).name}", seat=victim.seat)


def _read_mind(state: State, win: Window, victim: Wizard, value: int, dmg: int,
               credit: str, o: Out) -> None:
    """Telepath: the caster sees the victim's hand and must choose one card to take."""
    if not victim.in_game or not victim.hand:
        o("telepath", f"{credit} reads an empty mind")
        return
    victim.displayed.clear()
    state.shown.append([credit, list(victim.hand)])
    state.choice = [credit, victim.seat]
    o("telepath", f"{credit} sees {victim.seat}'s hand", seat=credit)


def _slow_death(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                credit: str, o: Out) -> None:
    """Slow Death: a permanent curse until the victim dies; every card he draws then costs
    him a tick of 1 magical damage (cards.md slow-death; AF)."""
    if victim.in_game and not any(c.slug == "slow-death" for c in victim.conditions):
        victim.conditions.append(Condition("slow-death", credit, 0))
        o("condition", f"{victim.seat} is cursed with Slow Death", seat=victim.seat)


def _go_away(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
             o: Out) -> None:
    """Go Away: the target makes a forced retreat of N squares away from the caster, at once
    (cards.md go-away; §1.8)."""
    src = state.wizard(credit).at
    if victim.in_game and src is not None:
        state.retreats.append([victim.seat, square_name(src), value])
        o("retreat", f"{victim.seat} must retreat {value} from {square_name(src)}",
          seat=victim.seat)


HIT_EFFECTS: dict[str, HitEffect] = {
    "punch": HitEffect(_points),
    "dagger": HitEffect(_points),
    "large-rock": HitEffect(_points),
    "wizardblade": HitEffect(_points),
    "fireball": HitEffect(_points, _burn_stones),
    "lightning-blast": HitEffect(_points, _stun),
    "powerthrust": HitEffect(_points_plus_two),
    "sudden-death": HitEffect(_points, fixed=10),
    "power-drain": HitEffect(_points, _drain),
    "waterbolt": HitEffect(_push_hit),
    "stone-dead": HitEffect(_stone_dead),
    "swap": HitEffect(_nothing, _swap_places, damage=False),
    "teleport-opponent": HitEffect(_nothing, _put_elsewhere, damage=False),
    "thought-steal": HitEffect(_nothing, _steal, damage=False),
    "telepath": HitEffect(_nothing, _read_mind, damage=False),
    "slow-death": HitEffect(_nothing, _slow_death, damage=False),
    "go-away": HitEffect(_nothing, _go_away, damage=False),
    "slow-death-tick": HitEffect(_points, credit=False),
    "card-erasure": HitEffect(_nothing, _erase, damage=False),
    "drop-object": HitEffect(_nothing, _drop_things, damage=False),
    **{c: HitEffect(_nothing, _curse, damage=False)
       for c in ("blind", "no-spell", "slow", "lock-in-place", "medusa")},
}


def _lose_turn(state: State, w: Wizard, o: Out) -> None:
    """A lost turn. If the active player loses a turn to his own reflected attack in his own
    turn, he loses the rest of the current turn (FAQ; cards.md §1.7); otherwise it adds up."""
    if w.seat == state.turn.active and not state.turn.ending:
        state.turn.lost_rest = True
        o("lost", f"{w.seat} loses the rest of this turn", seat=w.seat)
    else:
        w.lost_turns += 1
        o("lost", f"{w.seat} loses a turn", seat=w.seat)


def _hurt(state: State, w: Wizard, n: int, o: Out) -> None:
    """Take ``n`` points of damage. A wizard brought to 0 life or less does not die at once:
    damage from one event lands on every victim first, then ``victory._deaths`` takes them
    all (cards.md §1.9, One event, every victim; RB Combat)."""
    w.life -= n
    o("damage", f"{w.seat} takes {n} damage ({w.life} life left)", seat=w.seat, amount=n)
