"""Damage, Life, deaths, the state-based checks and the trigger queue (rules.md §7, R101,
R102, R46, R72; seed §3.1, §7.5, §12.4, §12.7).

Every function takes the state dict ``g`` and a :class:`Ctx` collecting the events and the
triggers waiting in the one queue of R102.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.arcomage import field as fld
from core.arcomage.data import CONDITIONS, FORMS, LAYERS, NO_CORPSE, WORKER_BUILDINGS
from core.arcomage.state import (
    Dict,
    cond,
    creature_by_id,
    duration,
    form_of,
    gain_life,
    new_ts,
    occupier,
    other,
    values,
)
from core.engine import Event


@dataclass
class Ctx:
    """What one action produces as it runs: its events, the trigger queue (R102) and the
    triggers set off by the event being processed (joined to the queue together)."""

    events: list[Event] = field(default_factory=list)
    queue: list[tuple[Any, ...]] = field(default_factory=list)
    fresh: list[tuple[Any, ...]] = field(default_factory=list)
    #: while a combat-damage sub-step deals its damage, the Life gains it causes wait here
    #: and are applied after every loss of the sub-step (R22); None outside a sub-step
    gains: list[tuple[str, int]] | None = None

    def ev(self, tag: str, text: str, /, **data: Any) -> None:
        """Record an event of kind ``tag``."""
        self.events.append(Event(tag, text, data))


def over(g: Dict) -> bool:
    """The game has ended."""
    return bool(g["winner"])


# ---- conditions ------------------------------------------------------------------------
def bearer_ctrl(bearer: Dict) -> str:
    """The controller of a condition's bearer (a wizard dict has ``at`` and no ``id``)."""
    return str(bearer["controller"]) if "id" in bearer else str(bearer["name"])


def add_condition(g: Dict, ctx: Ctx, bearer: Dict, slug: str, by: str, where: str) -> bool:
    """Put condition ``slug`` on ``bearer`` (a player's or a creature's dict), applied by
    ``by``; a condition already there is refreshed (R86): the longer duration, a new
    timestamp, its data reset. Nothing happens to a piece that cannot have it (R87, a Form's
    immunity, R92), nor once the game has ended (R118). Returns whether it was put or
    refreshed."""
    k = CONDITIONS[slug]
    is_creature = "id" in bearer
    if over(g) or ("C" if is_creature else "W") not in k.on:
        return False  # once the game has ended nothing else happens (R118)
    if not is_creature:
        f = form_of(bearer)
        if f and slug in FORMS[f].immune:
            return False
    left = duration(g, slug, bearer_ctrl(bearer), by)
    old = cond(bearer, slug)
    if old is not None:
        old["left"] = -1 if left < 0 or old["left"] < 0 else max(old["left"], left)
        old["ts"] = new_ts(g)
        old["by"] = by
        _reset(old)
        ctx.ev("condition", f"{where} {slug} refreshed", on=where, slug=slug, what="refreshed")
        return True
    c = {"slug": slug, "left": left, "ts": new_ts(g), "by": by}
    _reset(c)
    bearer["conditions"].append(c)
    ctx.ev("condition", f"{where} gains {slug}", on=where, slug=slug, what="gained")
    if slug == "dominate" and is_creature and bearer["controller"] != by:
        bearer["controller"] = by
        bearer["sick"] = 0 if "haste" in values(g, bearer)["keywords"] else 1
        ctx.ev("control", f"{by} takes control of {where}", at=bearer["at"], to=by)
    return True


def _reset(c: Dict) -> None:
    if c["slug"] == "protection":
        c["pool"] = 4
    if c["slug"] == "star-alignment":
        c["stars"] = 0


def end_condition(g: Dict, ctx: Ctx, bearer: Dict, slug: str, where: str) -> None:
    """End condition ``slug`` on ``bearer`` (with Dominate's control returning, R87)."""
    c = cond(bearer, slug)
    if c is None:
        return
    bearer["conditions"].remove(c)
    ctx.ev("condition", f"{where} {slug} ends", on=where, slug=slug, what="ended")
    if slug == "dominate" and "id" in bearer and bearer["controller"] != bearer["owner"]:
        bearer["controller"] = bearer["owner"]
        bearer["sick"] = 0 if "haste" in values(g, bearer)["keywords"] else 1
        ctx.ev("control", f"{bearer['owner']} regains control of {where}", at=bearer["at"],
               to=bearer["owner"])


# ---- damage ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """Who deals a damage event: the player, the creature's id (0: a spell or the Tower),
    whether it is combat damage (R85), and whether it is the wizard's own combat damage."""

    player: str
    cid: int = 0
    combat: bool = False
    wizard: bool = False


def creature_label(g: Dict, c: Dict) -> str:
    """A creature as the log names it: its owner, its current name and its hex ("P2's
    Skeleton on b2"; a bare hex said nothing of which creature took the damage)."""
    return f"{c['owner']}'s {values(g, c)['name']} on {c['at']}"


def deal(g: Dict, ctx: Ctx, src: Source, target: str, amount: int, kind: str = "normal",
         ) -> int:
    """One damage event (R60) to ``target`` (a player's name: his wizard; or a creature id as
    text ``#<id>``), ``kind`` ``normal``, ``flying`` (skips the Wall) or ``direct`` (to Life).
    Returns the amount dealt after prevention."""
    if amount <= 0 or over(g):
        return 0
    wiz = target in ("P1", "P2")
    holder: Dict | None = g["players"][target] if wiz else creature_by_id(g, int(target[1:]))
    if holder is None:
        return 0
    where = target if wiz else holder["at"]
    named = target if wiz else creature_label(g, holder)  # the log's words for it
    if cond(holder, "vulnerable"):
        amount += 1
    if wiz:
        f = form_of(holder)
        if f == "stone-form":
            amount = max(0, amount - 2)
        if f == "wraith-form" and src.combat and src.cid and src.player != target:
            amount //= 2
    prot = cond(holder, "protection")
    if prot is not None and amount > 0:
        stop = min(prot["pool"], amount)
        prot["pool"] -= stop
        amount -= stop
        ctx.ev("prevent", f"{named}'s protection prevents {stop}" if wiz
               else f"the protection of {named} prevents {stop}", on=where, amount=stop)
        if prot["pool"] <= 0:
            end_condition(g, ctx, holder, "protection", where)
    if amount <= 0:
        return 0
    if wiz:
        took = _cascade(holder, amount, kind)
        ctx.ev("damage", f"{named} takes {amount}", on=where, amount=amount, type=kind,
               layers=[[k, v] for k, v in took.items()])
    else:
        holder["damage"] += amount
        ctx.ev("damage", f"{named} takes {amount}", on=where, amount=amount, type=kind)
    # riders at the same moment (R60)
    if cond(holder, "asleep"):
        end_condition(g, ctx, holder, "asleep", where)
    if src.combat:
        att = creature_by_id(g, src.cid) if src.cid else None
        if att is not None:
            kws = values(g, att)["keywords"]
            if "vampiric" in kws:
                _gain(g, ctx, att["controller"], amount)
            if "searing" in kws:
                add_condition(g, ctx, holder, "burning", att["controller"], where)
        if src.wizard:
            f = form_of(g["players"][src.player])
            if f == "horrific-beast":
                _gain(g, ctx, src.player, amount)
            if f == "reaper-form":
                add_condition(g, ctx, holder, "vulnerable", src.player, where)
        if wiz and src.cid and src.player != target and cond(holder, "reactive-armor"):
            ra = cond(holder, "reactive-armor")
            assert ra is not None
            ctx.fresh.append(("reactive", target, ra["ts"], src.cid, amount))
    return amount


def _gain(g: Dict, ctx: Ctx, p: str, n: int) -> None:
    """A rider's Life gain: at once, or after the sub-step's losses (R22)."""
    if ctx.gains is not None:
        ctx.gains.append((p, n))
        return
    got = gain_life(g["players"][p], n)
    ctx.ev("life", f"{p} gains {got}", player=p, amount=got)


def flush_gains(g: Dict, ctx: Ctx) -> None:
    """Apply the Life gains a damage sub-step held back, after all its losses, each player's
    total capped at 30 (R22)."""
    pending, ctx.gains = ctx.gains or [], None
    for p in ("P1", "P2"):
        n = sum(x for q, x in pending if q == p)
        if n:
            _gain(g, ctx, p, n)


def _cascade(pl: Dict, amount: int, kind: str) -> dict[str, int]:
    """Moat, Wall, Tower, Life (R61); destroyed layers absorb nothing."""
    took: dict[str, int] = {}
    layers = () if kind == "direct" else [x for x in LAYERS if not (kind == "flying"
                                                                     and x == "wall")]
    for layer in layers:
        if amount <= 0:
            break
        if layer in pl["destroyed"] or pl[layer] <= 0:
            continue
        a = min(pl[layer], amount)
        pl[layer] -= a
        amount -= a
        took[layer] = a
    if amount > 0:
        pl["life"] -= amount
        took["life"] = amount
    return took


def lose_life(g: Dict, ctx: Ctx, p: str, n: int, why: str) -> None:
    """Life loss (poisoned, burning): not damage, nothing prevents it (R62)."""
    g["players"][p]["life"] -= n
    ctx.ev("life", f"{p} loses {n} Life ({why})", player=p, amount=-n)


# ---- state-based checks and triggers ---------------------------------------------------
def settle(g: Dict, ctx: Ctx) -> None:
    """The state-based checks to a fixed point (R101), then the trigger queue (R102): each
    trigger, then the checks again, until the queue is empty or the game is over."""
    _checks(g, ctx)
    _join(g, ctx)
    while ctx.queue and not over(g):
        t = ctx.queue.pop(0)
        _trigger(g, ctx, t)
        _checks(g, ctx)
        _join(g, ctx)
    if over(g):
        ctx.queue.clear()
        ctx.fresh.clear()


def _join(g: Dict, ctx: Ctx) -> None:
    """The triggers set off by one event join the queue together, sorted: the AP's first,
    then by source timestamp, then by the setter's timestamp (R102)."""
    ap = g["active"]
    ctx.fresh.sort(key=lambda t: (0 if _owner_of(t) == ap else 1, t[2], t[3]))
    ctx.queue += ctx.fresh
    ctx.fresh = []


def _owner_of(t: tuple[Any, ...]) -> str:
    return str(t[1])


def _checks(g: Dict, ctx: Ctx) -> None:
    while not over(g):
        changed = False
        dead = [p for p in ("P1", "P2") if g["players"][p]["life"] <= 0]
        if dead:
            if len(dead) == 2:
                g["winner"], g["how"] = "draw", "both-dead"
                ctx.ev("draw", "both wizards fall at once: a draw")
            else:
                g["winner"], g["how"] = other(dead[0]), "life"
                ctx.ev("win", f"{other(dead[0])} wins: {dead[0]}'s Life is gone",
                       player=other(dead[0]))
            g["step"] = "over"
            return
        dying = [c for c in g["creatures"] if values(g, c)["health"] <= 0]
        if dying:
            changed = True
            for c in dying:
                die(g, ctx, c)
        for p in ("P1", "P2"):
            pl = g["players"][p]
            for b in (*LAYERS, *WORKER_BUILDINGS):
                if pl[b] <= 0 and b not in pl["destroyed"]:
                    pl[b] = 0
                    pl["destroyed"].append(b)
                    if b == "graveyard":
                        pl["corpses"] = 0
                    ctx.ev("destroyed", f"{p}'s {b} is destroyed", player=p, building=b)
                    changed = True
        if not changed:
            return


def die(g: Dict, ctx: Ctx, c: Dict) -> None:
    """Creature ``c`` dies (R72): it leaves the field, leaves a corpse (R46), ends every
    effect on it; its death sets off triggers with its last-known values (R106)."""
    last = values(g, c)
    g["creatures"].remove(c)
    ctx.ev("die", f"{c['owner']}'s {last['name']} on {c['at']} dies", at=c["at"],
           kind=last["name"])
    owner = g["players"][c["owner"]]
    if not any(t in NO_CORPSE for t in last["types"]) and "graveyard" not in owner["destroyed"]:
        owner["corpses"] += 1
        ctx.ev("corpse", f"{c['owner']}'s Graveyard gains a corpse", player=c["owner"])
    ctrl = c["controller"]
    for vs in g["creatures"]:
        if vs["controller"] == ctrl and values(g, vs)["name"] == "vengeful-spirit":
            ctx.fresh.append(("vs-counter", ctrl, vs["ts"], c["ts"], vs["id"]))
    if last["name"] == "vengeful-spirit":
        ctx.fresh.append(("vs-death", ctrl, c["ts"], c["ts"], c["at"], last["power"]))
    for p in ("P1", "P2"):
        pl = g["players"][p]
        if form_of(pl) == "reaper-form" and ctrl != p:
            ctx.fresh.append(("reaper", p, pl["form"]["ts"], c["ts"]))


def _trigger(g: Dict, ctx: Ctx, t: tuple[Any, ...]) -> None:
    kind = t[0]
    if kind == "reactive":
        att = creature_by_id(g, t[3])
        if att is not None:
            ctx.ev("trigger", f"{t[1]}'s reactive armor strikes back", player=t[1])
            deal(g, ctx, Source(t[1]), f"#{att['id']}", t[4])
    elif kind == "vs-counter":
        vs = creature_by_id(g, t[4])
        if vs is not None:
            vs["counters"] += 1
            ctx.ev("counters", f"the Vengeful Spirit on {vs['at']} grows", at=vs["at"], n=1)
    elif kind == "vs-death":
        hex_, power = t[4], t[5]
        foes = {c["at"]: c for c in g["creatures"] if c["controller"] != t[1]
                and "invisible" not in values(g, c)["keywords"]}
        h = fld.nearest(hex_, list(foes), occupier(g))
        if h and power > 0:
            ctx.ev("trigger", f"the Vengeful Spirit's death strikes {h}", at=h)
            deal(g, ctx, Source(t[1]), f"#{foes[h]['id']}", power)
    elif kind == "reaper":
        pl = g["players"][t[1]]
        if "graveyard" not in pl["destroyed"]:
            pl["corpses"] += 1
            ctx.ev("corpse", f"{t[1]}'s Reaper Form gains a corpse", player=t[1])
