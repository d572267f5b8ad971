"""Movement: walking a path (doors, walls believed or not, Thornbush, Wall of Fire
crossed), boosts, pushes, and the forced retreat (Go Away and friends).

Sources: RB Movement; RB Doors; FAQ (first sight of an Illusion Wall); cards.md §1.8 (forced
moves), cards.md thornbush, wall-of-fire, go-away; DG §12.
"""

from __future__ import annotations

from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import DIRS, Edge, Square, edge_name, parse_square, square_name
from core.wizwar.rules._common import Out, _discard_cards, _final_number, _square, allowance
from core.wizwar.rules.hooks import (
    EdgeRules,
    edge_rules,
    moves_cap,
    rooted,
    through_bushes,
    through_doors,
)
from core.wizwar.rules.stack import _open_indirect
from core.wizwar.state import State, Wizard


def _step_ok(state: State, frm: Square, to: Square) -> tuple[Edge, str] | None:
    """The edge crossed stepping from ``frm`` to ``to`` (adjacent or joined by an exit/warp)
    and the side left by, or None if they are not joined."""
    for side in "nesw":
        nb = state.layout.neighbor(frm, side)
        if nb is not None and nb[0] == to:
            return nb[1], side
    return None


def _move(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Walk along a path. Source: RB Movement (3 squares, plus one number card; split around
    other actions); RB The Board (walls block; doors are locked and relock after passage);
    cards.md thornbush (entering stops you, 1 physical damage, a lost turn)."""
    t = state.turn
    if not a.targets:
        raise IllegalAction("move needs a path")
    if t.stopped:
        raise IllegalAction("you entered a thornbush: your movement is over this turn")
    if t.swapped:
        raise IllegalAction("you swapped places: Swap replaced your movement this turn")
    left = max(0, allowance(state, w) - t.moves_used)
    extra = max(0, len(a.targets) - left)
    if extra and not t.power_run:
        raise IllegalAction(f"you have {C.counted(left, 'square')} of movement left this turn")
    if extra and w.life - extra < 1:
        raise IllegalAction("Power Run: you cannot pay your last life point "
                            f"({C.counted(extra, 'extra square')} cost {extra} life)")
    cur = w.at
    assert cur is not None
    used_doors: list[Edge] = []
    bush_at: Square | None = None
    passed = False
    crossed: list[EdgeRules] = []  # creations walked through, in order
    walked = len(a.targets)
    for i, text in enumerate(a.targets):
        sq = _square(state, text)
        step = _step_ok(state, cur, sq)
        if step is None:
            if sq == cur:
                raise IllegalAction(f"you are already on {text}: a path lists the squares "
                                    "you enter")
            raise IllegalAction(f"{text} is not next to {square_name(cur)}")
        e, _side = step
        if e in state.edges:
            if e in t.open_doors and e not in used_doors:
                used_doors.append(e)
            elif t.pass_edge == edge_name(e) and not passed:
                passed = True  # Pass Through Wall: once this turn (cards.md)
            elif state.edges[e].kind.startswith("door") and through_doors(w):
                pass  # as mist you drift through doors, even jammed ones (cards.md mist-body)
            elif _own_door(state, w, e, cur, sq):
                pass  # the doors variant: your own sector's doors open for you (DG §11)
            elif (er := edge_rules(state.edges[e].kind)) is not None and \
                    er.crossable is not None and er.crossable(state, w, state.edges[e]):
                # a creation he may walk through (Wall of Fire, at a price; an Illusion Wall
                # he does not believe, though meeting it for the first time may stop him)
                if not dry and er.first_sight is not None and er.first_sight(state, w, e, o):
                    walked = i
                    break
                crossed.append(er)
            else:
                what = state.edges[e].kind
                if er is not None and er.blocks:
                    what = er.blocks  # a believer sees a wall
                raise IllegalAction(f"a {'locked door' if what.startswith('door') else what} "
                                    f"blocks the way at {edge_name(e)}")
        if sq in state.stones:
            raise IllegalAction(f"a stone block fills {text}")
        if sq in state.bushes and not through_bushes(w):
            if i != len(a.targets) - 1:
                raise IllegalAction(f"entering the thornbush at {text} ends the move")
            bush_at = sq
        cur = sq
    if dry:
        return
    w.at = cur
    t.moves_used += walked
    extra = max(0, walked - left)
    if extra:
        w.life -= extra  # a cost, not damage: no counteraction or stone applies
        o("run", f"{w.seat} pays {extra} life to run on", seat=w.seat)
    for e in used_doors:
        t.open_doors.remove(e)  # the door relocks behind you (RB The Board)
    if passed:
        t.pass_edge = ""
    o("move", f"{w.seat} moves to {square_name(cur)}", seat=w.seat,
      path=list(a.targets[:walked]))
    if bush_at is not None:
        _enter_bush(state, w, o)
    for er in crossed:  # each crossing is one damage event (cards.md §1.8)
        if er.cross_damage:
            o(er.cross_event[0], f"{w.seat} {er.cross_event[1]}", seat=w.seat)
            _open_indirect(state, [w], er.cross_damage, er.kind, physical=False, cause=w.seat)


def _own_door(state: State, w: Wizard, e: Edge, frm: Square, to: Square) -> bool:
    """The doors variant: a wizard opens the doors of his own sector without a key (the
    sector whose centre is his home base). Source: DG §11 (official variants)."""
    if not state.options.get("doors") or w.home is None:
        return False
    es = state.edges.get(e)
    if es is None or es.kind != "door":
        return False
    mine = state.layout.sector_of(w.home)
    return mine is not None and mine in (state.layout.sector_of(frm),
                                         state.layout.sector_of(to))


def _enter_bush(state: State, w: Wizard, o: Out) -> None:
    """Entering a thornbush: stop, 1 physical damage (indirect), lose the next turn.
    Source: cards.md thornbush (decided 1 damage); AF."""
    if w.seat == state.turn.active:
        state.turn.stopped = True
    w.lost_turns += 1
    o("bush", f"{w.seat} is caught in a thornbush and loses a turn", seat=w.seat)
    _open_indirect(state, [w], 1, "thornbush", physical=True, cause=state.turn.active)


def _boost(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Add one number card to this turn's movement, once a turn. Source: RB Movement."""
    if state.turn.boost:
        raise IllegalAction("you have already added a number card to your movement this turn")
    cid = state.find_in_hand(w.seat, str(a.number))
    if cid is None or not C.is_number(str(a.number)):
        raise IllegalAction(f"you hold no number card {a.number}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.boost = _final_number(state, w, a.number, "boost")
    o("boost", f"{w.seat} adds {a.number} to this turn's movement", seat=w.seat)


def _away(frm: Square, to: Square, given: str, leg: tuple[int, int] | None = None) -> str:
    """The direction "away from the caster": the axis of the larger distance (measured
    along ``leg``, the last straight leg of the LOS, when given); on a tie the caster names
    it with dir=, choosing one of the directions that lead away (any, when both stand in one
    square); without a tie dir= is refused, even naming the one direction, so each push has
    one spelling (cards.md §1.8: dir= is written on a tie).
    Raises ``IllegalAction`` for a missing or wrong dir=."""
    dx, dy = leg if leg is not None else (to[0] - frm[0], to[1] - frm[1])
    if given and given not in DIRS:
        raise IllegalAction("dir= must be n, e, s or w")
    if abs(dx) == abs(dy):
        away = ["e" if dx > 0 else "w", "s" if dy > 0 else "n"] if dx else list(DIRS)
        if not given:
            raise IllegalAction("the target is on a diagonal: name the push direction with "
                                f"dir={'|'.join(away)}")
        if given not in away:
            raise IllegalAction(f"dir={given} does not lead away from the caster "
                                f"(dir={' or dir='.join(away)})")
        return given
    d = ("e" if dx > 0 else "w") if abs(dx) > abs(dy) else ("s" if dy > 0 else "n")
    if given:  # one spelling per push: dir= is written on a tie only (cards.md §1.8)
        raise IllegalAction(f"the push goes {d}, away from the caster: dir= is only for a "
                            "target on a diagonal (cards.md §1.8)")
    return d


def _walk_distances(state: State, w: Wizard, src: Square) -> dict[Square, int]:
    """Walking distance from ``src`` over edges ``w`` could pass himself (no walls, closed
    doors or stone blocks), ignoring wizards and objects (cards.md §1.8 forced retreat)."""
    dist = {src: 0}
    queue = [src]
    for cur in queue:
        for side in "nesw":
            nb = state.layout.neighbor(cur, side)
            if nb is None or nb[0] in dist or nb[0] in state.stones:
                continue
            if not _can_cross(state, w, nb[1]):
                continue
            dist[nb[0]] = dist[cur] + 1
            queue.append(nb[0])
    return dist


def _can_cross(state: State, w: Wizard, e: Edge) -> bool:
    es = state.edges.get(e)
    if es is None:
        return True
    er = edge_rules(es.kind)
    if er is not None:
        return er.crossable is not None and er.crossable(state, w, es)
    return es.kind.startswith("door") and through_doors(w)


def _retreat_paths(state: State, w: Wizard, src: Square, n: int) -> list[tuple[Square, ...]]:
    """Every legal forced retreat: each step farther from ``src`` in walking distance, up to
    ``n`` steps, stopping early only when no legal step is left (or in a thornbush)."""
    if w.at is None or rooted(w):
        return []
    cap = moves_cap(w)
    if cap is not None:
        n = min(n, cap)
    dist = _walk_distances(state, w, src)
    out: list[tuple[Square, ...]] = []

    def grow(path: tuple[Square, ...]) -> None:
        cur = path[-1] if path else w.at
        steps = []
        if len(path) < n and not (path and cur in state.bushes and not through_bushes(w)):
            for side in "nesw":
                nb = state.layout.neighbor(cur, side)  # type: ignore[arg-type]
                if nb is None or nb[0] in state.stones or not _can_cross(state, w, nb[1]):
                    continue
                if dist.get(nb[0], -1) > dist.get(cur, 10**6):  # type: ignore[arg-type]
                    steps.append(nb[0])
        if not steps:
            if path:
                out.append(path)
            return
        for sq in steps:
            grow((*path, sq))

    grow(())
    return out


def _retreat(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Walk the forced retreat, out of turn: the wizard picks the path (cards.md §1.8 forced
    retreat; DG §12: the retreat happens out of the victims' turns)."""
    seat, frm, n = state.retreats[0]
    try:
        path = tuple(parse_square(t) for t in a.targets)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    legal = _retreat_paths(state, w, parse_square(frm), n)
    if path not in legal:
        raise IllegalAction(f"a forced retreat of {n} from {frm}: every step farther away, "
                            "as far as you can go")
    if dry:
        return
    state.retreats.pop(0)
    fires = 0
    cur = w.at
    for sq in path:
        step = _step_ok(state, cur, sq)  # type: ignore[arg-type]
        if step and step[0] in state.edges:
            fires += 1
        cur = sq
    w.at = path[-1]
    o("move", f"{w.seat} retreats to {square_name(w.at)}", seat=w.seat,
      path=[square_name(x) for x in path])
    if w.at in state.bushes and not through_bushes(w):
        _enter_bush(state, w, o)
    for _ in range(fires):
        _open_indirect(state, [w], 4, "wall-of-fire", physical=False, cause=w.seat)


def _reverse(d: str) -> str:
    return {"n": "s", "s": "n", "e": "w", "w": "e"}[d]


def _push(state: State, w: Wizard, d: str, n: int, o: Out) -> int:
    """Push N squares in direction d; each blocked square costs 1 magical damage, returned.
    Source: cards.md §1.8 (push; pushes cannot enter bush or stone squares)."""
    blocked = 0
    assert w.at is not None
    start = w.at
    for _ in range(n):
        nb = state.layout.neighbor(w.at, d)
        es = state.edges.get(nb[1]) if nb is not None else None
        er = edge_rules(es.kind) if es is not None else None
        through = es is not None and er is not None and er.crossable is not None and \
            er.crossable(state, w, es)
        if nb is None or (es is not None and not through) or \
                nb[0] in state.bushes or nb[0] in state.stones:
            blocked += 1
            continue
        if er is not None:
            blocked += er.cross_damage  # crossing a wall of fire costs its damage (§1.8)
        w.at = nb[0]
    if w.at != start:
        o("move", f"{w.seat} is pushed to {square_name(w.at)}", seat=w.seat,
          path=[square_name(w.at)])
    return blocked
