"""Combat (rules.md §10, R78-R85, R127; seed §7.5, §7.3, §7.6): who must attack, the
declarations of attacks and blocks, and combat damage in its two sub-steps.

Attack and block refs: a creature is ``#<id>``, a wizard his player's name.
"""

from __future__ import annotations

import itertools

from core.arcomage import field as fld
from core.arcomage.damage import Ctx, Source, deal, flush_gains, settle
from core.arcomage.state import (
    Dict,
    cannot_act,
    cond,
    creature_at,
    creature_by_id,
    form_of,
    other,
    values,
    wizard_at,
    wizard_power,
)


def ready(g: Dict, c: Dict) -> bool:
    """A ready attacker (R80): not tapped, not summon-sick, able to act, not silenced,
    not Autonomous."""
    return not (c["tapped"] or c["sick"] or cannot_act(c) or cond(c, "silenced")
                or "autonomous" in values(g, c)["keywords"])


def targets_of(g: Dict, at: str, ctrl: str) -> list[str]:
    """The possible targets of an attacker on ``at`` (R79): the adjacent enemy wizard (by
    name) and adjacent enemy creatures that can be targeted (by hex), reading order."""
    out = []
    foe = other(ctrl)
    for n in sorted(fld.neighbours(at), key=lambda h: fld.ORDER[h]):
        if wizard_at(g, n) == foe:
            out.append(foe)
        c = creature_at(g, n)
        if c is not None and c["controller"] == foe and "invisible" not in values(g, c)["keywords"]:
            out.append(n)
    return out


def wizard_can_attack(g: Dict, p: str) -> bool:
    """The AP's wizard may attack (R80): Power 1+, not yet this turn, able to act, a target."""
    pl = g["players"][p]
    return (wizard_power(pl) >= 1 and not pl["attacked"] and not cannot_act(pl)
            and bool(targets_of(g, pl["at"], p)))


def attackers(g: Dict, p: str) -> list[tuple[str, list[str]]]:
    """The AP's possible attackers with their targets: creatures (by hex) that are ready
    and have a target, then the wizard's hex if it may attack."""
    out = []
    for c in sorted(g["creatures"], key=lambda c: fld.ORDER[c["at"]]):
        if c["controller"] == p and ready(g, c):
            ts = targets_of(g, c["at"], p)
            if ts:
                out.append((c["at"], ts))
    if wizard_can_attack(g, p):
        pl = g["players"][p]
        out.append((pl["at"], targets_of(g, pl["at"], p)))
    return out


def attack_problem(g: Dict, p: str, pairs: list[tuple[str, str]]) -> str:
    """Why a declaration is refused (R79, R80), checked as a whole, or ``""``."""
    possible = dict(attackers(g, p))
    wiz = g["players"][p]["at"]
    seen: set[str] = set()
    targeted: list[str] = []
    for a, t in pairs:
        if a in seen:
            return f"{a} attacks once"
        seen.add(a)
        if a not in possible:
            return f"nothing on {a} can attack now"
        if t not in possible[a]:
            return f"{t} is not a target {a} can attack (adjacent, targetable, an enemy)"
        if t != other(p):
            if t in targeted:
                return f"{t} is the target of two attackers"
            targeted.append(t)
    for a, t in pairs:
        taunts = [x for x in possible[a] if x != other(p) and _taunt(g, x)
                  and (x == t or x not in targeted)]
        if taunts and t not in taunts:
            return f"{a} is next to a Taunt creature ({taunts[0]}) and must attack it"
    for a, ts in possible.items():
        if a in seen or a == wiz:
            continue
        if other(p) in ts or any(x not in targeted for x in ts if x != other(p)):
            return f"the creature on {a} is ready and in contact: it must attack"
    return ""


def _taunt(g: Dict, h: str) -> bool:
    c = creature_at(g, h)
    return c is not None and "taunt" in values(g, c)["keywords"]


def declarations(g: Dict, p: str) -> list[list[tuple[str, str]]]:
    """Every legal declaration (lists of pairs, attacker hex first)."""
    options = [[(a, t) for t in ts] + [None] for a, ts in attackers(g, p)]
    out = []
    for combo in itertools.product(*options):
        pairs = [x for x in combo if x is not None]
        if not attack_problem(g, p, pairs):
            out.append(pairs)
    return out


def must_or_may_attack(g: Dict, p: str) -> bool:
    """Some attack can be declared (R33)."""
    return bool(attackers(g, p))


# ---- blocks ----------------------------------------------------------------------------
def _evades(g: Dict, blocker: Dict, attacker: str) -> str:
    """Why ``blocker`` cannot block the attacker ref (evasion, R82, R90, R91), or ``""``."""
    bk = values(g, blocker)["keywords"]
    if attacker in ("P1", "P2"):
        shade = form_of(g["players"][attacker]) == "wraith-form"
        return "" if not shade or "nightsighted" in bk else "the wizard's attack has Shade"
    c = creature_by_id(g, int(attacker[1:]))
    if c is None:
        return "that attacker is gone"
    ak = values(g, c)["keywords"]
    if "invisible" in ak:
        return "an Invisible attacker can never be blocked"
    if "flying" in ak and not ("flying" in bk or "blocks-air" in bk):
        return "a Flying attacker is blocked only by Flying or Blocks Air"
    if "shade" in ak and "nightsighted" not in bk:
        return "a Shade attacker cannot be blocked (without Nightsight)"
    return ""


def ref_hex(g: Dict, ref: str) -> str:
    """The hex a combat ref stands on (``""`` when gone)."""
    if ref in ("P1", "P2"):
        return str(g["players"][ref]["at"])
    c = creature_by_id(g, int(ref[1:]))
    return str(c["at"]) if c else ""


def block_problem(g: Dict, p: str, pairs: list[tuple[str, str]]) -> str:
    """Why a block declaration is refused (R82), or ``""``."""
    at_wizard = {ref_hex(g, a): a for a, t in g["combat"]["attacks"] if t == p}
    attacked = {t for _a, t in g["combat"]["attacks"] if t not in ("P1", "P2")}
    used_b: set[str] = set()
    used_a: set[str] = set()
    for b, a in pairs:
        if b in used_b:
            return f"{b} blocks one attacker"
        if a in used_a:
            return f"{a} has at most one blocker"
        used_b.add(b)
        used_a.add(a)
        if a not in at_wizard:
            return f"nothing on {a} attacks your wizard"
        c = creature_at(g, b)
        if c is None or c["controller"] != p:
            return f"you have no creature on {b}"
        if cannot_act(c):
            return f"the creature on {b} cannot act"
        if "autonomous" in values(g, c)["keywords"]:
            return f"the creature on {b} is Autonomous: it never blocks"
        if f"#{c['id']}" in attacked:
            return f"the creature on {b} is itself attacked"
        if not fld.adjacent(b, a):
            return f"{b} is not next to {a}"
        why = _evades(g, c, at_wizard[a])
        if why:
            return why
    return ""


def block_options(g: Dict, p: str) -> list[list[tuple[str, str]]]:
    """Every legal block declaration."""
    at_wizard = [ref_hex(g, a) for a, t in g["combat"]["attacks"] if t == p]
    mine = sorted((c["at"] for c in g["creatures"] if c["controller"] == p),
                  key=lambda h: fld.ORDER[h])
    options = []
    for b in mine:
        opts: list[tuple[str, str] | None] = [None]
        opts += [(b, a) for a in at_wizard if a and not block_problem(g, p, [(b, a)])]
        if len(opts) > 1:
            options.append(opts)
    out = []
    for combo in itertools.product(*options):
        pairs = [x for x in combo if x is not None]
        if not block_problem(g, p, pairs):
            out.append(pairs)
    return out


# ---- damage ----------------------------------------------------------------------------
def _alive(g: Dict, ref: str) -> bool:
    if ref in ("P1", "P2"):
        return True
    return creature_by_id(g, int(ref[1:])) is not None


def _in_combat(g: Dict, ref: str, ctrl: str) -> bool:
    """Still in combat (R127): on the field, same controller, not teleported."""
    if ref in ("P1", "P2"):
        return True
    c = creature_by_id(g, int(ref[1:]))
    return c is not None and c["controller"] == ctrl and not c.get("teleported")


def _power(g: Dict, ref: str) -> int:
    if ref in ("P1", "P2"):
        return wizard_power(g["players"][ref])
    c = creature_by_id(g, int(ref[1:]))
    return max(0, values(g, c)["power"]) if c else 0


def _acts(g: Dict, ref: str) -> bool:
    if ref in ("P1", "P2"):
        return not cannot_act(g["players"][ref])
    c = creature_by_id(g, int(ref[1:]))
    return c is not None and not cannot_act(c)


def _first(g: Dict, ref: str) -> bool:
    if ref in ("P1", "P2"):
        return False
    c = creature_by_id(g, int(ref[1:]))
    return c is not None and "first-strike" in values(g, c)["keywords"]


def _src(g: Dict, ref: str, ctrl: str) -> Source:
    if ref in ("P1", "P2"):
        return Source(ref, 0, True, True)
    return Source(ctrl, int(ref[1:]), True)


def _kind(g: Dict, ref: str, target: str) -> str:
    if target in ("P1", "P2") and ref not in ("P1", "P2"):
        c = creature_by_id(g, int(ref[1:]))
        if c is not None and "flying" in values(g, c)["keywords"]:
            return "flying"
    return "normal"


def combat_damage(g: Dict, ctx: Ctx) -> None:
    """Combat damage in two sub-steps, First Strike first (R84, R127)."""
    ap, nap = g["active"], other(g["active"])
    cb = g["combat"]
    blocked = {a: b for b, a in cb["blocks"]}
    # (dealer ref, dealer controller, target ref) for each blow, and the pairing's members
    blows: list[tuple[str, str, str, list[str]]] = []
    for a, t in cb["attacks"]:
        if a in blocked:
            b = blocked[a]
            blows += [(a, ap, b, [a, b]), (b, nap, a, [a, b])]
        elif t in ("P1", "P2"):
            blows.append((a, ap, t, [a]))
        else:
            c = creature_by_id(g, int(t[1:]))
            if c is not None and "invisible" in values(g, c)["keywords"]:
                continue  # R127: a fight whose target became Invisible does not happen
            blows += [(a, ap, t, [a, t]), (t, nap, a, [a, t])]
    for first in (True, False):
        hits = []
        for dealer, ctrl, target, members in blows:
            if _first(g, dealer) != first:
                continue
            if not all(_in_combat(g, m, ap if m == members[0] else nap) for m in members):
                continue
            if not _alive(g, dealer) or not _alive(g, target) or not _acts(g, dealer):
                continue
            hits.append((dealer, ctrl, target, _power(g, dealer)))
        ctx.gains = []
        for dealer, ctrl, target, n in hits:
            tgt = target if target in ("P1", "P2") else target
            aim = ref_hex(g, tgt) or "a creature now gone"
            ctx.ev("strike", f"{ref_hex(g, dealer)} strikes {aim}",
                   frm=ref_hex(g, dealer), to=ref_hex(g, tgt), amount=n)
            if _alive(g, target):
                deal(g, ctx, _src(g, dealer, ctrl), target, n, _kind(g, dealer, target))
        flush_gains(g, ctx)
        settle(g, ctx)
        if g["winner"]:
            return
