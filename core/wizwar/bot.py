"""The apprentice bot: legal, sensible Wiz-War from its own view only.

It sees only ``view(state, seat)`` and the list of its legal actions (which holds nothing but
its own cards and the public board). It goes for enemy treasures and brings them home,
attacks wizards in line of sight with its strongest spell, and answers attacks with the
counteractions it holds. All choices are deterministic given the view and the actions.
"""

from __future__ import annotations

from collections import deque

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import Square, edge_name, square_name
from core.wizwar.view import View

_POWER = {"fireball": 0, "lightning-blast": 1, "powerthrust": 2}


def _passable(v: View, e: tuple[int, int, str], doors_ok: bool) -> bool:
    if e not in v.edges or e in v.open_doors:
        return True
    return doors_ok and v.edges[e][0] == "door"


def path_to(v: View, frm: Square, goals: set[Square], doors_ok: bool = False
            ) -> list[tuple[Square, tuple[int, int, str]]] | None:
    """Shortest walk from ``frm`` to any of ``goals`` as [(square, edge crossed)], or None.
    Thornbush and stone squares are avoided; doors count as open when ``doors_ok``."""
    if frm in goals:
        return []
    prev: dict[Square, tuple[Square, tuple[int, int, str]]] = {}
    q = deque([frm])
    seen = {frm}
    while q:
        cur = q.popleft()
        for side in "nesw":
            nb = v.layout.neighbor(cur, side)
            if nb is None:
                continue
            sq, e = nb
            if sq in seen or sq in v.bushes or sq in v.stones:
                continue
            if not _passable(v, e, doors_ok):
                continue
            seen.add(sq)
            prev[sq] = (cur, e)
            if sq in goals:
                out = []
                while sq != frm:
                    p, edge = prev[sq]
                    out.append((sq, edge))
                    sq = p
                return out[::-1]
            q.append(sq)
    return None


def _goals(v: View, seat: str) -> set[Square]:
    me = v.player(seat)
    if me.carrying and me.home is not None:
        return {me.home}
    out: set[Square] = set()
    attacks = [c for c in v.hand if C.BY_SLUG[c].kind == C.ATTACK]
    if len(attacks) >= 2 and v.round > 1:  # armed: hunt the nearest enemy wizard too
        out |= {p.at for p in v.players
                if p.seat != seat and p.at is not None and p.alive and not p.out}
    homes = {p.home for p in v.players}
    for sq, toks in v.tokens.items():
        for t in toks:
            if "." in t and not t.startswith(seat + ".") and not (sq == me.home):
                out.add(sq)
            if "." in t and t.startswith(seat + ".") and sq in homes and sq != me.home:
                out.add(sq)  # rescue our own treasure from an enemy base
    return out


LEVELS = ("apprentice",)


def choose(v: View, seat: str, legal: list[Action], level: str = "apprentice") -> Action:
    """Pick one of ``legal`` for ``seat`` from view ``v`` at bot ``level`` (one of
    ``LEVELS``). Raises ``ValueError`` if ``legal`` is empty or the level unknown."""
    if not legal:
        raise ValueError("no legal action")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    by = {str(a): a for a in legal}
    if v.stack:
        return _answer(v, seat, legal)
    if v.discarding:
        return _discard_choice(v, seat, legal)
    me = v.player(seat)
    assert me.at is not None
    # win or score: drop an enemy treasure on our home base
    if me.carrying and me.at == me.home and f"{seat} drop {me.carrying}" in by:
        return by[f"{seat} drop {me.carrying}"]
    # pick up a treasure worth taking
    homes = {p.home for p in v.players if p.seat != seat and p.alive and not p.out}
    for a in legal:
        if a.verb == "pickup" and "." in a.targets[0] and not me.carrying:
            t = a.targets[0]
            mine = t.startswith(seat + ".")
            if (not mine and me.at != me.home) or (mine and me.at in homes):
                return a
    # attack: the strongest spell at a wizard in sight
    attack = _best_attack(v, seat, legal)
    if attack is not None:
        return attack
    # walk towards the goal
    goals = _goals(v, seat)
    if goals and v.moves_left > 0:
        route = path_to(v, me.at, goals) or path_to(v, me.at, goals, doors_ok=True)
        if route:
            sq, e = route[0]
            step = f"{seat} move {square_name(sq)}"
            if step in by:
                return by[step]
            pick = next((a for a in legal if a.card == "pick-lock"
                         and a.targets and a.targets[0] == edge_name(e)), None)
            if pick is not None:
                return pick
    # boost when far from the goal
    if goals and v.moves_left > 0:
        route = path_to(v, me.at, goals, doors_ok=True)
        if route and len(route) > v.moves_left:
            boosts = sorted((a for a in legal if a.verb == "boost"), key=lambda a: -(a.number or 0))
            if boosts and len(v.hand) >= 4:
                return boosts[-1]
    # hold the hand to the limit: end (draw up to 2)
    return by.get(f"{seat} end", legal[0])


def _best_attack(v: View, seat: str, legal: list[Action]) -> Action | None:
    best: tuple[int, str] | None = None
    pick = None
    for a in legal:
        if a.verb == "play" and a.card in ("fireball", "lightning-blast", "powerthrust",
                                            "waterbolt", "dagger", "large-rock") \
                and a.targets and a.targets[0].startswith("P"):
            n = a.number or 1
            dmg = {"powerthrust": n + 2, "waterbolt": 1, "dagger": 2, "large-rock": 3}.get(
                a.card, n)
            if a.card == "lightning-blast":
                dmg += 2
            target = v.player(a.targets[0])
            if target.life <= dmg:
                dmg += 10
            key = (dmg, str(a))
            if best is None or key > best:
                best, pick = key, a
        elif a.verb == "punch" and a.targets[0].startswith("P"):
            key = (1, str(a))
            if best is None or key > best:
                best, pick = key, a
    return pick


def _answer(v: View, seat: str, legal: list[Action]) -> Action:
    win = v.stack[0]
    plays = [a for a in legal if a.verb == "play"]
    passing = next(a for a in legal if a.verb == "pass")
    if not plays:
        return passing
    mine = [c for c in win.counters if c.player == seat]
    if win.kind == "indirect":
        for slug in ("absorb", "blunt"):
            for a in plays:
                if a.card == slug and win.value >= 2 and not mine:
                    return a
        return passing
    if seat == win.attacker:
        aa = next((a for a in plays if a.card == "anti-anti"), None)
        if aa is not None and win.counters and win.counters[-1].player != seat:
            return aa
        return passing
    if mine:
        return passing
    order = ["full-shield", "reflection", "absorb", "blunt"]
    if win.value >= 4:
        order = ["full-shield", "teleport", "reflection", "absorb", "blunt"]
    for slug in order:
        for a in plays:
            if a.card == slug:
                if slug == "teleport" and a.targets:
                    me = v.player(seat)
                    if me.home is not None and a.targets[0] != square_name(me.home):
                        continue
                return a
    return passing


def _discard_choice(v: View, seat: str, legal: list[Action]) -> Action:
    def value(a: Action) -> tuple[int, str]:
        cd = C.BY_SLUG.get(a.card)
        if cd is None:
            return (9, a.card)
        rank = {C.NUMBER: 1, C.NEUTRAL: 2, C.COUNTER: 4, C.DUAL: 4, C.ATTACK: 5,
                C.OBJECT: 3, C.STONE: 3}.get(cd.kind, 2)
        if cd.kind == C.NUMBER:
            rank = int(cd.slug) - 1
        return (rank, a.card)

    discards = [a for a in legal if a.verb == "discard"]
    return min(discards, key=value)
