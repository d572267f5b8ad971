"""Attack cards and punches: punching, point attacks (Fireball, Lightning Blast,
Powerthrust, Sudden Death), Waterbolt, weapons (Dagger, Large Rock, Wizardblade), the
player spells (Blind, Medusa, Swap, Telepath...), Ugly, Drag, and Telepath's choice.

Sources: RB Combat; cards.md §1.1-1.5 and each attack row; FAQ.
"""

from __future__ import annotations

from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import Square, edge_name, parse_square, square_name
from core.wizwar.rules._common import (
    Out,
    _attack_target,
    _check_attack,
    _discard_cards,
    _displayed,
    _edge,
    _may_attack,
    _number,
    _seat_order_from,
    _square,
    _take_from_hand,
    _target_wizard,
    _vacant,
)
from core.wizwar.rules.cards.creations import _attackable_edge, _damage_bush, _damage_edge
from core.wizwar.rules.cards.hits import (
    _burn_stones,
    _curse,
    _drain,
    _drop_things,
    _erase,
    _go_away,
    _nothing,
    _points,
    _points_plus_two,
    _push_hit,
    _put_elsewhere,
    _read_mind,
    _slow_death,
    _steal,
    _stone_dead,
    _stun,
    _swap_places,
)
from core.wizwar.rules.hooks import CardRules, EdgeRules, HitEffect, edge_rules, register
from core.wizwar.rules.movement import _away, _enter_bush, _move, _step_ok
from core.wizwar.rules.objects import _throw_landing
from core.wizwar.rules.rows import Near, Row, _bare_rows, _each_other_rows, _near, _row
from core.wizwar.rules.sight import _clear_line, _sees, has_los
from core.wizwar.rules.stack import _declare, _open_indirect
from core.wizwar.state import Condition, State, Window, Wizard


def _punch(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Punch: no card, the turn's one attack, 1 damage to a wizard in your square, or to a wall
    or door on a side of your square, or a thornbush in your or an open next square.
    Source: RB Combat (punch; walls 20, doors 15; attacks on objects use the attack)."""
    text = a.targets[0]
    at = w.at
    assert at is not None
    if text.startswith("P") and "." not in text:
        target = _target_wizard(state, text)
        _check_attack(state, w, target, a.card)
        if target.at != at:
            raise IllegalAction(f"{text} is not in your square")
        if dry:
            return
        _declare(state, w, target, "punch", None, None, 1, o, physical=True)
        return
    if ":" in text:
        e = _edge(state, text)
        if e not in [k for _s, k in state.layout.edges_of(at)]:
            raise IllegalAction(f"{text} is not a side of your square")
        if not _attackable_edge(state, e, w.seat):
            raise IllegalAction(f"there is no wall or door to attack at {text}")
        _check_attack(state, w, None)
        if dry:
            return
        state.turn.attacked = True
        _damage_edge(state, e, 1, o, w.seat)
        return
    sq = _square(state, text)
    if sq not in state.bushes:
        raise IllegalAction(f"there is no thornbush at {text}")
    if sq != at:
        step = _step_ok(state, at, sq)
        if step is None or step[0] in state.edges:
            raise IllegalAction(f"the thornbush at {text} is not next to you")
    _check_attack(state, w, None)
    if dry:
        return
    state.turn.attacked = True
    _damage_bush(state, sq, 1, o)


def _point_attack(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Fireball, Lightning Blast, Powerthrust, Sudden Death: a wizard, or a wall, door or
    thornbush in LOS (cards.md §1.8: only these spells' points hurt walls).
    Source: RB Combat (walls/doors/bushes take points; attacking them is the turn's attack);
    RB Number cards (power); cards.md rows."""
    cd = C.card(a.card)
    value, ncid = _number(state, w, a, cd.number)
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target")
    text = a.targets[0]
    at = w.at
    assert at is not None
    pts = {"powerthrust": value + 2, "sudden-death": 10}.get(a.card, value)
    if a.args:
        raise IllegalAction(f"{a.card} takes no {a.args[0][0]}=")
    if ":" in text:
        e = _edge(state, text)
        if not _attackable_edge(state, e, w.seat):
            raise IllegalAction(f"there is no wall or door to attack at {text}")
        _check_attack(state, w, None)
        if not _sees(state, w, at, e):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        state.turn.attacked = True
        _discard_cards(state, [cid, ncid])
        o("attack", f"{w.seat} casts {cd.name} at {text}", seat=w.seat)
        _damage_edge(state, e, pts, o, w.seat)
        return
    if not text.startswith("P"):
        sq = _square(state, text)
        if sq not in state.bushes:
            raise IllegalAction(f"there is nothing to attack at {text}")
        _check_attack(state, w, None)
        if not _sees(state, w, at, sq):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        state.turn.attacked = True
        _discard_cards(state, [cid, ncid])
        o("attack", f"{w.seat} casts {cd.name} at the thornbush at {text}", seat=w.seat)
        _damage_bush(state, sq, pts, o)
        return
    target = _target_wizard(state, text)
    _check_attack(state, w, target, a.card)
    assert target.at is not None
    if not _sees(state, w, at, target.at):
        raise IllegalAction(f"no line of sight to {text} (RB The Cards: L.O.S.)")
    if dry:
        return
    _declare(state, w, target, a.card, cid, ncid, value, o)


def _waterbolt(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Waterbolt: push the target N squares away from the caster, 1 magical damage per
    blocked square. Source: cards.md waterbolt, §1.8 (push; away from the caster)."""
    value, ncid = _number(state, w, a, "distance")
    target = _attack_target(state, w, a)
    _check_attack(state, w, target, a.card)
    assert w.at is not None and target.at is not None
    if not _sees(state, w, w.at, target.at):
        raise IllegalAction(f"no line of sight to {target.seat}")
    d = _away(w.at, target.at, a.arg("dir"), _last_leg(state, w, w.at, target.at))
    for k, _v in a.args:
        if k != "dir":
            raise IllegalAction(f"waterbolt takes no {k}=")
    if dry:
        return
    _declare(state, w, target, "waterbolt", cid, ncid, value, o, push_dir=d)


def _last_leg(state: State, w: Wizard, frm: Square, to: Square) -> tuple[int, int]:
    """The direction of the last straight leg of ``w``'s line of sight from ``frm`` to
    ``to`` (board coordinates, doubled units): through an exit or warp the part beyond the
    rim crossing; after Around the Corner the leg from the pivot. Falls back on the plain
    difference when no clear line is found. Source: cards.md §1.8 ("When the LOS runs
    through an exit or warp, it is measured along the last straight leg of the LOS")."""
    through = 1 if _displayed(state, w, "visionstone") else 0
    if state.turn.active == w.seat and not state.windows:
        for slug, pivot in state.turn.modifiers:
            if slug == "around-the-corner":
                frm = parse_square(str(pivot))
    if frm == to:
        return (0, 0)
    sl = _clear_line(state, frm, to, through)
    if sl is not None and sl.leg != (0, 0):
        return sl.leg
    return (2 * (to[0] - frm[0]), 2 * (to[1] - frm[1]))


def _weapon(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Dagger and Large Rock (objects, not spells; physical damage).
    Dagger: stab a wizard in your square (2), or throw it (mode=throw) at one in LOS (2), after
    which it lies in his square. Large Rock: thrown at a wizard in LOS (3), lands in his
    square. Thrown at a square instead they do no damage and are no attack.
    Wizardblade: strikes a wizard in your square for 3 magical damage and stays in hand.
    Source: RB Objects (thrown objects land in the target square or before a barrier); FAQ
    (thrown objects do no damage unless the card says so); cards.md dagger, large-rock,
    wizardblade."""
    if a.number is not None:
        raise IllegalAction(f"{a.card} takes no number card")
    mode = a.arg("mode")
    if mode not in ("", "throw") or any(k != "mode" for k, _ in a.args):
        raise IllegalAction("the only argument here is mode=throw")
    if a.card == "large-rock":
        if mode:  # one form per action, as cards.md writes it (P1 play large-rock @P2)
            raise IllegalAction("a Large Rock is always thrown: leave out mode=throw")
        mode = "throw"
    if a.card == "wizardblade" and mode == "throw" and a.targets and \
            a.targets[0].startswith("P"):
        raise IllegalAction("a thrown Wizardblade does no damage: throw it at a square")
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target")
    text = a.targets[0]
    at = w.at
    assert at is not None
    if not text.startswith("P"):
        sq = _square(state, text)
        if mode != "throw":
            raise IllegalAction("to throw it at a square, say mode=throw")
        land = _throw_landing(state, at, sq)
        if dry:
            return
        _take_from_hand(w, cid)
        state.floor.append((land, cid))
        o("throw", f"{w.seat} throws the {C.card(a.card).name} to {square_name(land)}",
          seat=w.seat)
        return
    target = _target_wizard(state, text)
    _check_attack(state, w, target, a.card)
    assert target.at is not None
    if mode == "throw":
        if not has_los(state, at, target.at):
            raise IllegalAction(f"no line of sight to {text}")
    elif target.at != at:
        raise IllegalAction(f"{text} is not in your square (throw it with mode=throw)")
    if dry:
        return
    value = {"large-rock": 3, "wizardblade": 3}.get(a.card, 2)
    # the Wizardblade's cut is magical (RB: it counts as magical damage)
    _declare(state, w, target, a.card, cid, None, value, o, mode=mode,
             physical=a.card != "wizardblade")


def _drop_names(state: State, text: str, value: int) -> str:
    """Drop Object's ``drop=`` list checked: 1..N different names (N the card's count, 1
    without a number card), each a treasure or an object or magic stone slug, in canonical
    (sorted) order; a name the target does not hold is wasted, so naming more than N cannot
    be (our reading of cards.md drop-object: "up to N things named by the caster ... names he
    does not hold are wasted"). Returns the list's text. Raises :class:`IllegalAction`."""
    names = [x for x in text.split(",") if x]
    if not names:
        raise IllegalAction("name what he drops: drop=P3.t1,dagger")
    for x in names:
        if "." in x:
            if x not in state.treasures:
                raise IllegalAction(f"{x} is not a treasure of this game")
        elif x not in C.BY_SLUG or C.card(x).kind not in (C.OBJECT, C.STONE):
            raise IllegalAction(f"{x} is not a treasure or an object")
    if len(set(names)) != len(names):
        raise IllegalAction("name each thing once")
    if len(names) > value:
        raise IllegalAction(f"Drop Object names up to {value} thing{'s' * (value != 1)} "
                            f"here ({len(names)} named): its number card sets how many")
    if names != sorted(names):
        raise IllegalAction(f"write the names in order: drop={','.join(sorted(names))}")
    return ",".join(names)


def _player_spell(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """An attack spell on a wizard in LOS, its number from the card's number use (Power
    Drain, Stone Dead, the duration curses, Swap and Teleport Opponent). Source: RB The Cards
    (L.O.S.); cards.md rows; DG §12 (Swap replaces movement)."""
    cd = C.card(a.card)
    value, ncid = _number(state, w, a, cd.number)
    allowed = {"teleport-opponent": ("to",), "card-erasure": ("name",),
               "drop-object": ("drop",)}.get(a.card, ())
    for k, _v in a.args:
        if k not in allowed:
            raise IllegalAction(f"{a.card} takes no {k}=")
    target = _attack_target(state, w, a)
    _check_attack(state, w, target, a.card)
    assert w.at is not None and target.at is not None
    if cd.target.startswith("los") and not _sees(state, w, w.at, target.at):
        raise IllegalAction(f"no line of sight to {target.seat}")
    arg = ""
    if a.card == "teleport-opponent":
        if not a.arg("to"):
            raise IllegalAction("name the square: to=h8")
        sq = _square(state, a.arg("to"))
        if not _vacant(state, sq):
            raise IllegalAction(f"{a.arg('to')} is not vacant")
        arg = square_name(sq)
    if a.card == "card-erasure":
        if a.arg("name") not in C.BY_SLUG:
            raise IllegalAction("name the card: name=absorb-spell")
        arg = a.arg("name")
    if a.card == "drop-object":
        arg = _drop_names(state, a.arg("drop"), value)
    if a.card == "swap":
        t = state.turn
        if t.moves_used or t.teleported or t.swapped:
            raise IllegalAction("Swap replaces your movement: you have already moved this turn"
                                " (DG §12)")
    if dry:
        return
    if a.card == "swap":
        state.turn.swapped = True
    _declare(state, w, target, a.card, cid, ncid, value, o)
    if state.windows and state.windows[0].cid == cid:
        state.windows[0].arg = arg


def _ugly(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Ugly: every other wizard who has LOS to you and is not blind retreats 3 squares away
    from you, at once and out of turn, in seat order from you; no to-hit roll (DG §12;
    cards.md ugly). Its log line names the card, as every card's does (issue 12)."""
    if a.number is not None or a.targets or a.args:
        raise IllegalAction("ugly takes no target or number")
    if dry:
        return
    _discard_cards(state, [cid])
    assert w.at is not None
    o("ugly", f"{w.seat} casts {C.card(a.card).name} and shows his face", seat=w.seat)
    for v in _seat_order_from(state, w.seat)[1:]:
        if v.at is not None and not v.has("blind") and has_los(state, v.at, w.at):
            state.retreats.append([v.seat, square_name(w.at), 3])


def _drag(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Drag: a wizard, object or loose treasure in your square moves along your walk
    (``path=``, paid from your movement; entering effects apply to it; not a pick-up).
    Source: RB (players can be dragged); DG §9; cards.md drag."""
    if a.number is not None or len(a.targets) != 1 or any(k != "path" for k, _ in a.args):
        raise IllegalAction("drag takes one thing and path=..., e.g. @P2 path=c4-c5")
    path = tuple(p for p in a.arg("path").split("-") if p)
    if not path:
        raise IllegalAction("name the walk: path=c4-c5")
    text = a.targets[0]
    assert w.at is not None
    start = w.at
    thing: Wizard | int | str
    if text.startswith("P") and "." not in text:
        thing = _target_wizard(state, text)
        if thing.at != start or thing.seat == w.seat:
            raise IllegalAction(f"{text} is not in your square")
    elif "." in text:
        if state.treasures.get(text) != start:
            raise IllegalAction(f"{text} is not lying in your square")
        thing = text
    else:
        c = next((c for s_, c in state.floor if s_ == start and state.face(c) == text), None)
        if c is None:
            raise IllegalAction(f"there is no {text} in your square")
        thing = c
    walk = Action(w.seat, "move", targets=path)
    _move(state, w, walk, True, o)
    if dry:
        return
    crossed: list[EdgeRules] = []  # creations the dragged thing is pulled through
    cur = start
    for t in path:
        sq = parse_square(t)
        step = _step_ok(state, cur, sq)
        if step and step[0] in state.edges and \
                (er := edge_rules(state.edges[step[0]].kind)) is not None and er.cross_damage:
            crossed.append(er)
        cur = sq
    _discard_cards(state, [cid])
    before = len(state.windows)
    _move(state, w, walk, False, o)
    end = w.at
    if isinstance(thing, Wizard):
        # the walker (the active player) answers his damage first, then the dragged wizard:
        # seat order from the active player (cards.md §1.5 Indirect damage)
        mine = state.windows[:len(state.windows) - before]
        state.windows = state.windows[len(mine):]
        thing.at = end
        o("move", f"{thing.seat} is dragged to {square_name(end)}", seat=thing.seat)
        if end in state.bushes:
            _enter_bush(state, thing, o)
        for er in crossed:
            _open_indirect(state, [thing], er.cross_damage, er.kind, physical=False,
                           cause=w.seat)
        state.windows = mine + state.windows
    elif isinstance(thing, str):
        state.treasures[thing] = end
    else:
        state.floor = [(end if c == thing else s_, c) for s_, c in state.floor]


def _choose(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Telepath's choice: take one card of the hand you were shown; the hand limit applies at
    once (cards.md telepath). A networked game's other peers apply the public form, which
    names the card instance only (``P3 choose +31``; accepted only in a networked game's
    state, which holds commitments: locally the card is always named)."""
    target = state.wizard(state.choice[1])
    if not a.card:  # the public form (``P3 choose +31``): the instance, in a networked game
        if not state.commits:
            raise IllegalAction("name the card you take (Telepath)")
        cid = a.number if a.number in target.hand else None
        if cid is None:
            raise IllegalAction(f"{target.seat} holds no card {a.number}")
    else:
        cid = state.find_in_hand(target.seat, a.card)
        if cid is None:
            raise IllegalAction(f"{target.seat} holds no {a.card}")
    if dry:
        return
    _take_from_hand(target, cid)
    w.hand.append(cid)
    state.choice = []
    face = state.face(cid)
    what = C.card(face).name if face else "a card"
    o("telepath", f"{w.seat} takes {what} from {target.seat}", seat=w.seat)


# ---------------------------------------------------------------------------------------
# what a condition of an attack card forbids its victim (cards.md §1.6)
# ---------------------------------------------------------------------------------------
def _medusa_forbids(state: State, w: Wizard, a: Action) -> str:
    """Medusa's lockout: no moving, spells, counteractions, objects, stones or punches; his
    turns still begin and end with a draw (DG §12; cards.md medusa)."""
    if a.verb in ("end", "pass") or (a.verb == "discard" and state.discarding):
        return ""
    return "you are stone (Medusa): you can only end your turn or pass"


def _no_spell_forbids(state: State, w: Wizard, a: Action) -> str:
    """No Spell: no spell cards of any kind; objects, stones, lock tools, punches, walking and
    boosts still work (cards.md no-spell)."""
    if a.verb == "play" and (cd := C.BY_SLUG.get(a.card)) and cd.spell:
        return "you are under No Spell: you cannot cast spells"
    return ""


def _lock_forbids(state: State, w: Wizard, a: Action) -> str:
    """Lock in Place: he cannot leave his square by his own means (cards.md lock-in-place)."""
    if a.verb == "move" or (a.verb == "play" and a.card == "teleport"):
        return "you are locked in place"
    return ""


def _slow_forbids(state: State, w: Wizard, a: Action) -> str:
    """Slow: no boost and no Power Run (cards.md slow)."""
    if a.verb == "boost" or (a.verb == "play" and a.card == "power-run"):
        return "you are slowed: at most 1 square a turn"
    return ""



def _slow_death_tick(state: State, w: Wizard, curse: Condition, o: Out) -> None:
    """A Slow Death tick after a draw: answered as if it were an attack by the caster (any
    counteraction, for this tick only); nobody's attack, no kill credit; none while
    petrified (cards.md slow-death; DG §7 and §12)."""
    if w.has("medusa"):
        return
    caster = curse.caster if state.wizard(curse.caster).in_game else w.seat
    o("tick", f"Slow Death: {w.seat} takes a tick", seat=w.seat)
    state.windows.insert(0, Window(kind="attack", attacker=caster, defender=w.seat,
                                   source="slow-death-tick", value=1, to_answer=w.seat,
                                   target=w.seat, passes=1))


def _medusa_target_refused(state: State, target: Wizard, c: Condition, card: str) -> str:
    """Medusa: only Swap and Teleport Opponent may target a petrified wizard (DG §12)."""
    if card not in ("swap", "teleport-opponent"):
        return f"{target.seat} is stone: only Swap or Teleport Opponent affect him"
    return ""


# ---------------------------------------------------------------------------------------
# candidate actions (legal_actions asks these; the far targets are reach.py's)
# ---------------------------------------------------------------------------------------
def _point_rows(state: State, n: Near, s: str) -> list[Row]:
    """A point attack or Power Drain at each other wizard with each number (Sudden Death
    takes none), and the point attacks at each wall, door and bush, without a number."""
    out = []
    for x in n.others:
        for k in (n.nums if s != "sudden-death" else [None]):
            out.append(_row(n.seat, "play", s, (x.seat,), k))
    if s not in ("waterbolt", "power-drain") and _may_attack(state, n.w):
        # (no attack allowed now, by round or one a turn: every wall, door and bush row is
        # refused by the same check in _point_attack)
        listing, w, at = n.listing, n.w, n.at
        for e in state.edges:
            # listing: a row at a wall the caster may not attack or does not see is refused
            # by _point_attack's own checks (the same functions on the same state)
            if listing and not (_attackable_edge(state, e, n.seat) and at is not None
                                and _sees(state, w, at, e)):
                continue
            out.append(_row(n.seat, "play", s, (edge_name(e),), None))
        for sq in state.bushes:
            if listing and not (at is not None and _sees(state, w, at, sq)):
                continue
            out.append(_row(n.seat, "play", s, (square_name(sq),), None))
    return out



def _blade_rows(state: State, n: Near, s: str) -> list[Row]:
    """Wizardblade at each other wizard; dropping it."""
    return [*(_row(n.seat, "play", s, (x.seat,)) for x in n.others),
            _row(n.seat, "drop", targets=(s,))]


def _weapon_rows(state: State, n: Near, s: str) -> list[Row]:
    """Dagger (struck or thrown) or Large Rock at each other wizard; dropping it."""
    out = []
    for x in n.others:
        out.append(_row(n.seat, "play", s, (x.seat,)))
        if s == "dagger":
            out.append(_row(n.seat, "play", s, (x.seat,), args=(("mode", "throw"),)))
    out.append(_row(n.seat, "drop", targets=(s,)))
    return out


def _erasure_rows(state: State, n: Near, s: str) -> list[Row]:
    """Card Erasure at each other wizard naming the counteractions most worth erasing."""
    return [_row(n.seat, "play", s, (x.seat,), args=(("name", slug),)) for x in n.others
            for slug in ("absorb-spell", "full-shield", "reflection", "teleport")]


def _drop_object_rows(state: State, n: Near, s: str) -> list[Row]:
    """Drop Object at each other wizard who carries a treasure, naming it."""
    return [_row(n.seat, "play", s, (x.seat,), args=(("drop", x.carrying),))
            for x in n.others if x.carrying]


def _curse_rows(state: State, n: Near, s: str) -> list[Row]:
    """A duration attack at each other wizard, with each number."""
    return [_row(n.seat, "play", s, (x.seat,), k) for k in n.nums for x in n.others]


def _go_away_rows(state: State, n: Near, s: str) -> list[Row]:
    """Go Away at each other wizard with each number."""
    return [_row(n.seat, "play", s, (x.seat,), k) for x in n.others for k in n.nums]


def _drag_rows(state: State, n: Near, s: str) -> list[Row]:
    """Drag each other wizard in the square one step each way."""
    out = []
    assert n.at is not None
    for x in n.others:
        if x.at == n.at:
            for side in "nesw":
                nb = state.layout.neighbor(n.at, side)
                if nb is not None:
                    out.append(_row(n.seat, "play", s, (x.seat,),
                                    args=(("path", square_name(nb[0])),)))
    return out


def _teleport_opponent_rows(state: State, n: Near, s: str) -> list[Row]:
    """Teleport Opponent: each other wizard to each square within 2."""
    assert n.at is not None
    return [_row(n.seat, "play", s, (x.seat,), args=(("to", square_name(sq)),))
            for x in n.others for sq in _near(state, n.at, 2)]


# ---------------------------------------------------------------------------------------
# the attack cards' records (and the two attack sources that are no card: a punch and
# Slow Death's tick)
# ---------------------------------------------------------------------------------------
register(
    CardRules("punch", hit=HitEffect(_points), source="RB Combat (punch)"),
    CardRules("slow-death-tick", hit=HitEffect(_points, credit=False),
              source="cards.md slow-death; DG §7"),
    CardRules("fireball", candidates=_point_rows, play=_point_attack,
              hit=HitEffect(_points, _burn_stones), source="cards.md fireball; FAQ (Bloodstone)"),
    CardRules("lightning-blast", candidates=_point_rows, play=_point_attack,
              hit=HitEffect(_points, _stun), source="cards.md lightning-blast"),
    CardRules("powerthrust", candidates=_point_rows, play=_point_attack,
              hit=HitEffect(_points_plus_two), source="cards.md powerthrust"),
    CardRules("sudden-death", candidates=_point_rows, play=_point_attack, hit=HitEffect(_points, fixed=10),
              source="cards.md sudden-death"),
    CardRules("waterbolt", candidates=_point_rows, play=_waterbolt, hit=HitEffect(_push_hit),
              source="cards.md waterbolt; §1.8"),
    CardRules("dagger", candidates=_weapon_rows, play=_weapon, hit=HitEffect(_points),
              kept_striking=True, lands="thrown", source="cards.md dagger; RB Objects"),
    CardRules("large-rock", candidates=_weapon_rows, play=_weapon, hit=HitEffect(_points),
              lands="always", source="cards.md large-rock; RB Objects"),
    CardRules("wizardblade", candidates=_blade_rows, play=_weapon, hit=HitEffect(_points),
              kept_striking=True, source="cards.md wizardblade"),
    CardRules("power-drain", candidates=_point_rows, play=_player_spell,
              hit=HitEffect(_points, _drain), source="cards.md power-drain"),
    CardRules("stone-dead", candidates=_curse_rows, play=_player_spell, hit=HitEffect(_stone_dead),
              source="cards.md stone-dead"),
    CardRules("swap", candidates=_each_other_rows, play=_player_spell,
              hit=HitEffect(_nothing, _swap_places, damage=False), source="cards.md swap"),
    CardRules("teleport-opponent", candidates=_teleport_opponent_rows, play=_player_spell,
              hit=HitEffect(_nothing, _put_elsewhere, damage=False),
              source="cards.md teleport-opponent"),
    CardRules("thought-steal", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _steal, damage=False), source="cards.md thought-steal"),
    CardRules("telepath", candidates=_each_other_rows, play=_player_spell,
              hit=HitEffect(_nothing, _read_mind, damage=False), source="cards.md telepath"),
    CardRules("slow-death", candidates=_each_other_rows, play=_player_spell,
              hit=HitEffect(_nothing, _slow_death, damage=False), after_draw=_slow_death_tick,
              source="cards.md slow-death; DG §7, §12"),
    CardRules("go-away", candidates=_go_away_rows, play=_player_spell,
              hit=HitEffect(_nothing, _go_away, damage=False), source="cards.md go-away; §1.8"),
    CardRules("card-erasure", candidates=_erasure_rows, play=_player_spell,
              hit=HitEffect(_nothing, _erase, damage=False), source="cards.md card-erasure"),
    CardRules("drop-object", candidates=_drop_object_rows, play=_player_spell,
              hit=HitEffect(_nothing, _drop_things, damage=False),
              source="RB Objects; cards.md drop-object"),
    CardRules("blind", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _curse, damage=False), sees_own_square_only=True,
              source="cards.md blind (decided)"),
    CardRules("no-spell", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _curse, damage=False), forbids=_no_spell_forbids,
              source="cards.md no-spell"),
    CardRules("slow", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _curse, damage=False), forbids=_slow_forbids, moves_cap=1,
              source="cards.md slow"),
    CardRules("lock-in-place", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _curse, damage=False), forbids=_lock_forbids, rooted=True,
              source="cards.md lock-in-place"),
    CardRules("medusa", candidates=_curse_rows, play=_player_spell,
              hit=HitEffect(_nothing, _curse, damage=False), forbids=_medusa_forbids, rooted=True,
              immune="all", immune_as="stone", target_refused=_medusa_target_refused,
              source="cards.md medusa; DG §12"),
    CardRules("ugly", candidates=_bare_rows, play=_ugly, source="cards.md ugly"),
    CardRules("drag", candidates=_drag_rows, play=_drag, source="cards.md drag; §1.8"),
)
