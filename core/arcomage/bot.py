"""ArcoMage's bots (issue 17), from a player's view only (``Ruleset.bot_choose``).

Two levels, the default first:

- ``apprentice`` (quick): scores each legal action by plain priorities, with no look-ahead:
  an alternate win when castable, and with one in the book (else a Circle VII sorcery such
  as Meteor; while Life is above 12) the cast ceiling raised toward its Circle, then the
  Mana saved for it; harm aimed at the rival (his wizard, his creatures, his
  worker buildings) and help aimed at one's own side, never the other way round; summons;
  bigger spells before smaller ones (the cast ceiling and the mana decide what is legal);
  Counterspell only against an enemy spell on top of the stack; attacks with every ready
  attacker, the rival's wizard first; blocks that survive; creatures walking toward the
  rival's wizard; then ``end`` / ``pass``.
- ``archmage`` (search): takes the apprentice's best dozen actions, plays each on a
  *determinized* copy of its view (every trap it cannot see placed on a spell of its
  victim's book, deterministically from the view, so a cast of a trapped-looking spell is
  weighed against the chance of a sprung trap: two determinizations when a trap lies on
  its book), lets the stack resolve with both players passing, and keeps the action whose
  position scores best (:func:`evaluate`: Life, buildings, workers, mana, INT, creatures;
  a won game above all).

Everything is integer arithmetic over the view; no clock, no ``random``, no ``hash()``.
Source: rules.md §5-§10 (what the priorities weigh), R97-R98 (what a view holds).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from core.arcomage import field as fld
from core.arcomage import traps
from core.arcomage.actions import Action
from core.arcomage.data import ALTERNATE_WINS, CREATURES, SPELLS, SUMMONS
from core.arcomage.state import Dict, State, ceiling, occupier, other, stands, values, workers_total

LEVELS = ("apprentice", "archmage")

#: spells that hurt what they target (aimed at the rival's side)
HARM = frozenset({
    "venom", "drain-life", "wither", "firebolt", "fireball", "lightning", "stun", "sleep",
    "paralyze", "silence", "polymorph", "feeblemind", "earthquake", "landslide", "dominate"})
#: spells that help what they target (aimed at one's own side)
HELP = frozenset({
    "regenerate", "strength", "bless", "swiftness", "levitate", "unlife", "invisibility",
    "shadow-step", "corpse-explosion"})
#: answers worth casting when an enemy spell is on top of the stack
ANSWERS = frozenset({"counterspell", "protection", "magic-reflection"})
_POSTS = ("quarry", "mage-tower", "altar", "graveyard")


def _enemy_side(g: Dict, me: str, target: str) -> int:
    """+1 when ``target`` (a seat, a hex, ``P2:slug``, ``P2.altar``) is the rival's,
    -1 when it is mine, 0 when it is neither (an empty hex)."""
    owner = target.partition(":")[0].partition(".")[0].partition("/")[0]
    if owner in ("P1", "P2"):
        return 1 if owner != me else -1
    for c in g["creatures"]:
        if c["at"] == owner:
            return 1 if c["controller"] != me else -1
    if g["players"][other(me)]["at"] == owner:
        return 1
    if g["players"][me]["at"] == owner:
        return -1
    return 0


def _creatures(g: Dict, p: str) -> int:
    """How many creatures ``p`` controls."""
    return sum(1 for c in g["creatures"] if c["controller"] == p)


def _creature_at(g: Dict, h: str) -> Dict | None:
    """The creature standing on hex ``h`` (None when none does)."""
    return next((c for c in g["creatures"] if c["at"] == h), None)


def _power_at(g: Dict, h: str) -> int:
    """The Power of the creature on hex ``h`` (0 when none)."""
    c = _creature_at(g, h)
    return int(values(g, c)["power"]) if c is not None else 0


def wrong_side(g: Dict, me: str, a: Action) -> bool:
    """Whether cast ``a`` aims a harm (:data:`HARM`) at one's own side or a help
    (:data:`HELP`) at the rival's: never a choice of either level."""
    if a.verb != "cast":
        return False
    sides = [_enemy_side(g, me, t) for t in a.targets]
    return (a.slug in HARM and any(x < 0 for x in sides)) or \
        (a.slug in HELP and any(x > 0 for x in sides))


def saving_for(g: Dict, me: str) -> str:
    """The high spell (Circle V or more) the player saves his Mana for, or ``""``: one of
    his book within his ceiling, not locked (nor a Form while he is in one), that costs more
    than his Mana now and at most 4 more (one turn's saving; R37: unspent Mana carries
    over). The costliest such, ties in book order."""
    pl = g["players"][me]
    best = ""
    for slug in pl["book"]:
        sp = SPELLS[slug]
        if (sp.circle >= 5 and sp.circle <= ceiling(pl)
                and int(pl["mana"]) < sp.cost <= int(pl["mana"]) + 4
                and slug not in pl["locked"] and not (sp.kind == "form" and pl["form"])
                and (not best or sp.cost > SPELLS[best].cost)):
            best = slug
    return best


def goal_win(g: Dict, me: str) -> str:
    """The great spell the player works toward, or ``""``: the alternate win (R114: Army of
    the Dead, Star Alignment) his book holds, else its costliest sorcery of Circle VII or
    more (Meteor); not locked. Worth raising the cast ceiling to its Circle and saving its
    Mana for (R37, R39)."""
    pl = g["players"][me]
    best = ""
    for slug in pl["book"]:
        if slug in pl["locked"]:
            continue
        if slug in ALTERNATE_WINS:
            return slug
        sp = SPELLS[slug]
        if sp.kind == "sorcery" and sp.circle >= 7 and (not best or sp.cost > SPELLS[best].cost):
            best = slug
    return best


def _raises_ceiling(a: Action) -> bool:
    """Study, Cunning, or a worker sent to the Mage Tower (Recruit, Reassign): R39's parts."""
    return a.slug in ("study", "cunning") or a.arg("at") == "mage-tower" \
        or ">mage-tower" in a.arg("moves")


def wasted_answer(g: Dict, me: str, a: Action) -> bool:
    """An answer that cannot touch the rival's spell on top of the stack: Magic Reflection
    turns back only a spell that targets one's wizard (R59), Protection prevents only
    damage (spells.md, §9): neither does anything against a summon or a spell that does not
    harm. Source: spells.md (magic-reflection, protection); rules.md R59."""
    if a.verb != "cast" or a.slug not in ("magic-reflection", "protection") or not g["stack"]:
        return False
    top = g["stack"][-1]
    if top["caster"] == me or top["slug"] not in SPELLS:
        return False
    if a.slug == "magic-reflection":
        return me not in top.get("targets", [])
    return SPELLS[top["slug"]].kind == "summon" or top["slug"] not in HARM


def doomed_summon(g: Dict, me: str, a: Action) -> bool:
    """A summon onto a hex the rival's Tower shoots at his next upkeep and whose shot
    kills it: the Tower fires at the Nearest visible enemy creature of his wizard, as many
    damage as it has workers (R45); a creature of that Toughness or less is thrown away.
    Source: rules.md R45, R108 (Nearest)."""
    kind_slug = SUMMONS.get(a.slug) if a.verb == "cast" else None
    if kind_slug is None or not a.targets or not fld.is_hex(a.targets[0]):
        return False
    kind = CREATURES[kind_slug]
    rival = g["players"][other(me)]
    n = int(rival["workers"]["tower"])
    if n <= 0 or not stands(rival, "tower") or "invisible" in kind.keywords \
            or kind.toughness > n:
        return False
    h = a.targets[0]
    mine = [c["at"] for c in g["creatures"] if c["controller"] == me
            and "invisible" not in values(g, c)["keywords"]]
    taken = occupier(g)
    return fld.nearest(rival["at"], [*mine, h], lambda x: x == h or taken(x)) == h


def score(g: Dict, me: str, a: Action) -> int:
    """The apprentice's priority of action ``a`` in view ``g`` (higher first); an answer
    that cannot touch the spell it answers and a summon the rival's Tower kills at once
    are never chosen while anything else is (-100: the archmage does not search them)."""
    if a.verb == "cast" and (wasted_answer(g, me, a) or doomed_summon(g, me, a)):
        return -100
    if a.verb == "cast":
        spell = SPELLS[a.slug]
        s = 20 + 3 * spell.cost
        if spell.circle < 5 and a.slug not in ANSWERS and saving_for(g, me) and int(g["players"][me]["life"]) > 12:
            s -= 60  # keep the Mana for the high spell (while Life allows)
        if a.slug in ALTERNATE_WINS:
            s += 200
        if spell.kind == "summon":  # board presence: a creature strikes every turn
            s += 15
            kind = CREATURES[SUMMONS[a.slug]] if a.slug in SUMMONS else None
            if not g["stack"] and _creatures(g, me) < _creatures(g, other(me)) \
                    and kind is not None and kind.toughness >= 2 \
                    and not saving_for(g, me) and not goal_win(g, me):
                s += 30  # the rival has more creatures: answer on the board
                # (with one that outlives a Tower's shot: a 1-toughness one is a loop)
        if spell.circle >= 5:  # the high Circles are what a raised ceiling is for
            s += 10 * (spell.circle - 4)
        top_enemy = bool(g["stack"]) and g["stack"][-1]["caster"] != me
        if a.slug == "counterspell":
            if not top_enemy:
                return -100
            s += 4 * SPELLS[g["stack"][-1]["slug"]].cost
        elif g["stack"] and a.slug not in ANSWERS:
            s -= 30  # keep the mana: answering is for answers
            if top_enemy:  # piling a spell onto the rival's uses up one's own turn's cast
                s -= 60
        elif a.slug in ANSWERS and not top_enemy:
            s -= 25
        pl = g["players"][me]
        if max(SPELLS[x].circle for x in pl["book"]) > ceiling(pl):  # raise the ceiling
            if a.slug == "study":
                s += 45 if ceiling(pl) < 6 else 30
            elif a.slug == "cunning":
                s += 15
            elif a.arg("at") == "mage-tower" or ">mage-tower" in a.arg("moves"):
                s += 20
        goal = goal_win(g, me)
        if goal and a.slug != goal and int(pl["life"]) > 12:  # the great spell
            if ceiling(pl) < SPELLS[goal].circle:
                if _raises_ceiling(a):
                    s += 50  # the way to Circle VIII
            elif int(pl["mana"]) < SPELLS[goal].cost and a.slug not in ANSWERS:
                s -= 60  # the ceiling is there: keep the Mana for the win
        if spell.kind == "form":
            s += -30 if g["players"][me]["form"] else 10  # one Form at a time (R92)
        if a.slug == "magic-trap":  # rig what the rival will cast: his big, used spells
            slug = a.targets[0].partition(":")[2]
            if not any(t["trapper"] == me and t["status"] in ("lying", "cast")
                       for t in g["traps"]):
                s += 30  # one trap lying is worth 6 damage and a poisoning to come
            if slug in SPELLS:  # his attack spells within his ceiling are his likely casts
                rival = g["players"][other(me)]
                s += 6 + SPELLS[slug].cost + (12 if slug in HARM else 0)
                s += 8 if slug in rival["cast"] else 0
                s -= 20 if SPELLS[slug].cost > ceiling(rival) else 0
        if a.slug == "magic-untrap":
            mine = [t for t in g["traps"] if t["victim"] == me and t["status"] == "lying"]
            s += 10 * len(mine) if mine else -100
        for t in a.targets:
            side = _enemy_side(g, me, t)
            if wrong_side(g, me, a):
                return -100  # a harm on one's own side, a help on the rival's
            if a.slug in HARM:
                s += 25 * side if side else -10
                if t == other(me):
                    s += 5  # the rival's wizard: the way to win
                elif side > 0 and _creature_at(g, t):
                    s += 4 * _power_at(g, t)  # the creature that strikes every turn
            elif a.slug in HELP:
                s -= 25 * side if side else 0
        return s
    if a.verb == "attack":
        return 40 + sum(12 if p.endswith(other(me)) else 6 for p in a.targets)
    if a.verb == "block":
        return 10 + 6 * len(a.targets)
    if a.verb == "move":
        goal = g["players"][other(me)]["at"]
        start, end = a.targets[0], a.targets[-1]
        return 2 + 3 * (fld.grid_distance(start, goal) - fld.grid_distance(end, goal))
    return 0  # end, pass, choose


def evaluate(g: Dict, me: str) -> int:
    """How good the position is for ``me`` (integers: mine minus the rival's)."""
    if g["winner"]:
        return 0 if g["winner"] == "draw" else (10 ** 6 if g["winner"] == me else -10 ** 6)

    def side(p: str) -> int:
        pl = g["players"][p]
        v = 12 * int(pl["life"]) + 9 * sum(int(pl[b]) for b in ("moat", "wall", "tower"))
        v += 4 * sum(int(pl[b]) for b in _POSTS) + 3 * workers_total(pl)
        v += int(pl["mana"]) + 2 * int(pl["int"]) + int(pl["corpses"])
        for c in g["creatures"]:  # a creature strikes every turn: worth turns of damage
            if c["controller"] == p:
                cv = values(g, c)
                v += 20 + 14 * cv["power"] + 4 * max(0, cv["health"]) + 2 * cv["speed"]
        return v

    return side(me) - side(other(me))


def determinize(view: Dict, k: int = 0) -> State:
    """A full local state consistent with ``view``: every trap whose target the viewer
    cannot see is put on a spell of its victim's book that carries no other trap (the
    ``k``-th such choice, deterministic), the process made the dealer of every trap (so a
    trapped spell springs at once, as in a local game)."""
    g = copy.deepcopy({x: y for x, y in view.items() if x != "viewer"})
    g["seed"] = f"bot-{k}"
    g.pop("owners", None)
    g.pop("awaiting", None)
    for i, t in enumerate(g["traps"]):
        if t.get("slug", "?") == "?":
            t.pop("slug", None)
            if t["status"] in ("lying", "cast"):
                taken = {x.get("slug") for x in g["traps"] if x is not t
                         and x["victim"] == t["victim"] and x["status"] in ("lying", "cast")}
                book = [s for s in g["players"][t["victim"]]["book"] if s not in taken]
                if book:
                    t["slug"] = book[(7 * i + 5 * k + int(g["seq"])) % len(book)]
        if "slug" in t:
            t["salt"] = traps.salt_for(g, int(t["n"]))
            t["commit"] = traps.commit(t["salt"], t["slug"])
        for e in g["stack"]:
            if e.get("trap") == t["n"] and "slug" in t:
                e["secret"] = t["slug"]
    return State(g)


def _settle(st: State, me: str, rs: Any) -> None:
    """Let the stack resolve (and a combat window close) with both players passing."""
    for _ in range(12):
        g = st.d
        if g["winner"] or not (g["stack"] or g["step"] == "combat"):
            return
        who = rs.to_move(st)
        if not who:
            return
        try:
            rs.apply(st, Action(who[0], "pass"))
        except ValueError:
            return


def choose(view: Dict, me: str, legal: list[Any], level: str,
           ruleset: Any = None) -> Any:
    """The bot's action for ``me`` among ``legal`` (see the module docstring). Raises
    ``ValueError`` for an unknown level or an empty list."""
    if level not in LEVELS:
        raise ValueError(f"unknown ArcoMage bot level {level!r} ({', '.join(LEVELS)})")
    if not legal:
        raise ValueError("the bot has no legal action to choose from")
    ranked = sorted(range(len(legal)), key=lambda i: (-score(view, me, legal[i]), i))
    if level == "apprentice" or len(legal) == 1:
        return legal[ranked[0]]
    # never searched: a harm on one's own side or a help on the rival's, and (in a
    # response window) a spell piled onto the rival's that the apprentice would not cast
    kept = [i for i in ranked if score(view, me, legal[i]) >= 0
            or legal[i].verb not in ("cast",)]
    ranked = kept or ranked
    rs = ruleset
    if rs is None:
        from core.arcomage.ruleset import RULESET as rs
    mine_trapped = any(t["victim"] == me and t["status"] == "lying" for t in view["traps"])
    worlds = [determinize(view, k) for k in range(2 if mine_trapped else 1)]
    best, best_v = legal[ranked[0]], None
    for i in ranked[:12]:
        a = legal[i]
        total = 0
        for w in worlds:
            if a.verb == "end":  # ending MAIN is the position as it stands: weighed
                total += evaluate(w.d, me)  # after the rival's turn, it would look worse
                continue
            st = State(copy.deepcopy(w.d))
            try:
                rs.apply(st, a)
            except ValueError:
                continue
            _settle(st, me, rs)
            total += evaluate(st.d, me)
        v = total * 100 + score(view, me, a)  # ties: the apprentice's priority
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def random_choice(legal: list[Any], pick: Callable[[int], int]) -> Any:
    """A uniformly random legal action, ``pick(n)`` giving an index below ``n`` (for the
    self-play's and the tests' random player, fed by a seeded :class:`core.rng.Rng`)."""
    return legal[pick(len(legal))]
