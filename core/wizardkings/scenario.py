"""Wizard Kings' scenario runner (``../shared/wizard-kings/notation.md`` §5): load the setup,
apply the steps (``!`` steps must be refused, the state unchanged), compare the checks.

Project keys beyond the shared ones: none yet.
"""

from __future__ import annotations

import copy
from typing import Any

from core.engine import Event, IllegalAction
from core.rng import Rng
from core.wizardkings import game as G
from core.wizardkings.actions import NotationError, parse
from core.wizardkings.maps import MapError, hex_key
from core.wizardkings.turn import perform, to_move
from core.wizardkings.units import ARMIES

GAME_KEYS = {"layout", "maps", "owners", "armies", "players", "turn", "phase", "order", "active",
             "options", "teams", "vp", "gone"}
TOP_KEYS = {"title", "source", "steps", "dice", "seed", "game", "block", "battle", "check",
            "expect"}
BLOCK_KEYS = {"id", "type", "strength", "at", "moved", "from", "cast"}
OPTION_KEYS = {"stacking", "dispel", "victory", "turns", "victory_gp", "budget", "chaos",
               "turn_limit"}


class LoadError(ValueError):
    """A scenario that cannot be loaded (the message says why)."""


def load(doc: dict[str, Any]) -> G.State:
    """The state a scenario document sets up. Raises :class:`LoadError`."""
    bad = set(doc) - TOP_KEYS
    if bad:
        raise LoadError(f"unknown key(s) {sorted(bad)}")
    gm = doc.get("game", {})
    bad = set(gm) - GAME_KEYS
    if bad:
        raise LoadError(f"unknown [game] key(s) {sorted(bad)}")
    players = list(gm.get("players", ["P1", "P2"]))
    opts = dict(G.DEFAULTS)
    bado = set(gm.get("options", {})) - OPTION_KEYS
    if bado:
        raise LoadError(f"unknown option(s) {sorted(bado)}")
    opts.update(gm.get("options", {}))
    opts.update({"players": len(players), "layout": gm.get("layout", "2-map"),
                 "maps": list(gm.get("maps", [1, 2])), "teams": gm.get("teams", [])})
    if "armies" in gm:
        opts["armies"] = gm["armies"]
    if "owners" in gm:
        opts["owners"] = gm["owners"]
    try:
        G.board(opts["layout"], opts["maps"])
    except MapError as exc:
        raise LoadError(str(exc)) from exc
    g = G.blank(opts, doc.get("seed", 0))
    g["turn"] = int(gm.get("turn", 1))
    g["vp"].update(gm.get("vp", {}))
    b = G.bd(g)
    arrivals = []
    for blk in doc.get("block", []):
        bad = set(blk) - BLOCK_KEYS
        if bad:
            raise LoadError(f"unknown [[block]] key(s) {sorted(bad)}")
        bid = str(blk["id"])
        p, _, lab = bid.partition(".")
        if p not in players or not lab.isdigit():
            raise LoadError(f"bad block id {bid!r}")
        army = g["armies"][p]
        t = str(blk["type"])
        if t not in ARMIES[army]:
            raise LoadError(f"the {army} have no unit {t!r}")
        ut = ARMIES[army][t]
        at = str(blk["at"])
        if at not in b.hexes:
            raise LoadError(f"{bid}: no hex {at!r}")
        hx = b.hexes[at]
        if (hx.water and ut.ability not in ("aquatic", "flyer")) or \
                (ut.ability == "aquatic" and not (hx.water or hx.coastal or hx.rivers)):
            raise LoadError(f"{bid}: a {t} may not be in {at}")
        k = int(blk.get("strength", ut.max))
        if not 1 <= k <= ut.max:
            raise LoadError(f"{bid}: strength {k} out of 1..{ut.max}")
        if bid in g["blocks"]:
            raise LoadError(f"{bid} listed twice")
        if g["pool"][p][t] < 1:
            raise LoadError(f"{p}'s pool holds no more {t} blocks")
        g["pool"][p][t] -= 1
        g["used"][p].append(int(lab))
        x = G.new_block(p, int(lab), t, at, k)
        x["moved"] = bool(blk.get("moved", False)) or "from" in blk
        x["cast"] = bool(blk.get("cast", False))
        g["blocks"][bid] = x
        if "from" in blk:
            frm = str(blk["from"])
            if frm not in b.neighbours(at):
                raise LoadError(f"{bid}: {frm} is not next to {at}")
            arrivals.append((bid, frm))
    for wid in gm.get("gone", []):
        p, _, lab = str(wid).partition(".")
        g["used"][p].append(int(lab))
    g["deployed"] = list(players)
    g["order"] = list(gm.get("order", players))
    phase = str(gm.get("phase", "movement"))
    st = G.State(g, Rng.from_seed(doc.get("seed", 0)))
    g["forced"] = [int(d) for d in doc.get("dice", [])]
    events: list[Event] = []
    if phase == "setup":  # nobody has deployed yet (R11): the steps deploy
        g["phase"], g["deployed"], g["order"] = "setup", [], []
        return st
    if phase == "initiative":
        G.start_turn(st, events)
        return st
    if phase in ("movement", "combat"):
        # place arrivals after the rest: start-of-phase occupants, then entries in order
        for bid, _frm in arrivals:
            g["blocks"][bid]["state"] = "off"
        moved = {bid: g["blocks"][bid]["moved"] for bid in g["blocks"]}
        G.start_movement(g, events)
        for bid, m in moved.items():
            g["blocks"][bid]["moved"] = m
        g["active"] = str(gm.get("active", g["order"][0]))
        for bid, frm in arrivals:
            g["blocks"][bid]["state"] = "map"
            G.record_entry(g, bid, frm, g["blocks"][bid]["at"], events)
    if phase == "combat":
        g["phase"], g["active"] = "combat", ""
        bt = doc.get("battle")
        if bt:
            h = str(bt["hex"])
            if h not in g["contacts"]:
                raise LoadError(f"[battle] {h} is not a battle hex")
            G.start_battle(st, h, events)
            g["battle"]["round"] = int(bt.get("round", 1))
            g["battle"]["step"] = 0
            G.advance(st, events)
        else:
            G.next_battle(st, events)
    elif phase == "build":
        G.start_build(g, events)
    elif phase != "movement":
        raise LoadError(f"unknown phase {phase!r}")
    return st


def value(st: G.State, key: str) -> Any:
    """The value of one check key (notation.md §5). Raises ``KeyError`` for an unknown key."""
    g = st.d
    bt = g["battle"]
    simple = {
        "turn": lambda: g["turn"], "phase": lambda: g["phase"], "active": lambda: g["active"],
        "order": lambda: list(g["order"]), "to_move": lambda: to_move(g),
        "battles": lambda: G.battles_left(g),
        "battle.hex": lambda: bt["hex"] if bt else "",
        "battle.round": lambda: bt["round"] if bt else 0,
        "battle.step": lambda: ("regroup" if bt["victor"] else "-".join(G.STEPS[bt["step"]])
                                if bt["step"] < len(G.STEPS) else "") if bt else "",
        "battle.attacker": lambda: bt["attacker"] if bt else "",
        "battle.defender": lambda: bt["defender"] if bt else "",
        "winner": lambda: g["winner"] if g["winner"] != "draw" else "draw",
    }
    if key in simple:
        return simple[key]()
    parts = key.split(".")
    if parts[0] == "view" and len(parts) == 5:
        v = G.view(st, parts[1])
        x = v["blocks"].get(f"{parts[2]}.{parts[3]}", {"type": "", "strength": 0})
        return x[parts[4]]
    if len(parts) == 3 and parts[0].startswith("P") and parts[1].isdigit():
        x = g["blocks"].get(f"{parts[0]}.{parts[1]}")
        if x is None:
            raise KeyError(f"no block {parts[0]}.{parts[1]}")
        on = x["state"] == "map"
        return {"at": x["at"] if on else "", "strength": x["strength"] if on else 0,
                "moved": x["moved"], "state": "map" if on else x["state"]}[parts[2]]
    if len(parts) == 2 and parts[0] in g["players"]:
        if parts[1] == "treasury":
            return G.treasury(g, parts[0])
        if parts[1] == "vp":
            return g["vp"].get(parts[0], 0)
    if len(parts) == 3 and parts[1] == "pool":
        return g["pool"][parts[0]].get(parts[2], 0)
    if len(parts) == 2 and parts[0] in G.bd(g).hexes:
        h = parts[0]
        if parts[1] == "units":
            return G.on_map(g, h)
        if parts[1] == "control":
            return G.controller(g, h)
        if parts[1] == "pins":
            return (g["pins"].get(h) or {}).get("pins", 0)
    raise KeyError(f"unknown check key {key!r}")


def _same(key: str, got: Any, want: Any) -> bool:
    if isinstance(want, list) and key != "order":
        return sorted(map(str, got)) == sorted(map(str, want))
    return bool(got == want)


def _checks(st: G.State, table: dict[str, Any], where: str) -> str:
    for k, want in table.items():
        if k == "after":
            continue
        try:
            got = value(st, k)
        except KeyError as exc:
            return f"{where}: {exc.args[0]}"
        if not _same(k, got, want):
            return f"{where}: {k} is {got!r}, expected {want!r}"
    return ""


def run_doc(doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
    """Run one scenario: (passed, what differed)."""
    try:
        st = load(doc)
    except (LoadError, KeyError, ValueError, TypeError, IllegalAction, G.DiceOut) as exc:
        return False, f"cannot load: {exc}"
    checks: dict[int, list[dict[str, Any]]] = {}
    for c in doc.get("check", []):
        checks.setdefault(int(c.get("after", 0)), []).append(c)
    for c in checks.get(0, []):
        why = _checks(st, c, "after 0")
        if why:
            return False, why
    for i, text in enumerate(doc.get("steps", []), 1):
        refuse = text.startswith("!")
        body = text[1:] if refuse else text
        try:
            a = parse(body)
        except NotationError as exc:
            if refuse:
                continue
            return False, f"step {i} {body!r}: {exc}"
        trial = G.State(copy.deepcopy(st.d), st.rng.copy())
        try:
            perform(trial, a)
            ok, why = True, ""
        except IllegalAction as exc:
            ok, why = False, exc.reason
        except G.DiceOut as exc:
            return False, f"step {i} {body!r}: {exc}"
        if refuse and ok:
            return False, f"step {i} {body!r} must be refused but was accepted"
        if not refuse and not ok:
            return False, f"step {i} {body!r} refused: {why}"
        if ok:
            st = trial
        for c in checks.get(i, []):
            why = _checks(st, c, f"after {i}")
            if why:
                return False, why
    why = _checks(st, doc.get("expect", {}), "expect")
    if why:
        return False, why
    return True, ""


__all__ = ["load", "run_doc", "value", "hex_key"]
