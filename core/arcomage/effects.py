"""What each spell does on resolution: one effect function per spell, in :data:`EFFECTS`
keyed by slug (spells.md §3). The shared machinery (:mod:`core.arcomage.turn`) never names a
spell; it checks the targets again (R56), applies Magic Reflection (R59) and calls the
function with the targets still legal (``""`` for one that is not).

An effect function is ``effect(g, ctx, entry, targets)``: ``entry`` is the stack entry
(``caster``, ``slug``, ``targets``, ``args``), ``targets`` the refs still legal.
"""

from __future__ import annotations

from collections.abc import Callable

from core.arcomage import field as fld
from core.arcomage import traps
from core.arcomage.damage import Ctx, Source, add_condition, deal, die, end_condition, settle
from core.arcomage.data import FORMS, MAX_WORKERS, SUMMONS
from core.arcomage.state import (
    Dict,
    creature_at,
    creature_by_id,
    form_of,
    gain_life,
    new_ts,
    occupied,
    other,
    printed,
    stands,
    values,
    workers_total,
)

Effect = Callable[[Dict, Ctx, Dict, list[str]], None]
EFFECTS: dict[str, Effect] = {}


def effect(*slugs: str) -> Callable[[Effect], Effect]:
    """Register an effect function for ``slugs``."""
    def wrap(f: Effect) -> Effect:
        for s in slugs:
            EFFECTS[s] = f
        return f
    return wrap


def holder(g: Dict, ref: str) -> tuple[Dict | None, str]:
    """The dict a piece ref names (``P1``, ``#7``) and the name events use for it."""
    if ref in ("P1", "P2"):
        return g["players"][ref], ref
    c = creature_by_id(g, int(ref[1:])) if ref.startswith("#") else None
    return c, (c["at"] if c else "")


def _ignored(ctx: Ctx, e: Dict, what: str) -> None:
    ctx.ev("ignored", f"{e['slug']}: {what} is no longer legal; that part is skipped",
           slug=e["slug"])


# ---- damage spells ---------------------------------------------------------------------
def _damage(n: int, then: str = "", direct_wizard: bool = False) -> Effect:
    def f(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
        if not t[0]:
            _ignored(ctx, e, "the target")
            return
        kind = "direct" if direct_wizard and t[0] in ("P1", "P2") else "normal"
        deal(g, ctx, Source(e["caster"]), t[0], n, kind)
        settle(g, ctx)
        h, where = holder(g, t[0])
        if then and h is not None:
            add_condition(g, ctx, h, then, e["caster"], where)
    return f


EFFECTS["firebolt"] = _damage(2)
EFFECTS["fireball"] = _damage(4, "burning")
EFFECTS["lightning"] = _damage(3, direct_wizard=True)


@effect("drain-life")
def _drain(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """2 damage to the target; the caster gains 2 Life whatever happened to it (R56)."""
    if t[0]:
        deal(g, ctx, Source(e["caster"]), t[0], 2)
    else:
        _ignored(ctx, e, "the target")
    got = gain_life(g["players"][e["caster"]], 2)
    ctx.ev("life", f"{e['caster']} gains {got}", player=e["caster"], amount=got)


# ---- conditions ------------------------------------------------------------------------
def _conditions(*slugs: str) -> Effect:
    def f(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
        ref = t[0] if t else e["caster"]
        if not ref:
            _ignored(ctx, e, "the target")
            return
        h, where = holder(g, ref)
        if h is None:
            return
        for s in slugs:
            add_condition(g, ctx, h, s, e["caster"], where)
    return f


for _slug, _conds in (("venom", ("poisoned",)), ("unlife", ("unlife",)),
                      ("wither", ("weakened", "frail")), ("swiftness", ("agility",)),
                      ("strength", ("strength",)), ("bless", ("blessed",)),
                      ("sleep", ("asleep",)), ("stun", ("stunned",)),
                      ("paralyze", ("paralyzed",)), ("silence", ("silenced",)),
                      ("invisibility", ("invisible",)), ("levitate", ("levitate",)),
                      ("purge", ("purge",)), ("polymorph", ("polymorph",)),
                      ("dominate", ("dominate",)), ("feeblemind", ("feeblemind",)),
                      ("protection", ("protection",)), ("nightsight", ("nightsight",)),
                      ("reactive-armor", ("reactive-armor",)),
                      ("magic-reflection", ("magic-reflection",)), ("cunning", ("cunning",)),
                      ("star-alignment", ("star-alignment",))):
    EFFECTS[_slug] = _conditions(*_conds)


@effect("regenerate")
def _regenerate(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Regenerating; a creature also loses all its marked damage now."""
    if not t[0]:
        _ignored(ctx, e, "the target")
        return
    h, where = holder(g, t[0])
    if h is None:
        return
    add_condition(g, ctx, h, "regenerating", e["caster"], where)
    if "id" in h:
        h["damage"] = 0


# ---- Forms -----------------------------------------------------------------------------
def take_form(g: Dict, ctx: Ctx, p: str, slug: str) -> None:
    """Wizard ``p`` takes Form ``slug``, ending the old one first (R92); an immunity ends
    the conditions it is immune to."""
    pl = g["players"][p]
    old = form_of(pl)
    if old:
        pl["form"] = {}
        ctx.ev("form", f"{p}'s {old} ends", player=p, slug=old, what="ended")
    pl["form"] = {"slug": slug, "left": FORMS[slug].turns, "ts": new_ts(g)}
    ctx.ev("form", f"{p} takes {slug}", player=p, slug=slug, what="taken")
    for c in FORMS[slug].immune:
        end_condition(g, ctx, pl, c, p)


def _form(slug: str) -> Effect:
    def f(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
        take_form(g, ctx, e["caster"], slug)
    return f


for _f in FORMS:
    EFFECTS[_f] = _form(_f)


# ---- summons ---------------------------------------------------------------------------
def summon(g: Dict, ctx: Ctx, p: str, kind: str, h: str) -> Dict | None:
    """Put a new ``kind`` creature owned and controlled by ``p`` on empty hex ``h`` (R68,
    R69: summon-sick, unless it has Haste)."""
    if occupied(g, h) or not fld.passable(h):
        ctx.ev("ignored", f"{h} is no longer empty: no creature appears", at=h)
        return None
    ts = new_ts(g)
    c: Dict = {"id": ts, "ts": ts, "kind": kind, "owner": p, "controller": p, "at": h,
               "damage": 0, "counters": 0, "sick": 1, "tapped": 0, "moved": 0,
               "conditions": [], "copy": {}}
    g["creatures"].append(c)
    if "haste" in values(g, c)["keywords"]:
        c["sick"] = 0
    ctx.ev("summon", f"{p} summons a {kind} on {h}", player=p, kind=kind, at=h)
    return c


def _summon(kind: str) -> Effect:
    def f(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
        if not t[0]:
            _ignored(ctx, e, "the hex")
            return
        summon(g, ctx, e["caster"], kind, t[0])
    return f


for _sp, _kind in SUMMONS.items():
    if _sp != "doppelganger":
        EFFECTS[_sp] = _summon(_kind)


@effect("doppelganger")
def _doppelganger(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """A Doppelganger that enters as a copy of the target creature (layer 1, R105)."""
    if not t[0]:
        _ignored(ctx, e, "the hex")
        return
    model = creature_by_id(g, int(t[1][1:])) if t[1] else None
    copied = printed(model) if model is not None else {}
    c = summon(g, ctx, e["caster"], "doppelganger", t[0])
    if c is not None and copied:
        c["copy"] = copied
        c["sick"] = 0 if "haste" in values(g, c)["keywords"] else 1
        ctx.ev("copy", f"the Doppelganger on {c['at']} copies a {copied['name']}",
               at=c["at"], kind=copied["name"])


# ---- creatures -------------------------------------------------------------------------
@effect("corpse-explosion")
def _corpse_explosion(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Destroy your creature, then its last-known Power to each enemy creature adjacent
    to the hex it left (R106)."""
    if not t[0]:
        _ignored(ctx, e, "the target")
        return
    c = creature_by_id(g, int(t[0][1:]))
    if c is None:
        return
    last, h = values(g, c), c["at"]
    die(g, ctx, c)
    for n in fld.neighbours(h):
        foe = creature_at(g, n)
        if foe is not None and foe["controller"] != e["caster"]:
            deal(g, ctx, Source(e["caster"]), f"#{foe['id']}", last["power"])
    settle(g, ctx)


@effect("plague")
def _plague(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Each enemy creature: a -1/-1 counter and poisoned."""
    for c in sorted(g["creatures"], key=lambda c: fld.ORDER[c["at"]]):
        if c["controller"] != e["caster"]:
            c["counters"] -= 1
            ctx.ev("counters", f"{c['at']} gets a -1/-1 counter", at=c["at"], n=-1)
            add_condition(g, ctx, c, "poisoned", e["caster"], c["at"])


@effect("shadow-step")
def _shadow_step(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Teleport your creature to ``to=`` if that hex is still empty (R76)."""
    to = e["args"].get("to", "")
    if not t[0]:
        _ignored(ctx, e, "the target")
        return
    c = creature_by_id(g, int(t[0][1:]))
    if c is None or occupied(g, to):
        ctx.ev("ignored", f"{to} is no longer empty: no teleport", at=to)
        return
    ctx.ev("teleport", f"{c['at']} teleports to {to}", frm=c["at"], to=to)
    c["at"] = to
    c["teleported"] = 1


@effect("earthquake")
def _earthquake(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """3 to the target's Wall only (R43), then 1 damage and clumsy to each creature without
    Flying."""
    if t[0]:
        pl = g["players"][t[0]]
        if stands(pl, "wall"):
            a = min(3, pl["wall"])
            pl["wall"] -= a
            ctx.ev("damage", f"{t[0]}'s Wall takes {a}", on=f"{t[0]}.wall", amount=a)
    else:
        _ignored(ctx, e, "the wizard")
    hit = [c for c in sorted(g["creatures"], key=lambda c: fld.ORDER[c["at"]])
           if "flying" not in values(g, c)["keywords"]]
    for c in hit:
        deal(g, ctx, Source(e["caster"]), f"#{c['id']}", 1)
    settle(g, ctx)
    for c in hit:
        if creature_by_id(g, c["id"]) is not None:
            add_condition(g, ctx, c, "clumsy", e["caster"], c["at"])


@effect("meteor")
def _meteor(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """6 Flying damage to the wizard, then 2 to each creature adjacent to his hex."""
    if not t[0]:
        _ignored(ctx, e, "the wizard")
        return
    deal(g, ctx, Source(e["caster"]), t[0], 6, "flying")
    settle(g, ctx)
    at = g["players"][t[0]]["at"]
    for n in fld.neighbours(at):
        c = creature_at(g, n)
        if c is not None:
            deal(g, ctx, Source(e["caster"]), f"#{c['id']}", 2)


@effect("army-of-the-dead")
def _army(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Five Undead you control: you win (R114); otherwise 2 corpses."""
    p = e["caster"]
    undead = sum(1 for c in g["creatures"] if c["controller"] == p
                 and "Undead" in values(g, c)["types"])
    if undead >= 5:
        g["winner"], g["how"], g["step"] = p, "army-of-the-dead", "over"
        ctx.ev("win", f"{p} wins: the Army of the Dead", player=p)
        return
    pl = g["players"][p]
    if stands(pl, "graveyard"):
        pl["corpses"] += 2
        ctx.ev("corpse", f"{p}'s Graveyard gains 2 corpses", player=p, n=2)


@effect("bone-tithe")
def _bone_tithe(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Each player who controls a creature chooses one, AP first (R58, R103); then all
    chosen die together (finished in turn.finish_choice)."""
    order = [p for p in (g["active"], other(g["active"]))
             if any(c["controller"] == p for c in g["creatures"])]
    if order:
        g["choice"] = {"slug": "bone-tithe", "caster": e["caster"], "order": order,
                       "chosen": []}


def finish_bone_tithe(g: Dict, ctx: Ctx) -> None:
    """All chosen creatures die at the same time."""
    ch = g["choice"]
    g["choice"] = {}
    dying = [creature_by_id(g, cid) for _p, cid in ch["chosen"]]
    for c in dying:
        if c is not None and creature_by_id(g, c["id"]) is not None:
            die(g, ctx, c)
    settle(g, ctx)


# ---- buildings and workers -------------------------------------------------------------
def _raise(pl: Dict, ctx: Ctx, p: str, b: str, n: int) -> None:
    if stands(pl, b):
        pl[b] += n
        ctx.ev("building", f"{p}'s {b} +{n}", player=p, building=b, amount=n)
    else:
        ctx.ev("ignored", f"{p}'s {b} is destroyed: +{n} is lost", player=p, building=b)


@effect("build-wall")
def _build_wall(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Wall +3, if it stands."""
    _raise(g["players"][e["caster"]], ctx, e["caster"], "wall", 3)


@effect("earthworks")
def _earthworks(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Moat +2 and Tower +2, each only if it stands (R42)."""
    pl = g["players"][e["caster"]]
    _raise(pl, ctx, e["caster"], "moat", 2)
    _raise(pl, ctx, e["caster"], "tower", 2)


@effect("rebuild")
def _rebuild(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """The destroyed building stands again at 4 (R42)."""
    if not t[0]:
        _ignored(ctx, e, "the building")
        return
    p, _, b = t[0].partition(".")
    pl = g["players"][p]
    pl["destroyed"].remove(b)
    pl[b] = 4
    ctx.ev("rebuilt", f"{p}'s {b} stands again at 4", player=p, building=b)


@effect("landslide")
def _landslide(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """4 damage to a worker building's integrity, never below 0 (R43)."""
    if not t[0]:
        _ignored(ctx, e, "the building")
        return
    p, _, b = t[0].partition(".")
    pl = g["players"][p]
    a = min(4, pl[b])
    pl[b] -= a
    ctx.ev("damage", f"{p}'s {b} takes {a}", on=t[0], amount=a)


@effect("study")
def _study(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """INT +1, permanently."""
    g["players"][e["caster"]]["int"] += 1
    ctx.ev("int", f"{e['caster']}'s INT +1", player=e["caster"])


@effect("recruit")
def _recruit(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """One worker on the named post, if it stands and the player has fewer than 8."""
    pl, post = g["players"][e["caster"]], e["args"]["at"]
    if workers_total(pl) >= MAX_WORKERS or not stands(pl, post):
        ctx.ev("ignored", "no worker can be recruited", player=e["caster"])
        return
    pl["workers"][post] += 1
    ctx.ev("worker", f"{e['caster']} recruits a worker on the {post}", player=e["caster"],
           post=post)


def reassign_ok(pl: Dict, moves: str) -> str:
    """Why worker moves ``from>to,...`` cannot be made now (R44, R42), or ``""``."""
    need: dict[str, int] = {}
    for m in moves.split(","):
        a, _, b = m.partition(">")
        if not stands(pl, b):
            return f"the {b} is destroyed: no worker may be moved onto it"
        need[a] = need.get(a, 0) + 1
    for a in sorted(need):
        if pl["workers"][a] < need[a]:
            return f"the {a} has {pl['workers'][a]} worker(s), fewer than the moves take"
    return ""


@effect("reassign")
def _reassign(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Move one or two workers between posts; both checked before either is made."""
    pl = g["players"][e["caster"]]
    if reassign_ok(pl, e["args"]["moves"]):
        ctx.ev("ignored", "the workers can no longer be moved", player=e["caster"])
        return
    for m in e["args"]["moves"].split(","):
        a, _, b = m.partition(">")
        pl["workers"][a] -= 1
        pl["workers"][b] += 1
        ctx.ev("worker", f"{e['caster']} moves a worker from the {a} to the {b}",
               player=e["caster"], frm=a, to=b)


# ---- the book and the stack ------------------------------------------------------------
@effect("magic-lock")
def _lock(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """A Lock on one unlocked spell of the rival's book (R93)."""
    if not t[0]:
        _ignored(ctx, e, "the spell")
        return
    p, _, s = t[0].partition(":")
    g["players"][p]["locked"].append(s)
    ctx.ev("lock", f"{p}'s {s} is locked", player=p, slug=s)


@effect("unlock")
def _unlock(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Remove the Lock from one of your spells."""
    if not t[0]:
        _ignored(ctx, e, "the spell")
        return
    p, _, s = t[0].partition(":")
    g["players"][p]["locked"].remove(s)
    ctx.ev("unlock", f"{p}'s {s} is unlocked", player=p, slug=s)


@effect("dispel")
def _dispel(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Remove one condition, a Form or a Lock."""
    ref = t[0]
    if not ref:
        _ignored(ctx, e, "the effect")
        return
    if ":" in ref:
        _unlock(g, ctx, e, [ref])
        return
    piece, _, slug = ref.partition("/")
    h, where = holder(g, piece)
    if h is None:
        return
    if "id" not in h and form_of(h) == slug:
        h["form"] = {}
        ctx.ev("form", f"{piece}'s {slug} is dispelled", player=piece, slug=slug, what="ended")
    else:
        end_condition(g, ctx, h, slug, where)


@effect("counterspell")
def _counter(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Counter a spell on the stack: it leaves without effect, still paid (R54)."""
    if not t[0]:
        _ignored(ctx, e, "the spell")
        return
    p, _, s = t[0].partition(":")
    for x in g["stack"]:
        if x["caster"] == p and x["slug"] == s:
            g["stack"].remove(x)
            traps.countered(g, x)
            ctx.ev("counter", f"{p}'s {s} is countered", player=p, slug=s)
            return


@effect("magic-trap")
def _trap(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Set the trap the cast committed to (R94, R125)."""
    traps.set_trap(g, ctx, e)


@effect("magic-untrap")
def _untrap(g: Dict, ctx: Ctx, e: Dict, t: list[str]) -> None:
    """Remove every trap on your own book (R96)."""
    traps.untrap(g, ctx, e["caster"])


def _check_table() -> None:
    from core.arcomage.data import SPELLS

    missing = [s for s in SPELLS if s not in EFFECTS]
    if missing:
        raise RuntimeError(f"spells without an effect: {missing}")


_check_table()
