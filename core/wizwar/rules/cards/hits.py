"""Hit effects of the attack cards: what one hit of each attack does to its victim, the
damage before counteractions and stones (``base``) and the effects that follow when not all
of it was stopped (``after``). Each attack card's record (``CardRules.hit``) names its own.

Sources: RB Combat; cards.md §1.4 (hit effects) and each attack row; FAQ.
"""

from __future__ import annotations

from core.wizwar import cards as C
from core.wizwar.board import parse_square, square_name
from core.wizwar.rules._common import (
    Out,
    _add_condition,
    _discard_cards,
    _pick,
    _seat_order_from,
    _take_from_hand,
    _vacant,
    thing_name,
)
from core.wizwar.rules.damage import _lose_turn
from core.wizwar.rules.movement import _away, _enter_bush, _push, _reverse
from core.wizwar.state import Condition, State, Window, Wizard


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
        o("condition", f"{victim.seat} is under {C.card(win.source).name} for "
          f"{C.counted(value, 'turn')}",
          seat=victim.seat, condition=win.source)


def _stone_dead(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    """Stone Dead: N magical damage for each magic stone he holds, displayed or not (the
    stones counted become known to all). Source: cards.md stone-dead (AF)."""
    stones = [c for c in victim.hand
              if (cd := C.BY_SLUG.get(state.face(c))) and cd.kind == C.STONE]
    state.show(stones)
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
    o("steal", f"{credit} takes {C.counted(taken, 'card')} from {victim.seat}", seat=credit)


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
                o("drop", f"{victim.seat} drops {thing_name(name)}", seat=victim.seat)
            continue
        c = state.find_in_hand(victim.seat, name)
        if c is not None and C.card(name).kind in (C.OBJECT, C.STONE):
            _take_from_hand(victim, c)
            state.floor.append((victim.at, c))
            dropped += 1
            o("drop", f"{victim.seat} drops the {C.card(name).name}", seat=victim.seat)


def _read_mind(state: State, win: Window, victim: Wizard, value: int, dmg: int,
               credit: str, o: Out) -> None:
    """Telepath: the caster sees the victim's hand and must choose one card to take (a chosen
    take, not a random one: displayed cards stay displayed; cards.md §1.4, telepath)."""
    if not victim.in_game or not victim.hand:
        o("telepath", f"{credit} reads an empty mind")
        return
    # no random take: displayed stones stay displayed (cards.md §1.4); one taken leaves the
    # display (_take_from_hand)
    state.show(list(victim.hand), to=credit)
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
