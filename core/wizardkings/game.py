"""Wizard Kings' rules core: state, the four phases, movement, combat, building, victory
(``../shared/wizard-kings/rules.md``; every function names its rules).

The state is a plain dict ``g`` (msgpack-ready) plus the generator in :class:`State`. Every
action is checked and carried out by :func:`perform` on a copy (the ruleset swaps it in), so a
refusal (:class:`IllegalAction`) leaves the state untouched. Dice come only from
:func:`roll`: the scenario's forced list, else the game's generator (the engine's chance hook).
"""

from __future__ import annotations

from typing import Any

from core.codec import pack
from core.engine import Event, IllegalAction
from core.rng import Rng
from core.wizardkings.maps import Board, Hex, Side, board, hex_key
from core.wizardkings.units import ARMIES, FOLK_TERRAIN, UnitType

Dict = dict[str, Any]
STEPS = (("D", "A+"), ("A", "A+"), ("D", "A"), ("A", "A"), ("D", "B"), ("A", "B"), ("D", "C"),
         ("A", "C"))
STOP_TERRAIN = ("desert", "forest", "swamp")


class DiceOut(RuntimeError):
    """A scenario's forced dice ran out (notation.md §5: a FAIL)."""


class State:
    """A game: ``d`` the state dict, ``rng`` the generator (R117: the dice stream)."""

    def __init__(self, d: Dict, rng: Rng) -> None:
        self.d, self.rng = d, rng

    def to_wire(self) -> Any:
        """``{"g": d, "rng": rng}`` (canonical)."""
        return {"g": self.d, "rng": self.rng.to_wire()}

    @classmethod
    def from_wire(cls, data: Any) -> State:
        """From :meth:`to_wire` (a deep copy)."""
        return cls(copy_dict(data["g"]), Rng.from_wire(copy_dict(data["rng"])))


def copy_dict(o: Any) -> Any:
    """A deep copy of a plain state value (dicts, lists, scalars): the state dict holds
    nothing else, and this is several times quicker than ``copy.deepcopy``."""
    if type(o) is dict:
        return {k: copy_dict(v) for k, v in o.items()}
    if type(o) is list:
        return [copy_dict(v) for v in o]
    return o


# ---- small helpers -----------------------------------------------------------------------
def bd(g: Dict) -> Board:
    """The game's board."""
    return board(g["layout"], g["maps"])


def bid(p: str, label: int) -> str:
    """``P1.3``."""
    return f"{p}.{label}"


def bkey(b: str) -> tuple[int, int]:
    """Sort key of a block id: seat, label."""
    p, _, lab = b.partition(".")
    return (int(p[1:]), int(lab))


#: The stand-in type of a block whose type this process does not know (a networked game,
#: R115): every check that depends on the type passes for it (the public check), and the
#: owner's peer, which knows the type, made the real check before sending (R110).
HIDDEN = UnitType("", 3, "hidden", "?", 0, 0, 4, 0)


def net(g: Dict) -> bool:
    """Whether ``g`` is a networked game's state, in which this process knows only its own
    seats' blocks (and what the rules revealed): Part M, R110-R118."""
    return bool(g.get("net"))


def utype(g: Dict, b: str) -> UnitType:
    """The unit type of block ``b`` as this process knows it (:data:`HIDDEN` when not)."""
    blk = g["blocks"][b]
    if not blk["type"]:
        return HIDDEN
    return ARMIES[g["armies"][blk["owner"]]][blk["type"]]


def ptype(g: Dict, b: str) -> UnitType:
    """The unit type of block ``b`` as every peer knows it: in a networked game the real one
    only while the block is revealed (``shown``, R111), else :data:`HIDDEN`. Rules that
    change the public state branch on this, never on a value one peer lacks (R110)."""
    if net(g) and not g["blocks"][b].get("shown"):
        return HIDDEN
    return utype(g, b)


def side(g: Dict, p: str) -> str:
    """The side (R1) of player ``p``: his team's first seat, or himself."""
    return str(g["sides"].get(p, p))


def on_map(g: Dict, h: str) -> list[str]:
    """Blocks in hex ``h``, by seat and label."""
    return sorted((b for b, x in g["blocks"].items() if x["state"] == "map" and x["at"] == h),
                  key=bkey)


def sides_in(g: Dict, h: str) -> list[str]:
    """The sides with units in ``h``, in seat order."""
    out: list[str] = []
    for b in on_map(g, h):
        s = side(g, g["blocks"][b]["owner"])
        if s not in out:
            out.append(s)
    return out


def map_owner(g: Dict, m: int) -> str:
    """The player owning map ``m`` ("" for nobody)."""
    for p, ms in g["owners"].items():
        if m in ms:
            return str(p)
    return ""


def status(g: Dict, h: str, s: str) -> str:
    """``friendly``, ``enemy``, ``neutral`` or ``battle`` for side ``s`` (R39)."""
    occ = sides_in(g, h)
    if len(occ) >= 2:
        return "battle"
    if occ:
        return "friendly" if occ[0] == s else "enemy"
    hx = bd(g).hexes[h]
    owner = map_owner(g, hx.map_id) if hx.city else ""
    if not owner:
        return "neutral"
    return "friendly" if side(g, owner) == s else "enemy"


def controller(g: Dict, h: str) -> str:
    """Who controls ``h`` (notation.md ``control``): ``battle``, the occupant (R90 for allies),
    the owner of a vacant own-map city, or ``""``."""
    occ = sides_in(g, h)
    if len(occ) >= 2:
        return "battle"
    hx = bd(g).hexes[h]
    if occ:
        players = sorted({g["blocks"][b]["owner"] for b in on_map(g, h)}, key=lambda p: int(p[1:]))
        owner = map_owner(g, hx.map_id)
        return owner if owner in players else players[0]
    return map_owner(g, hx.map_id) if hx.city else ""


def treasury(g: Dict, p: str) -> int:
    """The GP of the cities ``p`` controls now (R90)."""
    b = bd(g)
    return sum(h.city for h in b.hexes.values() if h.city and controller(g, h.name) == p)


def roll(st: State, n: int) -> list[int]:
    """``n`` dice (R7, R117): from the scenario's forced list when it has one, else the game's
    generator. Raises :class:`DiceOut` when a forced list runs out."""
    g = st.d
    out = []
    for _ in range(n):
        if g["forced"] is not None:
            if not g["forced"]:
                raise DiceOut("the scenario's dice ran out")
            out.append(int(g["forced"].pop(0)))
        else:
            out.append(st.rng.below(6) + 1)
    return out


def ev(kind: str, **data: Any) -> Event:
    """An event: ``kind``, a plain line, and its data (ints, strs and lists)."""
    text = kind.replace("_", " ") + ": " + ", ".join(f"{k} {v}" for k, v in data.items())
    return Event(kind, text, data)


def alive_players(g: Dict) -> list[str]:
    """Seats still in the game (R104), seat order."""
    return [p for p in g["players"] if p not in g["out"]]


# ---- movement: passability (R23-R36) -------------------------------------------------------
def crossing(b: Board, ut: UnitType, a: str, c: str) -> str:
    """Why a unit of type ``ut`` cannot step from ``a`` into adjacent ``c`` (``""``: it can),
    ignoring units and stops (R24-R28, R30, R32)."""
    sd = b.side_between(a, c)
    if sd is None:
        if a == c:  # a path names the hexes entered (notation.md), not the hex left
            return f"the block stands in {a}: a path lists the hexes it enters, not {a}"
        return f"{c} is not next to {a}"
    hc = b.hexes[c]
    ab = ut.ability
    if ab in ("flyer", "hidden"):  # hidden: some type of the army could (R115)
        return ""
    if ab == "aquatic":
        if not (hc.water or hc.coastal or hc.rivers):
            return f"an Aquatic cannot enter the land hex {c}"
        if sd.water == "none":
            return f"an Aquatic cannot cross the all-land hexside {a}-{c}"
        if hc.shoal or sd.shoal:
            return f"shoals are impassable to Aquatics ({c})"
        if sd.waterfall:
            return f"an Aquatic cannot cross the waterfall {a}-{c}"
        return ""
    if hc.water:
        return f"a ground unit cannot enter the {hc.water} hex {c}"
    if sd.water == "all":
        return f"a ground unit cannot cross the all-water hexside {a}-{c}"
    river_step = ab == "amphibian" and sd.course
    if sd.water == "river" and not sd.bridge and ab != "amphibian":
        return f"the river bank {a}-{c} has no bridge"
    if river_step or ab == "mountain-folk" or sd.road:
        return ""
    if sd.land == "mountain":
        return f"the mountain hexside {a}-{c} is impassable"
    if hc.land == "mountain":
        return f"the mountain hex {c} is impassable"
    return ""


def must_stop(b: Board, ut: UnitType, sd: Side, c: str, road_move: bool) -> bool:
    """Whether a ground unit entering ``c`` across ``sd`` must stop for terrain (R23)."""
    if ut.ability in ("flyer", "aquatic", "hidden") or road_move:
        return False
    if ut.ability == "amphibian" and sd.course:
        return False
    land = b.hexes[c].land
    return land in STOP_TERRAIN and FOLK_TERRAIN.get(ut.ability) != land


def side_limit(ut: UnitType, sd: Side) -> int:
    """The hexside limit an entry (or retreat) of ``ut`` across ``sd`` uses (R46, R69);
    0 for Flyers (no limit)."""
    if ut.ability in ("flyer", "hidden"):
        return 0
    if ut.ability == "aquatic":
        return 2 if sd.water == "all" else 1
    if sd.bridge or sd.water == "river":
        return 1
    if sd.road or sd.land == "clear":
        return 2
    return 1


def end_ok(g: Dict, ut: UnitType, h: str, s: str) -> str:
    """Why a move of side ``s`` may not end in ``h`` (R42), or ``""``."""
    hx = bd(g).hexes[h]
    occ = sides_in(g, h)
    if hx.water and ut.ability == "flyer" and not [o for o in occ if o != s]:
        return f"a Flyer may end in the sea hex {h} only to attack"
    if len(occ) >= 2 and s not in occ:
        return f"{h} already holds two sides"
    return ""


# ---- entries, pins, battles (R46, R48, R51, R52) ------------------------------------------
def record_entry(g: Dict, b: str, frm: str, dest: str, events: list[Event]) -> None:
    """Block ``b`` has just entered ``dest`` from ``frm`` (its ``at`` is already ``dest``):
    entry record, hexside-limit count, pins, battle formation (R46, R48, R51, R52)."""
    blk = g["blocks"][b]
    s = side(g, blk["owner"])
    ut = utype(g, b)
    flyer = ut.ability in ("flyer", "hidden")
    # the entry's Flyer flag is public (R68's holders): a hidden block's is fixed at its reveal
    g["entries"].setdefault(dest, []).append([s, b, frm, int(ptype(g, b).ability == "flyer")])
    hostile = [x for x in on_map(g, dest) if x != b and side(g, g["blocks"][x]["owner"]) != s]
    if not hostile:
        return
    if net(g):  # R115: the queued hexside limits count every entry, whatever its type
        g.setdefault("crossed", {}).setdefault(f"{dest}|{frm}|{s}", []).append(b)
    if not flyer:
        k = f"{dest}|{frm}|{s}"
        g["counts"][k] = g["counts"].get(k, 0) + 1
    pin = g["pins"].get(dest)
    if pin is None:
        pin = {"side": side(g, g["blocks"][hostile[0]]["owner"]), "defenders": hostile, "pins": 0}
        g["pins"][dest] = pin
    if s != pin["side"]:
        pin["pins"] += 1
        events.append(ev("pinned", hex=dest, pins=pin["pins"]))
    if dest not in g["contacts"] and (g["battle"] or {}).get("hex") != dest:
        other = side(g, g["blocks"][hostile[0]]["owner"])
        hx = bd(g).hexes[dest]
        owner = map_owner(g, hx.map_id) if hx.city else ""
        start = g["start_occ"].get(dest, "")
        if hx.city and not start and owner and side(g, owner) in (s, other):
            dside, dplayer = side(g, owner), owner
        elif start in (s, other):
            dside = start
            dplayer = first_player_of(g, dest, dside)
        else:
            dside = other
            dplayer = first_player_of(g, dest, dside)
        aside = other if dside == s else s
        aplayer = next(g["blocks"][e[1]]["owner"] for e in g["entries"][dest] if e[0] == aside)
        g["contacts"][dest] = {"attacker": aplayer, "defender": dplayer, "aside": aside,
                               "dside": dside}
        events.append(ev("battle_formed", hex=dest, attacker=aplayer, defender=dplayer))


def first_player_of(g: Dict, h: str, s: str) -> str:
    """The first player in this turn's order with units of side ``s`` in ``h``."""
    owners = {g["blocks"][b]["owner"] for b in on_map(g, h) if side(g, g["blocks"][b]["owner"]) == s}
    for p in g["order"] or g["players"]:
        if p in owners:
            return str(p)
    return sorted(owners)[0] if owners else s


def free_to_leave(g: Dict, movers: list[str]) -> str:
    """Why these blocks (all in one hex) may not leave it (pinning, R48), or ``""``."""
    h = g["blocks"][movers[0]]["at"]
    pin = g["pins"].get(h)
    if not pin or len(sides_in(g, h)) < 2:
        return ""
    if side(g, g["blocks"][movers[0]]["owner"]) != pin["side"]:
        return ""
    stay = [d for d in pin["defenders"] if g["blocks"][d]["state"] == "map"
            and g["blocks"][d]["at"] == h and d not in movers]
    need = min(pin["pins"], len(pin["defenders"]))
    if len(stay) < need:
        return f"{need} engaged defender(s) must stay pinned in {h}"
    return ""


def open_window(g: Dict, p: str, h: str) -> None:
    """A networked game: after a move, Sea Transport, movement-phase spell or regroup of
    ``p``'s entering ``h``, his next actions may be ``eliminate`` actions of his blocks in
    ``h`` (R121). The window is public (every peer opens it alike, whatever it knows); it
    closes at his next action that is not an ``eliminate`` (:func:`close_window`).
    Source: rules.md R121."""
    g["window"] = {"player": p, "hex": h}


def known_excess(g: Dict, p: str) -> tuple[int, int] | None:
    """The excess (units, wizards, R47) of ``p``'s side in the hex of his open window, where
    this process knows every block of that side there (his own peer, the final audit);
    ``None`` where a block is hidden here or no window of his is open (R121, R115)."""
    w = g.get("window")
    if not w or w["player"] != p:
        return None
    s = side(g, p)
    mine = [b for b in on_map(g, w["hex"]) if side(g, g["blocks"][b]["owner"]) == s]
    if any(not g["blocks"][b]["type"] for b in mine):
        return None
    return overstacked(g, w["hex"], s)


def public_count_why(g: Dict, h: str, s: str, leaving: int = 0) -> str:
    """The public check of R121: side ``s`` may not keep more blocks in ``h`` than its
    stacking limit and one wizard make (``leaving``: blocks about to be eliminated). The
    reason it fails, or ``""``."""
    n = sum(1 for b in on_map(g, h) if side(g, g["blocks"][b]["owner"]) == s) - leaving
    lim = g["opts"]["stacking"]
    if n > lim + 1:
        return (f"{h} would keep {n} blocks of {s}'s side, more than {lim} units and a wizard "
                "make: eliminate blocks first (R47, R121)")
    return ""


def window_why(g: Dict) -> str:
    """Why the open window's settlement may not end now (R121): this process knows its
    player's side is still overstacked there (his own peer, the audit), or the public count
    fails (every peer); ``""`` when it may, or no window is open."""
    w = g.get("window")
    if not w:
        return ""
    ex = known_excess(g, w["player"])
    if ex is not None and ex != (0, 0):
        return f"settle the overstack in {w['hex']} first: eliminate blocks (R47)"
    return public_count_why(g, w["hex"], side(g, w["player"]))


def close_window(g: Dict) -> None:
    """The settlement of the open window is over (R121): its player's next action is not an
    ``eliminate``. Refused for :func:`window_why`'s reason; the rest is the final audit's
    (R115). Raises :class:`IllegalAction`. Source: rules.md R121."""
    if "window" not in g:
        return
    why = window_why(g)
    if why:
        raise IllegalAction(why)
    del g["window"]  # (only a networked state ever has the key: local hashes stay as they were)


def overstacked(g: Dict, h: str, s: str) -> tuple[int, int]:
    """(excess units, excess wizards) of side ``s`` in ``h`` (R47)."""
    bs = [b for b in on_map(g, h) if side(g, g["blocks"][b]["owner"]) == s]
    wiz = sum(1 for b in bs if utype(g, b).wizard)
    return max(0, len(bs) - wiz - g["opts"]["stacking"]), max(0, wiz - 1)


# ---- the move (R45) ------------------------------------------------------------------------
def check_move(g: Dict, p: str, ids: list[str], path: list[str]) -> list[tuple[str, str]]:
    """The checks of R45 for a move of ``ids`` along ``path``; returns [(block, from)].
    Raises :class:`IllegalAction`."""
    b = bd(g)
    for h in path:
        if h not in b.hexes:
            raise IllegalAction(f"{h} is not on this board")
    start = None
    for x in ids:
        blk = g["blocks"].get(x)
        if not blk or blk["state"] != "map":
            raise IllegalAction(f"{p} has no block {x.split('.')[1]} on the map")
        if start is None:
            start = blk["at"]
        if blk["at"] != start:
            raise IllegalAction("blocks moved together must start in one hex")
        ut = utype(g, x)
        if ut.ability == "castle":
            raise IllegalAction("a castle never moves (R43)")
        if blk["moved"]:
            raise IllegalAction(f"block {blk['label']} has moved this turn (R45)")
    assert start is not None
    why = free_to_leave(g, ids)
    if why:
        raise IllegalAction(why)
    s = side(g, p)
    for x in ids:
        ut = utype(g, x)
        seq = [start, *path]
        road = all(b.side_between(a, c) is not None and b.side_between(a, c).road  # type: ignore[union-attr]
                   for a, c in zip(seq, seq[1:], strict=False))
        road = road and ut.ability not in ("flyer", "aquatic")
        ma = ut.move + (1 if road else 0) + (1 if g["blocks"][x].get("march") else 0)
        if len(path) > ma:
            raise IllegalAction(f"block {x.split('.')[1]} moves {ma}, not {len(path)}")
        for i, (a, c) in enumerate(zip(seq, seq[1:], strict=False)):
            why = crossing(b, ut, a, c)
            if why:
                raise IllegalAction(why)
            sd = b.side_between(a, c)
            assert sd is not None
            last = i == len(path) - 1
            if last:
                break
            if ut.ability not in ("flyer", "hidden"):  # hidden: it may fly (R115)
                if status(g, c, s) in ("enemy", "battle"):
                    raise IllegalAction(f"{c} is an enemy hex: the move must stop there (R41)")
                if must_stop(b, ut, sd, c, road):
                    raise IllegalAction(f"{c} is {b.hexes[c].land}: the move must stop there (R23)")
        dest = path[-1]
        why = end_ok(g, ut, dest, s)
        if why:
            raise IllegalAction(why)
    dest, frm = path[-1], (path[-2] if len(path) > 1 else start)
    sd = b.side_between(frm, dest)
    assert sd is not None
    hostile = [y for y in on_map(g, dest) if side(g, g["blocks"][y]["owner"]) != s]
    if hostile:
        used = g["counts"].get(f"{dest}|{frm}|{s}", 0)
        for x in ids:
            lim = side_limit(utype(g, x), sd)
            if lim:
                if used >= lim:
                    raise IllegalAction(f"the hexside {frm}-{dest} allows {lim} entry(ies) into "
                                        "the battle hex this turn (R46)")
                used += 1
    return [(x, frm) for x in ids]


def do_move(g: Dict, p: str, ids: list[str], path: list[str]) -> list[Event]:
    """Carry out a checked move (R45): moved, entries, pins, battles, then stacking (R47)."""
    plan = check_move(g, p, ids, path)
    events: list[Event] = []
    dest = path[-1]
    for x, frm in plan:
        g["blocks"][x]["at"] = dest
        g["blocks"][x]["moved"] = True
        events.append(ev("moved", block=x, path=path))
        record_entry(g, x, frm, dest, events)
    if net(g):
        open_window(g, p, dest)
        return events
    units, wiz = overstacked(g, dest, side(g, p))
    if units or wiz:
        g["settle"] = {"player": p, "hex": dest}
        events.append(ev("overstack", hex=dest, player=p))
    return events


def eliminate(g: Dict, b: str, cause: str, events: list[Event]) -> None:
    """Block ``b`` leaves the map (R63, R88): a wizard is gone, any other block back to the
    pool."""
    blk = g["blocks"][b]
    ut = utype(g, b)
    blk["state"] = "gone" if ut.wizard else "pool"  # the public state hash: both are "off"
    blk["at"] = ""
    blk["strength"] = 0
    blk.pop("shown", None)
    if not ut.wizard and blk["type"]:
        g["pool"][blk["owner"]][blk["type"]] += 1
    events.append(ev("eliminated", block=b, type=blk["type"], cause=cause))


# ---- phases (R14-R16) ----------------------------------------------------------------------
def start_turn(st: State, events: list[Event]) -> None:
    """Initiative (R15), then the Movement Phase (R44)."""
    g = st.d
    g["phase"] = "initiative"
    rolling = alive_players(g)
    rolls: list[list[Any]] = []
    while True:
        totals = {}
        for p in rolling:
            d = roll(st, 2)
            totals[p] = sum(d)
            rolls.append([p, d])
        best = max(totals.values())
        top = [p for p in rolling if totals[p] == best]
        if len(top) == 1:
            break
        rolling = top
    first = top[0]
    seats = alive_players(g)
    i = seats.index(first)
    g["order"] = seats[i:] + seats[:i]
    events.append(ev("initiative", rolls=rolls, order=list(g["order"])))
    start_movement(g, events)


def start_movement(g: Dict, events: list[Event]) -> None:
    """The Movement Phase begins: nothing moved, no entries, the start-of-phase occupants."""
    g["phase"] = "movement"
    g["active"] = g["order"][0]
    for blk in g["blocks"].values():
        blk["moved"] = False
        blk["cast"] = False
        blk.pop("march", None)
    g["entries"], g["counts"], g["pins"], g["contacts"] = {}, {}, {}, {}
    g.pop("crossed", None)
    g["start_occ"] = {}
    for h in sorted({x["at"] for x in g["blocks"].values() if x["state"] == "map"}, key=hex_key):
        occ = sides_in(g, h)
        if len(occ) == 1:
            g["start_occ"][h] = occ[0]
    events.append(ev("phase", phase="movement", active=g["active"]))


def end_movement_turn(st: State, events: list[Event]) -> None:
    """``end`` in the Movement Phase (R44): the next player, or the Combat Phase."""
    g = st.d
    i = g["order"].index(g["active"])
    nxt = [p for p in g["order"][i + 1:] if p not in g["out"]]
    if nxt:
        g["active"] = nxt[0]
        return
    g["phase"], g["active"] = "combat", ""
    events.append(ev("phase", phase="combat"))
    next_battle(st, events)


def battles_left(g: Dict) -> list[str]:
    """Battle hexes whose battle has not started (R53), by hex order."""
    return sorted(g["contacts"], key=hex_key)


def chooser(g: Dict) -> tuple[str, list[str]]:
    """The attacking player whose battles come next (R54) and his battle hexes."""
    for p in g["order"]:
        mine = [h for h in battles_left(g) if g["contacts"][h]["attacker"] == p]
        if mine:
            return p, mine
    return "", []


def next_battle(st: State, events: list[Event]) -> None:
    """Start the next battle if it starts by itself (R54), or the Build Phase (R75)."""
    g = st.d
    # contacts that are no longer two-sided (a side left) are not battles
    for h in list(g["contacts"]):
        if len(sides_in(g, h)) < 2:
            del g["contacts"][h]
    p, mine = chooser(g)
    if not p:
        start_build(g, events)
        return
    if len(mine) == 1:
        start_battle(st, mine[0], events)


def start_battle(st: State, h: str, events: list[Event]) -> None:
    """The battle in ``h`` starts: every block revealed (R55), round 1 (R56)."""
    g = st.d
    c = g["contacts"].pop(h)
    g["battle"] = {"hex": h, "round": 1, "step": 0, "attacker": c["attacker"],
                   "defender": c["defender"], "aside": c["aside"], "dside": c["dside"],
                   "acted": [], "rcount": {}, "hits": None, "queue": [], "regroup": [],
                   "regrouped": [], "victor": "", "spent": []}
    events.append(ev("battle_started", hex=h, attacker=c["attacker"], defender=c["defender"],
                     blocks=on_map(g, h)))
    if net(g):  # R114: every owner reveals his blocks of the hex first, in seat order
        owners = {g["blocks"][b]["owner"] for b in on_map(g, h)}
        g["reveal"] = {"hex": h, "owners": [p for p in g["players"] if p in owners]}
        return
    for b in on_map(g, h):
        g["blocks"][b]["seen"] = [g["blocks"][b]["type"], g["blocks"][b]["strength"]]
    advance(st, events)


def revealed(st: State, p: str, faces: Any, events: list[Event]) -> None:
    """``p``'s reveal of his blocks in the hex of the battle starting (R114, R55): ``faces``
    maps every label of his there to (type, strength). Each must be a type of his army at a
    strength it may have, and agree with what this process knows of the block (its owner's
    peer knows it all; another knows a type once revealed, and a strength until that
    player's next Build Phase). Once every owner revealed, the battle begins. Raises
    :class:`IllegalAction`."""
    g = st.d
    rv = g.get("reveal")
    if not rv or rv["owners"][:1] != [p]:
        raise IllegalAction(f"no reveal of {p}'s is awaited")
    h = rv["hex"]
    mine = reveal_blocks(g, p)
    if sorted(faces) != sorted(g["blocks"][b]["label"] for b in mine):
        raise IllegalAction(f"{p} must reveal exactly his blocks "
                            + ("named" if rv.get("blocks") else f"in {h}") + ": "
                            + ",".join(str(g["blocks"][b]["label"]) for b in mine))
    from core.wizardkings import commits

    army = ARMIES[g["armies"][p]]
    for b in mine:
        blk = g["blocks"][b]
        t, k = faces[blk["label"]][:2]
        if t not in army or not 1 <= k <= army[t].max:
            raise IllegalAction(f"block {blk['label']}: no {t} of strength {k} in {p}'s army")
        if (blk["type"] and blk["type"] != t) or (blk["strength"] and blk["strength"] != k):
            raise IllegalAction(f"{p}'s reveal of block {blk['label']} ({t}:{k}) contradicts "
                                "what is known of it")
        if b in (g.get("commits") or {}):  # R114: it opens the latest commitment
            e, s = (tuple(faces[blk["label"]]) + (-1, ""))[2:4]
            commits.check_opening(g, b, t, k, int(e), str(s))
    for b in mine:
        blk = g["blocks"][b]
        blk["type"], blk["strength"] = faces[blk["label"]][:2]
        blk["shown"] = True
    commits.run_queue(g)  # R115: the checks that waited on these blocks
    events.append(ev("revealed", player=p, blocks=[[b, g["blocks"][b]["type"],
                                                    g["blocks"][b]["strength"]] for b in mine]))
    rv["owners"].pop(0)
    if rv["owners"]:
        return
    g["reveal"] = None
    if rv.get("blocks"):  # a caster's or dispeller's reveal (R81, R86): the spell goes on
        return
    for e in g["entries"].get(h, []):  # R68's holders: the Flyer flags are known now
        if g["blocks"][e[1]].get("shown"):
            e[3] = int(utype(g, e[1]).ability == "flyer")
    for b in on_map(g, h):
        g["blocks"][b]["seen"] = [g["blocks"][b]["type"], g["blocks"][b]["strength"]]
    advance(st, events)


def reveal_blocks(g: Dict, p: str) -> list[str]:
    """The blocks of ``p``'s that the reveal awaited now opens (R114): those it names (a
    movement-phase caster or dispeller, R81, R86), else all of his in the battle hex (R55)."""
    rv = g["reveal"]
    if rv.get("blocks"):
        return [b for b in rv["blocks"] if g["blocks"][b]["owner"] == p]
    return [b for b in on_map(g, rv["hex"]) if g["blocks"][b]["owner"] == p]


def unshow(g: Dict, b: str) -> None:
    """Block ``b`` stands up again after a reveal outside a battle (R111): its values are
    kept as ``seen``."""
    blk = g["blocks"][b]
    if blk.pop("shown", None) and blk["type"]:
        blk["seen"] = [blk["type"], blk["strength"]]


def bside(g: Dict, b: str) -> str:
    """``"A"`` or ``"D"``: the block's side in the current battle."""
    return "A" if side(g, g["blocks"][b]["owner"]) == g["battle"]["aside"] else "D"


def step_units(g: Dict) -> list[str]:
    """The blocks of the current step that have not acted (R56)."""
    bt = g["battle"]
    if bt["step"] >= len(STEPS):
        return []
    who, letter = STEPS[bt["step"]]
    return [b for b in on_map(g, bt["hex"]) if bside(g, b) == who
            and utype(g, b).letter == letter and b not in bt["acted"]]


def side_units(g: Dict, who: str) -> list[str]:
    """Blocks of the battle's attacker (``A``) or defender (``D``) in the battle hex."""
    return [b for b in on_map(g, g["battle"]["hex"]) if bside(g, b) == who]


def advance(st: State, events: list[Event]) -> None:
    """Skip empty steps, end rounds, the pursuit round (R65), forced eliminations (R71), and
    the end of the battle (R64)."""
    g = st.d
    bt = g["battle"]
    while True:
        if bt["victor"]:
            return
        if not side_units(g, "A") or not side_units(g, "D"):
            end_battle(st, events)
            return
        if bt["hits"] or bt["queue"] or bt.get("spell") or bt.get("terror"):
            return
        units = step_units(g)
        if units and bt["round"] == 4 and STEPS[bt["step"]][0] == "A":
            for b in units:
                if not has_retreat(g, b):
                    bt["acted"].append(b)
                    eliminate(g, b, "no retreat", events)
                    break
            else:
                return
            continue
        if units:
            return
        bt["step"] += 1
        if bt["step"] >= len(STEPS):
            if bt["round"] == 4:
                for b in side_units(g, "A"):
                    eliminate(g, b, "pursuit", events)
                continue
            bt["round"] += 1
            bt["step"], bt["acted"], bt["rcount"], bt["bloodlust"] = 0, [], {}, []
        events.append(ev("step", round=bt["round"], step="-".join(STEPS[bt["step"]])
                         if bt["step"] < len(STEPS) else ""))


def holder(g: Dict, h: str, frm: str) -> str:
    """The side of the last non-Flyer unit that entered ``h`` from ``frm`` this turn (R68)."""
    who = ""
    for s, _b, f, fl in g["entries"].get(h, []):
        if f == frm and not fl:
            who = s
    return who


def retreat_why(g: Dict, b: str, path: list[str], limits: bool = True) -> str:
    """Why block ``b`` may not retreat (or regroup out) along ``path`` (R67-R70), ``""`` if it
    may. ``limits``: apply the per-round hexside limits (R69; not for regroups, R72)."""
    bo = bd(g)
    blk = g["blocks"][b]
    ut = utype(g, b)
    h = blk["at"]
    s = side(g, blk["owner"])
    if ut.ability == "castle":
        return "a castle never retreats (R43)"
    first = path[0]
    sd = bo.side_between(h, first)
    if sd is None:
        return f"{first} is not next to {h}"
    if len(path) > 1:
        if ut.ability != "flyer" or len(path) > ut.move:
            return "only a Flyer retreats more than one hex, up to its move (R70)"
        seq = [h, *path]
        for a, c in zip(seq, seq[1:], strict=False):
            if bo.side_between(a, c) is None:
                return f"{c} is not next to {a}"
        if status(g, path[-1], s) != "friendly":
            return "a Flyer's long retreat must end in a friendly hex (R70)"
        return ""
    why = crossing(bo, ut, h, first)
    if why:
        return why
    st = status(g, first, s)
    if st in ("enemy", "battle"):
        return f"a unit may not retreat into the {st} hex {first} (R67)"
    why = end_ok(g, ut, first, s)
    if why or (ut.ability == "flyer" and bo.hexes[first].water):
        return why or f"a Flyer may not retreat to the sea hex {first}"
    if ut.ability != "flyer":
        hold = holder(g, h, first)
        att = bside(g, b) == "A"
        if att and hold != s:
            return "the attacker may retreat only across hexsides it attacked through (R68)"
        if not att and hold and hold == g["battle"]["aside"]:
            return "the defender may not retreat across a hexside the attacker used (R68)"
        if limits:
            lim = side_limit(ut, sd)
            if g["battle"]["rcount"].get(f"{first}|{s}", 0) >= lim:
                return f"the hexside to {first} allows {lim} retreat(s) this round (R69)"
    return ""


def has_retreat(g: Dict, b: str) -> bool:
    """Whether ``b`` has any legal retreat now: to an adjacent hex, or for a Flyer a full move
    to a friendly hex (R67-R71)."""
    if retreats(g, b):
        return True
    ut = utype(g, b)
    if ut.ability != "flyer":
        return False
    h = g["blocks"][b]["at"]
    s = side(g, g["blocks"][b]["owner"])
    bo = bd(g)
    return any(status(g, x, s) == "friendly" and 1 < bo.distance(h, x) <= ut.move
               for x in sorted(bo.hexes, key=hex_key) if x != h)


def retreats(g: Dict, b: str) -> list[str]:
    """The adjacent hexes ``b`` may retreat to now (R67-R69)."""
    h = g["blocks"][b]["at"]
    return [n for n in bd(g).neighbours(h) if not retreat_why(g, b, [n])]


def apply_hits(st: State, n: int, events: list[Event]) -> None:
    """``n`` hits on the enemy of the acting side, each to the strongest unit (R61); a tie
    waits for the owner's ``hit``."""
    g = st.d
    bt = g["battle"]
    while n > 0:
        foe = side_units(g, bt["hits_on"])
        if not foe:
            n = 0
            break
        top = max(g["blocks"][b]["strength"] for b in foe)
        cand = [b for b in foe if g["blocks"][b]["strength"] == top]
        if len(cand) > 1:
            bt["hits"] = {"n": n, "among": cand}
            return
        hit_one(g, cand[0], events)
        n -= 1
    bt["hits"] = None


def hit_one(g: Dict, b: str, events: list[Event]) -> None:
    """One hit on ``b`` (R4, R63)."""
    blk = g["blocks"][b]
    blk["strength"] -= 1
    events.append(ev("hit", block=b, strength=blk["strength"]))
    if blk["strength"] <= 0:
        blk["strength"] = 1
        eliminate(g, b, "hits", events)
    else:
        remember(g, b)


def remember(g: Dict, b: str) -> None:
    """Block ``b``, revealed in the battle being fought, changed strength (a hit, a spell's
    step cost, a heal): every view keeps its last revealed values as ``seen`` (R111), so
    when it stands up again (or retreats) it is remembered at this strength, not at the
    strength it was revealed with. A peer that does not know its type keeps ``seen`` as it
    was (a block in a battle is revealed to all, so this does not happen there).

    Source: rules.md R111 (trial finding 2)."""
    blk = g["blocks"][b]
    if blk["type"] and blk["strength"] > 0:
        blk["seen"] = [blk["type"], blk["strength"]]


def rating(g: Dict, b: str) -> int:
    """The effective rating number (R5, R60): +1 for a folk in its terrain, capped at 6."""
    ut = utype(g, b)
    land = bd(g).hexes[g["blocks"][b]["at"]].land
    bonus = 1 if FOLK_TERRAIN.get(ut.ability) == land and land else 0
    bt = g["battle"]
    if bt and bside(g, b) in bt.get("bloodlust", []):
        bonus += 1  # units.md §4.2 bloodlust: until the end of this combat round
    return min(6, ut.number + bonus)


def fire(st: State, b: str, events: list[Event]) -> None:
    """Block ``b`` fires (R59): strength dice, each <= rating hits."""
    g = st.d
    bt = g["battle"]
    dice = roll(st, g["blocks"][b]["strength"])
    r = rating(g, b)
    hits = sum(1 for d in dice if d <= r)
    bt["acted"].append(b)
    events.append(ev("fired", block=b, dice=dice, hits=hits))
    bt["hits_on"] = "D" if bside(g, b) == "A" else "A"
    apply_hits(st, hits, events)


def run_queue(st: State, events: list[Event]) -> None:
    """Go on with a ``fire`` without label (R57) after a hit tie was settled."""
    g = st.d
    bt = g["battle"]
    while bt["queue"] and not bt["hits"]:
        b = bt["queue"].pop(0)
        if b in step_units(g):
            fire(st, b, events)
    advance(st, events)


def end_battle(st: State, events: list[Event]) -> None:
    """The battle ends (R64); the victor's players regroup (R72), or the next battle."""
    g = st.d
    bt = g["battle"]
    a, d = side_units(g, "A"), side_units(g, "D")
    vside = bt["aside"] if a else bt["dside"] if d else ""
    bt["victor"] = vside or "none"
    bt["hits"], bt["queue"] = None, []
    events.append(ev("battle_ended", hex=bt["hex"], victor=vside))
    bt["regroup"] = [p for p in g["order"] if vside and side(g, p) == vside
                     and p not in g["out"]]
    next_regrouper(st, events)


def may_regroup(g: Dict, p: str) -> bool:
    """Whether ``p`` may regroup by public information (R72)."""
    bt = g["battle"]
    h = bt["hex"]
    for b in on_map(g, h):
        if g["blocks"][b]["owner"] == p and b not in bt["regrouped"] and \
                ptype(g, b).ability != "castle" and \
                any(not retreat_why(g, b, [n], limits=False) for n in bd(g).neighbours(h)):
            return True
    for n in bd(g).neighbours(h):
        if len(sides_in(g, n)) < 2:
            for b in on_map(g, n):
                if g["blocks"][b]["owner"] == p and b not in bt["regrouped"] and \
                        ptype(g, b).ability != "castle":
                    return True
    return False


def next_regrouper(st: State, events: list[Event]) -> None:
    """Skip players who may not regroup; when none is left, finish the battle (R72, R73)."""
    g = st.d
    bt = g["battle"]
    while bt["regroup"] and not may_regroup(g, bt["regroup"][0]):
        bt["regroup"].pop(0)
    if bt["regroup"]:
        return
    h = bt["hex"]
    if bd(g).hexes[h].water:
        for b in on_map(g, h):
            if ptype(g, b).ability == "flyer":
                eliminate(g, b, "at sea", events)
    for b in on_map(g, h):  # the survivors stand up again (R111): their values are `seen`
        g["blocks"][b].pop("shown", None)
    g["battle"] = None
    next_battle(st, events)


# ---- the Build Phase (R89-R100) --------------------------------------------------------------
def start_build(g: Dict, events: list[Event]) -> None:
    """Treasuries (R90), then simultaneous orders (R89)."""
    g["phase"] = "build"
    g["battle"] = None
    g["orders"] = {}
    g["treasury"] = {p: treasury(g, p) for p in alive_players(g)}
    events.append(ev("treasury", treasury=[[p, n] for p, n in g["treasury"].items()]))


def next_label(g: Dict, p: str, taken: list[int]) -> int:
    """The lowest label ``p`` has never used (R112)."""
    n = 1
    while n in g["used"][p] or n in taken:
        n += 1
    return n


def _new_unit_city(g: Dict, b: Any, p: str, s: str, h: str, per_city: dict[str, int]) -> Any:
    """The hex ``h`` of board ``b`` where player ``p`` (side ``s``) puts one more new unit,
    counted in ``per_city``: one of his original cities, friendly, and at most its GP of new
    units (Source: rules R92, R97). Returns the hex; raises ``IllegalAction`` in words."""
    hx = b.hexes.get(h)
    if hx is None or not hx.city or hx.map_id not in g["owners"].get(p, []):
        raise IllegalAction(f"{h} is not one of {p}'s original cities (R92)")
    if status(g, h, s) != "friendly":
        raise IllegalAction(f"{h} is not friendly to {p}: no new units there (R92, R97)")
    per_city[h] = per_city.get(h, 0) + 1
    if per_city[h] > hx.city:
        raise IllegalAction(f"{h} is worth {hx.city} GP: at most {hx.city} new unit(s) (R92)")
    return hx


def check_public_build(g: Dict, p: str, words: tuple[str, ...]) -> Dict:
    """The public checks (R115, R116) of the public part of ``p``'s build orders
    (``sealed new=hex,...`` in the order the blocks are made, ``removed=labels``): the removed
    blocks are his on the map; every new block is in one of his original cities, friendly,
    at most its GP there; a hex gets no more new blocks than stacking allows beside the
    blocks every peer knows are units. Returns the plan (``public`` true). Raises
    :class:`IllegalAction`."""
    b = bd(g)
    s = side(g, p)
    items = {w.split("=", 1)[0]: w.split("=", 1)[1].split(",") for w in words[1:]}
    removed = [bid(p, int(x)) for x in items.get("removed", [])]
    for x in removed:
        if x not in g["blocks"] or g["blocks"][x]["state"] != "map":
            raise IllegalAction(f"{p} has no block {x} on the map to remove")
    news = items.get("new", [])
    per_city: dict[str, int] = {}
    for h in news:
        _new_unit_city(g, b, p, s, h, per_city)
    for h, n in per_city.items():
        have = [x for x in on_map(g, h) if x not in removed and side(g, g["blocks"][x]["owner"]) == s]
        if len(have) + n > g["opts"]["stacking"] + 1:  # one of them may be a wizard (R47)
            raise IllegalAction(f"{h} would be overstacked (R47)")
    return {"public": True, "removed": removed, "new": news}


def apply_public_build(g: Dict, p: str, plan: Dict, events: list[Event]) -> None:
    """Apply the public part of ``p``'s build orders on a peer that does not hold his
    whole orders (R116): removed blocks leave the map, new blocks (hidden) take the lowest
    labels never used; the strength of every block of his is unknown again (steps may have
    been added, R113), its type stays known where it was revealed."""
    for x in plan["removed"]:
        eliminate(g, x, "removed", events)
    made = []
    for h in plan["new"]:
        lab = next_label(g, p, [])
        g["used"][p].append(lab)
        x = bid(p, lab)
        g["blocks"][x] = new_block(p, lab, "", h, 0)
        made.append([x, h])
    for x in g["blocks"].values():
        if x["owner"] == p and x["state"] == "map":
            x["strength"] = 0
    events.append(ev("built", player=p, new=made, removed=list(plan["removed"])))


def public_build(g: Dict, p: str, words: tuple[str, ...]) -> list[str]:
    """The public part (R116) of ``p``'s whole build orders ``words``: ``sealed``, the hexes of the new
    blocks in the order they are made (new units, then new castles, R100) and the labels
    of the blocks removed (disbanded, or merged down to 0). Raises :class:`IllegalAction`
    when the orders are refused."""
    plan = check_build(g, p, words)
    strength = {x: g["blocks"][x]["strength"] for x in g["blocks"]}
    removed = list(plan["disband"])
    for gb, rb, k in plan["merges"]:
        strength[rb] += k
        strength[gb] -= k
        if strength[gb] == 0:
            removed.append(gb)
    out = ["sealed"]
    news = [h for _t, h, _k in plan["new"]] + list(plan["castles"])
    if news:
        out.append("new=" + ",".join(news))
    if removed:
        out.append("removed=" + ",".join(str(x) for x in
                                         sorted(int(r.split(".")[1]) for r in removed)))
    return out


def check_build(g: Dict, p: str, words: tuple[str, ...]) -> Dict:
    """Check a player's build orders against the state at the start of the phase (R92-R100);
    returns the plan. Raises :class:`IllegalAction` for the whole set."""
    if words[:1] == ("sealed",):
        if not net(g):
            raise IllegalAction("the public part of build orders is for a networked game")
        return check_public_build(g, p, words)
    b = bd(g)
    s = side(g, p)
    army = ARMIES[g["armies"][p]]
    items = {w.split("=", 1)[0]: w.split("=", 1)[1].split(",") for w in words}
    cost = 0
    disband = [bid(p, int(x)) for x in items.get("disband", [])]
    for x in disband:
        if x not in g["blocks"] or g["blocks"][x]["state"] != "map":
            raise IllegalAction(f"{p} has no block {x} on the map to disband")
    strength = {x: g["blocks"][x]["strength"] for x in g["blocks"] if g["blocks"][x]["state"] == "map"}
    merges = []
    for it in items.get("merge", []):
        gv, _, rest = it.partition(">")
        rc, _, n = rest.partition(":")
        gb, rb = bid(p, int(gv)), bid(p, int(rc))
        for x in (gb, rb):
            if x not in strength or x in disband:
                raise IllegalAction(f"merge: {x} is not on the map")
        bg, br = g["blocks"][gb], g["blocks"][rb]
        if bg["type"] != br["type"] or bg["at"] != br["at"] or bg["type"] == "castle":
            raise IllegalAction("merge: two blocks of one type (not castles) in one hex (R95)")
        k = int(n)
        if strength[gb] < k or strength[rb] + k > army[br["type"]].max:
            raise IllegalAction(f"merge {it}: strengths out of range (R95)")
        strength[gb] -= k
        strength[rb] += k
        merges.append((gb, rb, k))
    steps = []
    for it in items.get("step", []):
        who, _, n = it.partition(":")
        x = who if "." in who else bid(p, int(who))
        if x not in strength or x in disband:
            raise IllegalAction(f"step: {x} is not on the map")
        owner = g["blocks"][x]["owner"]
        if side(g, owner) != s:
            raise IllegalAction(f"step: {x} is not yours or an ally's")
        ut = utype(g, x)
        k = int(n)
        if ut.ability == "castle" and k > 1:
            raise IllegalAction("a castle gains at most one step per Build Phase (R93)")
        if strength[x] + k > ut.max:
            raise IllegalAction(f"step: {x} would exceed its maximum {ut.max} (R4)")
        strength[x] += k
        per = 1 if ut.wizard and b.hexes[g["blocks"][x]["at"]].henge else ut.cost
        cost += per * k
        steps.append((x, k))
    pool = dict(g["pool"][p])
    for x in disband:
        if not utype(g, x).wizard:
            pool[g["blocks"][x]["type"]] += 1
    per_city: dict[str, int] = {}
    adds: dict[str, int] = {}
    news = []
    for it in items.get("new", []):
        t, _, rest = it.partition("@")
        h, _, n = rest.partition(":")
        if t not in army:
            raise IllegalAction(f"the {g['armies'][p]} have no unit {t!r}")
        if t == "castle":
            raise IllegalAction("a new castle is a castle= item, not new= (R93)")
        ut = army[t]
        if ut.chaos and not g["opts"]["chaos"]:
            raise IllegalAction("Chaos units are not allowed in this game")
        hx = _new_unit_city(g, b, p, s, h, per_city)
        if ut.ability == "aquatic" and not hx.port:
            raise IllegalAction("Aquatics are built only in ports (R92)")
        k = int(n)
        if k > ut.max:
            raise IllegalAction(f"a {t} has at most {ut.max} steps")
        if pool.get(t, 0) < 1:
            raise IllegalAction(f"{p}'s pool has no {t} block left")
        pool[t] -= 1
        cost += ut.cost * k
        news.append((t, h, k))
        adds[h] = adds.get(h, 0) + (0 if ut.wizard else 1)
    castles = []
    for h in items.get("castle", []):
        hx = b.hexes.get(h)
        if hx is None or hx.water:
            raise IllegalAction(f"a castle is built in a land hex, not {h} (R93)")
        if status(g, h, s) != "friendly":
            raise IllegalAction(f"{h} is not friendly to {p} (R93)")
        own_city = hx.city and hx.map_id in g["owners"].get(p, [])
        if own_city:
            per_city[h] = per_city.get(h, 0) + 1
            if per_city[h] > hx.city:
                raise IllegalAction(f"{h} is worth {hx.city} GP: at most {hx.city} new unit(s)")
        elif h in castles:
            raise IllegalAction("one new castle per hex outside an original city (R93)")
        if pool.get("castle", 0) < 1:
            raise IllegalAction(f"{p}'s pool has no castle block left")
        pool["castle"] -= 1
        cost += army["castle"].cost
        castles.append(h)
        adds[h] = adds.get(h, 0) + 1
    for h, extra in adds.items():
        have = [x for x in on_map(g, h) if x not in disband and side(g, g["blocks"][x]["owner"]) == s
                and not utype(g, x).wizard and not (x in strength and strength[x] == 0)]
        if len(have) + extra > g["opts"]["stacking"]:
            raise IllegalAction(f"{h} would be overstacked (R47)")
    wiz_new = [h for t, h, _k in news if army[t].wizard]
    for h in wiz_new:
        if wiz_new.count(h) + sum(1 for x in on_map(g, h) if utype(g, x).wizard
                                  and side(g, g["blocks"][x]["owner"]) == s) > 1:
            raise IllegalAction(f"{h} would hold two wizards (R47)")
    if cost > g["treasury"].get(p, 0):
        raise IllegalAction(f"the orders cost {cost} GP; {p}'s treasury is {g['treasury'].get(p, 0)}")
    return {"disband": disband, "merges": merges, "steps": steps, "new": news, "castles": castles}


def apply_build(g: Dict, p: str, plan: Dict, events: list[Event]) -> None:
    """Apply checked build orders (R100)."""
    if plan.get("public"):
        apply_public_build(g, p, plan, events)
        return
    for x in plan["disband"]:
        eliminate(g, x, "disbanded", events)
    for gb, rb, k in plan["merges"]:
        g["blocks"][rb]["strength"] += k
        g["blocks"][gb]["strength"] -= k
        if g["blocks"][gb]["strength"] == 0:
            g["blocks"][gb]["strength"] = 1
            eliminate(g, gb, "merged", events)
    for x, k in plan["steps"]:
        g["blocks"][x]["strength"] += k
    made = []
    for t, h, k in [*plan["new"], *[("castle", h, 1) for h in plan["castles"]]]:
        lab = next_label(g, p, [])
        g["used"][p].append(lab)
        x = bid(p, lab)
        g["blocks"][x] = new_block(p, lab, t, h, k)
        g["pool"][p][t] -= 1
        made.append([x, h])
    events.append(ev("built", player=p, new=made, removed=list(plan["disband"])))


def new_block(p: str, label: int, t: str, h: str, k: int) -> Dict:
    """A block record on the map."""
    return {"owner": p, "label": label, "type": t, "strength": k, "at": h, "state": "map",
            "moved": False, "cast": False}


def end_turn(st: State, events: list[Event]) -> None:
    """After the Build Phase: victory (R101-R104), then the next turn."""
    g = st.d
    if check_victory(g, events):
        return
    g["turn"] += 1
    start_turn(st, events)


def check_victory(g: Dict, events: list[Event]) -> bool:
    """R101 (cities), R102 (time), R103 (points), R104 (sides out), and the project's turn
    limit. Sets ``winner`` and returns True when the game is over."""
    opts = g["opts"]
    sides = sorted({side(g, p) for p in alive_players(g)}, key=lambda s: int(s[1:]))
    gp = {s: sum(treasury(g, p) for p in alive_players(g) if side(g, p) == s) for s in sides}
    for s in sides:
        if not gp[s] and not any(side(g, x["owner"]) == s for x in g["blocks"].values()
                                 if x["state"] == "map"):
            g["out"] += [p for p in alive_players(g) if side(g, p) == s]
    left = sorted({side(g, p) for p in alive_players(g)}, key=lambda s: int(s[1:]))
    if len(left) == 1:
        return finish(g, left[0], "last-side", events)
    mode = opts["victory"]
    if mode == "cities":
        exc = {}
        for s in left:
            mine = [p for p in alive_players(g) if side(g, p) == s]
            need = opts["victory_gp"] or 10 * sum(len(g["owners"].get(p, [])) for p in mine) + 5
            if gp[s] >= need:
                exc[s] = gp[s] - need
        if exc:
            best = max(exc.values())
            top = [s for s in exc if exc[s] == best]
            if len(top) == 1:
                return finish(g, top[0], "cities", events)
    if mode == "points":
        for p in alive_players(g):
            g["vp"][p] = g["vp"].get(p, 0) + g["treasury"].get(p, 0)
    limit = opts["turns"] if mode in ("time", "points") else opts["turn_limit"]
    if limit and g["turn"] >= limit:
        if mode == "cities":
            return finish(g, "draw", "turn-limit", events)
        score = {s: (sum(g["vp"].get(p, 0) for p in alive_players(g) if side(g, p) == s)
                     if mode == "points" else 0, gp[s]) for s in left}
        best2 = max(score.values())
        top2 = [s for s in left if score[s] == best2]
        return finish(g, top2[0] if len(top2) == 1 else "draw", mode, events)
    return False


def finish(g: Dict, winner: str, how: str, events: list[Event]) -> bool:
    """The game is over."""
    g["winner"], g["how"], g["phase"] = winner, how, "over"
    events.append(ev("victory", winner=winner, how=how))
    return True


#: What the public state hash of a networked game leaves out (R118): the values that depend
#: on hidden types or strengths (pools by type, hexside counts, build orders' content, an
#: overstack to settle, forced-march flags) and this process's private randomness.
PRIVATE_KEYS = ("blocks", "pool", "counts", "orders", "private", "entries", "audit",
                "crossed")


def public_part(g: Dict) -> Dict:
    """The public part of a networked state (R118), equal on every peer whatever each
    knows: blocks as label, owner, hex, on the map or off it, moved, cast, revealed now
    and last revealed values (``seen``); entries without their Flyer flag until revealed;
    pools as counts of blocks; who has ordered; every counter, the phase, the battle."""
    out = {k: v for k, v in g.items() if k not in PRIVATE_KEYS}
    out["blocks"] = {b: [x["owner"], x["label"], x["at"], int(x["state"] == "map"),
                         int(bool(x["moved"])), int(bool(x.get("cast"))),
                         int(bool(x.get("shown"))), x.get("seen") or []]
                     for b, x in sorted(g["blocks"].items(), key=lambda i: bkey(i[0]))}
    out["entries"] = {h: [e[:3] for e in es] for h, es in g["entries"].items()}
    out["orders"] = sorted(g["orders"])
    return out


def state_hash(st: State) -> str:
    """BLAKE2b of the canonical wire form: a local engine's whole state, or in a networked
    game its public part (R118, :func:`public_part`), so peers that know different things
    agree."""
    from hashlib import blake2b

    if net(st.d):
        return blake2b(pack({"g": public_part(st.d), "rng": st.rng.to_wire()}),
                       digest_size=16).hexdigest()
    return blake2b(pack(st.to_wire()), digest_size=16).hexdigest()


def board_of(g: Dict) -> Board:
    """Public alias of :func:`bd`."""
    return bd(g)


def hex_of(g: Dict, h: str) -> Hex:
    """The board hex ``h``."""
    return bd(g).hexes[h]


def private_rng(g: Dict, p: str) -> Rng:
    """The private stream of player ``p`` (R113: label permutations; never the dice stream)."""
    return Rng.from_seed(f"wk-private {g['seed']} {p}")


def blank(options: Dict, seed: Any) -> Dict:
    """The state dict of a game with these options before deployment (R8, R11)."""
    players = [f"P{i + 1}" for i in range(int(options["players"]))]
    armies = {p: ("elves" if i % 2 == 0 else "orcs") for i, p in enumerate(players)}
    given, teams = options.get("armies", {}), options.get("teams", [])
    if isinstance(given, str) or isinstance(teams, str):  # the options' words (R109)
        from core.wizardkings.ruleset import parse_armies, parse_teams

        given = parse_armies(given, len(players)) if isinstance(given, str) else given
        teams = parse_teams(teams, len(players)) if isinstance(teams, str) else teams
    for p, a in given.items():
        armies[p] = a
    maps = list(options["maps"])
    owners = options.get("owners") or {p: [maps[i]] for i, p in enumerate(players) if i < len(maps)}
    sides: dict[str, str] = {}
    for team in teams:
        for p in team:
            sides[p] = team[0]
    return {"seq": 0, "seed": str(seed if not isinstance(seed, bytes) else seed.hex()),
            "turn": 1, "phase": "setup", "order": [], "active": "", "players": players,
            "armies": armies, "owners": {p: list(v) for p, v in owners.items()},
            "layout": options["layout"], "maps": maps, "sides": sides,
            "opts": {k: options[k] for k in ("stacking", "dispel", "victory", "turns",
                                             "victory_gp", "budget", "chaos", "turn_limit")},
            "blocks": {}, "used": {p: [] for p in players},
            "pool": {p: {t: u.pool for t, u in ARMIES[armies[p]].items()} for p in players},
            "entries": {}, "counts": {}, "pins": {}, "contacts": {}, "start_occ": {},
            "battle": None, "settle": None, "mspell": None, "treasury": {}, "orders": {}, "deployed": [],
            "vp": {p: 0 for p in players}, "out": [], "winner": "", "how": "", "forced": None}


def view(st: State, player: str) -> Dict:
    """What ``player`` sees (R111): every block's label, owner, hex and moved flag; type and
    strength only for his own and his allies' blocks and for blocks revealed in the battle being
    fought; pools as counts for others; no seed, no forced dice. Once a local game is over
    every block and pool is shown (R119: no secret is left)."""
    g = st.d
    v = copy_dict({k: x for k, x in g.items() if k not in ("seed", "forced", "blocks", "pool",
                                                                 "orders", "private", "audit",
                                                                 "crossed")})
    me = side(g, player) if player in g["players"] else ""
    fight = set(on_map(g, g["battle"]["hex"])) if g["battle"] else set()
    # a local game over has no secret left: every block face up, as the replay's "everyone"
    # (R119: a finished game's log holds the final openings); a networked state shows only
    # what it was shown
    face_up = g["phase"] == "over" and not net(g)
    blocks = {}
    for b, x in g["blocks"].items():
        shown = dict(x)
        if not face_up and x["state"] == "map" and side(g, x["owner"]) != me and \
                b not in fight and not x.get("shown"):  # a caster or dispeller is shown while its spell lasts
            shown["type"], shown["strength"] = "", 0
            shown.pop("march", None)
        if x["state"] != "map" and not shown["type"]:  # off the map, never revealed here
            shown["state"] = "pool"
        blocks[b] = shown
    v["blocks"] = blocks
    # an entry's Flyer flag and the hexside-limit counts depend on types (R46, R52): shown only
    # for blocks the viewer may see
    hidden = {b for b, x in blocks.items() if x["state"] == "map" and not x["type"]}
    v["entries"] = {h: [[e[0], e[1], e[2], -1 if e[1] in hidden else e[3]] for e in es]
                    for h, es in g["entries"].items()}
    v.pop("counts", None)
    v["pool"] = {p: (dict(c) if side(g, p) == me or face_up else sum(c.values()))
                 for p, c in g["pool"].items()}
    v["orders"] = sorted(g["orders"])
    v["viewer"] = player
    return v


#: Option defaults (R109) and the project's turn limit (a cities game is a draw after it).
DEFAULTS: Dict = {"stacking": 4, "dispel": True, "victory": "cities", "turns": 10,
                  "victory_gp": 0, "budget": 100, "chaos": True, "turn_limit": 30}
