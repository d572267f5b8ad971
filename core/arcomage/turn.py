"""The turn, the stack and priority, casting, and ``validate``/``perform`` for every action
(rules.md §4, §6, R27-R36, R47-R59, R73, R78-R83, R110-R118, R121-R122).

:func:`validate` raises :class:`IllegalAction` (no change to the state) for anything the rules
refuse; :func:`perform` then carries a validated action out and runs every automatic step up
to the next decision. :func:`legal_actions` lists candidates that pass :func:`validate`.
"""

from __future__ import annotations

from typing import Any

from core.arcomage import combat, effects, movement, traps
from core.arcomage import field as fld
from core.arcomage.actions import Action
from core.arcomage.damage import (
    Ctx,
    Source,
    add_condition,
    deal,
    end_condition,
    lose_life,
    over,
    settle,
)
from core.arcomage.data import (
    FORMS,
    MAX_CREATURES,
    MAX_WORKERS,
    POSTS,
    SPELLS,
    SUMMONS,
    WORKER_BUILDINGS,
    Spell,
)
from core.arcomage.state import (
    Dict,
    cannot_act,
    ceiling,
    cond,
    creature_at,
    creature_by_id,
    form_of,
    gain_life,
    occupied,
    occupier,
    other,
    rooted,
    stands,
    values,
    workers_total,
)
from core.engine import IllegalAction


# ---- who is to move (R121) -------------------------------------------------------------
def to_move(g: Dict) -> list[str]:
    """The one player who must act now, or nobody when the game is over."""
    if over(g) or g.get("awaiting"):
        return []  # a trap answer is awaited: nobody decides (R128)
    step = g["step"]
    if step == "choose":
        ch = g["choice"]
        return [ch["order"][len(ch["chosen"])]]
    if step == "attack":
        return [g["active"]]
    if step == "block":
        return [other(g["active"])]
    if step == "combat" or g["stack"]:
        return [g["prio"]]
    return [g["active"]]


def _top_enemy(g: Dict, p: str) -> bool:
    return bool(g["stack"]) and g["stack"][-1]["caster"] != p


# ---- casting ---------------------------------------------------------------------------
def cost_of(pl: Dict, spell: Spell) -> int:
    """The mana cost, with Lich Form's Necromancy discount (never below 1)."""
    c = spell.cost
    if form_of(pl) == "lich-form" and spell.school == "Necromancy":
        c = max(1, c - 1)
    return c


def why_cannot_cast(pl: Dict) -> str:
    """Why the wizard is prevented from casting (R49 step 2), or ``""``."""
    for s in ("silenced", "stunned", "paralyzed", "asleep"):
        if cond(pl, s):
            return f"your wizard is {s}: he cannot cast"
    f = form_of(pl)
    if f and not FORMS[f].casting:
        return f"in {f} your wizard cannot cast"
    return ""


def gates(g: Dict, p: str, spell: Spell) -> str:
    """The gates of R49 step 2 that do not depend on the targets, or ``""``."""
    pl = g["players"][p]
    s = spell.slug
    if s not in pl["book"]:
        return f"{s} is not in your book"
    if s in pl["cast"]:
        return f"you have already cast {s} this turn (each spell once per turn)"
    if s in pl["locked"]:
        return f"{s} is locked"
    if spell.kind == "instant":
        if p not in to_move(g) or g["step"] not in ("main", "combat"):
            return "you do not hold priority"
    elif not (p == g["active"] and g["step"] == "main" and not g["stack"]):
        return f"a {spell.kind} is cast only in your own MAIN with the stack empty"
    if spell.circle > ceiling(pl):
        return f"{s} is Circle {spell.circle}, above your cast ceiling {ceiling(pl)}"
    if cost_of(pl, spell) > pl["mana"]:
        return f"{s} costs {cost_of(pl, spell)} mana; you have {pl['mana']}"
    if spell.corpse_cost and (pl["corpses"] < spell.corpse_cost
                              or not stands(pl, "graveyard")):
        return f"{s} needs a corpse from your Graveyard"
    why = why_cannot_cast(pl)
    if why:
        return why
    if s in SUMMONS and sum(c["controller"] == p for c in g["creatures"]) >= MAX_CREATURES:
        return "you control 6 creatures: no more may be summoned"
    if s == "recruit" and workers_total(pl) >= MAX_WORKERS:
        return "you have 8 workers, the most a player may have"
    return ""


def _invisible(g: Dict, c: Dict) -> bool:
    return "invisible" in values(g, c)["keywords"]


def cast_target(g: Dict, p: str, word: str, t: str, spell: Spell) -> tuple[str, str]:
    """The ref a cast's target text names, or why it is not legal now (R55): ``(ref, "")``
    or ``("", reason)``."""
    if word in ("piece", "creature", "enemy-creature", "own-creature"):
        if t in ("P1", "P2"):
            return (t, "") if word == "piece" else ("", f"{t} is a wizard, not a creature")
        c = creature_at(g, t)
        if c is None:
            if word == "piece":  # a wizard is a legal target too: say both (R55)
                return "", f"there is no creature or archmage on {t}"
            return "", f"there is no creature on {t}"
        if _invisible(g, c):
            return "", f"the creature on {t} is Invisible: it cannot be targeted"
        if word == "enemy-creature" and c["controller"] == p:
            return "", f"the creature on {t} is yours"
        if word == "own-creature" and c["controller"] != p:
            return "", f"the creature on {t} is not yours"
        if spell.slug == "shadow-step" and rooted(g, c):
            return "", f"the creature on {t} is Rooted: it cannot be teleported"
        return f"#{c['id']}", ""
    if word == "enemy-wizard":
        return (t, "") if t == other(p) else ("", "the target must be the enemy wizard")
    if word == "hex":
        if not fld.passable(t):
            return "", f"{t} is the Nexus"
        if occupied(g, t):
            return "", f"{t} is occupied"
        d = fld.distances(g["players"][p]["at"], occupier(g)).get(t)
        if d is None or d > 2:
            return "", f"{t} is not within distance 2 of your wizard"
        return t, ""
    owner, _, slug = t.partition(":")
    if word == "rival-spell" and slug == "?":  # a networked peer's redacted Magic Trap
        if owner != other(p):
            return "", "the target must be a spell of your rival's book"
        if not traps.room(g, p):
            return "", f"every spell of {owner}'s book carries one of your traps"
        return t, ""
    if word == "rival-spell":
        if owner != other(p):
            return "", "the target must be a spell of your rival's book"
        book = g["players"][owner]
        if slug not in book["book"]:
            return "", f"{slug} is not in {owner}'s book"
        if spell.slug == "magic-lock":
            if slug == "unlock":
                return "", "Unlock cannot be locked"
            if slug in book["locked"]:
                return "", f"{owner}'s {slug} is locked already"
        if spell.slug == "magic-trap" and traps.carries_trap(g, owner, slug):
            return "", f"{owner}'s {slug} carries one of your traps already"
        if spell.slug == "magic-trap" and g.get("owners") and traps.pending(g, p, slug):
            return "", f"a Magic Trap of yours on {owner}'s {slug} is on the stack already"
        return t, ""
    if word == "own-locked-spell":
        if owner != p or slug not in g["players"][p]["locked"]:
            return "", "the target must be one of your own locked spells"
        return t, ""
    if word == "stack-spell":
        if not any(e["caster"] == owner and e["slug"] == slug for e in g["stack"]):
            return "", f"{t} is not on the stack"
        return t, ""
    if word == "effect":
        return _effect_target(g, t)
    if word in ("rival-worker-building", "own-destroyed-building"):
        owner, _, b = t.partition(".")
        if word == "rival-worker-building":
            if owner != other(p) or b not in WORKER_BUILDINGS:
                return "", "the target must be one of your rival's worker buildings"
            if not stands(g["players"][owner], b):
                return "", f"{owner}'s {b} is destroyed already"
            return t, ""
        if owner != p:
            return "", "the target must be one of your own buildings"
        if stands(g["players"][p], b):
            return "", f"your {b} stands: only a destroyed building can be rebuilt"
        return t, ""
    return "", f"{t} is not a target"


def _effect_target(g: Dict, t: str) -> tuple[str, str]:
    if ":" in t:
        owner, _, slug = t.partition(":")
        if slug not in g["players"][owner]["locked"]:
            return "", f"{owner}'s {slug} carries no Lock"
        return t, ""
    piece, _, slug = t.partition("/")
    if piece in ("P1", "P2"):
        pl = g["players"][piece]
        if form_of(pl) == slug or cond(pl, slug):
            return t, ""
        return "", f"{piece} has no {slug}"
    c = creature_at(g, piece)
    if c is None:
        return "", f"there is no creature on {piece}"
    if _invisible(g, c):
        return "", f"the creature on {piece} is Invisible: nothing on it can be targeted"
    if not cond(c, slug):
        return "", f"the creature on {piece} has no {slug}"
    return f"#{c['id']}/{slug}", ""


def still_legal(g: Dict, e: Dict, word: str, ref: str, reflected: bool) -> str:
    """At resolution: the target ref if it is still legal (R56), else ``""``."""
    p = e["caster"]
    if word in ("piece", "creature", "enemy-creature", "own-creature"):
        if ref in ("P1", "P2"):
            return ref
        c = creature_by_id(g, int(ref[1:]))
        if c is None or _invisible(g, c):
            return ""
        if word == "enemy-creature" and c["controller"] == p:
            return ""
        if word == "own-creature" and c["controller"] != p:
            return ""
        if e["slug"] == "shadow-step" and rooted(g, c):
            return ""
        return ref
    if word == "enemy-wizard":
        return ref if reflected or ref == other(p) else ""
    if word == "hex":
        return ref
    if word == "effect" and ref.startswith("#"):
        cid, _, slug = ref.partition("/")
        c = creature_by_id(g, int(cid[1:]))
        if c is None or _invisible(g, c) or not cond(c, slug):
            return ""
        return f"{cid}/{slug}"
    if word == "rival-spell" and e["slug"] == "magic-trap":
        return ref
    text_ref, why = cast_target(g, p, word, ref, SPELLS[e["slug"]])
    return "" if why else text_ref


def args_problem(g: Dict, p: str, spell: Spell, a: Action, refs: list[str]) -> str:
    """Why the cast's arguments are not legal now (R49 step 1), or ``""``."""
    if spell.slug == "shadow-step":
        to = a.arg("to")
        c = creature_by_id(g, int(refs[0][1:]))
        assert c is not None
        if not fld.passable(to):
            return f"{to} is the Nexus"
        if occupied(g, to):
            return f"{to} is occupied"
        if fld.grid_distance(c["at"], to) > 3:
            return f"{to} is more than 3 hexes from {c['at']}"
    if spell.slug == "recruit" and not stands(g["players"][p], a.arg("at")):
        return f"your {a.arg('at')} is destroyed"
    if spell.slug == "reassign":
        return effects.reassign_ok(g["players"][p], a.arg("moves"))
    return ""


def check_cast(g: Dict, a: Action) -> list[str]:
    """Validate a cast (R49 steps 1-2); returns the target refs. Raises IllegalAction."""
    spell = SPELLS[a.slug]
    why = gates(g, a.actor, spell)
    if why:
        raise IllegalAction(why)
    if a.slug == "magic-trap" and a.targets[0].endswith(":?") and not g.get("owners"):
        raise IllegalAction("this game holds the trap secrets: cast Magic Trap in full form "
                            "(the redacted form is for a networked game's other peers)")
    refs = []
    for word, t in zip(spell.targets, a.targets, strict=True):
        ref, why = cast_target(g, a.actor, word, t, spell)
        if why:
            raise IllegalAction(why)
        refs.append(ref)
    why = args_problem(g, a.actor, spell, a, refs)
    if why:
        raise IllegalAction(why)
    return refs


def do_cast(g: Dict, ctx: Ctx, a: Action, refs: list[str]) -> None:
    """Pay, mark cast, put it on the stack (R49 step 3), spring a trap (step 4), give
    priority to the rival (R51)."""
    p, spell = a.actor, SPELLS[a.slug]
    pl = g["players"][p]
    paid = cost_of(pl, spell)
    pl["mana"] -= paid
    pl["corpses"] -= spell.corpse_cost
    pl["cast"].append(spell.slug)
    ctx.ev("mana", f"{p} pays {paid} mana", player=p, amount=-paid)
    entry = {"caster": p, "slug": spell.slug, "targets": list(refs), "args": dict(a.args)}
    if spell.slug == "magic-trap":
        traps.on_cast(g, entry, a.targets[0])
    g["stack"].append(entry)
    if g["step"] == "combat":
        g["passes"] = 0
    ctx.ev("cast", f"{p} casts {spell.slug}", player=p, slug=spell.slug,
           targets=list(entry["targets"]))
    if g.get("owners") and traps.lying(g, p):
        # a networked game: the trapper's own process answers (R128); nobody decides
        g["awaiting"] = {"victim": p, "slug": spell.slug}
        return
    t = traps.springs(g, p, spell.slug) if traps.lying(g, p) else None
    if t is not None:
        spring(g, ctx, t, spell.slug)
    g["prio"] = other(p)


def spring(g: Dict, ctx: Ctx, t: Dict, slug: str) -> None:
    """Trap ``t`` lying on ``slug`` springs on its victim (R95): 6 damage, then poisoned."""
    p = t["victim"]
    t["status"] = "sprung"
    ctx.ev("trap-sprung", f"{t['trapper']}'s trap on {slug} springs",
           player=t["trapper"], victim=p, slug=slug, n=t["n"])
    deal(g, ctx, Source(t["trapper"]), p, 6)
    settle(g, ctx)
    add_condition(g, ctx, g["players"][p], "poisoned", t["trapper"], p)
    settle(g, ctx)


def check_reveal(g: Dict, a: Action) -> int:
    """Validate a trap answer (R128) in a networked game: the awaited trapper's "no trap
    here" (0) or the opening of one of his traps lying on the spell being cast (its
    number). Raises :class:`IllegalAction`."""
    aw = g.get("awaiting")
    if not aw:
        raise IllegalAction("no trap answer is awaited now")
    holder = other(aw["victim"])
    if a.actor != holder:
        raise IllegalAction(f"the trap answer is {holder}'s to give, not {a.actor}'s")
    if not a.slug:
        return 0
    if a.slug != aw["slug"]:
        raise IllegalAction(f"{aw['victim']} is casting {aw['slug']}, not {a.slug}")
    for t in traps.lying(g, aw["victim"]):
        if str(t["n"]) == a.arg("n"):
            if t["trapper"] != holder:
                raise IllegalAction(f"trap {t['n']} is not {holder}'s")
            if t.get("slug") not in (None, a.slug):
                raise IllegalAction(f"trap {t['n']} does not lie on {a.slug}")
            if t.get("commit") and traps.commit(a.arg("salt"), a.slug) != t["commit"]:
                raise IllegalAction(f"{a.slug} and that salt do not open trap {t['n']}")
            return int(t["n"])
    raise IllegalAction(f"no trap number {a.arg('n')} lies on {aw['victim']}'s book")


def answer_trap(g: Dict, ctx: Ctx, n: int, holder: str, slug: str) -> None:
    """The awaited trap answer is given (R128): trap ``n`` springs (0: nothing does), then
    the cast goes on and the rival gets priority (R51)."""
    aw = g.pop("awaiting")
    t = next((x for x in g["traps"] if x["n"] == n), None) if n else None
    ctx.ev("trap-answer", f"{holder}: " + (f"trap {t['n']} lies on {slug}" if t else
                                           "no trap here"),
           player=holder, victim=aw["victim"], n=t["n"] if t else 0)
    if t is not None:
        t["slug"] = slug
        spring(g, ctx, t, slug)
    g["prio"] = other(aw["victim"])


def resolve_top(g: Dict, ctx: Ctx) -> None:
    """The top spell leaves the stack and resolves (R53, R56, R59)."""
    e = g["stack"].pop()
    spell = SPELLS[e["slug"]]
    foe = other(e["caster"])
    reflected = False
    ward = cond(g["players"][foe], "magic-reflection")
    if ward is not None and foe in e["targets"] and any(
            w in ("piece", "enemy-wizard") for w in spell.targets):
        end_condition(g, ctx, g["players"][foe], "magic-reflection", foe)
        e["targets"] = [e["caster"] if r == foe else r for r in e["targets"]]
        reflected = True
        ctx.ev("reflect", f"{foe}'s Magic Reflection turns {e['slug']} back", player=foe)
    live = [still_legal(g, e, w, r, reflected) for w, r in zip(spell.targets, e["targets"],
                                                               strict=True)]
    ctx.ev("resolve", f"{e['caster']}'s {e['slug']} resolves", player=e["caster"],
           slug=e["slug"])
    effects.EFFECTS[e["slug"]](g, ctx, e, live)
    settle(g, ctx)


def after_resolution(g: Dict) -> None:
    """Priority after a spell has left the stack (R51)."""
    if over(g) or g["step"] == "choose":
        return
    if g["stack"]:
        g["prio"] = other(g["stack"][-1]["caster"])
    elif g["step"] == "combat":
        g["prio"], g["passes"] = g["active"], 0
    else:
        g["prio"] = ""


# ---- the turn --------------------------------------------------------------------------
def begin_turn(g: Dict, ctx: Ctx, first: bool = False) -> None:
    """A new turn: UNTAP, UPKEEP, PRODUCE (R27-R31), up to the AP's MAIN."""
    if not first:
        g["turn"] += 1
        g["active"] = other(g["active"])
    ap = g["active"]
    g["timed_out"] = 0
    g["step"], g["prio"], g["passes"], g["combat"] = "main", "", 0, {"attacks": [], "blocks": []}
    for p in ("P1", "P2"):
        g["players"][p]["cast"] = []
    ctx.ev("turn", f"turn {g['turn']}: {ap}", turn=g["turn"], player=ap)
    pl = g["players"][ap]
    for c in g["creatures"]:
        if c["controller"] == ap:
            c["tapped"] = c["moved"] = c["sick"] = 0
    pl["moved"] = pl["attacked"] = 0
    _upkeep(g, ctx, ap)
    if over(g):
        return
    if not (g["turn"] == 1 and ap == g["first"]):
        _produce(g, ctx, ap)


def _upkeep(g: Dict, ctx: Ctx, ap: str) -> None:
    pl = g["players"][ap]
    # 1: start-of-turn triggers, oldest source first
    sources = []
    sa = cond(pl, "star-alignment")
    if sa is not None:
        sources.append((sa["ts"], "star"))
    if form_of(pl) == "lich-form":
        sources.append((pl["form"]["ts"], "lich"))
    for _ts, what in sorted(sources):
        if what == "star":
            sa = cond(pl, "star-alignment")
            if sa is None:
                continue
            sa["stars"] += 1
            ctx.ev("star", f"{ap}'s Star Alignment: {sa['stars']} star(s)", player=ap,
                   n=sa["stars"])
            if sa["stars"] >= 3:
                g["winner"], g["how"], g["step"] = ap, "star-alignment", "over"
                ctx.ev("win", f"{ap} wins: the stars align", player=ap)
                return
        elif pl["corpses"] > 0:
            pl["corpses"] -= 1
            got = gain_life(pl, 2)
            ctx.ev("life", f"{ap}'s Lich Form spends a corpse: +{got} Life", player=ap,
                   amount=got)
        settle(g, ctx)
        if over(g):
            return
    # 2: the wizard's conditions tick
    _tick(g, ctx, pl, ap, True)
    settle(g, ctx)
    if over(g):
        return
    # 3: his creatures' conditions tick, all at once
    for c in sorted(g["creatures"], key=lambda c: c["id"]):
        if c["controller"] == ap:
            _tick(g, ctx, c, c["at"], False)
    settle(g, ctx)
    if over(g):
        return
    # 4: the Tower fires (R45)
    n = pl["workers"]["tower"]
    if n > 0 and stands(pl, "tower"):
        foes = {c["at"]: c for c in g["creatures"]
                if c["controller"] != ap and "invisible" not in values(g, c)["keywords"]}
        h = fld.nearest(pl["at"], list(foes), occupier(g))
        if h:
            ctx.ev("tower", f"{ap}'s Tower fires at {h}", player=ap, at=h, amount=n)
            deal(g, ctx, Source(ap), f"#{foes[h]['id']}", n)
            settle(g, ctx)


def _tick(g: Dict, ctx: Ctx, h: Dict, where: str, wizard: bool) -> None:
    for slug in ("poisoned", "burning", "regenerating"):
        c = cond(h, slug)
        if c is None:
            continue
        if wizard:
            if slug == "regenerating":
                got = gain_life(h, 2)
                ctx.ev("life", f"{where} regenerates {got}", player=where, amount=got)
            else:
                lose_life(g, ctx, where, 1 if slug == "poisoned" else 2, slug)
        elif slug == "regenerating":
            if h["counters"] < 0:
                h["counters"] += 1
                ctx.ev("counters", f"{where} loses a -1/-1 counter", at=where, n=1)
        else:
            h["counters"] -= 1
            ctx.ev("counters", f"{where} gets a -1/-1 counter ({slug})", at=where, n=-1)
        c["left"] -= 1
        if c["left"] <= 0:
            end_condition(g, ctx, h, slug, where)


def _produce(g: Dict, ctx: Ctx, ap: str) -> None:
    pl = g["players"][ap]
    w = pl["workers"]
    mana = 2 * w["altar"] if stands(pl, "altar") else 0
    wall = w["quarry"] if stands(pl, "quarry") and stands(pl, "wall") else 0
    corpses = w["graveyard"] if stands(pl, "graveyard") else 0
    pl["mana"] += mana
    pl["wall"] += wall
    pl["corpses"] += corpses
    ctx.ev("produce", f"{ap} produces {mana} mana, {wall} Wall, {corpses} corpse(s)",
           player=ap, mana=mana, wall=wall, corpses=corpses)


def begin_combat(g: Dict, ctx: Ctx) -> None:
    """COMBAT (R33, R77, R78): the autonomous creatures act, then the declaration (or END)."""
    ap = g["active"]
    g["step"] = "attack"
    for c in sorted(g["creatures"], key=lambda c: c["ts"]):
        if over(g):
            return
        if creature_by_id(g, c["id"]) is None or c["controller"] != ap:
            continue
        kws = values(g, c)["keywords"]
        if not ("autonomous" in kws or "seeker" in kws) or c["sick"] or cannot_act(c):
            continue
        foes = {g["players"][other(ap)]["at"]: other(ap)}
        for f in g["creatures"]:
            if f["controller"] != ap and "invisible" not in values(g, f)["keywords"]:
                foes[f["at"]] = f"#{f['id']}"
        h = fld.nearest(c["at"], list(foes), occupier(g))
        if not h:
            continue
        start = c["at"]
        path = movement.advance(g, c, h)
        c["moved"] = 1
        if path:
            ctx.ev("move", f"{start} advances to {c['at']}", frm=start, path=path)
        if "autonomous" in kws and fld.adjacent(c["at"], h) and not cond(c, "silenced"):
            n = max(0, values(g, c)["power"])
            ctx.ev("strike", f"{c['at']} strikes {h}", frm=c["at"], to=h, amount=n)
            kind = "flying" if foes[h] in ("P1", "P2") and "flying" in kws else "normal"
            deal(g, ctx, Source(ap, c["id"], True), foes[h], n, kind)
            settle(g, ctx)
    if over(g):
        return
    if not combat.must_or_may_attack(g, ap):
        end_turn(g, ctx)


def end_turn(g: Dict, ctx: Ctx) -> None:
    """END (R34): durations tick and cleanup at one moment, the checks, the turn limit,
    the next turn."""
    g["step"] = "end"
    g["combat"] = {"attacks": [], "blocks": []}
    for p in ("P1", "P2"):
        pl = g["players"][p]
        _count_down(g, ctx, pl, p)
        if pl["form"] and pl["form"]["left"] > 0:
            pl["form"]["left"] -= 1
            if pl["form"]["left"] == 0:
                ctx.ev("form", f"{p}'s {pl['form']['slug']} ends", player=p,
                       slug=pl["form"]["slug"], what="ended")
                pl["form"] = {}
    for c in list(g["creatures"]):
        _count_down(g, ctx, c, c["at"])
        c["damage"] = 0
        c["teleported"] = 0
    settle(g, ctx)
    if over(g):
        return
    if g["turn_limit"] and g["turn"] >= g["turn_limit"]:
        g["winner"], g["how"], g["step"] = "draw", "turn-limit", "over"
        ctx.ev("draw", f"the turn limit ({g['turn_limit']}) is reached: a draw")
        return
    begin_turn(g, ctx)


def _count_down(g: Dict, ctx: Ctx, h: Dict, where: str) -> None:
    from core.arcomage.data import CONDITIONS

    for c in list(h["conditions"]):
        if CONDITIONS[c["slug"]].lasts in ("upkeeps", "dispel") or c["left"] < 0:
            continue
        c["left"] -= 1
        if c["left"] <= 0:
            end_condition(g, ctx, h, c["slug"], where)


# ---- validate / perform ----------------------------------------------------------------
def validate(g: Dict, a: Action) -> Any:
    """Raise :class:`IllegalAction` (with the reason) unless ``a`` is legal now; returns
    what :func:`perform` needs (a cast's refs, a declaration's pairs)."""
    p = a.actor
    if over(g):
        raise IllegalAction("the game is over")
    if a.verb == "concede":
        return None
    if a.verb == "timeout":
        if not g["clock"]:
            raise IllegalAction("this game has no clock: there is no timeout")
        if p != g["active"] or p not in to_move(g):
            raise IllegalAction("only the active player's turn budget can run out, while he "
                                "is to move")
        if _top_enemy(g, p):
            raise IllegalAction("an answer to an enemy spell runs on a response budget: its "
                                "timeout is a pass")
        return None
    if a.verb == "reveal":
        if not g.get("owners"):
            raise IllegalAction("no trap answer is awaited (this game's core is the dealer)")
        return check_reveal(g, a)
    if g.get("awaiting"):
        raise IllegalAction(f"the trap answer of {other(g['awaiting']['victim'])} is "
                            "awaited: only it (or a concession) is accepted now")
    if p not in to_move(g):
        raise IllegalAction(f"it is {', '.join(to_move(g))}'s decision now, not {p}'s")
    step = g["step"]
    if a.verb == "cast":
        return check_cast(g, a)
    if a.verb in ("move", "end"):
        if step != "main" or g["stack"] or p != g["active"]:
            raise IllegalAction(f"'{a.verb}' is for your own MAIN with the stack empty")
        if a.verb == "move":
            why = movement.walk_problem(g, p, list(a.targets))
            if why:
                raise IllegalAction(why)
        return None
    if a.verb == "pass":
        if not (g["stack"] or step == "combat"):
            raise IllegalAction("there is nothing to pass: with the stack empty in MAIN, "
                                "cast, move or 'end'")
        return None
    pairs = [tuple(x.split(">")) for x in a.targets]
    if a.verb == "attack":
        if step != "attack":
            raise IllegalAction("attacks are declared at the start of COMBAT")
        why = combat.attack_problem(g, p, pairs)  # type: ignore[arg-type]
        if why:
            raise IllegalAction(why)
        return pairs
    if a.verb == "block":
        if step != "block":
            raise IllegalAction("blocks are declared when an attack targets your wizard")
        why = combat.block_problem(g, p, pairs)  # type: ignore[arg-type]
        if why:
            raise IllegalAction(why)
        return pairs
    if a.verb == "choose":
        if step != "choose":
            raise IllegalAction("no choice is pending")
        c = creature_at(g, a.targets[0])
        if c is None or c["controller"] != p:
            raise IllegalAction(f"you control no creature on {a.targets[0]}")
        return None
    raise IllegalAction(f"unknown verb {a.verb}")


def perform(g: Dict, a: Action, info: Any) -> list[Any]:
    """Carry out a validated action, then every automatic step (R36) up to the next
    decision; returns the events."""
    ctx = Ctx()
    p = a.actor
    g["seq"] += 1
    if a.verb == "concede":
        g["winner"], g["how"], g["step"] = other(p), "concede", "over"
        ctx.ev("win", f"{p} concedes: {other(p)} wins", player=other(p))
        return ctx.events
    if a.verb == "timeout":
        g["timed_out"] = 1
        ctx.ev("timeout", f"{p}'s turn budget runs out", player=p)
    elif a.verb == "cast":
        do_cast(g, ctx, a, info)
    elif a.verb == "move":
        _move(g, ctx, a)
    elif a.verb == "end":
        ctx.ev("step", f"{p} ends MAIN", player=p, step="combat")
        begin_combat(g, ctx)
    elif a.verb == "pass":
        _pass(g, ctx)
    elif a.verb == "attack":
        _declare(g, ctx, info)
    elif a.verb == "block":
        _blocks(g, ctx, info)
    elif a.verb == "choose":
        _choose(g, ctx, a)
    elif a.verb == "reveal":
        answer_trap(g, ctx, info, p, a.slug)
    _auto(g, ctx)
    return ctx.events


def _move(g: Dict, ctx: Ctx, a: Action) -> None:
    start, end = a.targets[0], a.targets[-1]
    c = creature_at(g, start)
    if c is not None:
        c["at"], c["moved"] = end, 1
    else:
        pl = g["players"][a.actor]
        pl["at"], pl["moved"] = end, 1
    ctx.ev("move", f"{start} walks to {end}", frm=start, path=list(a.targets[1:]))


def _pass(g: Dict, ctx: Ctx) -> None:
    if g["stack"]:
        resolve_top(g, ctx)
        if g["choice"] and not over(g):
            g["resume"] = g["step"]
            g["step"] = "choose"
            return
        after_resolution(g)
        return
    if g["passes"]:
        _close_window(g, ctx)
    else:
        g["passes"], g["prio"] = 1, other(g["prio"])


def _close_window(g: Dict, ctx: Ctx) -> None:
    combat.combat_damage(g, ctx)
    if not over(g):
        end_turn(g, ctx)


def _declare(g: Dict, ctx: Ctx, pairs: list[tuple[str, str]]) -> None:
    ap = g["active"]
    attacks = []
    for a, t in pairs:
        c = creature_at(g, a)
        aref = f"#{c['id']}" if c is not None else ap
        if c is not None:
            c["tapped"] = 1
            c["teleported"] = 0
        else:
            g["players"][ap]["attacked"] = 1
        tc = creature_at(g, t) if t not in ("P1", "P2") else None
        tref = f"#{tc['id']}" if tc is not None else t
        if tc is not None:
            tc["teleported"] = 0
        attacks.append([aref, tref])
        ctx.ev("attack", f"{a} attacks {t}", frm=a, to=t)
    g["combat"] = {"attacks": attacks, "blocks": []}
    if not attacks:
        end_turn(g, ctx)
    elif any(t == other(ap) for _a, t in attacks):
        g["step"] = "block"
    else:
        g["step"], g["prio"], g["passes"] = "combat", ap, 0


def _blocks(g: Dict, ctx: Ctx, pairs: list[tuple[str, str]]) -> None:
    blocks = []
    refs = {combat.ref_hex(g, a): a for a, _t in g["combat"]["attacks"]}
    for b, a in pairs:
        c = creature_at(g, b)
        assert c is not None
        c["teleported"] = 0
        blocks.append([f"#{c['id']}", refs[a]])
        ctx.ev("block", f"{b} blocks {a}", frm=b, to=a)
    g["combat"]["blocks"] = blocks
    g["step"], g["prio"], g["passes"] = "combat", g["active"], 0


def _choose(g: Dict, ctx: Ctx, a: Action) -> None:
    c = creature_at(g, a.targets[0])
    assert c is not None
    g["choice"]["chosen"].append([a.actor, c["id"]])
    ctx.ev("choice", f"{a.actor} chooses {a.targets[0]}", player=a.actor, at=a.targets[0])
    if len(g["choice"]["chosen"]) < len(g["choice"]["order"]):
        return
    g["step"] = g.pop("resume", "main")
    effects.finish_bone_tithe(g, ctx)
    after_resolution(g)


def _auto(g: Dict, ctx: Ctx) -> None:
    """The decisions a timed-out active player no longer makes (R112)."""
    for _ in range(200):
        if over(g) or not g["timed_out"] or to_move(g) != [g["active"]]:
            return
        ap, step = g["active"], g["step"]
        if step == "main" and not g["stack"]:
            begin_combat(g, ctx)
        elif step == "attack":
            _declare(g, ctx, [])
        elif step == "choose":
            mine = sorted((c["at"] for c in g["creatures"] if c["controller"] == ap),
                          key=lambda h: fld.ORDER[h])
            _choose(g, ctx, Action(ap, "choose", "", (mine[0],)))
        else:
            _pass(g, ctx)


# ---- listing (R122) --------------------------------------------------------------------
def _target_texts(g: Dict, p: str, word: str, wide: bool) -> list[str]:
    creatures = sorted((c["at"] for c in g["creatures"]), key=lambda h: fld.ORDER[h])
    if word == "piece":
        return ["P1", "P2", *creatures] if not wide else ["P1", "P2", *fld.HEXES]
    if word in ("creature", "enemy-creature", "own-creature"):
        return list(fld.HEXES) if wide else creatures
    if word == "enemy-wizard":
        return ["P1", "P2"] if wide else [other(p)]
    if word == "hex":
        return list(fld.HEXES)
    if word == "rival-spell":
        owners = ("P1", "P2") if wide else (other(p),)
        return [f"{o}:{s}" for o in owners for s in g["players"][o]["book"]]
    if word == "own-locked-spell":
        owners = ("P1", "P2") if wide else (p,)
        return [f"{o}:{s}" for o in owners for s in
                (g["players"][o]["book"] if wide else g["players"][o]["locked"])]
    if word == "stack-spell":
        out = [f"{e['caster']}:{e['slug']}" for e in g["stack"]]
        return out + ([f"{o}:firebolt" for o in ("P1", "P2")] if wide else [])
    if word == "effect":
        out = []
        for o in ("P1", "P2"):
            pl = g["players"][o]
            out += [f"{o}/{c['slug']}" for c in pl["conditions"]]
            if form_of(pl):
                out.append(f"{o}/{form_of(pl)}")
            out += [f"{o}:{s}" for s in pl["locked"]]
        for c in g["creatures"]:
            out += [f"{c['at']}/{k['slug']}" for k in c["conditions"]]
        if wide:
            out += ["P1/cunning", "P2/stone-form", "P1:fireball", "c2/levitate"]
        return out
    if word in ("rival-worker-building", "own-destroyed-building"):
        from core.arcomage.data import BUILDINGS

        return [f"{o}.{b}" for o in ("P1", "P2") for b in BUILDINGS]
    return []


def _arg_sets(spell: Spell, wide: bool) -> list[tuple[tuple[str, str], ...]]:
    if spell.slug == "shadow-step":
        return [(("to", h),) for h in fld.HEXES]
    if spell.slug == "recruit":
        return [(("at", p),) for p in POSTS]
    if spell.slug == "reassign":
        singles = [f"{a}>{b}" for a in POSTS for b in POSTS if a != b]
        out: list[tuple[tuple[str, str], ...]] = [(("moves", s),) for s in singles]
        for i, x in enumerate(singles):
            for y in singles[i:]:
                out.append((("moves", ",".join(sorted([x, y]))),))
        return out
    return [()]


def cast_candidates(g: Dict, p: str, wide: bool = False) -> list[Action]:
    """Cast actions worth checking for ``p`` (every target text each spell could take)."""
    import itertools

    out: list[Action] = []
    book = g["players"][p]["book"] if not wide else list(SPELLS)
    for slug in book:
        spell = SPELLS[slug]
        if not wide and gates(g, p, spell):
            continue
        lists = [_target_texts(g, p, w, wide) for w in spell.targets]
        for combo in itertools.product(*lists):
            for args in _arg_sets(spell, wide):
                if args and spell.slug == "reassign" and wide and len(out) % 7:
                    continue
                out.append(Action(p, "cast", slug, tuple(combo), args))
    return out


def candidates(g: Dict, p: str, wide: bool = False) -> list[Action]:
    """Every action shape worth checking for ``p`` now (``wide``: more, for probes)."""
    out = cast_candidates(g, p, wide)
    step = g["step"]
    if wide or (step == "main" and not g["stack"] and p == g["active"]):
        out.append(Action(p, "end"))
        starts = [c["at"] for c in g["creatures"]] + [g["players"][p]["at"]]
        for h in sorted(starts, key=lambda h: fld.ORDER[h]):
            for w in movement.walks(g, p, h):
                out.append(Action(p, "move", "", tuple(w)))
            if wide:
                out += [Action(p, "move", "", (h, n)) for n in fld.neighbours(h)]
    if wide or g["stack"] or step == "combat":
        out.append(Action(p, "pass"))
    if wide or step == "attack":
        for pairs in (combat.declarations(g, p) if step == "attack" and p == g["active"]
                      else [[]]):
            out.append(Action(p, "attack", "", tuple(sorted(
                (f"{a}>{t}" for a, t in pairs), key=lambda x: (fld.ORDER[x.split('>')[0]], x)))))
    if wide or step == "block":
        opts = combat.block_options(g, p) if step == "block" and p != g["active"] else [[]]
        for pairs in opts:
            out.append(Action(p, "block", "", tuple(sorted(
                (f"{b}>{a}" for b, a in pairs), key=lambda x: (fld.ORDER[x.split('>')[0]], x)))))
    if wide or step == "choose":
        for c in g["creatures"]:
            if wide or c["controller"] == p:
                out.append(Action(p, "choose", "", (c["at"],)))
    return out


def legal_actions(g: Dict, p: str) -> list[Action]:
    """Every action ``apply`` accepts from ``p`` now except ``timeout`` and ``concede``,
    sorted by text (R122)."""
    if p not in to_move(g):
        return []
    seen: dict[str, Action] = {}
    for a in candidates(g, p):
        s = str(a)
        if s in seen:
            continue
        try:
            validate(g, a)
        except IllegalAction:
            continue
        seen[s] = a
    return [seen[k] for k in sorted(seen)]

