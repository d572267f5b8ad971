"""Movement, Zone of Control and the autonomous advance (rules.md §9, R73-R77; seed §8).

A walk is a list of hexes, the mover's own first. Every check is made against the state
as it stands; nothing here changes it except :func:`advance`.
"""

from __future__ import annotations

from core.arcomage import field as fld
from core.arcomage.state import (
    Dict,
    cannot_act,
    creature_at,
    occupied,
    occupier,
    rooted,
    values,
    wizard_at,
    wizard_speed,
)


def guarded(g: Dict, h: str, mover_ctrl: str, mover_id: int = 0) -> bool:
    """``h`` is adjacent to a creature the mover's enemy controls (R75). Any state of the
    guard counts (summon-sick, paralyzed, Invisible)."""
    for n in fld.neighbours(h):
        c = creature_at(g, n)
        if c is not None and c["controller"] != mover_ctrl and c["id"] != mover_id:
            return True
    return False


def mover(g: Dict, p: str, h: str) -> tuple[str, int, int]:
    """Why the piece on ``h`` cannot be moved by ``p`` now (``""`` when it can), its Speed
    and its creature id (0: the wizard). R73."""
    c = creature_at(g, h)
    if c is not None:
        if c["controller"] != p:
            return f"the creature on {h} is not yours", 0, 0
        v = values(g, c)
        if c["sick"]:
            return f"the {v['name']} on {h} is summon-sick", 0, 0
        if c["moved"]:
            return f"the {v['name']} on {h} has already moved this turn", 0, 0
        if rooted(g, c):
            return f"the {v['name']} on {h} is Rooted", 0, 0
        if "autonomous" in v["keywords"] or "seeker" in v["keywords"]:
            return f"the {v['name']} on {h} moves by itself", 0, 0
        if cannot_act(c):
            return f"the {v['name']} on {h} cannot act", 0, 0
        return "", int(v["speed"]), int(c["id"])
    if wizard_at(g, h) == p:
        pl = g["players"][p]
        if wizard_speed(pl) < 1:
            return "your wizard has no Speed (only a Form gives it)", 0, 0
        if pl["moved"]:
            return "your wizard has already moved this turn", 0, 0
        if cannot_act(pl):
            return "your wizard cannot act", 0, 0
        return "", wizard_speed(pl), 0
    return f"you have no piece on {h}", 0, 0


def walk_problem(g: Dict, p: str, hexes: list[str]) -> str:
    """Why the walk cannot be made (R74, R75), or ``""``."""
    why, speed, cid = mover(g, p, hexes[0])
    if why:
        return why
    steps = len(hexes) - 1
    if steps > speed:
        return f"a walk of {steps} is longer than its Speed {speed}"
    if len(set(hexes)) != len(hexes):
        return "a walk never enters a hex twice"
    if steps > 1 and guarded(g, hexes[0], p, cid):
        return "it starts next to an enemy creature: it may move at most one hex (Zone of Control)"
    for i in range(1, len(hexes)):
        a, b = hexes[i - 1], hexes[i]
        if not fld.adjacent(a, b):
            return f"{b} is not next to {a}"
        if not fld.passable(b):
            return f"{b} is the Nexus: impassable"
        if occupied(g, b):
            return f"{b} is occupied"
        if i < len(hexes) - 1 and guarded(g, b, p, cid):
            return f"{b} is guarded by an enemy creature: the walk must stop there"
    return ""


def walks(g: Dict, p: str, h: str) -> list[list[str]]:
    """Every legal walk of the piece on ``h`` (simple paths, R74/R75)."""
    why, speed, cid = mover(g, p, h)
    if why:
        return []
    limit = 1 if guarded(g, h, p, cid) else speed
    out: list[list[str]] = []

    def grow(path: list[str]) -> None:
        if len(path) > 1:
            out.append(list(path))
            if guarded(g, path[-1], p, cid):
                return
        if len(path) - 1 >= limit:
            return
        for n in fld.neighbours(path[-1]):
            if n not in path and fld.passable(n) and not occupied(g, n):
                path.append(n)
                grow(path)
                path.pop()

    grow([h])
    return out


def advance(g: Dict, c: Dict, target_hex: str) -> list[str]:
    """An Autonomous or Seeker creature advances on ``target_hex`` (R77 step 2): while it has
    steps and is not adjacent, it steps to the first empty hex clockwise from twelve whose
    distance to the target is smaller; Zone of Control applies. Returns the hexes entered."""
    v = values(g, c)
    speed = int(v["speed"])
    if guarded(g, c["at"], c["controller"], c["id"]):
        speed = min(speed, 1)
    path: list[str] = []
    while speed > 0 and not fld.adjacent(c["at"], target_hex):
        dist = fld.distances(target_hex, occupier(g))
        here = dist.get(c["at"], 10**6)
        nxt = ""
        for n in fld.clockwise_sorted(c["at"], fld.neighbours(c["at"])):
            if fld.passable(n) and not occupied(g, n) and dist.get(n, 10**6) < here:
                nxt = n
                break
        if not nxt:
            break
        c["at"] = nxt
        path.append(nxt)
        speed -= 1
        if guarded(g, nxt, c["controller"], c["id"]):
            break
    return path
