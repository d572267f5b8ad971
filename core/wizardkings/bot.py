"""Wizard Kings' bots (issue 18), from a player's view only (``Ruleset.bot_choose``).

Two levels, the default first:

- ``captain`` (quick): scores each legal action by plain priorities, with no look-ahead:
  deploy the standard army; in the Movement Phase take cities that are not his (their GP
  first), close on the enemy's cities, attack a hex only with at least as many units as its
  known defenders, keep a block in each of his own cities, heal a hurt unit, send a unit
  through an elven-gate onto a city, then ``end``; in battle every unit fires, wizards cast
  the strongest spell they can pay for (heal a hurt friend), a weak side retreats from round
  2 on, Dispel against spells of level 2 and more; in the Build Phase spend the whole
  treasury (gold is not saved, R91) on the order that adds the most strength, new units
  where the treasury allows and steps on the strongest units.
- ``warlord`` (search): the captain's candidates, each played on a *determinized* copy of
  its view (every hidden enemy block given the type and strength it last showed, else the
  army's commonest unit at full strength: what a player at the table would imagine), and
  the one whose position scores best (:func:`evaluate`: material, cities and their GP, the
  units threatening his cities) is kept; in battle it weighs its side's expected hits
  against the enemy's (known and seen values) before it stays or retreats.

Everything is integer arithmetic over the view; no clock, no ``random``, no ``hash()``.
Source: rules.md R44-R100 (what the priorities weigh), R111 (what a view holds).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from core.rng import Rng
from core.wizardkings import game as G
from core.wizardkings.actions import Action
from core.wizardkings.maps import board, hex_key
from core.wizardkings.units import ARMIES, STANDARD

Dict = dict[str, Any]
LEVELS = ("captain", "warlord")
#: one die hits on rating number or less (R59): expected hits per die, in sixths
_SPELL_VALUE = {"firestorm": 60, "fireball": 50, "leafstorm": 45, "wrath-of-the-wood": 55,
                "firebolt": 30, "elfshot": 35, "bloodlust": 25, "entangle": 15,
                "terror": 20, "heal": 12}


@lru_cache(maxsize=64)
def _dist_from(layout: str, maps: tuple[int, ...], h: str) -> dict[str, int]:
    """Steps from ``h`` to every hex, ignoring terrain (R20), cached per board."""
    b = board(layout, maps)
    out, frontier, d = {h: 0}, [h], 0
    while frontier:
        d += 1
        nxt = []
        for x in frontier:
            for n in b.neighbours(x):
                if n not in out:
                    out[n] = d
                    nxt.append(n)
        frontier = sorted(nxt, key=hex_key)
    return out


def _side(v: Dict, p: str) -> str:
    return str(v["sides"].get(p, p))


def _mine(v: Dict, me: str) -> list[str]:
    return [b for b in sorted(v["blocks"], key=G.bkey)
            if v["blocks"][b]["owner"] == me and v["blocks"][b]["state"] == "map"]


def _guess(v: Dict, b: str) -> tuple[str, int]:
    """The type and strength a hidden block is imagined with: its last shown values
    (R111's ``seen``), else the army's commonest standard unit at its standard strength."""
    x = v["blocks"][b]
    if x["type"]:
        return str(x["type"]), int(x["strength"])
    if x.get("seen"):
        return str(x["seen"][0]), max(1, int(x["seen"][1]))
    army = v["armies"][x["owner"]]
    t, k = max(sorted(set(STANDARD[army])), key=lambda tk: STANDARD[army].count(tk))
    return t, k


def _power(v: Dict, b: str) -> int:
    """A block's fighting worth in sixths of an expected hit per round, times strength."""
    t, k = _guess(v, b)
    ut = ARMIES[v["armies"][v["blocks"][b]["owner"]]][t]
    if ut.wizard:
        return 2 * k
    return k * max(1, ut.number) + (k if ut.letter == "A" else 0)


def _controller(v: Dict, h: str) -> str:
    g = v  # the view keeps blocks' owner and hex: control is public (R39, R111)
    occ = {_side(v, g["blocks"][b]["owner"]) for b in g["blocks"]
           if g["blocks"][b]["state"] == "map" and g["blocks"][b]["at"] == h}
    if len(occ) >= 2:
        return "battle"
    if occ:
        return occ.pop()
    hx = board(v["layout"], tuple(v["maps"])).hexes[h]
    for p, ms in v["owners"].items():
        if hx.city and hx.map_id in ms:
            return _side(v, p)
    return ""


def _cities(v: Dict) -> list[tuple[str, int, int]]:
    """(hex, GP, map) of every city, by hex."""
    b = board(v["layout"], tuple(v["maps"]))
    return sorted(((h.name, h.city, h.map_id) for h in b.hexes.values() if h.city),
                  key=lambda c: hex_key(c[0]))


def evaluate(v: Dict, me: str) -> int:
    """How good the position is for ``me``'s side: a won game above all; the GP of the
    cities it controls (weighted); its units' worth minus the enemy's (imagined values for
    hidden blocks); enemy units next to its cities."""
    s = _side(v, me)
    if v.get("winner"):
        return 10**6 if v["winner"] == s else (-10**6 if v["winner"] != "draw" else 0)
    score = 0
    by_hex: dict[str, list[str]] = {}
    for b, x in v["blocks"].items():
        if x["state"] == "map":
            by_hex.setdefault(x["at"], []).append(b)
            w = _power(v, b)
            score += w * 6 if _side(v, x["owner"]) == s else -w * 6
    for h, gp, _m in _cities(v):
        c = _controller(v, h)
        if c == s:
            score += 120 * gp
        elif c and c != "battle":
            score -= 120 * gp
        dist = _dist_from(v["layout"], tuple(v["maps"]), h)
        if c == s:
            for x in v["blocks"].values():
                if x["state"] == "map" and _side(v, x["owner"]) != s and dist.get(x["at"], 9) <= 1:
                    score -= 10 * gp
    return score


class _Bot:
    """One decision: the view, the player, the legal actions and the family expander."""

    def __init__(self, v: Dict, me: str, legal: list[Any], expand: Callable[[str], list[Any]]
                 | None, level: str) -> None:
        self.v, self.me, self.legal, self.expand, self.level = v, me, legal, expand, level
        self.s = _side(v, me)
        self.b = board(v["layout"], tuple(v["maps"]))

    # -- helpers --
    def blk(self, b: str) -> Dict:
        return dict(self.v["blocks"][b])

    def bid_of(self, lab: str) -> str:
        return lab if "." in lab else G.bid(self.me, int(lab))

    def _occ(self) -> dict[str, tuple[list[str], list[str]]]:
        occ = self.__dict__.get("_occ_map")
        if occ is None:
            occ = {}
            for b in sorted(self.v["blocks"], key=G.bkey):
                x = self.v["blocks"][b]
                if x["state"] == "map":
                    pair = occ.setdefault(x["at"], ([], []))
                    pair[0 if _side(self.v, x["owner"]) == self.s else 1].append(b)
            self._occ_map = occ
        return occ

    def foes_in(self, h: str) -> list[str]:
        return list(self._occ().get(h, ([], []))[1])

    def friends_in(self, h: str) -> list[str]:
        return list(self._occ().get(h, ([], []))[0])

    def targets(self) -> list[tuple[str, int]]:
        """Cities not controlled by this side, with their GP."""
        return [(h, gp) for h, gp, _m in _cities(self.v) if _controller(self.v, h) != self.s]

    # -- the Movement Phase --
    def near(self, h: str) -> int:
        """Distance to the nearest city not this side's, weighted by its GP (cached)."""
        cache = self.__dict__.setdefault("_near", {})
        if h not in cache:
            tg = self.__dict__.get("_tg")
            if tg is None:
                tg = self._tg = self.targets()
            v = self.v
            cache[h] = min((_dist_from(v["layout"], tuple(v["maps"]), c)[h] * 10 // gp
                            for c, gp in tg), default=0)
        return int(cache[h])

    def move_score(self, a: Action) -> int:
        v = self.v
        words = a.words
        labs = words[0].split(",")
        path = words[1].split("-")
        dest = path[-1]
        movers = [self.bid_of(x) for x in labs]
        frm = v["blocks"][movers[0]]["at"]
        score = 0
        hx = self.b.hexes[dest]
        foes = self.foes_in(dest)
        mine_after = len(self.friends_in(dest)) + len(movers)
        power = sum(_power(v, x) for x in self.friends_in(dest) + movers)
        if foes:
            theirs = sum(_power(v, x) for x in foes)
            if power * 2 < theirs * 3 or mine_after < len(foes):
                return -100
            score += 40 + (power - theirs) * 2
        if hx.city and _controller(v, dest) != self.s:
            score += 90 * hx.city
        # do not strip a city of its last defender
        fc = self.b.hexes[frm]
        if fc.city and _controller(v, frm) == self.s and \
                len(self.friends_in(frm)) <= len(movers):
            score -= 70 * fc.city
        score += (self.near(frm) - self.near(dest)) * 3
        if hx.water:
            score -= 30
        return score * len(movers)

    def movement(self) -> Any:
        v = self.v
        cands = [a for a in self.legal if a.verb == "move"]
        if self.expand is not None and self.level == "warlord":
            cands += self.expand("move-group")[:300]
        best: Any = None
        best_score = 0
        for a in cands:
            sc = self.move_score(a)
            if sc > best_score:
                best, best_score = a, sc
        for a in self.legal:
            if a.verb == "cast" and a.words[0] == "forced-march" and "," in a.words[2] and \
                    v["blocks"][self.bid_of(a.words[1])]["strength"] >= 3 and 15 > best_score:
                best, best_score = a, 15
            if a.verb == "cast" and a.words[0] == "heal":
                t = self.bid_of(a.words[2][1:])
                x = v["blocks"][t]
                ut = ARMIES[v["armies"][self.me]][x["type"]]
                w = v["blocks"][self.bid_of(a.words[1])]
                if w["strength"] >= 3 and ut.max - x["strength"] >= 2 and 25 > best_score:
                    best, best_score = a, 25
        if self.expand is not None and v["armies"][self.me] == "elves":
            for a in self.expand("cast:elven-gate"):
                dest = a.words[3][3:]
                hx = self.b.hexes[dest]
                if hx.city and _controller(v, dest) == "" and 80 * hx.city > best_score:
                    best, best_score = a, 80 * hx.city
        if self.level == "warlord" and best is not None and best.verb == "move":
            best = self.search([a for a in cands if self.move_score(a) > 0], best)
        return best if best is not None else self.find("end")

    def search(self, cands: list[Any], fallback: Any) -> Any:
        """The candidate whose resulting position (on the determinized view) scores best."""
        ranked = sorted(cands, key=lambda a: (-self.move_score(a), str(a)))[:12]
        base = determinize(self.v)
        best, best_score = fallback, None
        for a in ranked:
            st = G.State(G.copy_dict(base), Rng.from_seed("wk-bot"))
            try:
                G.do_move(st.d, a.actor, [self.bid_of(x) for x in a.words[0].split(",")],
                          a.words[1].split("-"))
            except Exception:  # noqa: BLE001 - an imagined block may forbid it
                continue
            sc = evaluate(st.d, self.me) * 4 + self.move_score(a)
            if best_score is None or sc > best_score:
                best, best_score = a, sc
        return best

    # -- the Combat Phase --
    def combat(self) -> Any:
        v = self.v
        bt = v["battle"]
        verbs = {a.verb for a in self.legal}
        if not bt:
            return self.legal[0]
        if bt["victor"]:
            return self.find("end") or self.legal[0]
        if "hit" in verbs:
            hits = [a for a in self.legal if a.verb == "hit"]
            return min(hits, key=lambda a: (ARMIES[v["armies"][v["blocks"][
                self.bid_of(a.words[0])]["owner"]]][v["blocks"][self.bid_of(a.words[0])][
                    "type"]].cost, str(a)))
        if bt.get("spell"):
            return self.dispel()
        if bt.get("terror"):
            return min(self.legal, key=lambda a: (self.retreat_rank(a), str(a)))
        h = bt["hex"]
        mine = sum(_power(v, x) for x in self.friends_in(h))
        theirs = sum(_power(v, x) for x in self.foes_in(h))
        weak = mine * (3 if self.level == "warlord" else 2) < theirs * 2
        retreats = [a for a in self.legal if a.verb == "retreat"]
        if retreats and (weak or "fire" not in verbs and "cast" not in verbs):
            if weak or bt.get("terror") or bt["round"] == 4:
                return min(retreats, key=lambda a: (self.retreat_rank(a), str(a)))
        casts = [a for a in self.legal if a.verb == "cast"]
        if casts:
            def val(a: Action) -> int:
                slug = a.words[0]
                x = _SPELL_VALUE.get(slug, 10)
                if slug == "heal":
                    t = v["blocks"][self.bid_of(a.words[2][1:])]
                    lack = ARMIES[v["armies"][t["owner"]]][t["type"]].max - t["strength"]
                    return 0 if lack < 1 else 20 + 10 * lack
                if slug == "bloodlust":
                    return 10 + 8 * (len(self.friends_in(h)) - 1) if bt["step"] < 2 else 0
                if "@" in " ".join(a.words):
                    t = a.words[2][1:]
                    k = v["blocks"][t]["strength"] if t in v["blocks"] else 0
                    x += 5 * k if slug == "terror" else k
                    if slug == "entangle" and t in v["blocks"] and v["blocks"][t]["type"]:
                        tx = v["blocks"][t]
                        letter = ARMIES[v["armies"][tx["owner"]]][tx["type"]].letter
                        # bind a strong A or B shooter before it fires
                        x += 10 + 4 * k if letter in ("A", "B") and t not in bt["acted"] else 0
                return x
            best = max(casts, key=lambda a: (val(a), str(a)))
            if val(best) > 0:
                return best
        if "fire" in verbs:
            return self.find("fire")
        passes = [a for a in self.legal if a.verb == "pass"]
        if passes:
            return passes[0]
        return self.legal[0]

    def retreat_rank(self, a: Action) -> int:
        dest = a.words[1].split("-")[-1]
        c = _controller(self.v, dest)
        return 0 if c == self.s else (1 if c == "" else 2)

    def dispel(self) -> Any:
        v = self.v
        sp = (v["battle"] or {}).get("spell") or v.get("mspell") or {}
        slug = sp.get("slug", "")
        level = 1
        from core.wizardkings.turn import MOVE_SPELLS, SPELLS

        if slug in SPELLS:
            level = SPELLS[slug][1]
        elif slug in MOVE_SPELLS:
            level = MOVE_SPELLS[slug][1]
        dispels = [a for a in self.legal if a.verb == "dispel"]
        if level >= 2 and dispels:
            return max(dispels, key=lambda a: (v["blocks"][self.bid_of(a.words[0])]["strength"],
                                               str(a)))
        return self.find("pass") or self.legal[0]

    # -- the Build Phase --
    def build(self) -> Any:
        v = self.v
        cands = list(self.legal)
        if self.expand is not None:
            cands += self.expand("build-items")
            if self.level == "warlord" or self.v["turn"] % 2:
                cands += self.expand("build-pairs")
        army = ARMIES[v["armies"][self.me]]

        def worth(a: Action) -> tuple[int, str]:
            sc = 0
            for w in a.words:
                k, _, val = w.partition("=")
                for it in val.split(","):
                    if k == "new":
                        t, _, rest = it.partition("@")
                        n = int(rest.split(":")[1])
                        ut = army[t]
                        sc += army[t].cost * n * 10 + n * 4 + (6 if ut.letter in "AB" else 0)
                        if self.level == "warlord" and self.foes_near(rest.split(":")[0]):
                            sc += 30
                    elif k == "step":
                        lab, _, ks = it.partition(":")
                        x = v["blocks"][self.bid_of(lab)]
                        ut = army[x["type"]]
                        per = 1 if ut.wizard and self.b.hexes[x["at"]].henge else ut.cost
                        sc += per * int(ks) * 10 + int(ks) * 3 + (4 if ut.wizard else 0)
                        if self.level == "warlord" and self.foes_near(x["at"]):
                            sc += 8 * int(ks)
                    elif k == "castle":
                        sc += 12
                    elif k == "disband":
                        sc -= 200
                    elif k == "merge":
                        sc -= 5
            return sc, str(a)

        return max(cands, key=worth)

    def foes_near(self, h: str) -> bool:
        d = _dist_from(self.v["layout"], tuple(self.v["maps"]), h)
        return any(d.get(x["at"], 9) <= 2 for x in self.v["blocks"].values()
                   if x["state"] == "map" and _side(self.v, x["owner"]) != self.s)

    def settle(self) -> Any:
        elims = [a for a in self.legal if a.verb == "eliminate"]
        return min(elims, key=lambda a: (_power(self.v, self.bid_of(a.words[0])), str(a)))

    def find(self, verb: str) -> Any:
        for a in self.legal:
            if a.verb == verb and not a.words:
                return a
        return None

    def choose(self) -> Any:
        v = self.v
        if not self.legal:
            raise ValueError(f"{self.me} has no legal action")
        if v["phase"] == "setup":
            return self.find("deploy") or next(a for a in self.legal if a.verb == "deploy")
        if v["phase"] == "build":
            return self.build()
        if v.get("mspell"):
            return self.dispel()
        if v.get("settle") or any(a.verb == "eliminate" for a in self.legal):
            return self.settle()  # on a LAN only a needed eliminate is listed (R121)
        if v["phase"] == "movement":
            return self.movement()
        return self.combat()


def determinize(v: Dict) -> Dict:
    """A state dict consistent with view ``v``: each hidden block imagined (:func:`_guess`),
    pools rebuilt from the army lists, no forced dice, hexside counts recomputed from the
    entry records."""
    g = G.copy_dict(v)
    for b, x in g["blocks"].items():
        if x["state"] == "map" and not x["type"]:
            x["type"], x["strength"] = _guess(v, b)
    g["pool"] = {}
    for p, a in g["armies"].items():
        pool = {t: u.pool for t, u in ARMIES[a].items()}
        for x in g["blocks"].values():
            if x["owner"] == p and x["type"] and x["state"] != "pool":
                pool[x["type"]] = max(0, pool.get(x["type"], 0) - 1)
        g["pool"][p] = pool
    g["entries"] = {h: [[e[0], e[1], e[2], max(0, e[3])] for e in es]
                    for h, es in v["entries"].items()}
    g["counts"] = {}
    g["forced"], g["seed"] = None, "bot"
    g["orders"] = {p: [] for p in v.get("orders", [])}
    g.pop("viewer", None)
    return g


def choose(v: Dict, me: str, legal: list[Any], level: str = "captain",
           expand: Callable[[str], list[Any]] | None = None) -> Any:
    """The bot's action for ``me`` from view ``v`` among ``legal`` (and the families it
    asks ``expand`` for). Raises ``ValueError`` for an unknown level or an empty list."""
    if level not in LEVELS:
        raise ValueError(f"unknown Wizard Kings bot level {level!r} ({', '.join(LEVELS)})")
    return _Bot(v, me, legal, expand, level).choose()
