"""Creations and the board: attacking walls, doors and bushes; creating and destroying
walls, Thornbush, Fill Square with Stone, Wall of Fire, Waterwall, Illusion Wall; locks and
doors (Pick Lock, Master Key, Jam Lock, Remove Lock); Pass Through Wall; Dispel Creation;
rotating and relocating sectors.

Sources: RB Walls and Doors; cards.md §1.8 (creations), the rows of each of these cards;
FAQ; DG §10.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import cast

from core.engine import IllegalAction
from core.wizwar.actions import Action
from core.wizwar.board import (
    OPPOSITE,
    QUADRANTS,
    Edge,
    Square,
    edge_name,
    edge_word,
    parse_edge,
    rotate_local,
    sightlines,
    square_name,
)
from core.wizwar.rules._common import (
    Out,
    _creatable_square,
    _discard_cards,
    _door_of_square,
    _edge,
    _empty_edge,
    _neutral_edge,
    _number,
    _roll,
    _seat_order_from,
    _square,
)
from core.wizwar.rules.cards.counteractions import _block_edge
from core.wizwar.rules.hooks import (
    Answering,
    AnswerPlay,
    CardRules,
    EdgeRules,
    edge_rules,
    register,
)
from core.wizwar.rules.movement import _push
from core.wizwar.rules.rows import Near, Row, _near, _row
from core.wizwar.rules.sight import _sees, fixed_sight, has_los
from core.wizwar.rules.stack import _open_indirect, _other_side
from core.wizwar.state import (
    BUSH_HP,
    DOOR_HP,
    WALL_HP,
    Counter,
    EdgeState,
    State,
    Wizard,
    build_layout,
)


def _attackable_edge(state: State, e: Edge, seat: str = "") -> bool:
    """A wall or door stands there (a wall of fire cannot be attacked: cards.md §1.8; an
    illusion wall only by those who believe it)."""
    es = state.edges.get(e)
    if es is None:
        return False
    er = edge_rules(es.kind)
    return er is None or er.attackable is None or er.attackable(es, seat)


def _damage_edge(state: State, e: Edge, n: int, o: Out, by: str = "") -> None:
    """Points of damage to a wall or door; it stays damaged until destroyed (RB Combat).
    A believer who "destroys" an illusion wall stops believing it; it stays for the others
    (DG §12; cards.md illusion-wall)."""
    es = state.edges[e]
    es.hp -= n
    if es.hp <= 0 and (er := edge_rules(es.kind)) is not None and er.illusory:
        es.hp = WALL_HP
        if by in es.believe:
            es.believe.remove(by)
        o("edge", f"{by} sees through the illusion at {edge_name(e)}", edge=edge_name(e))
        return
    if es.hp <= 0:
        del state.edges[e]
        if e in state.turn.open_doors:
            state.turn.open_doors.remove(e)
        o("edge", f"the {edge_word(es.kind)} at {edge_name(e)} is destroyed", edge=edge_name(e))
    else:
        o("edge", f"the {edge_word(es.kind)} at {edge_name(e)} takes {n} ({es.hp} left)",
          edge=edge_name(e), hp=es.hp)


def _damage_bush(state: State, sq: Square, n: int, o: Out) -> None:
    hp = state.bushes[sq] - n
    if hp <= 0:
        del state.bushes[sq]
        o("bush", f"the thornbush at {square_name(sq)} is destroyed", square=square_name(sq))
    else:
        state.bushes[sq] = hp
        o("bush", f"the thornbush at {square_name(sq)} takes {n} ({hp} left)",
          square=square_name(sq))


def _create_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Create Wall: a permanent 20-point wall on an empty edge in LOS (measured to the edge's
    midpoint). Source: RB The Cards (LOS to the centre of the wall); cards.md create-wall."""
    e = _neutral_edge(state, w, a)
    if e in state.edges:
        raise IllegalAction(f"{a.targets[0]} is not empty")
    x, y, side = e
    if state.layout.neighbor((x, y), side) is None:
        raise IllegalAction(f"{a.targets[0]} is the board's edge")
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("wall", WALL_HP, created=True)
    o("edge", f"{w.seat} creates a wall at {edge_name(e)}", edge=edge_name(e))


def _destroy_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Destroy Wall: a wall or door in LOS is gone; every wizard in the two squares beside it
    takes 2 physical damage, indirect: not an attack, legal in round 1, no kill credit.
    Source: FAQ (Destroy Wall next to someone in round one is legal; second-hand kills give no
    cards); RB (Absorb or Blunt against a falling wall); cards.md destroy-wall (2 damage)."""
    e = _neutral_edge(state, w, a)
    if not _attackable_edge(state, e, w.seat):
        raise IllegalAction(f"there is no wall or door at {a.targets[0]}")
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    if (er := edge_rules(state.edges[e].kind)) is not None and er.illusory:
        # no falling damage; only he stops believing
        state.edges[e].believe.remove(w.seat)
        o("edge", f"{w.seat} sees through the illusion at {edge_name(e)}", edge=edge_name(e))
        return
    kind = state.edges.pop(e).kind
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("edge", f"{w.seat} destroys the {edge_word(kind)} at {edge_name(e)}", edge=edge_name(e))
    x, y, side = e
    beside = [(x, y)]
    nb = state.layout.neighbor((x, y), side)
    if nb is not None:
        beside.append(nb[0])
    victims = [v for v in _seat_order_from(state, state.turn.active) if v.at in beside]
    _open_indirect(state, victims, 2, "destroy-wall", physical=True, cause=w.seat)


def _pick_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Pick Lock: a locked, unjammed door of your square opens for your passage this turn;
    it relocks after you pass or when the turn ends. Not a spell.
    Source: RB The Board (doors locked at all times; relock after passage); cards.md."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if e in state.turn.open_doors:
        raise IllegalAction("that door is already open")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.open_doors.append(e)
    o("door", f"{w.seat} picks the lock of {edge_name(e)}", edge=edge_name(e))


def _thornbush(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Thornbush: a permanent bush (5 points) on an empty square in LOS.
    Source: RB (creations never on a home base or an occupied square); cards.md thornbush."""
    if a.number is not None or a.args:
        raise IllegalAction("thornbush takes only a square")
    if len(a.targets) != 1:
        raise IllegalAction("thornbush needs a square, e.g. @d4")
    sq = _square(state, a.targets[0])
    why = _creatable_square(state, sq)
    if why:
        raise IllegalAction(f"no thornbush at {a.targets[0]}: {why}")
    assert w.at is not None
    if not _sees(state, w, w.at, sq):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.bushes[sq] = BUSH_HP
    o("bush", f"{w.seat} grows a thornbush at {square_name(sq)}", square=square_name(sq))


def _open_door_card(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Master Key: opens an undamaged, unjammed door of your square for your passage this
    turn, like Pick Lock; it stays in hand and is displayed after its first use.
    Source: cards.md master-key (AF: any undamaged door; DG: Jam Lock beats it)."""
    e = _door_of_square(state, w, a)
    es = state.edges[e]
    if es.kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if es.hp < DOOR_HP:
        raise IllegalAction("the Master Key opens only an undamaged door")
    if e in state.turn.open_doors:
        raise IllegalAction("that door is already open")
    if dry:
        return
    if cid not in w.displayed:
        w.displayed.append(cid)
    state.turn.open_doors.append(e)
    o("door", f"{w.seat} unlocks {edge_name(e)} with the Master Key", edge=edge_name(e))


def _jam_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Jam Lock: a door of your square is jammed for good: Pick Lock, Master Key and Remove
    Lock no longer open it; it can still be destroyed. Not a spell. Source: cards.md jam-lock
    (DG: beats Master Key)."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is already jammed")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e].kind = "door-jammed"
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("door", f"{w.seat} jams the door at {edge_name(e)}", edge=edge_name(e))


def _remove_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Remove Lock: a door of your square stays open for good: movement and LOS pass.
    Source: RB The Board (only Remove Lock keeps a door open); cards.md remove-lock."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if dry:
        return
    _discard_cards(state, [cid])
    del state.edges[e]
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("door", f"{w.seat} removes the lock of {edge_name(e)}: it stays open", edge=edge_name(e))


def _stone_block(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Fill Square with Stone: a permanent stone block on an empty square in LOS; it blocks
    movement, LOS and throws and cannot be attacked. Source: RB (creation limits); cards.md."""
    if a.number is not None or a.args or len(a.targets) != 1:
        raise IllegalAction("fill-square-with-stone takes one square, e.g. @d4")
    sq = _square(state, a.targets[0])
    why = _creatable_square(state, sq)
    if why:
        raise IllegalAction(f"no stone at {a.targets[0]}: {why}")
    assert w.at is not None
    if not _sees(state, w, w.at, sq):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.stones.append(sq)
    state.stones.sort()
    o("stone-block", f"{w.seat} fills {square_name(sq)} with stone", square=square_name(sq))


def _dispel(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Dispel Creation: removes one magical creation in LOS: a created wall, a thornbush or a
    stone block (printed walls and doors are not creations). Source: DG; cards.md."""
    if a.number is not None or a.args or len(a.targets) != 1:
        raise IllegalAction("dispel-creation takes one square or side")
    text = a.targets[0]
    assert w.at is not None
    if ":" in text:
        e = _edge(state, text)
        es = state.edges.get(e)
        if es is None or not es.created:
            raise IllegalAction(f"there is no created wall at {text}")
        if not _sees(state, w, w.at, e):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        del state.edges[e]
        what = f"the created wall at {edge_name(e)}"
    else:
        sq = _square(state, text)
        if sq not in state.bushes and sq not in state.stones:
            raise IllegalAction(f"there is no creation at {text}")
        if not _sees(state, w, w.at, sq):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        if sq in state.bushes:
            del state.bushes[sq]
            what = f"the thornbush at {text}"
        else:
            state.stones.remove(sq)
            what = f"the stone block at {text}"
    _discard_cards(state, [cid])
    o("dispel", f"{w.seat} dispels {what}", seat=w.seat)


def _pass_through(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Pass Through Wall: once this turn you may step through one wall or door edge of your
    square (a normal step of movement). Source: cards.md pass-through-wall (decided)."""
    e = _neutral_edge(state, w, a)
    assert w.at is not None
    if e not in [k for _s, k in state.layout.edges_of(w.at)] or e not in state.edges:
        raise IllegalAction(f"{a.targets[0]} is not a wall or door of your square")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.pass_edge = edge_name(e)
    o("condition", f"{w.seat} may pass through {edge_name(e)} once", seat=w.seat)


def _wall_of_fire(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Wall of Fire: a permanent wall of fire on an empty edge in LOS; it blocks sight and
    throws, can be crossed at 4 magical damage, cannot be attacked. Source: RB (crossing a
    firewall is magical damage); cards.md wall-of-fire (decided: permanent, 4)."""
    e = _neutral_edge(state, w, a)
    _empty_edge(state, e, a.targets[0])
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("wall-of-fire", 0, created=True)
    o("edge", f"{w.seat} raises a wall of fire at {edge_name(e)}", edge=edge_name(e))


def _waterwall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Waterwall: a wall of water collapses at once on an empty edge (or a wall of fire,
    which it puts out) in LOS: every wizard in the two squares beside it is pushed N squares
    straight away from it, 1 magical damage per blocked square (indirect). Source: AF; FAQ
    (allowed on a wall of fire); cards.md waterwall, §1.8."""
    value, ncid = _number(state, w, a, "distance")
    if a.args or len(a.targets) != 1 or ":" not in a.targets[0]:
        raise IllegalAction("waterwall needs a side, e.g. @c3:e +2")
    e = _edge(state, a.targets[0])
    _empty_edge(state, e, a.targets[0], water=True)
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    _collapse_water(state, e, value, w.seat, o)


def _collapse_water(state: State, e: Edge, n: int, cause: str, o: Out) -> None:
    """The waterwall on ``e`` collapses: fire out, pushes away from the edge, each damaged
    wizard answering his damage as indirect damage, in seat order from the active player."""
    if e in state.edges and (er := edge_rules(state.edges[e].kind)) is not None and er.quenched:
        del state.edges[e]
        o("edge", f"the waterwall puts out the fire at {edge_name(e)}", edge=edge_name(e))
    x, y, side = e
    sides = {(x, y): OPPOSITE[side]}
    nb = state.layout.neighbor((x, y), side)
    if nb is not None:
        sides[nb[0]] = _entered_side(state, (x, y), side)
    hurt = []
    for v in _seat_order_from(state, state.turn.active):
        if v.at in sides:
            dmg = _push(state, v, sides[v.at], n, o)
            if dmg:
                hurt.append((v, dmg))
    o("water", f"a waterwall crashes down at {edge_name(e)}", edge=edge_name(e))
    for v, dmg in reversed(hurt):  # inserted in front: the first in seat order answers first
        _open_indirect(state, [v], dmg, "waterwall", physical=False, cause=cause)


def _entered_side(state: State, sq: Square, side: str) -> str:
    """The direction of travel on the far side of ``sq``'s ``side`` (rim links may turn it)."""
    link = state.layout.links.get((sq, side))
    return OPPOSITE[link[1]] if link is not None else side


def _illusion_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Illusion Wall: a fake wall on an empty edge in LOS. It blocks sight for everyone,
    always; the caster knows it is fake; every other player rolls the d4 the first time he
    sees it (1-2: he believes it, and treats it as a real 20-point wall for walking, pushes
    and attacks). Source: DG §12; cards.md illusion-wall (decided: d4 1-2, 20 points)."""
    e = _neutral_edge(state, w, a)
    _empty_edge(state, e, a.targets[0])
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("illusion-wall", WALL_HP, created=True, caster=w.seat,
                               rolled=[w.seat])
    o("edge", f"{w.seat} raises a wall at {edge_name(e)}", edge=edge_name(e))
    _illusion_rolls(state, o)


#: The inputs of the last first-sight scan that rolled nothing (per thread: bots think in
#: worker threads): ``(layout, inputs)``, see :func:`_sight_inputs`.
_QUIET = threading.local()


def _illusion_rolls(state: State, o: Out) -> None:
    """Everyone who sees an illusion wall for the first time rolls for belief, in seat order
    from its caster (DG §12: belief rolled per player at first sight).

    The scan runs after every action while such a wall stands; when everything it reads is
    what the last scan that rolled nothing read (:func:`_sight_inputs`), it would roll
    nothing again and is skipped (issue 14, seventh round: the incremental settle)."""
    walls = _unrolled_illusions(state)
    if not walls:
        return
    inputs = _sight_inputs(state, walls)
    if getattr(_QUIET, "layout", None) is state.layout and _QUIET.inputs == inputs:
        return
    with fixed_sight(state):  # rolls put up nothing: one check of what blocks for the scan
        rolls = _roll_for(state, walls, o)
    _QUIET.layout, _QUIET.inputs = (None, None) if rolls else (state.layout, inputs)


def _unrolled_illusions(state: State) -> list[Edge]:
    """The illusion walls someone in the game may still see for the first time (sorted):
    found by one list comprehension over the edges (on Python 3.11 its attribute reads are
    specialised: about 20% faster than the seventh round's list of kinds searched with
    ``list.count`` and ``list.index``, issue 14, eighth round). Source: DG §12 (belief rolled
    per player at first sight); cards.md illusion-wall."""
    edges = state.edges
    walls = [e for e, es in edges.items() if es.kind == "illusion-wall"]
    if not walls:
        return walls
    wz = state.wizards
    # (a wall nobody is left to see for the first time is left out)
    walls = [e for e in walls
             if not all(x.seat in edges[e].rolled or x.at is None or not x.in_game for x in wz)]
    walls.sort()
    return walls


def _sight_inputs(state: State, walls: list[Edge]) -> tuple[object, ...]:
    """Everything :func:`_roll_for` reads to decide who rolls, by value: the walls with their
    casters and who rolled already; each wizard's seat, square, whether he is in the game and
    blind; and all that a line of sight reads (``rules.sight._clear_line``): the walls and
    doors standing, the doors held open, the thornbushes and the stone blocks (the board's
    layout is compared by identity beside it). Equal inputs, the same rolls."""
    edges = state.edges
    return (tuple((e, edges[e].caster, tuple(edges[e].rolled)) for e in walls),
            tuple((x.seat, x.at, x.in_game, x.has("blind")) for x in state.wizards),
            tuple(edges), tuple(state.turn.open_doors), tuple(state.bushes),
            tuple(state.stones))


def _roll_for(state: State, walls: list[Edge], o: Out) -> int:
    """The first-sight rolls of :func:`_illusion_rolls` for ``walls`` (sorted), each with
    someone left to roll (a roll changes nobody's position); returns how many were rolled.
    Source: DG §12; cards.md illusion-wall."""
    rolls = 0
    for e in walls:
        es = state.edges[e]
        for v in _seat_order_from(state, es.caster) if state.wizard(es.caster).in_game \
                else [x for x in state.wizards if x.in_game]:
            if v.seat in es.rolled or v.at is None or v.has("blind"):
                continue
            if not has_los(state, v.at, e):
                continue
            roll = _roll(state)
            rolls += 1
            es.rolled.append(v.seat)
            if roll <= 2:
                es.believe.append(v.seat)
            o("illusion", _belief_text(v.seat, e, roll), seat=v.seat, roll=roll)
    return rolls


def _belief_text(seat: str, e: Edge, roll: int) -> str:
    """The event of a first sight of an illusion wall: the roll and what it means (1-2:
    he believes it, 3-4: he sees through it; cards.md illusion-wall)."""
    what = "believes it" if roll <= 2 else "sees through it"
    return f"{seat} first sees the Illusion Wall at {edge_name(e)}: rolls {roll}, {what}"


def _reshape_board(state: State, spec: dict, moving: Callable[[Square], int | None],
                   to_new: Callable[[Square, str | None], tuple[Square, str | None]]) -> None:
    """Rebuild the board from ``spec`` after sectors moved or turned, carrying everything
    with them: wizards, home bases, treasures, objects, creations, and every edit of an edge
    (damage, created or destroyed walls, jammed doors). An edit inside a moving sector moves
    with it; one on its seam or rim moves with it on a d4 of 1-2, else it stays where it was.
    ``moving(sq)`` names the moving sector of a square (None if it stays); ``to_new`` maps a
    square and side of a moving sector to the new board. Source: RB The Board (Rotate and
    Relocate; the 50/50 roll for a changed junction, DG §8)."""
    lay = state.layout
    new = build_layout(spec)
    edits: dict[Edge, EdgeState | None] = {}
    for e in sorted(set(state.edges) | set(lay.printed)):
        now, printed = state.edges.get(e), lay.printed.get(e)
        pristine = now is not None and printed is not None and now.kind == printed and \
            not now.created and now.hp == (WALL_HP if printed == "wall" else DOOR_HP)
        if not pristine and not (now is None and printed is None):
            edits[e] = now
    edges = {e: EdgeState(kind, WALL_HP if kind == "wall" else DOOR_HP)
             for e, kind in sorted(new.printed.items())}
    for e, now in edits.items():
        phys = lay.physical_edges(e)
        ins = [(sq, side) for sq, side in phys if moving(sq) is not None]
        target = e
        if ins:
            whole = len(ins) == len(phys) and len({moving(sq) for sq, _s in phys}) == 1
            if whole or _roll(state) <= 2:
                tsq, tside = to_new(*ins[0])
                target = new.edge_key(tsq, str(tside))
        if now is None:
            edges.pop(target, None)
        else:
            edges[target] = now

    def mv(sq: Square | None) -> Square | None:
        return to_new(sq, None)[0] if sq is not None and moving(sq) is not None else sq

    state.layout, state.layout_spec, state.edges = new, spec, edges
    state.turn.open_doors = []
    for x in state.wizards:
        x.at, x.home = mv(x.at), mv(x.home)
    state.treasures = {t: mv(sq) for t, sq in state.treasures.items()}
    state.floor = [(mv(sq), c) for sq, c in state.floor]  # type: ignore[misc]
    state.bushes = {mv(sq): hp for sq, hp in state.bushes.items()}  # type: ignore[misc]
    state.stones = sorted(cast(Square, mv(sq)) for sq in state.stones)


def _rotate_sector(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Rotate Sector: turn one sector 90, 180 or 270 degrees clockwise about its centre, with
    everything on it (see :func:`_reshape_board`). The AUTO WARP is not affected.
    Source: RB The Board (rotation); cards.md rotate-sector."""
    lay = state.layout
    if a.number is not None or len(a.targets) != 1 or any(k != "turn" for k, _ in a.args):
        raise IllegalAction("rotate-sector takes a sector and turn=90|180|270, e.g. @ne turn=90")
    if not lay.placements or a.targets[0] not in lay.placements:
        raise IllegalAction(f"name a sector of this board: {', '.join(lay.placements) or '-'}")
    if a.arg("turn") not in ("90", "180", "270"):
        raise IllegalAction("turn=90, 180 or 270 (clockwise)")
    if dry:
        return
    _discard_cards(state, [cid])
    p = lay.placements.index(a.targets[0])
    k = int(a.arg("turn")) // 90
    ox, oy = lay.sector_origin[p]
    n = lay.sector_size

    def moving(sq: Square) -> int | None:
        return p if ox <= sq[0] < ox + n and oy <= sq[1] < oy + n else None

    def to_new(sq: Square, side: str | None) -> tuple[Square, str | None]:
        (x, y), s2 = rotate_local((sq[0] - ox, sq[1] - oy), side, k, n)
        return (ox + x, oy + y), s2

    spec = dict(state.layout_spec)
    rots = list(spec.get("rotations") or [0] * len(lay.placements))
    rots[p] = (rots[p] + k) % 4
    spec["rotations"] = rots
    _reshape_board(state, spec, moving, to_new)
    o("sector", f"{w.seat} turns the {a.targets[0]} sector {a.arg('turn')} degrees",
      seat=w.seat)


def _relocate_sector(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Relocate Sector: a sector swaps places with another (``@nw to=se``), or on a 3-player
    board moves into the empty place, everything on it moving along and its orientation kept
    (see :func:`_reshape_board`). Not in 2-player games (taken out at setup, FAQ). On a
    3-player board any relocation discards the AUTO WARP for good: from then on only opposite
    board edges connect. Source: RB The Board ("If a sector gets RELOCATED ... the AUTO WARP
    is discarded, and only opposite board edges connect"); cards.md relocate-sector."""
    lay = state.layout
    if a.number is not None or len(a.targets) != 1 or any(k != "to" for k, _ in a.args):
        raise IllegalAction("relocate-sector takes a sector and to=, e.g. @nw to=se")
    src, dst = a.targets[0], a.arg("to")
    if src not in lay.placements:
        raise IllegalAction(f"name a sector of this board: {', '.join(lay.placements) or '-'}")
    into_hole = len(lay.placements) == 3 and dst in QUADRANTS and dst not in lay.placements
    if dst not in lay.placements and not into_hole:
        raise IllegalAction(f"to= must be another sector: {', '.join(lay.placements)}")
    if dst == src:
        raise IllegalAction("to= must be another sector")
    if dry:
        return
    _discard_cards(state, [cid])
    p = lay.placements.index(src)
    n = lay.sector_size
    spec = dict(state.layout_spec)
    if into_hole:
        origin = {p: lay.sector_origin[p]}
        dest = {p: QUADRANTS[dst]}
        places = list(lay.placements)
        places[p] = dst
        spec["places"] = places
    else:
        q = lay.placements.index(dst)
        origin = {p: lay.sector_origin[p], q: lay.sector_origin[q]}
        dest = {p: origin[q], q: origin[p]}
        ids = list(spec["sectors"])
        rots = list(spec.get("rotations") or [0] * len(ids))
        ids[p], ids[q] = ids[q], ids[p]
        rots[p], rots[q] = rots[q], rots[p]
        spec["sectors"], spec["rotations"] = ids, rots
    if len(lay.placements) == 3:
        spec["warp"] = 0

    def moving(sq: Square) -> int | None:
        for i, (ox, oy) in origin.items():
            if ox <= sq[0] < ox + n and oy <= sq[1] < oy + n:
                return i
        return None

    def to_new(sq: Square, side: str | None) -> tuple[Square, str | None]:
        i = moving(sq)
        (fx, fy), (tx, ty) = origin[i], dest[i]  # type: ignore[index]
        return (sq[0] - fx + tx, sq[1] - fy + ty), side

    _reshape_board(state, spec, moving, to_new)
    o("sector", f"{w.seat} moves the {src} sector to {dst}", seat=w.seat)


def _illusion_first_sight(state: State, w: Wizard, e: Edge, o: Out) -> bool:
    """A walker about to cross an illusion wall he has never rolled for sees it now: he rolls
    (1-2: he believes it) unless he is blind. True if he now believes it.
    Source: DG §12 (belief rolled per player at first sight); cards.md illusion-wall."""
    es = state.edges[e]
    if w.seat in es.rolled or w.has("blind"):
        return False
    roll = _roll(state)
    es.rolled.append(w.seat)
    if roll <= 2:
        es.believe.append(w.seat)
    o("illusion", _belief_text(w.seat, e, roll), seat=w.seat, roll=roll)
    return roll <= 2


#: Wall of Fire on an edge: crossed at 4 magical damage (walking, pushed, dragged or in a
#: retreat), never attacked, put out by a Waterwall; it blocks sight and throws like any
#: wall. Source: RB (crossing a firewall is magical damage); FAQ (Waterwall on it);
#: cards.md wall-of-fire (decided: permanent, 4), §1.8.
WALL_OF_FIRE = EdgeRules(
    "wall-of-fire", crossable=lambda state, w, es: True, cross_damage=4,
    cross_event=("fire", "crosses a wall of fire"), attackable=lambda es, seat: False,
    quenched=True)

#: Illusion Wall on an edge: it blocks sight for everyone; a wizard who believes it treats it
#: as a real 20-point wall (walking, pushes, attacks); one who does not walks through it,
#: after his first-sight roll; "destroying" it only ends the destroyer's belief.
#: Source: DG §12; cards.md illusion-wall (decided: d4 1-2, 20 points).
ILLUSION_WALL = EdgeRules(
    "illusion-wall", crossable=lambda state, w, es: w.seat not in es.believe,
    attackable=lambda es, seat: seat in es.believe, illusory=True, blocks="wall",
    first_sight=_illusion_first_sight, settle=_illusion_rolls)



def _block_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Wall of Fire or Waterwall as a block: on an empty edge the attack's line crosses;
    a Waterwall with its distance (cards.md wall-of-fire, waterwall: blocks; §1.3)."""
    target = _block_edge(state, q.win, w, a)
    if a.card == "waterwall":
        value, ncid = _number(state, w, a, "distance")
        return AnswerPlay(-1, target, value, ncid)
    if a.number is not None:  # it was accepted and the number card ignored
        raise IllegalAction("wall-of-fire takes no number card (cards.md §1.3)")
    return AnswerPlay(-1, target)


def _fire_block(state: State, c: Counter, o: Out) -> None:
    """Wall of Fire as a block: it stands on the edge the attack's line crosses (cards.md
    wall-of-fire, decided: blocks)."""
    e = parse_edge(c.target)
    state.edges[e] = EdgeState("wall-of-fire", 0, created=True)
    o("edge", f"{c.player} blocks with a wall of fire at {c.target}", edge=c.target)


def _water_block(state: State, c: Counter, o: Out) -> None:
    """Waterwall as a block: it collapses on the edge the attack's line crosses (cards.md
    waterwall, decided: blocks; §1.8)."""
    _collapse_water(state, parse_edge(c.target), c.value, c.player, o)


# ---------------------------------------------------------------------------------------
# candidate actions (legal_actions asks these; the far targets are reach.py's)
# ---------------------------------------------------------------------------------------
def _own_square_edge_rows(state: State, n: Near, s: str) -> list[Row]:
    """The card on each wall or door of its holder's square (Pick Lock, Pass Through Wall,
    the lock tools); Master Key can also be dropped."""
    assert n.at is not None
    out = [_row(n.seat, "play", s, (edge_name(e),))
           for _side, e in state.layout.edges_of(n.at) if e in state.edges]
    if s == "master-key":
        out.append(_row(n.seat, "drop", targets=(s,)))
    return out


def _square_near_rows(state: State, n: Near, s: str) -> list[Row]:
    """The card on each square within 3 (Thornbush, Fill Square with Stone)."""
    assert n.at is not None
    return [_row(n.seat, "play", s, (square_name(sq),)) for sq in _near(state, n.at, 3)]


def _dispel_rows(state: State, n: Near, s: str) -> list[Row]:
    """Dispel Creation on each created edge, bush and stone."""
    out = [_row(n.seat, "play", s, (edge_name(e),)) for e, es in state.edges.items()
           if es.created]
    out += [_row(n.seat, "play", s, (square_name(sq),))
            for sq in [*state.bushes, *state.stones]]
    return out


def _edge_creation_rows(state: State, n: Near, s: str) -> list[Row]:
    """Wall of Fire, Waterwall (with each number) or Illusion Wall on each empty edge of the
    squares within 2."""
    assert n.at is not None
    out = []
    for sq in _near(state, n.at, 2):
        for _side, e in state.layout.edges_of(sq):
            if e not in state.edges:
                out += [_row(n.seat, "play", s, (edge_name(e),), k)
                        for k in (n.nums if s == "waterwall" else [None])]
    return out


def _create_wall_rows(state: State, n: Near, s: str) -> list[Row]:
    """Create Wall on each empty edge of the squares within 3."""
    assert n.at is not None
    return [_row(n.seat, "play", s, (edge_name(e),)) for sq in _near(state, n.at, 3)
            for _side, e in state.layout.edges_of(sq) if e not in state.edges]


def _destroy_wall_rows(state: State, n: Near, s: str) -> list[Row]:
    """Destroy Wall on each wall and door."""
    return [_row(n.seat, "play", s, (edge_name(e),)) for e in state.edges]


def _relocate_rows(state: State, n: Near, s: str) -> list[Row]:
    """Relocate Sector: each sector to each other place (an empty quadrant too, with 3)."""
    pls = state.layout.placements
    dests = list(pls) + ([q for q in QUADRANTS if q not in pls] if len(pls) == 3 else [])
    return [_row(n.seat, "play", s, (x,), args=(("to", y),))
            for x in pls for y in dests if x != y]


def _rotate_rows(state: State, n: Near, s: str) -> list[Row]:
    """Rotate Sector: each sector by each quarter turn."""
    return [_row(n.seat, "play", s, (pl,), args=(("turn", t),))
            for pl in state.layout.placements for t in ("90", "180", "270")]


def _block_rows(state: State, n: Near, s: str) -> list[Row]:
    """Wall of Fire or Waterwall (with each number) as a block, on each edge of the first
    line of sight from the other side: the attacker, or for an attacker whose attack was
    turned on him, the one who turned it (the far lines are reach.answer_rows')."""
    win = state.windows[0]
    if win.kind != "attack":
        return []
    att = state.wizard(_other_side(win, n.seat))
    out: list[Row] = []
    if att.at is not None and n.at is not None and att.at != n.at:
        for sl in sightlines(state.layout, att.at, n.at)[:1]:
            for e in sl.edges:
                out += [_row(n.seat, "play", s, (edge_name(e),), k)
                        for k in ([None, *n.numbers] if s == "waterwall" else [None])]
    return out


# ---------------------------------------------------------------------------------------
# the creation and board cards' records
# ---------------------------------------------------------------------------------------
register(
    CardRules("create-wall", candidates=_create_wall_rows, play=_create_wall,
              source="RB The Cards; cards.md create-wall"),
    CardRules("destroy-wall", candidates=_destroy_wall_rows, play=_destroy_wall,
              source="FAQ; cards.md destroy-wall"),
    CardRules("pick-lock", candidates=_own_square_edge_rows, play=_pick_lock,
              source="cards.md pick-lock"),
    CardRules("master-key", candidates=_own_square_edge_rows, play=_open_door_card,
              source="cards.md master-key"),
    CardRules("jam-lock", candidates=_own_square_edge_rows, play=_jam_lock,
              source="cards.md jam-lock"),
    CardRules("remove-lock", candidates=_own_square_edge_rows, play=_remove_lock,
              source="cards.md remove-lock"),
    CardRules("thornbush", candidates=_square_near_rows, play=_thornbush,
              source="cards.md thornbush"),
    CardRules("fill-square-with-stone", candidates=_square_near_rows, play=_stone_block,
              source="cards.md fill-square-with-stone"),
    CardRules("dispel-creation", candidates=_dispel_rows, play=_dispel,
              source="cards.md dispel-creation"),
    CardRules("rotate-sector", candidates=_rotate_rows, play=_rotate_sector,
              source="RB The Board; cards.md rotate-sector"),
    CardRules("relocate-sector", candidates=_relocate_rows, play=_relocate_sector,
              source="RB The Board; cards.md relocate-sector"),
    CardRules("illusion-wall", candidates=_edge_creation_rows, play=_illusion_wall,
              edge=ILLUSION_WALL, source="DG §12; cards.md illusion-wall"),
    CardRules("wall-of-fire", answer=_block_answer, answer_targets=True,
              candidates=_edge_creation_rows, answers=_block_rows, play=_wall_of_fire,
              edge=WALL_OF_FIRE, stops=True, escape=True, on_stop=_fire_block,
              source="RB; cards.md wall-of-fire"),
    CardRules("waterwall", answer=_block_answer, answer_targets=True,
              candidates=_edge_creation_rows, answers=_block_rows, play=_waterwall, stops=True,
              escape=True, on_stop=_water_block, source="AF; FAQ; cards.md waterwall, §1.8"),
    CardRules("pass-through-wall", candidates=_own_square_edge_rows, play=_pass_through,
              source="cards.md pass-through-wall"),
)
