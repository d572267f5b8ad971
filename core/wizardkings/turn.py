"""Who acts (R16), what each verb does (notation.md §2), and the listing of legal actions
(R120). :func:`perform` runs on a copy of the state (core/wizardkings/ruleset.py), so a refusal
changes nothing.
"""

from __future__ import annotations

import itertools
from typing import Any

from core.engine import Event, IllegalAction
from core.rng import Rng
from core.wizardkings import commits as C
from core.wizardkings import game as G
from core.wizardkings.actions import Action
from core.wizardkings.maps import hex_key
from core.wizardkings.units import ARMIES, STANDARD

Dict = dict[str, Any]

#: spell slug -> (army, level, kind, dice, firepower); kind: "target" (2 dice on one enemy),
#: "area" (hits allocated by R61), "all" (every enemy -1), "heal". units.md §4.
SPELLS: dict[str, tuple[str, int, str, int, int]] = {
    "elfshot": ("elves", 1, "target", 2, 3),
    "heal": ("elves", 1, "heal", 0, 0),
    "entangle": ("elves", 1, "entangle", 0, 0),
    "bloodlust": ("orcs", 1, "bloodlust", 0, 0),
    "terror": ("orcs", 1, "terror", 0, 0),
    "leafstorm": ("elves", 2, "area", 3, 4),
    "wrath-of-the-wood": ("elves", 3, "all", 0, 0),
    "firebolt": ("orcs", 1, "area", 3, 2),
    "fireball": ("orcs", 2, "area", 4, 3),
    "firestorm": ("orcs", 3, "area", 6, 3),
}
#: Spells of the army cards not built yet (docs/wizard-kings.md): declaring one is refused.
NOT_BUILT: dict[str, str] = {}
#: Movement-phase spells (units.md §4): slug -> (army, level).
MOVE_SPELLS = {"heal": ("elves", 1), "elven-gate": ("elves", 2), "forced-march": ("orcs", 2)}
#: How far elven-gate sends its target (units.md §4.1: at most 4 hexes, R20).
GATE_RANGE = 4


def to_move(g: Dict) -> list[str]:
    """R16, seat order."""
    ph = g["phase"]
    if ph == "over" or g.get("reveal"):  # a reveal pause: the owner's peer answers (R114)
        return []
    if ph in ("setup", "build"):
        key = "deployed" if ph == "setup" else "orders"
        return [p for p in G.alive_players(g) if p not in g[key]]
    if g.get("mspell"):
        return g["mspell"]["asked"][:1]
    if g.get("settle"):
        return [g["settle"]["player"]]
    if ph == "movement":
        return [g["active"]]
    bt = g["battle"]
    if not bt:
        p, _ = G.chooser(g)
        return [p] if p else []
    if bt["victor"]:
        return bt["regroup"][:1]
    if bt.get("spell"):
        return bt["spell"]["asked"][:1]
    if bt.get("terror"):
        return [g["blocks"][bt["terror"]]["owner"]]
    if bt["hits"]:
        owners = sorted({g["blocks"][b]["owner"] for b in bt["hits"]["among"]})
        if len(owners) == 1:
            return owners
        lead = bt["attacker"] if bt["hits_on"] == "A" else bt["defender"]
        return [lead]
    return [step_player(g)] if G.step_units(g) else []


def step_player(g: Dict) -> str:
    """The owner acting in this step: the first in turn order with units left (R57)."""
    owners = {g["blocks"][b]["owner"] for b in G.step_units(g)}
    return next(p for p in g["order"] if p in owners)


def _own(g: Dict, p: str, lab: str) -> str:
    b = G.bid(p, int(lab))
    if b not in g["blocks"] or g["blocks"][b]["state"] != "map":
        raise IllegalAction(f"{p} has no block {lab} on the map")
    return b


def perform(st: G.State, a: Action) -> list[Event]:
    """Check and carry out ``a``; raises :class:`IllegalAction` (call on a copy)."""
    g = st.d
    if g["phase"] == "over":
        raise IllegalAction("the game is over")
    if a.actor not in g["players"]:
        raise IllegalAction(f"{a.actor} is not a seat of this game")
    if a.verb == "reveal":
        return v_reveal(st, a)
    if a.verb == "commit":
        g["seq"] += 1
        events: list[Event] = []
        C.v_commit(st, a, events)
        return events
    if a.verb == "resign":
        return resign(st, a.actor)
    if a.actor not in to_move(g):
        raise IllegalAction(f"it is not {a.actor}'s turn to act")
    w = g.get("window")
    if w and not (a.verb == "eliminate" and a.actor == w["player"]):
        G.close_window(g)  # R121: the settlement is over; its public count
    g["seq"] += 1
    fn = VERB_FNS.get(a.verb)
    if fn is None:
        raise IllegalAction(f"{a.verb} is not built yet in this engine (docs/wizard-kings.md)")
    return fn(st, a)


def resign(st: G.State, p: str) -> list[Event]:
    """R104: at any time he is asked to act (or in a simultaneous phase) his blocks leave the
    map and he is out; one side left wins at once. What waited on him or on his blocks goes
    on without them (:func:`_after_resign`). Raises :class:`IllegalAction` when he is out
    already or not asked to act. Source: rules.md R104."""
    g = st.d
    if p in g["out"]:
        raise IllegalAction(f"{p} is already out")
    if p not in to_move(g) and g["phase"] not in ("setup", "build"):
        raise IllegalAction(f"{p} may resign only when he is asked to act")
    g["seq"] += 1
    events: list[Event] = []
    for b in sorted(g["blocks"], key=G.bkey):
        if g["blocks"][b]["owner"] == p and g["blocks"][b]["state"] == "map":
            G.eliminate(g, b, "resigned", events)
    g["out"].append(p)
    left = sorted({G.side(g, q) for q in G.alive_players(g)})
    if len(left) == 1:
        G.finish(g, left[0], "resigned", events)
        return events
    _after_resign(st, p, events)
    return events


def _after_resign(st: G.State, p: str, events: list[Event]) -> None:
    """Play goes on after ``p`` resigned and his blocks left the map (R104), several sides
    being left: a settlement of his overstack is void; a spell he cast is gone with its caster
    and he is asked for no Dispel (R86); in the Combat Phase the battle he fought in ends when
    one side is left there (R64, then the victor's regroups, R72), else it goes on (hits
    waiting on a tie among his blocks fall on the strongest left, R61; his ally leads the
    side, R107); the battles left and their attacker or defender are chosen again among the
    players still there (R51, R54)."""
    g = st.d
    if C.resigned(st, p, events):  # a commitment pause (R113) goes on without him
        return
    if g.get("settle") and g["settle"]["player"] == p:
        g["settle"] = None
    sp = g.get("mspell")
    if sp:
        if g["blocks"][sp["caster"]]["owner"] == p:
            g["mspell"] = None
        elif p in sp["asked"]:
            sp["asked"].remove(p)
            if not sp["asked"]:
                _mspell_over(g, sp, events)
    for h, c in g["contacts"].items():
        for role, sk in (("attacker", "aside"), ("defender", "dside")):
            if c[role] == p:
                c[role] = G.first_player_of(g, h, c[sk])
    if g["phase"] == "movement":
        if g["active"] == p and not g.get("mspell") and not g.get("settle"):
            G.end_movement_turn(st, events)
    elif g["phase"] == "build":
        _maybe_apply_builds(st, events)
    elif g["phase"] == "setup":
        _maybe_start(st, events)
    elif g["phase"] == "combat":
        _resign_in_battle(st, p, events)


def _resign_in_battle(st: G.State, p: str, events: list[Event]) -> None:
    """The Combat Phase part of :func:`_after_resign`."""
    g = st.d
    bt = g["battle"]
    if not bt:
        G.next_battle(st, events)
        return
    if bt["victor"]:
        if p in bt["regroup"]:
            bt["regroup"].remove(p)
        G.next_regrouper(st, events)
        return
    for role, sk in (("attacker", "aside"), ("defender", "dside")):
        if bt[role] == p:
            bt[role] = G.first_player_of(g, bt["hex"], bt[sk])
    alive = set(G.on_map(g, bt["hex"]))
    sp = bt.get("spell")
    if sp and sp["caster"] not in alive:
        bt["spell"] = None
    elif sp and p in sp["asked"]:
        sp["asked"].remove(p)
        if not sp["asked"]:
            _after_windows(st, events)
            return
    if bt.get("terror") and bt["terror"] not in alive:
        bt["terror"] = None
    bt["queue"] = [b for b in bt["queue"] if b in alive]
    if bt["hits"]:
        n = bt["hits"]["n"]
        bt["hits"] = None
        G.apply_hits(st, n, events)
    G.run_queue(st, events)


def v_reveal(st: G.State, a: Action) -> list[Event]:
    """``P2 reveal 3=troll:3:0:<salt>,...``: a block owner opens his blocks of the battle
    hex, or those the pause names (R114, R55; game.revealed): on a LAN each item opens the
    block's latest commitment (R113, ``commits.check_opening``)."""
    g = st.d
    faces = C.parse_reveal(a.words[0])
    g["seq"] += 1
    events: list[Event] = []
    rv = g.get("reveal") or {}
    kind = rv.get("for", "")
    named = list(rv.get("blocks") or [])
    G.revealed(st, a.actor, faces, events)
    if kind == "eliminate":
        _eliminated_revealed(st, named, events)
    elif kind == "retreat":
        _eliminated_revealed(st, named, events)
        G.advance(st, events)
    elif kind == "cast":
        _caster_revealed(g, events)
    elif kind == "dispel":
        _dispeller_revealed(st, events)
    return events


def reveal_answer(g: Dict, p: str) -> Action:
    """The reveal ``p``'s peer owes now (R114), from the blocks this state holds. Raises
    ``ValueError`` when none is owed or this state does not hold his blocks' values."""
    rv = g.get("reveal")
    if not rv or rv["owners"][:1] != [p]:
        raise ValueError(f"no reveal of {p}'s is awaited")
    if rv.get("for") == "commit":
        return C.commit_answer(g, p)
    items = [C.reveal_item(g, b) for b in G.reveal_blocks(g, p)]
    return Action(p, "reveal", (",".join(items),))


# ---- setup (R11, R12) ------------------------------------------------------------------------
def standard_deploy(g: Dict, p: str) -> Action:
    """The standard army (R12) as a custom deploy ``label=type@hex:strength,...``: the
    blocks placed in ``p``'s cities by the rules, labelled by a private permutation (R112):
    from ``p``'s own private randomness when his process holds it (a networked game, R113),
    else from the private stream of the game seed (a local game). Raises
    :class:`IllegalAction` when the army does not fit."""
    placed = _standard_placement(g, p)
    labels = list(range(1, len(placed) + 1))
    key = (g.get("private") or {}).get(p)
    rng = Rng.from_seed(f"wk-private-key {key} {p}") if key else G.private_rng(g, p)
    rng.shuffle(labels)
    items = sorted(zip(labels, placed, strict=True))
    return Action(p, "deploy", (",".join(f"{lab}={t}@{h}:{k}" for lab, (t, k, h) in items),))


def _standard_placement(g: Dict, p: str) -> list[tuple[str, int, str]]:
    """Where R12 puts the standard army's blocks: (type, strength, hex), in placing order."""
    army = ARMIES[g["armies"][p]]
    b = G.bd(g)
    cities = sorted((h for h in b.hexes.values() if h.city and h.map_id in g["owners"].get(p, [])),
                    key=lambda h: (-h.city, h.map_id, h.q, h.r))
    if not cities:
        raise IllegalAction(f"{p} owns no city to deploy in")
    blocks = sorted(STANDARD[g["armies"][p]], key=lambda x: (
        0 if x[0] == "castle" else 1 if army[x[0]].wizard else 2, -army[x[0]].cost, x[0], -x[1]))
    count = {h.name: [0, 0] for h in cities}
    placed: list[tuple[str, int, str]] = []
    i = -1
    for t, k in blocks:
        ut = army[t]
        for j in range(1, len(cities) + 1):
            c = cities[(i + j) % len(cities)]
            n = count[c.name]
            full = n[1] >= 1 if ut.wizard else n[0] >= g["opts"]["stacking"]
            if not full and (ut.ability != "aquatic" or c.port):
                i = (i + j) % len(cities)
                n[1 if ut.wizard else 0] += 1
                placed.append((t, k, c.name))
                break
        else:
            raise IllegalAction(f"{p}'s army does not fit in his cities (R11)")
    return placed


def v_deploy(st: G.State, a: Action) -> list[Event]:
    """``deploy standard`` (R12) or a custom army ``deploy label=type@hex:strength,...``
    (R9, R11); in a networked game the standard army is deployed in its full form
    (:func:`standard_deploy`, its labels the owner's own secret), and other players'
    deploys arrive as their public part ``label@hex,...`` (R116)."""
    g = st.d
    if g["phase"] != "setup":
        raise IllegalAction("deploy is for the setup")
    if G.net(g) and a.words == ("standard",):
        raise IllegalAction("on a LAN the standard army is deployed in full, its labels "
                            "chosen by your own process: choose the listed deploy")
    if a.words and "@" in a.words[0] and "=" not in a.words[0]:
        return _deploy_public(st, a)
    if a.words != ("standard",):
        return _deploy_custom(st, a)
    p = a.actor
    placed = _standard_placement(g, p)
    labels = list(range(1, len(placed) + 1))
    G.private_rng(g, p).shuffle(labels)
    for (t, k, h), lab in zip(placed, labels, strict=True):
        g["blocks"][G.bid(p, lab)] = G.new_block(p, lab, t, h, k)
        g["used"][p].append(lab)
        g["pool"][p][t] -= 1
    g["deployed"].append(p)
    events = [G.ev("deployed", player=p, blocks=sorted(labels))]
    _maybe_start(st, events)
    return events


def _deploy_custom(st: G.State, a: Action) -> list[Event]:
    """A custom army (R9, R11): labels 1..N each once (R112); types of the player's army
    within its block pool (Chaos units only with option ``chaos``); strengths 1 to the
    maximum (castles too: R93's one step is for the Build Phase); the cost at most the
    ``budget``; every block in a city of a map the player owns, every such city holding at
    least one; stacking (R47); Aquatics only in ports. Raises :class:`IllegalAction`."""
    g = st.d
    p = a.actor
    army = ARMIES[g["armies"][p]]
    b = G.bd(g)
    items: list[tuple[int, str, str, int]] = []
    for it in a.words[0].split(","):
        lab_s, _, rest = it.partition("=")
        t_s, _, rest = rest.partition("@")
        h_s, _, k_s = rest.partition(":")
        items.append((int(lab_s), t_s, h_s, int(k_s)))
    labels = [x[0] for x in items]
    if sorted(labels) != list(range(1, len(items) + 1)):
        raise IllegalAction(f"a deploy labels its {len(items)} blocks 1..{len(items)}, "
                            "each once (R112)")
    cities = sorted((h.name for h in b.hexes.values()
                     if h.city and h.map_id in g["owners"].get(p, [])), key=hex_key)
    if not cities:
        raise IllegalAction(f"{p} owns no city to deploy in")
    used: dict[str, int] = {}
    cost = 0
    units: dict[str, int] = {}
    wizards: dict[str, int] = {}
    for lab, t, h, k in items:
        if t not in army:
            raise IllegalAction(f"the {g['armies'][p]} have no unit {t!r}")
        ut = army[t]
        if ut.chaos and not g["opts"]["chaos"]:
            raise IllegalAction("Chaos units are not allowed in this game")
        used[t] = used.get(t, 0) + 1
        if used[t] > g["pool"][p].get(t, 0):
            raise IllegalAction(f"{p}'s pool holds {ut.pool} {t} block(s) (units.md §2)")
        if not 1 <= k <= ut.max:
            raise IllegalAction(f"block {lab}: a {t} has 1 to {ut.max} steps (R9)")
        if h not in cities:
            raise IllegalAction(f"block {lab}: {h} is not a city on a map {p} owns (R11)")
        if ut.ability == "aquatic" and not b.hexes[h].port:
            raise IllegalAction(f"block {lab}: Aquatics start only in port cities (R11)")
        cost += ut.cost * k
        bucket = wizards if ut.wizard else units
        bucket[h] = bucket.get(h, 0) + 1
    if cost > g["opts"]["budget"]:
        raise IllegalAction(f"the army costs {cost} GP; the budget is {g['opts']['budget']} (R9)")
    for h in cities:
        if not units.get(h) and not wizards.get(h):
            raise IllegalAction(f"every city of {p}'s maps gets at least one unit: {h} has "
                                "none (R11)")
        if units.get(h, 0) > g["opts"]["stacking"] or wizards.get(h, 0) > 1:
            raise IllegalAction(f"{h} would be overstacked (R47)")
    for lab, t, h, k in sorted(items):
        g["blocks"][G.bid(p, lab)] = G.new_block(p, lab, t, h, k)
        g["used"][p].append(lab)
        g["pool"][p][t] -= 1
    g["deployed"].append(p)
    events = [G.ev("deployed", player=p, blocks=sorted(labels))]
    _maybe_start(st, events)
    return events


def _deploy_public(st: G.State, a: Action) -> list[Event]:
    """The public part of another player's deploy (R116): labels 1..N each once, every
    block in a city of a map he owns, every such city holding one, no more blocks in a city
    than stacking and a wizard allow (R47), no more than his pool holds; the blocks are
    hidden (type and strength unknown until revealed, R111). Raises :class:`IllegalAction`."""
    g = st.d
    p = a.actor
    if not G.net(g):
        raise IllegalAction("the public part of a deploy is for a networked game")
    b = G.bd(g)
    items = [(int(lab), h) for lab, _, h in (i.partition("@") for i in a.words[0].split(","))]
    if sorted(x[0] for x in items) != list(range(1, len(items) + 1)):
        raise IllegalAction(f"a deploy labels its {len(items)} blocks 1..{len(items)}, "
                            "each once (R112)")
    if len(items) > sum(g["pool"][p].values()):
        raise IllegalAction(f"{p}'s pool holds fewer than {len(items)} blocks")
    cities = sorted((h.name for h in b.hexes.values()
                     if h.city and h.map_id in g["owners"].get(p, [])), key=hex_key)
    count: dict[str, int] = {}
    for lab, h in items:
        if h not in cities:
            raise IllegalAction(f"block {lab}: {h} is not a city on a map {p} owns (R11)")
        count[h] = count.get(h, 0) + 1
    for h in cities:
        if not count.get(h):
            raise IllegalAction(f"every city of {p}'s maps gets at least one unit: {h} has "
                                "none (R11)")
        if count[h] > g["opts"]["stacking"] + 1:
            raise IllegalAction(f"{h} would be overstacked (R47)")
    for lab, h in sorted(items):
        g["blocks"][G.bid(p, lab)] = G.new_block(p, lab, "", h, 0)
        g["used"][p].append(lab)
    g["deployed"].append(p)
    events = [G.ev("deployed", player=p, blocks=sorted(x[0] for x in items))]
    _maybe_start(st, events)
    return events


def _maybe_start(st: G.State, events: list[Event]) -> None:
    """Once every player deployed: on a LAN every owner commits to his blocks first
    (R113), then the first turn."""
    g = st.d
    if not to_move(g) and not g.get("reveal") and \
            not C.ask(g, G.alive_players(g), "start"):
        G.start_turn(st, events)


# ---- movement (R44-R50) -----------------------------------------------------------------
def _movement(g: Dict, a: Action) -> None:
    if g["phase"] != "movement":
        raise IllegalAction(f"{a.verb} is for the Movement Phase")
    if g.get("mspell"):
        raise IllegalAction("a spell waits for its Dispel answers")
    if g.get("settle"):
        raise IllegalAction("settle the overstack first: eliminate blocks (R47)")


def v_move(st: G.State, a: Action) -> list[Event]:
    """R45."""
    g = st.d
    _movement(g, a)
    ids = [_own(g, a.actor, x) for x in a.words[0].split(",")]
    path = a.words[1].split("-")
    start = g["blocks"][ids[0]]["at"]
    C.queue_move(g, a.actor, a, ids, start, path)  # R115: checked again once revealed
    return G.do_move(g, a.actor, ids, path)


def v_transport(st: G.State, a: Action) -> list[Event]:
    """Sea Transport (R50)."""
    g = st.d
    _movement(g, a)
    b = G.bd(g)
    p = a.actor
    s = G.side(g, p)
    ids = [_own(g, p, x) for x in a.words[0].split(",")]
    path = a.words[1].split("-")
    start = g["blocks"][ids[0]]["at"]
    if any(g["blocks"][x]["at"] != start for x in ids):
        raise IllegalAction("blocks transported together must start in one hex")
    for x in ids:
        ut = G.utype(g, x)
        if ut.ability in ("aquatic", "castle"):
            raise IllegalAction("Aquatics and castles may not use Sea Transport (R50)")
        if g["blocks"][x]["moved"]:
            raise IllegalAction(f"block {x} has moved this turn")
    C.queue_types(g, p, a, ids, ("aquatic", "castle"),
                  "Aquatics and castles may not use Sea Transport (R50)")  # R115
    why = G.free_to_leave(g, ids)
    if why or G.status(g, start, s) == "battle":
        raise IllegalAction(why or "no Sea Transport from a battle hex (R49, R50)")
    if not 1 <= len(path) <= 4:
        raise IllegalAction("Sea Transport is 1 to 4 hexes (R50)")
    for h in (start, path[-1]):
        if h not in b.hexes or not b.hexes[h].port or G.status(g, h, s) != "friendly":
            raise IllegalAction(f"Sea Transport starts and ends in a friendly port, not {h}")
    seq = [start, *path]
    for x, y in zip(seq, seq[1:], strict=False):
        if y not in b.hexes:
            raise IllegalAction(f"{y} is not on this board")
        sd = b.side_between(x, y)
        hy = b.hexes[y]
        if sd is None or sd.water not in ("all", "coast") or sd.shoal or sd.course:
            raise IllegalAction(f"Sea Transport cannot cross {x}-{y} (R50)")
        if hy.shoal or not (hy.water or hy.coastal) or G.status(g, y, s) in ("enemy", "battle"):
            raise IllegalAction(f"Sea Transport cannot enter {y} (R50)")
    events: list[Event] = []
    for x in ids:
        g["blocks"][x]["at"] = path[-1]
        g["blocks"][x]["moved"] = True
        events.append(G.ev("transported", block=x, path=path))
    if G.net(g):
        G.open_window(g, p, path[-1])
        return events
    units, wiz = G.overstacked(g, path[-1], s)
    if units or wiz:
        g["settle"] = {"player": p, "hex": path[-1]}
    return events


def v_eliminate(st: G.State, a: Action) -> list[Event]:
    """Settling an overstack (R47, R121)."""
    g = st.d
    if G.net(g):
        return _eliminate_net(g, a)
    stl = g.get("settle")
    if not stl:
        raise IllegalAction("nothing is overstacked")
    b = _own(g, a.actor, a.words[0])
    h = stl["hex"]
    if g["blocks"][b]["at"] != h:
        raise IllegalAction(f"block {a.words[0]} is not in the overstacked hex {h}")
    units, wiz = G.overstacked(g, h, G.side(g, a.actor))
    is_wiz = G.utype(g, b).wizard
    if (is_wiz and not wiz) or (not is_wiz and not units):
        raise IllegalAction("that elimination does not reduce an excess (R47)")
    events: list[Event] = []
    G.eliminate(g, b, "overstack", events)
    if G.overstacked(g, h, G.side(g, a.actor)) == (0, 0):
        g["settle"] = None
        if g["phase"] == "combat" and g["battle"] and g["battle"]["victor"]:
            G.next_regrouper(st, events)
    return events


def _eliminate_net(g: Dict, a: Action) -> list[Event]:
    """``eliminate`` on a LAN (R121): only from the player whose move, Sea Transport,
    movement-phase spell or regroup came right before (or another eliminate), only for his
    own blocks in the hex it entered. Where this process knows his side's blocks there (his
    own peer, the final audit) it must reduce an excess (R47). The block is then revealed by
    its owner's process (R114: a reveal stage, :func:`_eliminated_revealed`) and leaves the
    map. Source: rules.md R121, R47, R114."""
    w = g.get("window")
    if not w or w["player"] != a.actor:
        raise IllegalAction("eliminate only right after a move, Sea Transport, movement-phase "
                            "spell or regroup of yours that overstacks, or another eliminate "
                            "(R121)")
    h = w["hex"]
    b = _own(g, a.actor, a.words[0])
    if g["blocks"][b]["at"] != h:
        raise IllegalAction(f"block {a.words[0]} is not in {h}, the hex your last action "
                            "entered (R121)")
    ex = G.known_excess(g, a.actor)
    if ex is not None:
        if ex == (0, 0):
            raise IllegalAction("nothing is overstacked")
        is_wiz = G.utype(g, b).wizard
        if (is_wiz and not ex[1]) or (not is_wiz and not ex[0]):
            raise IllegalAction("that elimination does not reduce an excess (R47)")
    g["reveal"] = {"hex": h, "owners": [a.actor], "blocks": [b], "for": "eliminate"}
    return [G.ev("eliminating", block=b, hex=h)]


def _eliminated_revealed(st: G.State, blocks: list[str], events: list[Event]) -> None:
    """The blocks named by an ``eliminate`` or a retreat's ``eliminate=`` were revealed
    (R114, R121): every peer now knows them (``seen``) and they leave the map."""
    g = st.d
    for b in blocks:
        blk = g["blocks"][b]
        blk["seen"] = [blk["type"], blk["strength"]]
        G.eliminate(g, b, "overstack", events)


def v_end(st: G.State, a: Action) -> list[Event]:
    """End a movement turn (R44) or a regroup (R72)."""
    g = st.d
    events: list[Event] = []
    if g["phase"] == "movement":
        _movement(g, a)
        G.end_movement_turn(st, events)
        return events
    bt = g["battle"]
    if g["phase"] == "combat" and bt and bt["victor"]:
        bt["regroup"].pop(0)
        G.next_regrouper(st, events)
        return events
    raise IllegalAction("end is for a movement turn or a regroup")


# ---- combat (R54-R73) ---------------------------------------------------------------------
def v_battle(st: G.State, a: Action) -> list[Event]:
    """Choose the next battle (R54)."""
    g = st.d
    if g["phase"] != "combat" or g["battle"]:
        raise IllegalAction("no battle to choose now")
    p, mine = G.chooser(g)
    if a.words[0] not in mine:
        raise IllegalAction(f"{a.words[0]} is not one of {p}'s battles")
    events: list[Event] = []
    G.start_battle(st, a.words[0], events)
    return events


def _step_unit(g: Dict, a: Action, lab: str) -> str:
    bt = g["battle"]
    if g["phase"] != "combat" or not bt or bt["victor"] or bt["hits"] or bt.get("spell") \
            or bt.get("terror"):
        raise IllegalAction(f"{a.verb} is for a unit's combat turn")
    b = G.bid(a.actor, int(lab))
    if b not in G.step_units(g):
        step = "-".join(G.STEPS[bt["step"]])
        raise IllegalAction(f"block {lab} does not act in step {step} now")
    return b


def v_fire(st: G.State, a: Action) -> list[Event]:
    """R59, R57 (``fire`` without label)."""
    g = st.d
    bt = g["battle"]
    events: list[Event] = []
    if a.words:
        b = _step_unit(g, a, a.words[0])
        why = _fire_why(g, b)
        if why:
            raise IllegalAction(why)
        G.fire(st, b, events)
        G.advance(st, events)
        return events
    if g["phase"] != "combat" or not bt or bt["victor"] or bt["hits"] or bt.get("spell") \
            or bt.get("terror"):
        raise IllegalAction("fire is for a combat turn")
    mine = [b for b in G.step_units(g) if g["blocks"][b]["owner"] == a.actor and not _fire_why(g, b)]
    if not mine:
        raise IllegalAction("none of your units of this step may fire")
    bt["queue"] = sorted(mine, key=G.bkey)
    G.run_queue(st, events)
    return events


def _fire_why(g: Dict, b: str) -> str:
    if G.utype(g, b).wizard:
        return "a wizard does not fire: it casts, retreats or passes (R76)"
    if g["battle"]["round"] == 4 and G.bside(g, b) == "A":
        return "in the pursuit round the attacker must retreat (R65)"
    if b in g["battle"].get("entangled", []):
        return "entangled: it may not fire in this combat turn (it may retreat or pass)"
    return ""


def v_pass(st: G.State, a: Action) -> list[Event]:
    """A unit does nothing in its combat turn (R58)."""
    g = st.d
    if not a.words and g.get("mspell"):
        return _mspell_answer(st, a)
    if not a.words:
        sp = (g["battle"] or {}).get("spell")
        if not sp or sp["asked"][:1] != [a.actor]:
            raise IllegalAction("pass without a label declines a Dispel; none is asked of you")
        sp["asked"].pop(0)
        events0: list[Event] = []
        _after_windows(st, events0)
        return events0
    b = _step_unit(g, a, a.words[0])
    if g["battle"]["round"] == 4 and G.bside(g, b) == "A":
        raise IllegalAction("in the pursuit round the attacker must retreat (R65)")
    g["battle"]["acted"].append(b)
    _untangle(g, b)
    events: list[Event] = []
    G.advance(st, events)
    return events


def _untangle(g: Dict, b: str) -> None:
    """An entangled unit's combat turn is used up (units.md §4.1 entangle)."""
    if b in g["battle"].get("entangled", []):
        g["battle"]["entangled"].remove(b)


def v_retreat(st: G.State, a: Action) -> list[Event]:
    """R66-R70, R121."""
    g = st.d
    bt = g["battle"]
    forced = bool(bt and bt.get("terror"))
    if forced:
        b = G.bid(a.actor, int(a.words[0]))
        if b != bt["terror"]:
            raise IllegalAction(f"{bt['terror']} must retreat first (terror)")
    else:
        b = _step_unit(g, a, a.words[0])
    if bt["round"] == 1:
        raise IllegalAction("no unit may retreat in combat round 1 (R66)")
    path = a.words[1].split("-")
    if any(h not in G.bd(g).hexes for h in path):
        raise IllegalAction("that hex is not on this board")
    why = G.retreat_why(g, b, path)
    if why:
        raise IllegalAction(why)
    s = G.side(g, a.actor)
    dest = path[-1]
    elim = [G.bid(a.actor, int(x)) for x in a.words[2][10:].split(",")] if len(a.words) > 2 else []
    ut = G.utype(g, b)
    sd = G.bd(g).side_between(g["blocks"][b]["at"], path[0])
    assert sd is not None
    events: list[Event] = []
    if len(path) == 1 and G.side_limit(ut, sd):
        k = f"{path[0]}|{s}"
        bt["rcount"][k] = bt["rcount"].get(k, 0) + 1
    if forced:
        bt["terror"] = None
    else:
        bt["acted"].append(b)
    _untangle(g, b)
    g["blocks"][b]["at"] = dest
    events.append(G.ev("retreated", block=b, path=path))
    if G.net(g):
        return _retreat_net(st, a.actor, dest, elim, events)
    for x in elim:
        if x not in g["blocks"] or g["blocks"][x]["state"] != "map" or g["blocks"][x]["at"] != dest:
            raise IllegalAction(f"{x} is not yours in {dest}")
        units, wiz = G.overstacked(g, dest, s)
        w = G.utype(g, x).wizard
        if (w and not wiz) or (not w and not units):
            raise IllegalAction(f"eliminating {x} does not reduce an excess (R47)")
        G.eliminate(g, x, "overstack", events)
    if G.overstacked(g, dest, s) != (0, 0):
        raise IllegalAction(f"the retreat overstacks {dest}: name the blocks eliminated (R121)")
    G.advance(st, events)
    return events


def _retreat_net(st: G.State, p: str, dest: str, elim: list[str],
                 events: list[Event]) -> list[Event]:
    """A retreat's ``eliminate=`` on a LAN (R121): his own blocks in the hex it entered, each
    once; the public count (R121) by every peer; where this process knows his side's blocks
    there (his own peer, the final audit) each elimination must reduce an excess and the hex
    must fit afterwards (R47). The named blocks are then revealed by his process (R114) and
    eliminated, and play goes on (:func:`v_reveal`). Source: rules.md R121, R47, R114."""
    g = st.d
    s = G.side(g, p)
    if len(set(elim)) != len(elim):
        raise IllegalAction("a block is named twice in eliminate=")
    for x in elim:
        if x not in g["blocks"] or g["blocks"][x]["state"] != "map" or \
                g["blocks"][x]["at"] != dest:
            raise IllegalAction(f"{x} is not yours in {dest}")
    why = G.public_count_why(g, dest, s, len(elim))
    if why:
        raise IllegalAction(why)
    ours = [x for x in G.on_map(g, dest) if G.side(g, g["blocks"][x]["owner"]) == s]
    if all(g["blocks"][x]["type"] for x in ours):  # his own peer, the audit: R47 in full
        trial = G.copy_dict(g)
        for x in elim:
            units, wiz = G.overstacked(trial, dest, s)
            w = G.utype(trial, x).wizard
            if (w and not wiz) or (not w and not units):
                raise IllegalAction(f"eliminating {x} does not reduce an excess (R47)")
            G.eliminate(trial, x, "overstack", [])
        if G.overstacked(trial, dest, s) != (0, 0):
            raise IllegalAction(f"the retreat overstacks {dest}: name the blocks eliminated "
                                "(R121)")
    if elim:  # revealed as part of the retreat; play goes on after the reveal
        g["reveal"] = {"hex": dest, "owners": [p], "blocks": elim, "for": "retreat"}
        return events
    G.advance(st, events)
    return events


def v_hit(st: G.State, a: Action) -> list[Event]:
    """The owner picks which of the equal strongest takes the hit (R61)."""
    g = st.d
    bt = g["battle"]
    if not bt or not bt["hits"]:
        raise IllegalAction("no hit waits for a choice")
    w = a.words[0]
    b = w if "." in w else G.bid(a.actor, int(w))
    if b not in bt["hits"]["among"]:
        raise IllegalAction(f"{w} is not one of the equal strongest units")
    events: list[Event] = []
    n = bt["hits"]["n"] - 1
    bt["hits"] = None
    G.hit_one(g, b, events)
    G.apply_hits(st, n, events)
    if not bt["hits"]:
        G.run_queue(st, events)
    return events


def v_cast(st: G.State, a: Action) -> list[Event]:
    """Combat spells (R78-R83, units.md §4); Dispel windows and some spells are not built."""
    g = st.d
    slug, lab = a.words[0], a.words[1]
    army = g["armies"][a.actor]
    if slug in NOT_BUILT and NOT_BUILT[slug] == army:
        raise IllegalAction(f"the spell {slug} is not built yet in this engine")
    if g["phase"] == "movement":
        return _cast_in_movement(st, a)
    if slug not in SPELLS or SPELLS[slug][0] != army:
        raise IllegalAction(f"the {army}' wizards know no spell {slug!r}")
    if g["phase"] != "combat":
        raise IllegalAction("spells are cast in the Movement or Combat Phase")
    b = _step_unit(g, a, lab)
    if not G.utype(g, b).wizard:
        raise IllegalAction("only a wizard casts (R76)")
    _a, level, kind, n, fp = SPELLS[slug]
    bt = g["battle"]
    if bt["round"] == 4 and G.bside(g, b) == "A":
        raise IllegalAction("in the pursuit round the attacker must retreat (R65)")
    if g["blocks"][b]["strength"] <= level:
        raise IllegalAction(f"{slug} costs {level} step(s): the wizard would be left at 0 (R78)")
    tgt = [w for w in a.words[2:] if w.startswith("@")]
    kws = [w for w in a.words[2:] if not w.startswith("@")]
    if kws:
        raise IllegalAction(f"{slug} takes no {kws[0].split('=')[0]}=")
    mine = G.bside(g, b)
    foe = "D" if mine == "A" else "A"
    target = ""
    if b in bt.get("entangled", []):
        raise IllegalAction("the wizard is entangled: it may not cast in this combat turn")
    if kind == "terror" and bt["round"] == 1:
        raise IllegalAction("terror is cast from round 2 on: no retreat in round 1 (R66)")
    if kind in ("target", "heal", "entangle", "terror"):
        if not tgt or "," in tgt[0]:
            raise IllegalAction(f"{slug} names one target: @...")
        t = tgt[0][1:]
        target = t if "." in t else G.bid(a.actor, int(t))
        units = G.side_units(g, mine if kind == "heal" else foe)
        if target not in units:
            raise IllegalAction(f"{t} is not a legal target of {slug} in this battle (R83)")
        if kind == "terror" and G.utype(g, target).ability == "castle":
            raise IllegalAction("no spell may move a castle (R84)")
        if kind == "heal":
            ut = G.utype(g, target)
            if ut.wizard or ut.ability == "castle" or g["blocks"][target]["strength"] >= ut.max:
                raise IllegalAction("heal: a unit that is not a wizard or castle, below its maximum")
    elif tgt:
        raise IllegalAction(f"{slug} takes no target")
    events: list[Event] = []
    g["blocks"][b]["strength"] -= level
    G.remember(g, b)  # R111: the caster's strength after paying is what everyone saw
    bt["acted"].append(b)
    events.append(G.ev("spell_declared", block=b, spell=slug, target=target))
    events.append(G.ev("steps_paid", block=b, steps=level))
    bt["spell"] = {"caster": b, "slug": slug, "target": target, "asked": _askers(g, a.actor)}
    _after_windows(st, events)
    return events


def _askers(g: Dict, caster: str) -> list[str]:
    """The players asked whether to Dispel a battle spell (R86): those of the other side with
    a wizard of strength 2 or more in the battle, in turn order starting after the caster."""
    if not g["opts"]["dispel"]:
        return []
    order = g["order"]
    i = order.index(caster)
    out = []
    for p in order[i + 1:] + order[:i]:
        if G.side(g, p) == G.side(g, caster) or p in g["out"]:
            continue
        if any(g["blocks"][x]["owner"] == p and G.utype(g, x).wizard
               and g["blocks"][x]["strength"] >= 2 for x in G.on_map(g, g["battle"]["hex"])):
            out.append(p)
    return out


def _after_windows(st: G.State, events: list[Event]) -> None:
    """When nobody is left to ask, the spell takes effect (R81 step 6) and play goes on."""
    g = st.d
    bt = g["battle"]
    sp = bt["spell"]
    if sp["asked"]:
        return
    bt["spell"] = None
    if not sp.get("dispelled"):
        _effect(st, sp, events)
    G.advance(st, events)


def _effect(st: G.State, sp: Dict, events: list[Event]) -> None:
    g = st.d
    bt = g["battle"]
    b, target = sp["caster"], sp["target"]
    _a, _level, kind, n, fp = SPELLS[sp["slug"]]
    foe = "D" if G.bside(g, b) == "A" else "A"
    if kind == "target":
        dice = G.roll(st, n)
        hits = sum(1 for d in dice if d <= fp)
        events.append(G.ev("fired", block=b, dice=dice, hits=hits))
        for _ in range(hits):
            if g["blocks"][target]["state"] != "map":
                break
            G.hit_one(g, target, events)
    elif kind == "area":
        dice = G.roll(st, n)
        hits = sum(1 for d in dice if d <= fp)
        events.append(G.ev("fired", block=b, dice=dice, hits=hits))
        bt["hits_on"] = foe
        G.apply_hits(st, hits, events)
    elif kind == "all":
        for x in sorted(G.side_units(g, foe), key=G.bkey):
            G.hit_one(g, x, events)
    elif kind == "entangle":
        if g["blocks"][target]["state"] == "map" and target not in bt.setdefault("entangled", []):
            bt["entangled"].append(target)
            events.append(G.ev("entangled", block=target))
    elif kind == "terror":
        if g["blocks"][target]["state"] == "map":
            if G.has_retreat(g, target):
                bt["terror"] = target
                events.append(G.ev("terror", block=target))
            else:
                G.eliminate(g, target, "no retreat", events)
    elif kind == "bloodlust":
        mine = G.bside(g, b)
        if mine not in bt.setdefault("bloodlust", []):
            bt["bloodlust"].append(mine)
        events.append(G.ev("bloodlust", side=mine))
    elif g["blocks"][target]["state"] == "map":
        g["blocks"][target]["strength"] += 1
        G.remember(g, target)
        events.append(G.ev("healed", block=target))


def _cast_in_movement(st: G.State, a: Action) -> list[Event]:
    """A movement-phase spell (R79, R81, units.md §4): heal, forced-march, elven-gate.

    In a networked game the checks that need the caster's or a target's hidden type or
    strength are made here only by a peer that knows them (the caster's own, R110); the
    caster is then revealed (R81 step 2: a reveal pause its owner's process answers,
    R114) and :func:`_caster_revealed` checks and pays. Checks on a hidden target's type
    or strength are the owner's and the final audit's (R115)."""
    g = st.d
    _movement(g, a)
    slug, army = a.words[0], g["armies"][a.actor]
    if slug not in MOVE_SPELLS or MOVE_SPELLS[slug][0] != army:
        raise IllegalAction(f"{slug} is not a movement-phase spell of the {army} built here")
    level = MOVE_SPELLS[slug][1]
    b = _own(g, a.actor, a.words[1])
    blk = g["blocks"][b]
    known = bool(blk["type"])  # False: a networked peer that does not hold the caster
    if known and not G.utype(g, b).wizard:
        raise IllegalAction("only a wizard casts (R76)")
    if blk["moved"] or blk["cast"]:
        raise IllegalAction("the wizard has moved or cast this turn (R79)")
    s = G.side(g, a.actor)
    if G.status(g, blk["at"], s) == "battle":
        raise IllegalAction("a wizard in a battle hex casts only in that battle (R79)")
    if blk["strength"] and blk["strength"] <= level:
        raise IllegalAction(f"{slug} costs {level} step(s): the wizard would be left at 0 (R78)")
    tgt = [w for w in a.words[2:] if w.startswith("@")]
    kws = [w for w in a.words[2:] if not w.startswith("@")]
    gate = slug == "elven-gate"
    if len(tgt) != 1 or (not gate and kws):
        raise IllegalAction(f"{slug} names its target(s) with @ and takes no key")
    if gate and (len(kws) != 1 or not kws[0].startswith("to=")):
        raise IllegalAction("elven-gate names its target and its destination: @6 to=1f3")
    names = tgt[0][1:].split(",")
    targets = [t if "." in t else G.bid(a.actor, int(t)) for t in names]
    dest = kws[0][3:] if gate else ""
    for t in targets:
        x = g["blocks"].get(t)
        if not x or x["state"] != "map" or x["at"] != blk["at"] or G.side(g, x["owner"]) != s:
            raise IllegalAction(f"{t} is not a friendly unit in the caster's hex (R83)")
        ut = G.utype(g, t)  # HIDDEN where this peer does not know it: its checks pass (R115)
        if slug == "heal" and (ut.wizard or ut.ability == "castle" or
                               (x["strength"] and x["strength"] >= ut.max)):
            raise IllegalAction("heal: a unit that is not a wizard or castle, below its maximum")
        if slug == "forced-march" and (t == b or x["moved"] or ut.ability in
                                       ("castle", "flyer", "aquatic")):
            raise IllegalAction("forced-march: ground units other than the caster that have "
                                "not moved, not castles (R84)")
        if gate:
            if ut.ability == "castle":
                raise IllegalAction("no spell may move a castle (R84)")
            if x["moved"] and t != b:
                raise IllegalAction(f"{t} has moved this turn: elven-gate is its move")
            why = G.free_to_leave(g, [t])
            if why:
                raise IllegalAction(why)
            why = gate_why(g, t, blk["at"], dest)
            if why:
                raise IllegalAction(why)
    if slug in ("heal", "elven-gate") and len(targets) != 1:
        raise IllegalAction(f"{slug} has one target")
    forbid, rule = {"heal": (("wizard", "castle"), "heal is for a unit that is not a wizard "
                                                   "or castle (R83, units.md §4)"),
                    "forced-march": (("castle", "flyer", "aquatic"), "forced-march is for "
                                     "ground units, not castles (R84)"),
                    "elven-gate": (("castle",), "no spell may move a castle (R84)")}[slug]
    C.queue_types(g, a.actor, a, targets, forbid, rule)  # R115: at the targets' reveal
    if slug == "forced-march" and len(targets) > 2:
        raise IllegalAction("forced-march has one or two targets")
    blk["moved"], blk["cast"] = True, True
    events = [G.ev("spell_declared", block=b, spell=slug, target=",".join(targets))]
    order = g["order"]
    i = order.index(a.actor)
    asked = [p for p in order[i + 1:] + order[:i] if G.side(g, p) != s and p not in g["out"]]
    sp = {"caster": b, "slug": slug, "targets": targets, "asked": asked, "level": level}
    if dest:
        sp["to"] = dest
    if G.net(g):  # R81 step 2: the caster is revealed before the check and the payment
        sp["reveal"] = True
        g["mspell"] = sp
        g["reveal"] = {"hex": blk["at"], "owners": [a.actor], "blocks": [b], "for": "cast"}
        return events
    blk["shown"] = True  # R81 step 2 locally too: shown while the spell lasts, then ``seen``
    _pay_and_ask(g, sp, events)
    return events


def _pay_and_ask(g: Dict, sp: Dict, events: list[Event]) -> None:
    """R81 steps 4-6 of a movement-phase spell: the caster pays, the Dispel windows open
    (R86), or the spell takes effect at once."""
    b, level = sp["caster"], sp["level"]
    g["blocks"][b]["strength"] -= level
    events.append(G.ev("steps_paid", block=b, steps=level))
    sp.pop("reveal", None)
    g["mspell"] = sp if g["opts"]["dispel"] and sp["asked"] else None
    if not g["mspell"]:
        _mspell_over(g, sp, events)


def _mspell_over(g: Dict, sp: Dict, events: list[Event]) -> None:
    """A movement-phase spell's windows are closed: its effect unless dispelled, and its
    caster stands up again (R111: its values stay ``seen``)."""
    g["mspell"] = None
    if not sp.get("dispelled"):
        _move_effect(g, sp, events)
    G.unshow(g, sp["caster"])


def _caster_revealed(g: Dict, events: list[Event]) -> None:
    """A networked game: the caster of the movement-phase spell declared was revealed (R81
    step 2); every peer now checks that it is a wizard that can pay (R76, R78), then it
    pays and the windows open (:func:`_pay_and_ask`). Raises :class:`IllegalAction`."""
    sp = g["mspell"]
    b = sp["caster"]
    blk = g["blocks"][b]
    if not G.utype(g, b).wizard:
        raise IllegalAction(f"only a wizard casts (R76): block {blk['label']} is a "
                            f"{blk['type']}")
    if blk["strength"] <= sp["level"]:
        raise IllegalAction(f"{sp['slug']} costs {sp['level']} step(s): the wizard would be "
                            "left at 0 (R78)")
    _pay_and_ask(g, sp, events)


def gate_why(g: Dict, t: str, at: str, dest: str) -> str:
    """Why elven-gate may not send block ``t`` from ``at`` to ``dest`` (``""``: it may):
    at most 4 hexes away (R20), friendly or neutral to it, not a battle hex, a hex it could
    occupy: land for ground units (a mountain hex only for Mountain Folk or where a road
    enters), water-capable for Aquatics, not sea for Flyers. Source: units.md §4.1."""
    b = G.bd(g)
    hx = b.hexes.get(dest)
    if hx is None:
        return f"{dest} is not on this board"
    if dest == at or dest not in b.within(at, GATE_RANGE):
        return f"elven-gate sends a unit 1 to {GATE_RANGE} hexes away, not to {dest}"
    s = G.side(g, g["blocks"][t]["owner"])
    if G.status(g, dest, s) not in ("friendly", "neutral"):
        return f"{dest} is not friendly or neutral: elven-gate cannot attack"
    ab = G.utype(g, t).ability
    if ab == "hidden":  # a networked peer that does not know the type: some type could (R115)
        return ""
    if ab == "flyer":
        return f"a Flyer may not be sent to the sea hex {dest}" if hx.water == "sea" else ""
    if ab == "aquatic":
        ok = hx.water or hx.coastal or hx.rivers
        return "" if ok else f"an Aquatic cannot occupy the land hex {dest}"
    if hx.water:
        return f"a ground unit cannot occupy the {hx.water} hex {dest}"
    road = any(sd is not None and sd.road for sd in
               (b.side_between(dest, n) for n in b.neighbours(dest)))
    if hx.land == "mountain" and ab != "mountain-folk" and not road:
        return f"the mountain hex {dest} is impassable"
    return ""


def _move_effect(g: Dict, sp: Dict, events: list[Event]) -> None:
    if sp["slug"] == "elven-gate":
        t, dest = sp["targets"][0], sp["to"]
        x = g["blocks"][t]
        if x["state"] != "map" or (not G.net(g) and gate_why(g, t, x["at"], dest)):
            return  # (on a LAN checked at the declaration: a recheck could branch, R110)
        frm = x["at"]
        x["at"], x["moved"] = dest, True
        events.append(G.ev("gated", block=t, path=[frm, dest]))
        p = x["owner"]
        if G.net(g):
            G.open_window(g, p, dest)
        elif G.overstacked(g, dest, G.side(g, p)) != (0, 0):
            g["settle"] = {"player": p, "hex": dest}
            events.append(G.ev("overstack", hex=dest, player=p))
        return
    for t in sp["targets"]:
        x = g["blocks"][t]
        if x["state"] != "map":
            continue
        if sp["slug"] == "heal":
            if x["strength"]:  # a networked peer that does not know it: still unknown
                x["strength"] += 1
            events.append(G.ev("healed", block=t))
            C.ask(g, [x["owner"]], "", [t])  # R113: a new commitment of its new strength
        else:
            x["march"] = True
            events.append(G.ev("forced_march", block=t))


def _mspell_answer(st: G.State, a: Action) -> list[Event]:
    """A Dispel window of a movement-phase spell (R86): every hostile player in turn order;
    a dispeller must be in the caster's hex or next to it with strength 2 or more. In a
    networked game a dispeller this peer does not hold is checked once revealed (R86: a
    dispelling wizard is revealed; :func:`_dispeller_revealed`)."""
    g = st.d
    sp = g["mspell"]
    events: list[Event] = []
    if sp.get("reveal"):
        raise IllegalAction("the caster's reveal is awaited (R81)")
    if a.verb == "dispel":
        w = _own(g, a.actor, a.words[0])
        at = g["blocks"][sp["caster"]]["at"]
        wb = g["blocks"][w]
        # a type or strength this peer does not know ("", 0) is checked at the reveal
        if (wb["type"] and not G.utype(g, w).wizard) or 0 < wb["strength"] < 2 or \
                (wb["at"] != at and wb["at"] not in G.bd(g).neighbours(at)):
            raise IllegalAction("Dispel needs your wizard of strength 2+ in or next to the "
                                "caster's hex (R86)")
        if G.net(g):
            sp["dispeller"] = w
            g["reveal"] = {"hex": wb["at"], "owners": [a.actor], "blocks": [w],
                           "for": "dispel"}
            return events
        wb["shown"] = True  # R86: a dispelling wizard is revealed, locally as on a LAN
        _dispel_roll(st, w, events)
        return events
    if sp["asked"]:
        sp["asked"].pop(0)
    if not sp["asked"]:
        _mspell_over(g, sp, events)
    return events


def _dispel_roll(st: G.State, w: str, events: list[Event]) -> None:
    """R85 in the Movement Phase: dispeller ``w`` pays 1 step and rolls 1d6; the roll minus
    the spell's level is 3 or more: the spell is dispelled and the windows end; else the
    next player is asked (R86)."""
    g = st.d
    sp = g["mspell"]
    wb = g["blocks"][w]
    wb["strength"] -= 1
    die = G.roll(st, 1)[0]
    ok = die - sp["level"] >= 3
    events.append(G.ev("dispel", block=w, roll=die, success=int(ok)))
    sp.pop("dispeller", None)
    G.unshow(g, w)
    if ok:
        sp["asked"], sp["dispelled"] = [], True
    if sp["asked"]:
        sp["asked"].pop(0)
    if not sp["asked"]:
        _mspell_over(g, sp, events)


def _dispeller_revealed(st: G.State, events: list[Event]) -> None:
    """A networked game: the wizard named by a Movement Phase Dispel was revealed (R86);
    every peer checks it is a wizard of strength 2+ (R78, R85), then it pays and rolls
    (:func:`_dispel_roll`). Raises :class:`IllegalAction`."""
    g = st.d
    w = g["mspell"]["dispeller"]
    wb = g["blocks"][w]
    if not G.utype(g, w).wizard or wb["strength"] < 2:
        raise IllegalAction(f"Dispel needs a wizard of strength 2+ (R85): block {wb['label']} "
                            f"is a {wb['type']} of strength {wb['strength']}")
    _dispel_roll(st, w, events)


def v_dispel(st: G.State, a: Action) -> list[Event]:
    """Dispel (R85): the wizard pays 1 step and rolls 1d6; the roll minus the spell's level
    is 3 or more: the spell has no effect. Source: seed §2.22 [1] DISPEL."""
    g = st.d
    if g.get("mspell"):
        return _mspell_answer(st, a)
    bt = g["battle"]
    sp = (bt or {}).get("spell")
    if not sp or sp["asked"][:1] != [a.actor]:
        raise IllegalAction("no spell waits for your Dispel answer")
    w = _own(g, a.actor, a.words[0])
    if not G.utype(g, w).wizard or g["blocks"][w]["at"] != bt["hex"] or \
            g["blocks"][w]["strength"] < 2:
        raise IllegalAction("Dispel needs your wizard of strength 2 or more in this battle (R78)")
    events: list[Event] = []
    g["blocks"][w]["strength"] -= 1
    G.remember(g, w)
    level = SPELLS[sp["slug"]][1]
    die = G.roll(st, 1)[0]
    ok = die - level >= 3
    events.append(G.ev("dispel", block=w, roll=die, success=int(ok)))
    sp["asked"].pop(0)
    if ok:
        sp["dispelled"], sp["asked"] = True, []
    _after_windows(st, events)
    return events


def v_regroup(st: G.State, a: Action) -> list[Event]:
    """R72."""
    g = st.d
    bt = g["battle"]
    if g["phase"] != "combat" or not bt or not bt["victor"]:
        raise IllegalAction("regroup is for the victor after a battle")
    b = _own(g, a.actor, a.words[0])
    path = a.words[1].split("-")
    h = bt["hex"]
    if b in bt["regrouped"]:
        raise IllegalAction("a unit regroups once (R72)")
    if G.utype(g, b).ability == "castle":
        raise IllegalAction("a castle never regroups (R43)")
    s = G.side(g, a.actor)
    at = g["blocks"][b]["at"]
    if any(x not in G.bd(g).hexes for x in path):
        raise IllegalAction("that hex is not on this board")
    if at == h:
        why = G.retreat_why(g, b, path, limits=False)
        if why:
            raise IllegalAction(why)
    else:
        if path != [h] or h not in G.bd(g).neighbours(at) or G.status(g, at, s) == "battle":
            raise IllegalAction(f"regroup in: from a hex next to {h} that is not a battle hex")
        why = G.crossing(G.bd(g), G.utype(g, b), at, h) or G.end_ok(g, G.utype(g, b), h, s)
        if why or (G.utype(g, b).ability == "flyer" and G.bd(g).hexes[h].water):
            raise IllegalAction(why or "a Flyer never regroups into a sea hex (R72)")
    g["blocks"][b]["at"] = path[-1]
    bt["regrouped"].append(b)
    events = [G.ev("regrouped", block=b, path=path)]
    if G.net(g):
        G.open_window(g, a.actor, path[-1])
    elif G.overstacked(g, path[-1], s) != (0, 0):
        g["settle"] = {"player": a.actor, "hex": path[-1]}
    return events


# ---- build (R89-R100) ------------------------------------------------------------------------
def v_build(st: G.State, a: Action) -> list[Event]:
    """Submit build orders (checked now against the start of the phase, applied when all are
    in, in seat order: R89, R100)."""
    g = st.d
    if g["phase"] != "build":
        raise IllegalAction("build is for the Build Phase")
    G.check_build(g, a.actor, a.words)
    g["orders"][a.actor] = list(a.words)
    events: list[Event] = []
    _maybe_apply_builds(st, events)
    return events


def _maybe_apply_builds(st: G.State, events: list[Event]) -> None:
    g = st.d
    if to_move(g) or g.get("reveal"):
        return
    plans = {p: G.check_build(g, p, tuple(g["orders"][p])) for p in G.alive_players(g)}
    castles: list[str] = []  # hexes outside an original city that got a new castle
    done: list[str] = []
    for p in G.alive_players(g):
        if any(G.side(g, q) == G.side(g, p) for q in done) and not plans[p].get("public"):
            _clashes(g, p, plans[p], castles, events)
        if plans[p].get("public"):
            G.apply_build(g, p, plans[p], events)
            done.append(p)
            continue
        own = g["owners"].get(p, [])
        castles += [h for h in plans[p]["castles"] if G.bd(g).hexes[h].map_id not in own
                    or not G.bd(g).hexes[h].city]
        G.apply_build(g, p, plans[p], events)
        done.append(p)
    if not C.ask(g, G.alive_players(g), "end_turn"):  # R113: fresh commitments first
        G.end_turn(st, events)


def _clashes(g: Dict, p: str, plan: Dict, castles: list[str], events: list[Event]) -> None:
    """Allies' orders applied in seat order (R98): where ``p``'s plan clashes with what an
    ally of an earlier seat has just built, ``p`` loses the clashing items, last listed
    first, with no refund: added steps beyond a unit's maximum, a new castle in a hex outside
    an original city that already got one this phase, new blocks in a hex that would be
    overstacked (R47). Changes ``plan`` in place; one ``build_lost`` event names the items."""
    b = G.bd(g)
    s = G.side(g, p)
    lost: list[str] = []
    steps = []
    for x, k in plan["steps"]:
        room = G.utype(g, x).max - g["blocks"][x]["strength"]
        if room < k:
            lost.append(f"step={x}:{k - max(0, room)}")
        if room > 0:
            steps.append((x, min(k, room)))
    plan["steps"] = steps
    own = g["owners"].get(p, [])
    kept = []
    for h in plan["castles"]:
        if (b.hexes[h].map_id not in own or not b.hexes[h].city) and h in castles:
            lost.append(f"castle={h}")
        else:
            kept.append(h)
    plan["castles"] = kept
    army = ARMIES[g["armies"][p]]
    for h in sorted({h for _t, h, _k in plan["new"]} | set(plan["castles"]), key=hex_key):
        here = [x for x in G.on_map(g, h) if G.side(g, g["blocks"][x]["owner"]) == s
                and x not in plan["disband"]]
        units = sum(1 for x in here if not G.utype(g, x).wizard)
        wiz = len(here) - units
        while True:
            news = [i for i, (t, hh, _k) in enumerate(plan["new"]) if hh == h]
            adds = sum(1 for i in news if not army[plan["new"][i][0]].wizard) + \
                plan["castles"].count(h)
            wadds = sum(1 for i in news if army[plan["new"][i][0]].wizard)
            if wadds and wiz + wadds > 1:
                i = max(i for i in news if army[plan["new"][i][0]].wizard)
                t, hh, k = plan["new"].pop(i)
                lost.append(f"new={t}@{hh}:{k}")
            elif not adds or units + adds <= g["opts"]["stacking"]:
                break
            elif h in plan["castles"]:
                plan["castles"].reverse()
                plan["castles"].remove(h)
                plan["castles"].reverse()
                lost.append(f"castle={h}")
            else:
                i = max(i for i in news if not army[plan["new"][i][0]].wizard)
                t, hh, k = plan["new"].pop(i)
                lost.append(f"new={t}@{hh}:{k}")
    if lost:
        events.append(G.ev("build_lost", player=p, items=lost))


VERB_FNS = {"deploy": v_deploy, "move": v_move, "transport": v_transport,
            "eliminate": v_eliminate, "end": v_end, "battle": v_battle, "fire": v_fire,
            "pass": v_pass, "retreat": v_retreat, "hit": v_hit, "cast": v_cast,
            "regroup": v_regroup, "build": v_build, "dispel": v_dispel}


# ---- listing (R120) ----------------------------------------------------------------------------
def candidates(g: Dict, p: str, wide: bool = False) -> list[Action]:
    """Plausible actions of ``p`` now (unchecked); ``wide`` adds more (the conformance probe)."""
    out: list[Action] = []
    ph = g["phase"]
    b = G.bd(g)
    mine = [x for x in sorted(g["blocks"], key=G.bkey)
            if g["blocks"][x]["owner"] == p and g["blocks"][x]["state"] == "map"]
    if ph == "setup":
        if G.net(g):
            try:
                out.append(standard_deploy(g, p))
            except IllegalAction:
                pass
        else:
            out.append(Action(p, "deploy", ("standard",)))
    elif ph == "build":
        out.append(Action(p, "build"))
        if wide or True:
            for x in mine:
                out.append(Action(p, "build", (f"step={g['blocks'][x]['label']}:1",)))
                out.append(Action(p, "build", (f"disband={g['blocks'][x]['label']}",)))
    elif g.get("mspell"):
        out.append(Action(p, "pass"))
        out += [Action(p, "dispel", (str(g["blocks"][x]["label"]),)) for x in mine]
    elif g.get("settle") or must_eliminate(g, p):
        out += [Action(p, "eliminate", (str(g["blocks"][x]["label"]),)) for x in mine]
    elif ph == "movement":
        out.append(Action(p, "end"))
        for x in mine:
            if not G.utype(g, x).wizard:
                continue
            lab = str(g["blocks"][x]["label"])
            here = [str(g["blocks"][y]["label"]) for y in mine
                    if g["blocks"][y]["at"] == g["blocks"][x]["at"] and y != x]
            for slug, (army, _lv) in MOVE_SPELLS.items():
                if army != g["armies"][p] or slug == "elven-gate":  # a family (R120)
                    continue
                sets = [[t] for t in here]
                if slug == "forced-march":
                    sets += [list(c) for c in itertools.combinations(here, 2)]
                for c in sets:
                    c = sorted(c, key=int)
                    out.append(Action(p, "cast", (slug, lab, "@" + ",".join(c))))
        for x in mine:
            ut = G.utype(g, x)
            if ut.ability == "castle" or g["blocks"][x]["moved"]:
                continue
            lab = str(g["blocks"][x]["label"])
            paths = _paths(b, g["blocks"][x]["at"], ut.move + 1) if wide else move_paths(g, x)
            for path in paths:
                out.append(Action(p, "move", (lab, "-".join(path))))
        if wide:
            out += expand(g, p, "move-group")[:40]
    elif ph == "combat":
        bt = g["battle"]
        if not bt:
            out += [Action(p, "battle", (h,)) for h in G.battles_left(g)]
        elif bt["victor"]:
            out.append(Action(p, "end"))
            h = bt["hex"]
            for x in mine:
                lab = str(g["blocks"][x]["label"])
                at = g["blocks"][x]["at"]
                if at == h:
                    out += [Action(p, "regroup", (lab, n)) for n in b.neighbours(h)]
                elif h in b.neighbours(at):
                    out.append(Action(p, "regroup", (lab, h)))
        elif bt.get("terror"):
            t = bt["terror"]
            out += _retreat_candidates(g, b, t)
        elif bt.get("spell"):
            out.append(Action(p, "pass"))
            out += [Action(p, "dispel", (str(g["blocks"][x]["label"]),)) for x in mine]
        elif bt["hits"]:
            for x in bt["hits"]["among"]:
                w = str(g["blocks"][x]["label"]) if g["blocks"][x]["owner"] == p else x
                out.append(Action(p, "hit", (w,)))
        else:
            out.append(Action(p, "fire"))
            foes = [x for x in G.on_map(g, bt["hex"]) if G.side(g, g["blocks"][x]["owner"]) != G.side(g, p)]
            friends = [x for x in G.on_map(g, bt["hex"]) if x not in foes]
            for x in mine:
                if g["blocks"][x]["at"] != bt["hex"]:
                    continue
                lab = str(g["blocks"][x]["label"])
                out += [Action(p, "fire", (lab,)), Action(p, "pass", (lab,))]
                out += _retreat_candidates(g, b, x)
                if G.utype(g, x).wizard:
                    for s, (army, _l, kind, _n, _f) in SPELLS.items():
                        if army != g["armies"][p]:
                            continue
                        if kind in ("target", "entangle", "terror"):
                            out += [Action(p, "cast", (s, lab, "@" + t)) for t in foes]
                        elif kind == "heal":
                            out += [Action(p, "cast", (s, lab, "@" + str(g["blocks"][t]["label"])))
                                    for t in friends if g["blocks"][t]["owner"] == p]
                        else:
                            out.append(Action(p, "cast", (s, lab)))
    return out


def move_paths(g: Dict, x: str) -> list[list[str]]:
    """Every path block ``x`` might move along now, found by a pruned walk: each step
    passable (R24-R32), no step after an enemy or battle hex or a forced stop (R23, R41;
    Flyers fly over), no longer than the movement allowance with the road bonus while every
    step so far is a road (R29) and forced-march (units.md §4.2). A superset of the legal
    paths: :func:`legal_actions` checks each one (R45)."""
    b = G.bd(g)
    blk = g["blocks"][x]
    ut = G.utype(g, x)
    s = G.side(g, blk["owner"])
    extra = 1 if blk.get("march") else 0
    ground = ut.ability not in ("flyer", "aquatic")
    out: list[list[str]] = []

    def walk(path: list[str], at: str, road: bool, all_road: bool) -> None:
        # all_road: a hex passed so far stops a move that is not a road move (R23, R29),
        # so only all-road continuations remain legal
        for n in b.neighbours(at):
            if G.crossing(b, ut, at, n):
                continue
            sd = b.side_between(at, n)
            assert sd is not None
            r2 = road and ground and sd.road
            if (all_road and not r2) or len(path) + 1 > ut.move + (1 if r2 else 0) + extra:
                continue
            path.append(n)
            out.append(list(path))
            if ut.ability == "flyer" or (G.status(g, n, s) not in ("enemy", "battle")
                                         and not G.must_stop(b, ut, sd, n, r2)):
                walk(path, n, r2, all_road or (r2 and G.must_stop(b, ut, sd, n, False)))
            path.pop()

    walk([], blk["at"], True, False)
    return out


#: The action families (R120: too many to list at every step; ``Ruleset.expand``).
FAMILIES = ("deploy-custom", "move-group", "transport", "cast:elven-gate", "build-items", "build-pairs",
            "build-pairs-removing", "build-triples")
#: At most this many members of ``build-triples`` (spread evenly over the orders within the
#: treasury, in the order of :func:`_build_items`): a bounded family, every member accepted.
TRIPLES_MAX = 200


def families(g: Dict, p: str) -> list[str]:
    """The families that may have members for ``p`` now, in :data:`FAMILIES` order."""
    if p not in to_move(g):
        return []
    if g["phase"] == "setup":
        return ["deploy-custom"]
    if g["phase"] == "build":
        return ["build-items", "build-pairs", "build-pairs-removing", "build-triples"]
    if g["phase"] == "movement" and not g.get("mspell") and not g.get("settle"):
        out = ["move-group", "transport"]
        if g["armies"][p] == "elves":
            out.append("cast:elven-gate")
        return out
    return []


def expand(g: Dict, p: str, family: str) -> list[Action]:
    """The members of ``family`` for ``p`` now, each accepted, sorted by text, none listed
    by :func:`legal_actions` (``[]`` for a family not open now):

    - ``move-group``: moves of two or more blocks from one hex along one path (R45);
    - ``cast:elven-gate``: every elven-gate (units.md §4.1) of an Elf wizard;
    - ``build-items``: every one-item build order the listing leaves out (``new=``,
      ``castle=``, ``merge=``, ``step=L:k`` with k of 2 or more);
    - ``build-pairs``: every order of two items (R89-R100) that adds (two of ``new=``,
      ``step=``, ``castle=``);
    - ``build-pairs-removing``: every order of two items one of which is a ``disband=`` or a
      ``merge=`` (bots seldom want them: a family of its own keeps ``build-pairs`` small);
    - ``build-triples``: orders of three adding items (``new=``, ``step=``, ``castle=``), each
      pair of them an accepted order, the whole checked; at most :data:`TRIPLES_MAX`, taken
      at an even stride;
    - ``transport``: Sea Transport (R50) of each unmoved block of a friendly port alone and
      of all of them together, to every friendly port it reaches, along the first shortest
      sea route (neighbours in the board's order);
    - ``deploy-custom``: custom deploys (R9, R11) of the standard army at full strength: the
      standard placement written out, then each block moved alone to another of the
      player's cities.
    """
    if family not in families(g, p):
        return []
    out: dict[str, Action] = {}
    made = {"deploy-custom": _custom_deploys, "build-triples": _build_triples,
            "transport": _transports, "move-group": _group_moves,
            "cast:elven-gate": _gates}.get(family)
    if made is not None:
        for a in made(g, p):
            out[str(a)] = a
    elif family == "build-items":
        listed = {str(a) for a in candidates(g, p)}
        for a, _cost in _build_items(g, p):
            if str(a) not in listed and _build_ok(g, a):
                out[str(a)] = a
    else:
        for a in _build_pairs(g, p, family == "build-pairs-removing"):
            out[str(a)] = a
    return [out[k] for k in sorted(out)]


def _mine_on_map(g: Dict, p: str) -> list[str]:
    return [x for x in sorted(g["blocks"], key=G.bkey)
            if g["blocks"][x]["owner"] == p and g["blocks"][x]["state"] == "map"]


def _group_moves(g: Dict, p: str) -> list[Action]:
    """Moves of 2+ of ``p``'s unmoved blocks of one hex along a path every one of them may
    take alone, checked together (hexside limits, R46)."""
    out = []
    by_hex: dict[str, list[str]] = {}
    for x in _mine_on_map(g, p):
        if G.utype(g, x).ability != "castle" and not g["blocks"][x]["moved"]:
            by_hex.setdefault(g["blocks"][x]["at"], []).append(x)
    for h in sorted(by_hex, key=hex_key):
        xs = by_hex[h]
        if len(xs) < 2:
            continue
        ok: dict[str, set[str]] = {}
        for x in xs:
            good = set()
            for path in move_paths(g, x):
                try:
                    G.check_move(g, p, [x], path)
                except IllegalAction:
                    continue
                good.add("-".join(path))
            ok[x] = good
        for k in range(2, len(xs) + 1):
            for group in itertools.combinations(xs, k):
                common = set.intersection(*(ok[x] for x in group))
                for text in sorted(common):
                    try:
                        G.check_move(g, p, list(group), text.split("-"))
                    except IllegalAction:
                        continue
                    labs = ",".join(str(g["blocks"][x]["label"]) for x in group)
                    out.append(Action(p, "move", (labs, text)))
    return out


def _transports(g: Dict, p: str) -> list[Action]:
    """Sea Transport (R50) for ``p`` now: from each friendly port holding his unmoved blocks
    that may use it (not Aquatics or castles, free to leave: R48), each such block alone and
    all of them together, to every friendly port 1 to 4 hexes away by sea (all-water or coast
    hexsides, no shoal, no river course; sea or coastal hexes that hold no enemy and no
    battle), along the first shortest route; each checked on a copy."""
    from core.rng import Rng

    b = G.bd(g)
    s = G.side(g, p)
    by_hex: dict[str, list[str]] = {}
    for x in _mine_on_map(g, p):
        if G.utype(g, x).ability not in ("aquatic", "castle") and not g["blocks"][x]["moved"]:
            by_hex.setdefault(g["blocks"][x]["at"], []).append(x)
    out: list[Action] = []
    for h in sorted(by_hex, key=hex_key):
        if not b.hexes[h].port or G.status(g, h, s) != "friendly":
            continue
        route: dict[str, list[str]] = {h: []}
        frontier = [h]
        for _ in range(4):
            nxt = []
            for x in frontier:
                for y in b.neighbours(x):
                    if y in route:
                        continue
                    sd = b.side_between(x, y)
                    hy = b.hexes[y]
                    if sd is None or sd.water not in ("all", "coast") or sd.shoal or sd.course \
                            or hy.shoal or not (hy.water or hy.coastal) \
                            or G.status(g, y, s) in ("enemy", "battle"):
                        continue
                    route[y] = route[x] + [y]
                    nxt.append(y)
            frontier = nxt
        ends = [y for y in route if y != h and b.hexes[y].port
                and G.status(g, y, s) == "friendly"]
        xs = [x for x in by_hex[h] if not G.free_to_leave(g, [x])]
        groups = [[x] for x in xs] + ([xs] if len(xs) > 1 else [])
        for grp in groups:
            labs = ",".join(str(g["blocks"][x]["label"]) for x in grp)
            for y in sorted(ends, key=hex_key):
                a = Action(p, "transport", (labs, "-".join(route[y])))
                trial = G.State(G.copy_dict(g), Rng.from_seed("transport"))
                try:
                    v_transport(trial, a)
                except IllegalAction:
                    continue
                out.append(a)
    return out


def _gates(g: Dict, p: str) -> list[Action]:
    """Every elven-gate ``p``'s wizards may cast now: the checks of the cast (R78, R79,
    R84, units.md §4.1), made here without a copy."""
    b = G.bd(g)
    out = []
    for w in _mine_on_map(g, p):
        if not G.utype(g, w).wizard or g["blocks"][w]["moved"] or g["blocks"][w]["cast"] \
                or g["blocks"][w]["strength"] <= MOVE_SPELLS["elven-gate"][1]:
            continue
        at = g["blocks"][w]["at"]
        if G.status(g, at, G.side(g, p)) == "battle":
            continue
        near = sorted((h for h in b.within(at, GATE_RANGE) if h != at), key=hex_key)
        for t in _mine_on_map(g, p):
            x = g["blocks"][t]
            if x["at"] != at or G.utype(g, t).ability == "castle" or x["moved"] \
                    or G.free_to_leave(g, [t]):
                continue
            for h in near:
                if gate_why(g, t, at, h):
                    continue
                out.append(Action(p, "cast", ("elven-gate", str(g["blocks"][w]["label"]),
                                              f"@{x['label']}", f"to={h}")))
    return out


def _build_items(g: Dict, p: str) -> list[tuple[Action, int]]:
    """One-item build orders of ``p`` worth trying, with their cost in GP (unchecked):
    every new unit at every original city at every strength, every castle, every merge,
    every step (1 to the block's maximum), every disband."""
    army = ARMIES[g["armies"][p]]
    b = G.bd(g)
    have = g["treasury"].get(p, 0)
    out: list[tuple[Action, int]] = []
    mine = _mine_on_map(g, p)
    cities = sorted((h.name for h in b.hexes.values()
                     if h.city and h.map_id in g["owners"].get(p, [])), key=hex_key)
    for x in mine:
        blk = g["blocks"][x]
        ut = G.utype(g, x)
        per = 1 if ut.wizard and b.hexes[blk["at"]].henge else ut.cost
        for k in range(1, ut.max - blk["strength"] + 1):
            if per * k <= have:
                out.append((Action(p, "build", (f"step={blk['label']}:{k}",)), per * k))
        out.append((Action(p, "build", (f"disband={blk['label']}",)), 0))
        for y in mine:
            by = g["blocks"][y]
            if y != x and by["type"] == blk["type"] and by["at"] == blk["at"] \
                    and ut.ability != "castle":
                for k in range(1, min(blk["strength"], ut.max - by["strength"]) + 1):
                    out.append((Action(p, "build", (f"merge={blk['label']}>{by['label']}:{k}",)),
                                0))
    for t in sorted(army):
        ut = army[t]
        if t == "castle" or g["pool"][p].get(t, 0) < 1 or (ut.chaos and not g["opts"]["chaos"]):
            continue
        for h in cities:
            for k in range(1, ut.max + 1):
                if ut.cost * k <= have:
                    out.append((Action(p, "build", (f"new={t}@{h}:{k}",)), ut.cost * k))
    if g["pool"][p].get("castle", 0) and army["castle"].cost <= have:
        s = G.side(g, p)
        for h in sorted({g["blocks"][x]["at"] for x in mine} | set(cities), key=hex_key):
            if G.status(g, h, s) == "friendly":
                out.append((Action(p, "build", (f"castle={h}",)), army["castle"].cost))
    return out


def _build_ok(g: Dict, a: Action) -> bool:
    try:
        G.check_build(g, a.actor, a.words)
    except IllegalAction:
        return False
    return True


def _build_pairs(g: Dict, p: str, removing: bool) -> list[Action]:
    """Every accepted order of two items: two one-item orders (of :func:`_build_items`)
    joined, within the treasury; ``removing``: those with a ``disband=`` or ``merge=``,
    else those without."""
    from core.wizardkings.actions import NotationError, parse

    have = g["treasury"].get(p, 0)
    items = [(a, c) for a, c in _build_items(g, p) if _build_ok(g, a)]
    out = []
    for i, (a1, c1) in enumerate(items):
        k1, _, v1 = a1.words[0].partition("=")
        for a2, c2 in items[i + 1:]:
            if c1 + c2 > have:
                continue
            k2, _, v2 = a2.words[0].partition("=")
            if removing != bool({k1, k2} & {"disband", "merge"}):
                continue
            quick = _independent(a1, a2, g, p)
            if k1 == k2:
                if k1 in ("step", "disband") and v1.split(":")[0] == v2.split(":")[0]:
                    continue
                words = [f"{k1}={v1},{v2}"]
            else:
                words = [a1.words[0], a2.words[0]]
            try:
                a = parse(" ".join([p, "build", *words]))
            except NotationError:
                continue
            if quick or _build_ok(g, a):
                out.append(a)
    return out


def _order_of(p: str, items: list[str]) -> Action | None:
    """The build order of these ``key=value`` items in its canonical form (None when the
    notation refuses it: two steps on one block)."""
    from core.wizardkings.actions import NotationError, parse

    keys: dict[str, list[str]] = {}
    for it in items:
        k, _, v = it.partition("=")
        keys.setdefault(k, []).append(v)
    if any(len({v.split(":")[0] for v in vs}) < len(vs) for k, vs in keys.items()
           if k == "step"):
        return None
    try:
        return parse(" ".join([p, "build", *(f"{k}={','.join(vs)}" for k, vs in keys.items())]))
    except NotationError:
        return None


def _build_triples(g: Dict, p: str) -> list[Action]:
    """Orders of three adding items (``new=``, ``step=``, ``castle=``, R89-R100) within the
    treasury whose every pair is an accepted order, each checked in full; at most
    :data:`TRIPLES_MAX`: the orders within the treasury are taken at an even stride (every
    n-th, in the order of :func:`_build_items`), so the family spans every kind of item."""
    have = g["treasury"].get(p, 0)
    items = [(a, c) for a, c in _build_items(g, p)
             if a.words[0].split("=")[0] in ("new", "step", "castle") and _build_ok(g, a)]
    ok_pair: dict[tuple[int, int], bool] = {}

    def pair_ok(i: int, j: int) -> bool:
        if (i, j) not in ok_pair:
            a = _order_of(p, [items[i][0].words[0], items[j][0].words[0]])
            ok_pair[(i, j)] = a is not None and (
                _independent(items[i][0], items[j][0], g, p) or _build_ok(g, a))
        return ok_pair[(i, j)]

    within = [c for c in itertools.combinations(range(len(items)), 3)
              if items[c[0]][1] + items[c[1]][1] + items[c[2]][1] <= have]
    stride = max(1, len(within) // TRIPLES_MAX)
    out: list[Action] = []
    for i, j, k in within[::stride]:
        if not (pair_ok(i, j) and pair_ok(i, k) and pair_ok(j, k)):
            continue
        a = _order_of(p, [items[x][0].words[0] for x in (i, j, k)])
        if a is not None and _build_ok(g, a):
            out.append(a)
            if len(out) >= TRIPLES_MAX:
                break
    return out


def _custom_deploys(g: Dict, p: str) -> list[Action]:
    """Custom deploys (R9, R11) of ``p``'s standard army at full strength: the army as
    ``deploy standard`` would place and label it (played on a copy) written out, then every
    placement with one block moved to another of his cities; only those accepted."""
    from core.rng import Rng
    from core.wizardkings.actions import NotationError, parse

    def trial() -> G.State:
        t = G.State(G.copy_dict(g), Rng.from_seed("deploy-custom"))
        t.d["forced"] = None  # the last deploy rolls initiative: no forced dice run out
        return t

    std = trial()
    try:
        v_deploy(std, Action(p, "deploy", ("standard",)))
    except IllegalAction:
        return []
    placed = [(x["type"], x["strength"], x["at"]) for b, x in
              sorted(std.d["blocks"].items(), key=lambda kv: G.bkey(kv[0]))
              if x["owner"] == p and x["state"] == "map"]
    b = G.bd(g)
    cities = sorted((h.name for h in b.hexes.values()
                     if h.city and h.map_id in g["owners"].get(p, [])), key=hex_key)
    variants = [list(placed)]
    for i, (t, k, h) in enumerate(placed):
        for c in cities:
            if c != h:
                v = list(placed)
                v[i] = (t, k, c)
                variants.append(v)
    out: list[Action] = []
    for v in variants:
        text = ",".join(f"{n}={t}@{h}:{k}" for n, (t, k, h) in enumerate(v, 1))
        try:
            a = parse(f"{p} deploy {text}")
        except NotationError:
            continue
        try:
            _deploy_custom(trial(), a)
        except IllegalAction:
            continue
        out.append(a)
    return out


def _independent(a1: Action, a2: Action, g: Dict, p: str) -> bool:
    """Whether two one-item orders, each accepted alone and within the treasury together,
    are accepted together without a new check: steps on two blocks, a step with a new unit
    or castle, new units or castles in two hexes (of two types, or of one type with two
    blocks left in the pool). Items in one hex share its per-city count, stacking and
    wizard limits (R47, R92, R93), so those pairs are checked in full."""
    k1, _, v1 = a1.words[0].partition("=")
    k2, _, v2 = a2.words[0].partition("=")
    if "disband" in (k1, k2) or "merge" in (k1, k2):
        return False
    if k1 == "step" or k2 == "step":
        return not (k1 == k2 == "step" and v1.split(":")[0] == v2.split(":")[0])

    def where(k: str, v: str) -> tuple[str, str]:
        return ("castle", v) if k == "castle" else (v.split("@")[0], v.split("@")[1][:3])

    (t1, h1), (t2, h2) = where(k1, v1), where(k2, v2)
    if h1 == h2:
        return False
    return t1 != t2 or g["pool"][p].get(t1, 0) >= 2


def _retreat_candidates(g: Dict, b: Any, x: str) -> list[Action]:
    """Retreats of block ``x``: every adjacent hex; for a Flyer also every path up to its move
    (R70)."""
    p, lab = g["blocks"][x]["owner"], str(g["blocks"][x]["label"])
    h = g["blocks"][x]["at"]
    ut = G.utype(g, x)
    paths = _paths(b, h, ut.move) if ut.ability == "flyer" else [[n] for n in b.neighbours(h)]
    out = [Action(p, "retreat", (lab, "-".join(path))) for path in paths]
    # a retreat into a hex of his own that it overstacks names the block eliminated (R121)
    s = G.side(g, p)
    for path in paths:
        ours = [y for y in G.on_map(g, path[-1]) if G.side(g, g["blocks"][y]["owner"]) == s]
        there = [str(g["blocks"][y]["label"]) for y in ours if g["blocks"][y]["owner"] == p]
        wiz = sum(1 for y in ours if G.utype(g, y).wizard)
        if there and (len(ours) - wiz >= g["opts"]["stacking"] or (ut.wizard and wiz)):
            out += [Action(p, "retreat", (lab, "-".join(path), f"eliminate={y}"))
                    for y in [*there, lab]]
    return out


def _paths(b: Any, start: str, n: int) -> list[list[str]]:
    out: list[list[str]] = []

    def walk(path: list[str]) -> None:
        if path:
            out.append(list(path))
        if len(path) >= n:
            return
        for x in b.neighbours(path[-1] if path else start):
            path.append(x)
            walk(path)
            path.pop()

    walk([])
    return out


def must_eliminate(g: Dict, p: str) -> bool:
    """A networked game: ``p``'s next action must be an ``eliminate`` (R121): his window is
    open and closing it would be refused (his peer knows the overstack, or the public count
    fails)."""
    w = g.get("window")
    return bool(w and w["player"] == p and G.window_why(g))


def legal_actions(st: G.State, p: str) -> list[Action]:
    """The candidates :func:`perform` accepts, sorted by text, each once."""
    g = st.d
    if p not in to_move(g):
        return []
    out = {}
    free: dict[str, bool] = {}
    quiet: dict[str, bool] = {}
    s = G.side(g, p)
    for a in candidates(g, p):
        if str(a) in out:
            continue
        if a.verb == "move" and not g.get("settle") and g["phase"] == "movement":
            # move_paths made the checks of every step (R23-R45); what is left depends on
            # the block leaving (R48) and on the end hex (R42, R46): in a hex holding no
            # other side and no water nothing is left, else the whole check runs
            x = G.bid(p, int(a.words[0]))
            if x not in free:
                free[x] = not G.free_to_leave(g, [x])
            dest = a.words[1].split("-")[-1]
            if dest not in quiet:
                quiet[dest] = not G.bd(g).hexes[dest].water and not G.net(g) and \
                    all(o == s for o in G.sides_in(g, dest))
            if not free[x]:
                continue
            if not quiet[dest]:
                try:
                    G.check_move(g, p, [x], a.words[1].split("-"))
                except IllegalAction:
                    continue
            out[str(a)] = a
            continue
        if a.verb == "build" and g["phase"] == "build":
            # v_build only checks the orders against the start of the phase (R89)
            if _build_ok(g, a):
                out[str(a)] = a
            continue
        trial = G.State(G.copy_dict(g), st.rng.copy())
        # forced dice on the copy: a networked game's generator waits for every peer's
        # entropy (core.beacon), and a roll comes only after the checks
        trial.d["forced"] = list(g["forced"] or []) + [6] * 50
        try:
            perform(trial, a)
        except IllegalAction:
            continue
        except G.DiceOut:
            pass  # its checks passed (endless initiative ties of the forced sixes)
        out[str(a)] = a
    return [out[k] for k in sorted(out)]


__all__ = ["SPELLS", "candidates", "legal_actions", "perform", "to_move", "itertools", "hex_key"]
