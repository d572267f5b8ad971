"""ArcoMage's scenario runner (``../shared/arcomage/notation.md`` §3-§4): load a position,
play its steps (``!`` = must be refused, the state unchanged), check ``[[check]]`` and
``[expect]``. A file that cannot be loaded is a failure that says why, never a crash.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.arcomage import field as fld
from core.arcomage import traps
from core.arcomage.actions import NotationError, parse
from core.arcomage.damage import Ctx
from core.arcomage.data import (
    BUILDINGS,
    CONDITIONS,
    CREATURES,
    FORMS,
    MAX_WORKERS,
    POSTS,
    RITES,
    SPELLS,
)
from core.arcomage.game import blank, view
from core.arcomage.state import (
    Dict,
    State,
    cond,
    creature_at,
    duration,
    form_of,
    new_ts,
    values,
    wizard_at,
    wizard_power,
    wizard_speed,
    workers_total,
)
from core.arcomage.state import ceiling as ceiling_of
from core.arcomage.turn import begin_turn, to_move
from core.codec import pack
from core.engine import IllegalAction


class LoadError(ValueError):
    """A scenario file that cannot be loaded (the message says why)."""


TOP = {"title", "source", "rules", "seed", "clock", "steps", "turn", "players", "creatures",
       "check", "expect", "turn_limit"}
PLAYER_KEYS = {"at", "life", "mana", "int", *BUILDINGS, "corpses", "workers", "book",
               "locked", "trapped", "cast", "conditions", "form"}
CREATURE_KEYS = {"kind", "owner", "controller", "at", "damage", "counters", "sick", "tapped",
                 "moved", "conditions", "stats", "keywords", "types"}


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LoadError(f"{what} must be a whole number, not {v!r}")
    return v


def _hex(v: Any, what: str) -> str:
    if not isinstance(v, str) or not fld.is_hex(v):
        raise LoadError(f"{what}: {v!r} is not a hex")
    if not fld.passable(v):
        raise LoadError(f"{what}: {v} is the Nexus")
    return v


def load(doc: dict[str, Any]) -> State:
    """The scenario's starting state. Raises :class:`LoadError`."""
    unknown = sorted(set(doc) - TOP)
    if unknown:
        raise LoadError(f"unknown key {unknown[0]!r}")
    turn = doc.get("turn", {})
    if not isinstance(turn, dict) or set(turn) - {"active", "first", "number", "step"}:
        raise LoadError("[turn] takes active, first, number and step")
    active = turn.get("active", "P1")
    first = turn.get("first", "P1")
    if active not in ("P1", "P2") or first not in ("P1", "P2"):
        raise LoadError("[turn] active and first are P1 or P2")
    number = _int(turn.get("number", 9 if active == first else 10), "turn.number")
    if number < 1 or (number % 2 == 1) != (active == first):
        raise LoadError(f"turn {number} does not belong to {active} when {first} went first")
    step = turn.get("step", "main")
    if step not in ("main", "start"):
        raise LoadError("turn.step is 'main' or 'start'")
    seed = doc.get("seed", 0)
    clock = _int(doc.get("clock", 0), "clock")
    g = blank(_int(seed, "seed"), first, clock, _int(doc.get("turn_limit", 100), "turn_limit"))
    g["turn"], g["active"] = number, active
    players = doc.get("players", [])
    if not isinstance(players, list) or len(players) > 2:
        raise LoadError("[[players]] is at most two tables, P1 then P2")
    specs = [players[i] if i < len(players) else {} for i in (0, 1)]
    creatures = doc.get("creatures", [])
    if not isinstance(creatures, list):
        raise LoadError("[[creatures]] is a list of tables")
    taken: dict[str, str] = {}
    for p, spec in zip(("P1", "P2"), specs, strict=True):
        _load_player(g, p, spec)
        h = g["players"][p]["at"]
        if h in taken:
            raise LoadError(f"two pieces on {h}")
        taken[h] = p
    made = []
    for i, spec in enumerate(creatures):
        c = _load_creature(g, i, spec)
        if c["at"] in taken:
            raise LoadError(f"two pieces on {c['at']}")
        taken[c["at"]] = c["kind"]
        made.append((c, spec))
    # timestamps: creatures, then P1's conditions and Form, P2's, then creatures' conditions
    for p, spec in zip(("P1", "P2"), specs, strict=True):
        _load_conditions(g, g["players"][p], spec.get("conditions", []), p, p)
        _load_form(g, g["players"][p], spec.get("form", ""))
    for c, spec in made:
        _load_conditions(g, c, spec.get("conditions", []), c["controller"], c["at"])
        if c["controller"] != c["owner"] and not cond(c, "dominate"):
            raise LoadError(f"the creature on {c['at']} has another controller without dominate")
    for p, spec in zip(("P1", "P2"), specs, strict=True):
        for slug in _slugs(spec.get("trapped", []), f"{p}.trapped"):
            if slug not in g["players"][p]["book"]:
                raise LoadError(f"{p}.trapped: {slug} is not in {p}'s book")
            t = traps.new_trap(g, "P2" if p == "P1" else "P1", slug, "lying")
            t["turn"] = number
    for p in ("P1", "P2"):
        pl = g["players"][p]
        for b in BUILDINGS:
            if pl[b] <= 0:
                pl[b] = 0
                pl["destroyed"].append(b)
        if "graveyard" in pl["destroyed"]:
            pl["corpses"] = 0
    if step == "start":
        begin_turn(g, Ctx(), first=True)
    return State(g)


def _slugs(v: Any, what: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise LoadError(f"{what} is a list of spell slugs")
    for s in v:
        if s not in SPELLS:
            raise LoadError(f"{what}: {s!r} is not a spell of the pool")
    return list(v)


def _load_player(g: Dict, p: str, spec: Any) -> None:
    if not isinstance(spec, dict):
        raise LoadError(f"{p}'s table is not a table")
    unknown = sorted(set(spec) - PLAYER_KEYS)
    if unknown:
        raise LoadError(f"{p}: unknown key {unknown[0]!r}")
    pl = g["players"][p]
    if "book" in spec:
        book = _slugs(spec["book"], f"{p}.book")
        pl["book"] = [*book, *[r for r in RITES if r not in book]]
    else:
        pl["book"] = list(SPELLS)
    if "at" in spec:
        pl["at"] = _hex(spec["at"], f"{p}.at")
    for k in ("life", "mana", "int", *BUILDINGS, "corpses"):
        if k in spec:
            pl[k] = _int(spec[k], f"{p}.{k}")
    w = spec.get("workers", {})
    if not isinstance(w, dict) or set(w) - set(POSTS):
        raise LoadError(f"{p}.workers: posts are {', '.join(POSTS)}")
    for k, v in w.items():
        pl["workers"][k] = _int(v, f"{p}.workers.{k}")
        if pl["workers"][k] < 0:
            raise LoadError(f"{p}.workers.{k} is negative")
    if workers_total(pl) > MAX_WORKERS:
        raise LoadError(f"{p} has more than {MAX_WORKERS} workers")
    for key in ("locked", "cast"):
        for s in _slugs(spec.get(key, []), f"{p}.{key}"):
            if s not in pl["book"]:
                raise LoadError(f"{p}.{key}: {s} is not in {p}'s book")
            if key == "locked" and s == "unlock":
                raise LoadError("Unlock cannot be locked")
            pl[key].append(s)


def _load_conditions(g: Dict, bearer: Dict, entries: Any, ctrl: str, where: str) -> None:
    if not isinstance(entries, list):
        raise LoadError(f"{where}.conditions is a list")
    is_creature = "id" in bearer
    for e in entries:
        if isinstance(e, str):
            e = {"slug": e}
        if not isinstance(e, dict) or set(e) - {"slug", "left", "pool", "stars", "by"}:
            raise LoadError(f"{where}: a condition is a slug or a table of slug, left, pool, "
                            "stars, by")
        slug = str(e.get("slug"))
        k = CONDITIONS.get(slug)
        if k is None:
            raise LoadError(f"{where}: {slug!r} is not a condition")
        if ("C" if is_creature else "W") not in k.on:
            raise LoadError(f"{where} cannot have {slug}")
        by = e.get("by", ctrl)
        if by not in ("P1", "P2"):
            raise LoadError(f"{where}: by= is P1 or P2")
        left = _int(e["left"], f"{where}.{slug}.left") if "left" in e else duration(
            g, slug, ctrl, by)
        c: Dict = {"slug": slug, "left": left, "ts": new_ts(g), "by": by}
        if slug == "protection":
            c["pool"] = _int(e.get("pool", 4), f"{where}.protection.pool")
        if slug == "star-alignment":
            c["stars"] = _int(e.get("stars", 0), f"{where}.star-alignment.stars")
        if cond(bearer, slug):
            raise LoadError(f"{where} has {slug} twice")
        bearer["conditions"].append(c)
        if slug == "dominate" and is_creature:
            bearer["controller"] = by


def _load_form(g: Dict, pl: Dict, f: Any) -> None:
    if not f:
        return
    if isinstance(f, str):
        f = {"slug": f}
    if not isinstance(f, dict) or set(f) - {"slug", "left"} or f.get("slug") not in FORMS:
        raise LoadError(f"{pl['name']}.form: {f!r} is not a Form")
    slug = f["slug"]
    pl["form"] = {"slug": slug, "left": _int(f.get("left", FORMS[slug].turns), "form.left"),
                  "ts": new_ts(g)}
    for c in FORMS[slug].immune:
        if cond(pl, c):
            raise LoadError(f"{pl['name']} in {slug} cannot be {c}")


def _load_creature(g: Dict, i: int, spec: Any) -> Dict:
    if not isinstance(spec, dict):
        raise LoadError(f"creature {i + 1} is not a table")
    unknown = sorted(set(spec) - CREATURE_KEYS)
    if unknown:
        raise LoadError(f"creature {i + 1}: unknown key {unknown[0]!r}")
    kind = spec.get("kind")
    if kind != "dummy" and kind not in CREATURES:
        raise LoadError(f"creature {i + 1}: {kind!r} is not a creature")
    owner = spec.get("owner")
    if owner not in ("P1", "P2"):
        raise LoadError(f"creature {i + 1} needs owner = P1 or P2")
    ctrl = spec.get("controller", owner)
    if ctrl not in ("P1", "P2"):
        raise LoadError(f"creature {i + 1}: controller is P1 or P2")
    at = _hex(spec.get("at"), f"creature {i + 1}.at")
    ts = new_ts(g)
    c: Dict = {"id": ts, "ts": ts, "kind": kind, "owner": owner, "controller": ctrl, "at": at,
               "damage": _int(spec.get("damage", 0), "damage"),
               "counters": _int(spec.get("counters", 0), "counters"),
               "sick": int(bool(spec.get("sick", False))),
               "tapped": int(bool(spec.get("tapped", False))),
               "moved": int(bool(spec.get("moved", False))), "conditions": [], "copy": {},
               "teleported": 0}
    if kind == "dummy":
        stats = spec.get("stats")
        try:
            pts = [int(x) for x in str(stats).split("/")]
        except ValueError:
            pts = []
        if stats is None or len(pts) != 3:
            raise LoadError(f"the dummy on {at} needs stats = \"P/T/S\"")
        c["stats"] = pts
        c["keywords"] = list(spec.get("keywords", []))
        c["types"] = list(spec.get("types", ["Human"]))
    elif "stats" in spec or "keywords" in spec or "types" in spec:
        raise LoadError(f"stats, keywords and types are for a dummy only ({at})")
    g["creatures"].append(c)
    return c


# ---- reading keys ----------------------------------------------------------------------
def get(g: Dict, key: str, viewer: str | None = None) -> Any:
    """The value of an ``[expect]`` key (notation.md §4) on state dict ``g`` (or a view of
    it, ``viewer`` set). Raises :class:`LoadError` for an unknown key."""
    if key.startswith("view."):
        who, _, rest = key[5:].partition(".")
        if who not in ("P1", "P2", ""):
            raise LoadError(f"unknown key {key!r}")
        v = view(State(g), who)
        return get(v, rest, who)
    if key == "active":
        return g["active"]
    if key == "turn":
        return g["turn"]
    if key == "step":
        return "over" if g["winner"] else g["step"]
    if key == "to_move":
        return to_move(g)
    if key == "stack":
        return [f"{e['caster']}:{e['slug']}" for e in g["stack"]]
    if key == "winner":
        return g["winner"]
    head, _, rest = key.partition(".")
    if head in ("P1", "P2"):
        return _player_key(g, head, rest, viewer)
    if fld.is_hex(head):
        return _hex_key(g, head, rest)
    raise LoadError(f"unknown key {key!r}")


def _player_key(g: Dict, p: str, k: str, viewer: str | None) -> Any:
    pl = g["players"][p]
    if k in ("life", "mana", "int", "corpses", *BUILDINGS):
        return pl[k]
    if k == "ceiling":
        return ceiling_of(pl)
    if k == "destroyed":
        return list(pl["destroyed"])
    if k.startswith("workers."):
        return pl["workers"][k[8:]]
    if k == "at":
        return pl["at"]
    if k == "form":
        return form_of(pl)
    if k == "speed":
        return wizard_speed(pl)
    if k == "power":
        return wizard_power(pl)
    if k == "conditions":
        return [c["slug"] for c in pl["conditions"]]
    if k == "protection":
        c = cond(pl, "protection")
        return c["pool"] if c else 0
    if k == "stars":
        c = cond(pl, "star-alignment")
        return c["stars"] if c else 0
    if k in ("locked", "cast"):
        return list(pl[k])
    if k == "traps":
        return len([t for t in g["traps"] if t["victim"] == p and t["status"] == "lying"])
    if k == "trapped":
        return [t["slug"] for t in g["traps"] if t["victim"] == p and t["status"] == "lying"]
    if k == "creatures":
        return [c["at"] for c in g["creatures"] if c["controller"] == p]
    if k.startswith("left."):
        slug = k[5:]
        if form_of(pl) == slug:
            return pl["form"]["left"]
        c = cond(pl, slug)
        return c["left"] if c else 0
    raise LoadError(f"unknown key {p}.{k}")


def _hex_key(g: Dict, h: str, k: str) -> Any:
    c = creature_at(g, h)
    if not k:
        if not fld.passable(h):
            return "nexus"
        if c is not None:
            return values(g, c)["name"]
        return wizard_at(g, h)
    if c is None:
        return None
    v = values(g, c)
    if k in ("owner", "controller", "damage", "counters"):
        return c[k]
    if k in ("power", "toughness", "health", "speed", "keywords", "types"):
        return v[k]
    if k == "conditions":
        return [x["slug"] for x in c["conditions"]]
    if k in ("sick", "tapped", "moved"):
        return bool(c[k])
    if k.startswith("left."):
        x = cond(c, k[5:])
        return x["left"] if x else 0
    raise LoadError(f"unknown key {h}.{k}")


def _same(key: str, got: Any, want: Any) -> bool:
    if isinstance(want, list):
        if not isinstance(got, list):
            return False
        if key == "stack" or key.endswith(".stack"):
            return got == want
        return Counter(map(str, got)) == Counter(map(str, want))
    if isinstance(want, bool):
        return got is not None and bool(got) == want
    return bool(got == want)


def _check(g: Dict, table: dict[str, Any], where: str) -> str:
    for key in table:
        if key == "after":
            continue
        got = get(g, key)
        if not _same(key, got, table[key]):
            return f"{where}: {key} is {got!r}, expected {table[key]!r}"
    return ""


def run_doc(doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
    """Run one scenario document: ``(passed, why it failed or "")``. Never raises."""
    from core.arcomage.ruleset import RULESET

    try:
        st = load(doc)
        steps = doc.get("steps", [])
        if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
            raise LoadError("steps is a list of actions")
        checks = doc.get("check", [])
        if not isinstance(checks, list):
            raise LoadError("[[check]] is a list of tables")
        for c in checks:
            if not isinstance(c, dict) or not isinstance(c.get("after"), int):
                raise LoadError("each [[check]] needs after = <step number>")
        expect = doc.get("expect", {})
        if not isinstance(expect, dict):
            raise LoadError("[expect] is a table")
        for c in checks:
            if c["after"] == 0:  # the project's own: a check at load
                why = _check(st.d, c, "at load")
                if why:
                    return False, why
        for i, text in enumerate(steps, 1):
            refuse = text.startswith("!")
            t = text[1:] if refuse else text
            if refuse:
                before = pack(st.to_wire())
                try:
                    a = parse(t)
                except NotationError:
                    a = None
                if a is not None:
                    why = RULESET.why_illegal(st, a)
                    if not why:
                        return False, f"step {i} ({t}) was accepted; it must be refused"
                    try:
                        RULESET.apply(st, a)
                        return False, f"step {i} ({t}): apply accepted what why_illegal refused"
                    except IllegalAction:
                        pass
                if pack(st.to_wire()) != before:
                    return False, f"step {i} ({t}) was refused but changed the state"
            else:
                try:
                    RULESET.apply(st, t)
                except IllegalAction as exc:
                    return False, f"step {i} ({t}) was refused: {exc.reason}"
            for c in checks:
                if c["after"] == i:
                    why = _check(st.d, c, f"after step {i}")
                    if why:
                        return False, why
        why = _check(st.d, expect, "at the end")
        if why:
            return False, why
    except LoadError as exc:
        return False, f"cannot load: {exc}"
    return True, ""
