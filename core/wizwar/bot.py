"""The bots: the apprentice (quick, sensible) and the archmage (searches).

Both see only ``view(state, seat)`` and the list of their legal actions (which holds nothing
but their own cards and the public board); ``choose(v, seat, legal, level=...)`` picks one.

The **apprentice** is a fixed order of preferences over the whole deck (:func:`prefs`): it
scores and brings home enemy treasures, rescues its own, displays its magic stones, takes
Speed's extra turns, attacks the best target in sight with the best attack it holds (damage,
curses, thefts, pushes, objects; Add, Amplify and Extend first when they help), opens doors on
its way (Master Key, Pick Lock, Remove Lock, Pass Through Wall, Mist-Body, Destroy Wall),
teleports or Power Runs home with a treasure, blocks enemy treasure-carriers (Thornbush, stone,
walls, Waterwall, Drag, Rotate and Relocate Sector), protects itself at the end of its turn
(Invisible, Shrink, Buddy, a wall across a line of sight) and answers attacks and damage with
the counteraction that fits (Full Reflection, Absorb Spell, Full Shield, Reverse, Reflection,
the escapes, Absorb, Blunt, the answering stones; Anti-Anti for the attacker). Cards it would
otherwise have to discard at the hand limit it plays for what little they are worth.

The **archmage** (:func:`archmage`) runs determinized Monte Carlo: it imagines the hidden
cards a number of times (:mod:`core.wizwar.determinize`: sampled from the cards it has not
seen, with an RNG derived from its view and ``seed``), plays each of a few candidate actions
(the apprentice's choice among them) in every imagined game, lets apprentices play every seat
on to the end of the next player's turn, scores the outcomes, and departs from the
apprentice's choice only for a candidate clearly better over the same imagined games.
``budget`` is the number of playouts per decision (an argument: there is no clock in
``core/``). It searches its own turn and its answers to attacks.

All choices are deterministic given the view, the legal actions, the level, budget and seed.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import (
    Edge,
    Square,
    blocked_count,
    edge_name,
    parse_edge,
    parse_square,
    sightlines,
    square_name,
)
from core.wizwar.ruleset import RULESET
from core.wizwar.view import PlayerInfo, View

LEVELS = RULESET.bot_levels  # the ruleset declares them (core.engine.Ruleset)
#: The archmage's playouts per decision when no budget is given.
DEFAULT_BUDGET = 48

Ok = Callable[[Action], bool]
#: Lists the members of one of the seat's large families by name (core.engine.Ruleset.expand
#: bound to the game and seat): the bots ask for ``far:<slug>`` creations beyond the squares
#: round the caster that ``legal_actions`` lists (core/wizwar/families.py).
More = Callable[[str], list[Action]]
#: The creations whose far targets the bots ask for: a wall or block on a treasure-carrier's
#: way home, a wall across a line of sight.
_FAR_ASKED = ("create-wall", "wall-of-fire", "illusion-wall", "fill-square-with-stone",
              "thornbush")

_DAMAGE = ("fireball", "lightning-blast", "powerthrust", "power-drain", "sudden-death",
           "stone-dead")
_CURSES = ("blind", "no-spell", "slow", "lock-in-place", "medusa")
_STONES = tuple(c.slug for c in C.CARDS if c.kind == C.STONE)
_ANSWER_STONES = ("bloodstone", "shieldstone", "soulstone")
_TURNERS = ("reflection", "full-reflection")
_DOOR_TOOLS = ("master-key", "pick-lock", "remove-lock", "pass-through-wall", "destroy-wall")
_SPENDABLE = ("jam-lock", "remove-lock", "pick-lock", "pass-through-wall", "around-the-corner",
              "illusion-wall", "create-wall", "thornbush", "fill-square-with-stone",
              "dispel-creation", "destroy-wall", "rotate-sector", "relocate-sector", "ugly",
              "buddy", "drag", "extend", "add", "amplify", "mist-body", "power-run", "shrink",
              "waterwall", "wall-of-fire", "card-erasure", "reuse-spell")


# ---------------------------------------------------------------------------------------
# board helpers over the view (public information only)
# ---------------------------------------------------------------------------------------
def _passable(v: View, e: Edge, doors_ok: bool) -> bool:
    if e not in v.edges or e in v.open_doors:
        return True
    return doors_ok and v.edges[e][0] == "door"


def path_to(v: View, frm: Square, goals: set[Square], doors_ok: bool = False
            ) -> list[tuple[Square, Edge]] | None:
    """Shortest walk from ``frm`` to any of ``goals`` as [(square, edge crossed)], or None.
    Thornbush and stone squares are avoided; doors count as open when ``doors_ok``."""
    if frm in goals:
        return []
    prev: dict[Square, tuple[Square, Edge]] = {}
    q = deque([frm])
    seen = {frm}
    while q:
        cur = q.popleft()
        for side in "nesw":
            nb = v.layout.neighbor(cur, side)
            if nb is None:
                continue
            sq, e = nb
            if sq in seen or sq in v.stones or (sq in v.bushes and sq not in goals):
                continue
            if not _passable(v, e, doors_ok):
                continue
            seen.add(sq)
            prev[sq] = (cur, e)
            if sq in goals:
                out = []
                while sq != frm:
                    p, edge = prev[sq]
                    out.append((sq, edge))
                    sq = p
                return out[::-1]
            q.append(sq)
    return None


def distances(v: View, frm: Square, doors_ok: bool = False) -> dict[Square, int]:
    """Walking distance from ``frm`` to every reachable square (same passage rules as
    :func:`path_to`)."""
    dist = {frm: 0}
    q = deque([frm])
    while q:
        cur = q.popleft()
        for side in "nesw":
            nb = v.layout.neighbor(cur, side)
            if nb is None:
                continue
            sq, e = nb
            if sq in dist or sq in v.stones or sq in v.bushes or not _passable(v, e, doors_ok):
                continue
            dist[sq] = dist[cur] + 1
            q.append(sq)
    return dist


def sees(v: View, frm: Square, to: Square) -> bool:
    """Plain line of sight between two square centres on the view's board (walls, doors,
    created walls, thornbushes and stone blocks block; cards.md §1.2)."""
    if frm == to:
        return True
    for sl in sightlines(v.layout, frm, to):
        if blocked_count(sl, lambda e: e in v.edges and e not in v.open_doors) > 0:
            continue
        if any(s not in (frm, to) and (s in v.bushes or s in v.stones) for s in sl.squares):
            continue
        return True
    return False


def card_value(slug: str) -> int:
    """How much the bots like to keep a card (discard the lowest first)."""
    cd = C.BY_SLUG.get(slug)
    if cd is None:
        return 0
    if cd.kind == C.NUMBER:
        return int(slug)
    if slug in ("sudden-death", "full-reflection", "absorb-spell", "full-shield", "speed",
                "teleport"):
        return 10
    if slug in ("reuse-spell", "master-key"):
        return 7
    if cd.kind in (C.COUNTER, C.DUAL):
        return 8
    if slug in _DAMAGE or slug in ("dagger", "large-rock", "wizardblade"):
        return 8
    if cd.kind == C.STONE:
        return 7
    if cd.kind == C.ATTACK:
        return 6
    if slug in ("power-run", "master-key", "pick-lock", "amplify", "thornbush"):
        return 5
    return 4


# ---------------------------------------------------------------------------------------
# the apprentice
# ---------------------------------------------------------------------------------------
class _Mind:
    """What the apprentice works out from its view for one decision (memoised)."""

    def __init__(self, v: View, seat: str, acts: list[Action], ok: Ok | None,
                 more: More | None = None) -> None:
        self.v, self.seat, self.acts = v, seat, acts
        self.more = more
        self._far: dict[str, list[Action]] = {}
        self.ok: Ok = ok if ok is not None else (lambda a: True)
        self.exact = ok is None  # acts are all legal
        self.me = v.player(seat)
        self.hand = Counter(v.hand)
        self.by: dict[str, Action] = {}
        for a in acts:
            self.by.setdefault(str(a), a)
        self.team = team_of(v, seat)
        self.bases = team_bases(v, seat)
        self.enemies = [p for p in v.players if p.seat not in self.team and p.alive
                        and not p.out and p.at is not None]
        self._dist: dict[tuple[Square, bool], dict[Square, int]] = {}
        self._goals: set[Square] | None = None
        self._sight: dict[tuple[Square, Square], bool] = {}

    def plays_of(self, slug: str) -> list[Action]:
        """Every way to play card ``slug`` now: the listed ones, then (when the bot was given
        ``more`` and the card is one of :data:`_FAR_ASKED` in the hand) the far targets of
        family ``far:<slug>``, in their string order. Memoised per decision."""
        out = [a for a in self.acts if a.verb == "play" and a.card == slug]
        if self.more is None or slug not in _FAR_ASKED or not self.hand[slug]:
            return out
        if slug not in self._far:
            self._far[slug] = sorted(self.more(f"far:{slug}"), key=str)
        return out + self._far[slug]

    # -- geometry --
    def dist(self, frm: Square, doors_ok: bool = False) -> dict[Square, int]:
        key = (frm, doors_ok)
        if key not in self._dist:
            self._dist[key] = distances(self.v, frm, doors_ok)
        return self._dist[key]

    def sees(self, a: Square, b: Square) -> bool:
        key = (a, b) if a <= b else (b, a)
        if key not in self._sight:
            self._sight[key] = sees(self.v, a, b)
        return self._sight[key]

    def in_sight(self) -> list[PlayerInfo]:
        """Enemy wizards in plain sight of this wizard."""
        at = self.me.at
        return [p for p in self.enemies if at is not None and p.at is not None
                and self.sees(at, p.at)]

    def goal_dist(self, sq: Square, goals: set[Square]) -> int:
        """Walking distance from ``sq`` to the nearest goal (99 when none is reachable)."""
        d = self.dist(sq, True)
        best = [d[g] for g in goals if g in d]
        return min(best) if best else 99

    # -- goals --
    def goals(self) -> set[Square]:
        if self._goals is None:
            self._goals = _goals(self.v, self.seat)
        return self._goals

    def route(self) -> list[tuple[Square, Edge]] | None:
        at, goals = self.me.at, self.goals()
        if at is None or not goals:
            return None
        free = path_to(self.v, at, goals)
        doors = path_to(self.v, at, goals, doors_ok=True)
        slack = 1 if self.hand["master-key"] or self.hand["pick-lock"] else 4
        if free is not None and (doors is None or len(free) <= len(doors) + slack):
            return free
        if doors is not None and (self.has_door_tool() or free is None):
            return doors
        return free

    def has_door_tool(self) -> bool:
        return any(self.hand[c] for c in (*_DOOR_TOOLS, "mist-body"))


def team_of(v: View, seat: str) -> tuple[str, ...]:
    """The seats of ``seat``'s team: itself alone, or in the team variant the seats of the
    same parity (P1+P3, P2+P4). Source: rulebook, Team play option."""
    if not v.options.get("team"):
        return (seat,)
    seats = [p.seat for p in v.players]
    i = seats.index(seat)
    return tuple(s for j, s in enumerate(seats) if j % 2 == i % 2)


def team_bases(v: View, seat: str) -> set[Square]:
    """The home bases an enemy treasure scores on: ``seat``'s own, and in the team variant
    those of its team-mates still in the game."""
    team = team_of(v, seat)
    out = {p.home for p in v.players if p.seat in team and p.home is not None
           and (p.seat == seat or (p.alive and not p.out))}
    return out


def _owner(treasure: str) -> str:
    return treasure.split(".")[0]


def _goals(v: View, seat: str) -> set[Square]:
    me = v.player(seat)
    team = team_of(v, seat)
    bases = team_bases(v, seat)
    if me.carrying and me.home is not None:
        return set(bases) if _owner(me.carrying) not in team else {me.home}
    out: set[Square] = set()
    attacks = [c for c in v.hand if C.BY_SLUG[c].kind == C.ATTACK]
    enemies = [p for p in v.players if p.seat not in team and p.at is not None and p.alive
               and not p.out]
    if len(attacks) >= 2 and v.round > 1:  # armed: hunt the nearest enemy wizard too
        out |= {p.at for p in enemies if p.at is not None}
    for p in enemies:  # an enemy running off with our treasure: hunt him
        if p.carrying and _owner(p.carrying) in team and p.at is not None:
            out.add(p.at)
    enemy_homes = {p.home for p in enemies}
    for sq, toks in v.tokens.items():
        for t in toks:
            if "." not in t:
                continue
            if _owner(t) not in team and sq not in bases:
                out.add(sq)
            elif _owner(t) in team and sq in enemy_homes:
                out.add(sq)  # rescue our own treasure from an enemy base
    return out


def apprentice(v: View, seat: str, legal: list[Action], more: More | None = None) -> Action:
    """The apprentice's choice: its most preferred legal action (see :func:`prefs`), also
    among the far creations ``more`` lists. Raises ``ValueError`` if ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action")
    for a in prefs(v, seat, legal, more=more):
        return a
    return legal[0]  # pragma: no cover - prefs always ends with every action


def prefs(v: View, seat: str, acts: list[Action], ok: Ok | None = None, tail: bool = True,
          more: More | None = None) -> Iterator[Action]:
    """The apprentice's actions in order of preference, ending with all of ``acts``.

    ``acts`` are the legal actions, or (with ``ok``) candidates of which only those passing
    ``ok`` are legal: the consumer takes the first that passes (the archmage's playouts do
    this to avoid listing every legal action). The order depends only on ``v`` and ``acts``.
    ``tail=False`` leaves out the closing list of every action (the real preferences only).
    ``more`` (see :data:`More`) lets it also weigh far creations: walls and blocks on a
    treasure-carrier's way home and across a line of sight beyond the squares round it.
    """
    m = _Mind(v, seat, acts, ok, more)
    verbs = {a.verb for a in acts}
    if v.stack:
        yield from _answers(m)
    elif verbs == {"choose"}:
        yield from sorted(acts, key=lambda a: (-card_value(a.card), a.card))
    elif v.discarding and v.discarding[0] == seat:
        yield from sorted((a for a in acts if a.verb == "discard"),
                          key=lambda a: (_discard_rank(m, a.card), a.card))
    elif verbs == {"move"}:  # a forced retreat
        yield from _retreat(m)
    elif m.me.at is not None:
        yield from _turn(m)
    if tail:
        yield from acts


def _discard_rank(m: _Mind, slug: str) -> int:
    if slug in m.v.displayed:
        return 20
    return card_value(slug)


def _retreat(m: _Mind) -> Iterator[Action]:
    goals = m.goals() or ({m.me.home} if m.me.home is not None else set())

    def key(a: Action) -> tuple[int, str]:
        end = parse_square(a.targets[-1])
        return (m.goal_dist(end, goals) if goals else 0, str(a))

    yield from sorted(m.acts, key=key)


# ---- answering --------------------------------------------------------------------------
def _standing(counters: Iterable) -> list:
    """The counteractions on a stack not voided by an Anti-Anti (or an Absorb Spell taking a
    counteraction), as the view shows them."""
    cs = list(counters)
    voided: set[int] = set()
    for i, c in enumerate(cs):
        if c.card == "anti-anti" or (c.card == "absorb-spell" and i > 0
                                     and cs[i - 1].player != c.player):
            for j in range(i - 1, -1, -1):
                if cs[j].player != c.player and j not in voided:
                    voided.add(j)
                    break
    return [c for i, c in enumerate(cs) if i not in voided]


def _harm(m: _Mind, win) -> int:
    """How bad the attack on the stack is for this wizard, in about life points."""
    src = win.source
    me = m.me
    n = win.value
    dmg = {"powerthrust": n + 2, "sudden-death": 10, "slow-death-tick": 1}.get(src, n)
    if src in ("waterbolt",):
        dmg = 1
    if src == "stone-dead":
        dmg = n * len([c for c in m.v.hand if C.BY_SLUG[c].kind == C.STONE])
    other = {"medusa": 8, "lock-in-place": 4 + 4 * bool(me.carrying), "slow": 3,
             "no-spell": 3, "blind": 2, "thought-steal": 2 * n, "telepath": 3, "swap": 3,
             "teleport-opponent": 3 + 3 * bool(me.carrying), "go-away": 2, "slow-death": 7,
             "card-erasure": 2, "drop-object": 6 if me.carrying else 1}
    if src in other:
        return other[src]
    harm = dmg
    if src == "lightning-blast":
        harm += 3
    if src == "fireball" and any(C.BY_SLUG[c].kind == C.STONE for c in m.v.displayed):
        harm += 3
    if dmg >= me.life:
        harm += 20
    return harm


def _answers(m: _Mind) -> Iterator[Action]:
    v, seat = m.v, m.seat
    win = v.stack[0]
    plays = [a for a in m.acts if a.verb == "play"]
    passing = m.by.get(f"{seat} pass")
    standing = _standing(win.counters)
    mine = [c for c in standing if c.player == seat]
    turned = any(c.card in _TURNERS for c in standing)
    victim = seat == win.defender or (seat == win.attacker and turned)
    damaging = win.kind == "indirect" or win.source in (
        *_DAMAGE, "punch", "dagger", "large-rock", "wizardblade", "waterbolt", "slow-death-tick")
    # an answering stone costs nothing and stays: display it when damage is coming
    if victim and damaging:
        for a in plays:
            if a.card in _ANSWER_STONES:
                yield a
    if win.kind == "indirect":
        if not mine and win.value >= 2:
            for slug in (("absorb", "blunt") if win.value <= 3 else ("blunt", "absorb")):
                for a in plays:
                    if a.card == slug:
                        yield a
        if passing is not None:
            yield passing
        return
    if seat == win.attacker and not victim:
        theirs = [c for c in standing if c.player != seat]
        if theirs and theirs[-1].card not in ("teleport", "invisible", "wall-of-fire",
                                              "waterwall") and win.value + 2 >= 3:
            for a in plays:
                if a.card in ("anti-anti", "absorb-spell"):
                    yield a
        if passing is not None:
            yield passing
        return
    harm = _harm(m, win)
    if mine or harm < 2:
        if passing is not None:
            yield passing
        return
    spell = win.source in C.BY_SLUG and C.BY_SLUG[win.source].spell
    order: list[str] = []
    if harm >= 5:
        order = ["full-reflection", "absorb-spell", "full-shield", "reverse", "teleport",
                 "invisible", "wall-of-fire", "waterwall", "reflection", "absorb", "blunt"]
    elif harm >= 3:
        order = ["reverse", "reflection", "full-reflection", "absorb-spell", "absorb", "blunt",
                 "full-shield", "invisible", "wall-of-fire", "waterwall"]
    else:
        order = ["reverse", "blunt", "absorb", "reflection"]
    if not spell:
        order = [s for s in order if s not in ("full-reflection", "absorb-spell",
                                               "full-shield", "reflection")]
    for slug in order:
        options = [a for a in plays if a.card == slug]
        if slug == "teleport":
            goals = m.goals() or ({m.me.home} if m.me.home is not None else set())
            options.sort(key=lambda a: (_teleport_key(m, a, goals), str(a)))
        elif slug in ("invisible", "waterwall"):
            options.sort(key=lambda a: (-(a.number or 0), str(a)))
        yield from options
    if passing is not None:
        yield passing


def _teleport_key(m: _Mind, a: Action, goals: set[Square]) -> int:
    sq = parse_square(a.targets[0])
    near_enemy = sum(1 for p in m.enemies if p.at is not None and m.sees(sq, p.at))
    return (m.goal_dist(sq, goals) if goals else 0) + 3 * near_enemy


# ---- the own turn -----------------------------------------------------------------------
def _turn(m: _Mind) -> Iterator[Action]:
    v, seat, me = m.v, m.seat, m.me
    by = m.by
    at = me.at
    assert at is not None
    end = by.get(f"{seat} end")
    if v.picked_up:
        if end is not None:
            yield end
        return
    # score: drop an enemy treasure on our home base (or a team-mate's); a rescued one home
    if me.carrying and f"{seat} drop {me.carrying}" in by and \
            (at == me.home or (at in m.bases and _owner(me.carrying) not in m.team)):
        yield by[f"{seat} drop {me.carrying}"]
    # magic stones work only displayed
    for a in m.acts:
        if a.verb == "play" and a.card in _STONES and a.card not in v.displayed \
                and not a.targets:
            yield a
    # another whole turn
    for a in m.acts:
        if a.verb == "play" and (a.card == "speed" or (a.card == "reuse-spell"
                                                        and a.arg("spell") == "speed")):
            yield a
    # pick up a treasure worth taking
    homes = {p.home for p in m.enemies}
    for a in m.acts:
        if a.verb == "pickup" and "." in a.targets[0] and not me.carrying:
            ours = _owner(a.targets[0]) in m.team
            if (not ours and at not in m.bases) or (ours and at in homes):
                yield a
    goals = m.goals()
    route = m.route()
    # teleport: home with a treasure, or onto a far enemy treasure
    yield from _teleport_shortcut(m, goals, route)
    # the turn's attack
    yield from _attack(m)
    # on the way: open what stands in the way, then walk
    yield from _walk(m, route)
    # what is left of the turn: block, spoil, protect
    yield from _utility(m)
    yield from _protect(m)
    # rather than lose them at the hand limit, use cards of little worth
    if me.hand_size + 2 > (9 if "brainstone" in v.displayed else 7):
        yield from _spend(m)
    for a in m.acts:
        if a.verb == "pickup" and "." not in a.targets[0] and me.hand_size < 7:
            yield a
    if end is not None:
        yield end


def _teleport_shortcut(m: _Mind, goals: set[Square], route) -> Iterator[Action]:
    me = m.me
    if not m.hand["teleport"] or not goals or me.at is None:
        return
    d = m.goal_dist(me.at, goals)
    if d <= m.v.moves_left + 1:
        return
    if me.carrying and me.home is not None:
        for base in sorted(goals):
            a = m.by.get(f"{m.seat} play teleport @{square_name(base)}")
            if a is not None:
                yield a
        return
    for g in sorted(goals):
        if any("." in t for t in m.v.tokens.get(g, ())):
            a = m.by.get(f"{m.seat} play teleport @{square_name(g)}")
            if a is not None and d >= 6:
                yield a


def _attack_value(m: _Mind, a: Action) -> int:
    """Worth of an attack action, in about life points times 10 (0: not worth a card)."""
    v, me = m.v, m.me
    card = "punch" if a.verb == "punch" else a.card
    if not a.targets or not a.targets[0].startswith("P") or "." in a.targets[0]:
        return 0
    try:
        t = v.player(a.targets[0])
    except KeyError:
        return 0
    if t.seat == m.seat or not t.alive or t.out:
        return 0
    n = a.number or 1
    conds = set(t.conditions)
    hit = 10
    if "invisible" in conds:
        hit = 3
    elif "shrink" in conds:
        hit = 5
    dmg = 0
    other = 0
    physical = card in ("punch", "dagger", "large-rock")
    if card in ("fireball", "lightning-blast", "power-drain"):
        dmg = n
    elif card == "powerthrust":
        dmg = n + 2
    elif card == "sudden-death":
        dmg = 10
    elif card == "stone-dead":
        dmg = n * sum(1 for c in t.displayed if C.BY_SLUG[c].kind == C.STONE)
        if dmg == 0:
            return 0
    elif card == "punch":
        dmg = 1
    elif card == "dagger":
        dmg = 2
    elif card in ("large-rock", "wizardblade"):
        dmg = 3
    elif card == "waterbolt":
        dmg, other = 1, 1 + 3 * bool(t.carrying)
    elif card in _CURSES:
        base = {"medusa": 4, "lock-in-place": 2, "slow": 1, "no-spell": 2, "blind": 1}[card]
        if card in conds:
            return 0
        other = base + min(n, 4) + (5 if t.carrying and card in ("medusa", "lock-in-place",
                                                                 "slow") else 0)
        if card in ("no-spell", "blind") and t.hand_size >= 4:
            other += 2
    elif card == "thought-steal":
        other = 2 * min(n, t.hand_size)
    elif card == "telepath":
        other = 3 if t.hand_size >= 2 else 0
    elif card == "card-erasure":
        other = 1 if t.hand_size >= 3 else 0
    elif card == "drop-object":
        other = 7 if t.carrying else 0
    elif card == "slow-death":
        other = 0 if "slow-death" in conds else 5
    elif card == "go-away":
        near_home = me.home is not None and t.at is not None and \
            m.dist(me.home).get(t.at, 99) <= 4
        other = 1 + n // 2 + (3 if near_home or t.carrying else 0)
    elif card == "swap":
        goals = m.goals()
        if me.at is None or t.at is None or not goals or m.v.moves_left < (
                3 if "speedstone" not in v.displayed else 4):
            return 0
        gain = m.goal_dist(me.at, goals) - m.goal_dist(t.at, goals)
        other = gain - 1 if gain >= 3 else 0
    elif card == "teleport-opponent":
        if not t.carrying or t.home is None:
            return 0
        to = parse_square(a.arg("to"))
        home_d = m.dist(t.home, True)
        gain = home_d.get(to, 99) - home_d.get(t.at, 99) if t.at is not None else 0
        other = 2 + gain if gain > 0 else 0
    else:
        return 0
    if dmg:
        if "medusa" in conds:
            return 0
        if physical and "shieldstone" in t.displayed:
            return 0
        if not physical and "soulstone" in t.displayed and t.life <= 3:
            return 0
        if "bloodstone" in t.displayed:
            dmg -= 1
        if physical and "mist-body" in conds:
            return 0
        val = min(dmg, t.life)  # a kill is a kill: no more for overkill
        if dmg >= t.life:
            val += 12
        if card == "lightning-blast":
            val += 2
        if card == "power-drain":
            val += n
        if card == "fireball":
            val += 2 * sum(1 for c in t.displayed if C.BY_SLUG[c].kind == C.STONE)
        if t.carrying:
            val += 2
        other += val
    return other * hit


def _attack_options(m: _Mind) -> list[Action]:
    """The attacks worth making now, best first: one per card, target and arguments, with the
    number card the apprentice would use (the smallest that kills, else the biggest). With
    candidates (not only legal actions) the LOS attacks on enemies out of plain sight are left
    out; the rest still need ``m.ok``."""
    v, me = m.v, m.me
    if v.round <= 1 or v.attacked:
        return []
    sight = {p.seat for p in m.in_sight()} if not m.exact else None
    best_num: dict[tuple, tuple[int, Action]] = {}
    for a in m.acts:
        if a.verb == "punch":
            if not a.targets[0].startswith("P") or "." in a.targets[0]:
                continue
        elif a.verb != "play" or C.BY_SLUG.get(a.card) is None:
            continue
        elif C.BY_SLUG[a.card].kind not in (C.ATTACK, C.OBJECT):
            continue
        if a.verb == "play" and a.card == "dagger" and a.arg("mode") == "throw":
            t0 = v.player(a.targets[0]) if a.targets and a.targets[0].startswith("P") else None
            if t0 is not None and t0.at == me.at:
                continue  # stab rather than throw it away
        if sight is not None and a.verb == "play" and a.card != "dagger" and \
                C.BY_SLUG[a.card].target.startswith("los") and a.targets and \
                a.targets[0] not in sight:
            continue
        val = _attack_value(m, a)
        if val <= 0:
            continue
        key = (a.verb, a.card, a.targets, a.args)
        n = a.number or 0
        score = val * 10 - n * 3
        if a.card in _DAMAGE and val >= 120:  # a kill: the smallest number that does it
            score = val * 10 - n * 12
        prev = best_num.get(key)
        if prev is None or score > prev[0]:
            best_num[key] = (score, a)
    ranked = sorted(((sc, str(a), a) for sc, a in best_num.values()),
                    key=lambda x: (-x[0], x[1]))
    return [a for sc, _s, a in ranked
            if not (sc < 15 and a.verb == "play" and C.BY_SLUG[a.card].kind == C.ATTACK)]


def _attack(m: _Mind) -> Iterator[Action]:
    seat = m.seat
    for a in _attack_options(m):
        if not m.ok(a):
            continue
        # a modifier first, when one helps this attack
        cd = C.BY_SLUG.get(a.card) if a.verb == "play" else None
        if cd is not None and a.card in _DAMAGE and a.card not in ("sudden-death",):
            for mod in ("amplify", "add"):
                mod_a = _modifier_action(m, mod, a)
                if mod_a is not None and m.ok(mod_a):
                    yield mod_a
        if cd is not None and cd.number == "duration":
            mod_a = m.by.get(f"{seat} play extend")
            if mod_a is not None and m.ok(mod_a):
                yield mod_a
        yield a
        return
    # nothing in sight: bend the line round a corner to someone who hides
    for a in m.acts:
        if a.verb == "play" and a.card == "around-the-corner" and _corner_helps(m, a):
            yield a
            return


def _modifier_action(m: _Mind, mod: str, attack: Action) -> Action | None:
    if not m.hand[mod]:
        return None
    if mod == "amplify":
        return m.by.get(f"{m.seat} play amplify")
    # Add carries its own number card: one not used by the attack
    left = Counter(m.v.hand)
    if attack.number is not None:
        left[str(attack.number)] -= 1
    nums = sorted((int(s) for s, k in left.items() if k > 0 and C.is_number(s)), reverse=True)
    for n in nums:
        a = m.by.get(f"{m.seat} play add +{n}")
        if a is not None:
            return a
    return m.by.get(f"{m.seat} play add")


def _walk(m: _Mind, route) -> Iterator[Action]:
    v, seat, me = m.v, m.seat, m.me
    if not route:
        return
    sq, e = route[0]
    blocked = e in v.edges and e not in v.open_doors
    if blocked:
        en = edge_name(e)
        for tool in _DOOR_TOOLS:
            for a in m.acts:
                if a.verb == "play" and a.card == tool and a.targets and a.targets[0] == en:
                    yield a
        for a in m.acts:
            if a.verb == "play" and a.card == "mist-body":
                yield a
                break
        return
    if m.hand["mist-body"] and any(x in v.edges and x not in v.open_doors
                                   for _s, x in route[1:]):
        nums = sorted((a for a in m.acts if a.verb == "play" and a.card == "mist-body"),
                      key=lambda a: (a.number or 0))
        if nums and route and any(v.edges.get(x, ("",))[0] == "door" for _s, x in route):
            yield nums[min(1, len(nums) - 1)]
    step = m.by.get(f"{seat} move {square_name(sq)}")
    # an enemy in our square comes along (Drag), when we have cards to spare
    if me.hand_size >= 6 and v.moves_left > 0:
        for a in m.acts:
            if a.verb == "play" and a.card == "drag" and a.arg("path") == square_name(sq):
                yield a
                break
    if step is not None:
        if v.moves_left > 0:
            yield step
        elif me.carrying and len(route) <= max(0, me.life - 5):
            yield step  # a Power Run on: pay life to get home
    # drag an enemy treasure-carrier along, away from his home
    if v.moves_left > 0:
        yield from _drag(m)
    # not far enough: boost, or run
    if len(route) > v.moves_left:
        short = len(route) - v.moves_left
        boosts = sorted((a for a in m.acts if a.verb == "boost"), key=lambda a: a.number or 0)
        fit = [a for a in boosts if (a.number or 0) >= short]
        if fit:
            yield fit[0]
        elif boosts and me.hand_size >= 4:
            yield boosts[-1]
        if me.carrying and short <= 3 and me.life > short + 5:
            run = m.by.get(f"{seat} play power-run")
            if run is not None:
                yield run


def _drag(m: _Mind) -> Iterator[Action]:
    me = m.me
    for p in m.enemies:
        if p.at == me.at and p.carrying and p.home is not None:
            d = m.dist(p.home, True)
            options = [a for a in m.acts if a.verb == "play" and a.card == "drag"
                       and a.targets == (p.seat,)]
            options.sort(key=lambda a: (-d.get(parse_square(a.arg("path").split("-")[-1]), 0),
                                        str(a)))
            yield from options[:1]


def _carriers(m: _Mind) -> list[PlayerInfo]:
    return [p for p in m.enemies if p.carrying and p.home is not None and p.at is not None]


def _utility(m: _Mind) -> Iterator[Action]:
    """Neutrals that hinder the enemies: block a treasure-carrier's way home, push him off,
    knock down a wall on a wizard, clear the own way."""
    v, seat, me = m.v, m.seat, m.me
    plays = [a for a in m.acts if a.verb == "play"]
    # a treasure-carrier's next steps home: bush, stone, wall in the way
    for p in _carriers(m):
        assert p.at is not None and p.home is not None
        path = path_to(v, p.at, {p.home}, doors_ok=True) or []
        squares = {s for s, _e in path[:3]}
        edges = {e for _s, e in path[:3]}
        for slug in ("fill-square-with-stone", "thornbush"):
            for a in m.plays_of(slug):
                if parse_square(a.targets[0]) in squares:
                    yield a
        for slug in ("create-wall", "wall-of-fire", "illusion-wall"):
            for a in m.plays_of(slug):
                if a.targets and ":" in a.targets[0]:
                    if parse_edge(a.targets[0]) in edges:
                        yield a
        for a in sorted((a for a in plays if a.card == "waterwall"),
                        key=lambda a: -(a.number or 0)):
            x, y, _side = parse_edge(a.targets[0])
            nb = v.layout.neighbor((x, y), _side)
            if (x, y) == p.at or (nb is not None and nb[0] == p.at):
                yield a
        # turn or move a sector when that sends him farther from home
        yield from _reshape(m, p)
    # Destroy Wall next to an enemy wizard: 2 damage, even in round 1
    for a in plays:
        if a.card == "destroy-wall" and a.targets:
            x, y, side = parse_edge(a.targets[0])
            nb = v.layout.neighbor((x, y), side)
            beside = {(x, y)} | ({nb[0]} if nb is not None else set())
            if me.at not in beside and any(p.at in beside and p.life <= 6 for p in m.enemies):
                yield a
    # Ugly: send away enemies who see us near our home or while we carry a treasure
    near = [p for p in m.in_sight() if p.at is not None and me.at is not None
            and abs(p.at[0] - me.at[0]) + abs(p.at[1] - me.at[1]) <= 4]
    if near and (me.carrying or any(p.carrying for p in near) or me.at == me.home):
        ugly = m.by.get(f"{seat} play ugly")
        if ugly is not None:
            yield ugly
    # Dispel a creation (thornbush, stone block, created wall) that stands in our way
    goals = m.goals()
    if goals and me.at is not None and m.hand["dispel-creation"]:
        clear = _way_without_creations(m, goals)
        for a in plays:
            if a.card != "dispel-creation" or not a.targets:
                continue
            t = a.targets[0]
            if (":" in t and parse_edge(t) in clear[1]) or (":" not in t and
                                                            parse_square(t) in clear[0]):
                yield a


def _way_without_creations(m: _Mind, goals: set[Square]) -> tuple[set[Square], set[Edge]]:
    """The squares and edges of our shortest way to a goal as if no creation stood (doors
    open), when that way is shorter than the one we have: what a Dispel Creation would
    clear. Empty sets when creations cost us nothing."""
    v, at = m.v, m.me.at
    assert at is not None
    printed = v.layout.printed
    prev: dict[Square, tuple[Square, Edge]] = {}
    dist = {at: 0}
    q = deque([at])
    hit = None
    while q and hit is None:
        cur = q.popleft()
        for side in "nesw":
            nb = v.layout.neighbor(cur, side)
            if nb is None or nb[0] in dist:
                continue
            sq, e = nb
            kind = v.edges.get(e, ("",))[0]
            if e in v.edges and e not in v.open_doors and kind != "door" and e in printed:
                continue  # a printed wall: no dispel removes it
            dist[sq] = dist[cur] + 1
            prev[sq] = (cur, e)
            if sq in goals:
                hit = sq
                break
            q.append(sq)
    if hit is None or dist[hit] >= m.goal_dist(at, goals):
        return set(), set()
    squares, edges = set(), set()
    sq = hit
    while sq != at:
        p, e = prev[sq]
        squares.add(sq)
        if e in v.edges and e not in printed:
            edges.add(e)
        sq = p
    return {s for s in squares if s in v.bushes or s in v.stones}, edges


def _reshape(m: _Mind, p: PlayerInfo) -> Iterator[Action]:
    """Rotate or Relocate Sector when it puts the carrier ``p`` farther from his home (and
    us no farther from ours), judged on the board rebuilt by the rules themselves."""
    options = [a for a in m.acts if a.verb == "play" and a.card in ("rotate-sector",
                                                                    "relocate-sector")]
    if not options:
        return
    from core.rng import Rng
    from core.wizwar import determinize as D
    from core.wizwar.rules import apply
    from core.wizwar.view import view as view_of

    base = D.sample_state(m.v, Rng.from_seed("reshape"))
    scored = []
    for a in options:
        st = D.clone(base)
        try:
            apply(st, a)
        except Exception:  # noqa: BLE001 - an option the imagined board refuses
            continue
        w2 = st.wizard(p.seat)
        if w2.at is None or w2.home is None:
            continue
        v2 = view_of(st, m.seat)
        d_them = distances(v2, w2.home, True).get(w2.at, 99)
        d_now = distances(m.v, p.home, True).get(p.at, 99)  # type: ignore[arg-type]
        if d_them >= d_now + 3:
            scored.append((-(d_them - d_now), str(a), a))
    scored.sort(key=lambda x: (x[0], x[1]))
    for _s, _t, a in scored[:1]:
        yield a


def _protect(m: _Mind) -> Iterator[Action]:
    """Before ending the turn in sight of enemies: Buddy, a wall across the line, Invisible,
    Shrink."""
    v, me = m.v, m.me
    watchers = m.in_sight()
    if not watchers or me.at is None:
        return
    worried = me.life <= 8 or bool(me.carrying) or len(watchers) >= 2
    plays = [a for a in m.acts if a.verb == "play"]
    if worried:
        # a wall across the line of sight of the nearest watcher
        here = me.at
        w0 = min(watchers, key=lambda p: (abs(p.at[0] - here[0]) + abs(p.at[1] - here[1])
                                          if p.at is not None else 0, p.seat))
        assert w0.at is not None
        lines = sightlines(v.layout, w0.at, me.at)
        crossing = set(lines[0].edges) if lines else set()

        for slug in ("create-wall", "illusion-wall", "wall-of-fire"):
            for a in m.plays_of(slug):
                if a.targets and parse_edge(a.targets[0]) in crossing:
                    yield a
        for a in plays:
            if a.card == "buddy" and a.targets == (w0.seat,):
                yield a
        inv = sorted((a for a in plays if a.card == "invisible"), key=lambda a: -(a.number or 0))
        yield from inv[:1]
        shr = sorted((a for a in plays if a.card == "shrink"), key=lambda a: -(a.number or 0))
        if me.life <= 6:
            yield from shr[:1]
    # in our own sector: jam a door of our square against visitors
    if me.home is not None and not me.carrying and \
            v.layout.sector_of(me.at) == v.layout.sector_of(me.home) and \
            v.layout.sector_of(me.at) is not None:
        for a in plays:
            if a.card == "jam-lock":
                yield a


def _spend(m: _Mind) -> Iterator[Action]:
    """Cards of little worth, played for what they do rather than discarded at the limit."""
    v, seat, me = m.v, m.seat, m.me
    goals = m.goals()
    worst = sorted((s for s in set(v.hand) if s in _SPENDABLE),
                   key=lambda s: (card_value(s), s))
    for slug in worst:
        options = [a for a in m.acts if a.verb == "play" and a.card == slug]
        if slug in ("thornbush", "fill-square-with-stone") and me.home is not None:
            # guard the approaches of our home base
            options = [a for a in options
                       if m.dist(me.home).get(parse_square(a.targets[0]), 99) in (1, 2)]
        if slug == "card-erasure":
            options = [a for a in options if a.arg("name") == "full-shield"]
        if slug in ("add", "amplify", "extend") and not any(
                a.verb in ("boost",) for a in m.acts):
            options = []
        if slug == "destroy-wall":
            options = [a for a in options if _wall_clears_way(m, a, goals)]
        if slug == "dispel-creation":
            options = []
        if slug in ("create-wall", "illusion-wall", "wall-of-fire") and me.home is not None:
            options = [a for a in options if _near_home_edge(m, a)]
        if slug == "rotate-sector" or slug == "relocate-sector":
            options = options[:1] if not _carriers(m) else []
        if slug == "around-the-corner":
            options = [a for a in options if _corner_helps(m, a)]
        if slug in ("shrink", "power-run", "mist-body"):
            options = []
        if slug == "buddy":
            options = [a for a in options if a.targets and any(
                p.seat == a.targets[0] for p in m.in_sight())]
        options.sort(key=lambda a: (a.number or 0, str(a)))
        for a in options:
            if m.ok(a):
                yield a
                return
    _ = seat


def _wall_clears_way(m: _Mind, a: Action, goals: set[Square]) -> bool:
    """Destroying this wall shortens our way to a goal by 3 or more."""
    me = m.me
    if not goals or me.at is None or not a.targets:
        return False
    e = parse_edge(a.targets[0])
    x, y, side = e
    nb = m.v.layout.neighbor((x, y), side)
    if nb is None or me.at in ((x, y), nb[0]):
        return False
    if any(p.at in ((x, y), nb[0]) for p in m.v.players if p.seat == m.seat):
        return False
    here = m.goal_dist(me.at, goals)
    d1 = m.dist(me.at, True)
    return d1.get((x, y), 99) + 1 + min(m.goal_dist(nb[0], goals), 99) <= here - 3


def _near_home_edge(m: _Mind, a: Action) -> bool:
    me = m.me
    if not a.targets or me.home is None:
        return False
    x, y, _s = parse_edge(a.targets[0])
    return 1 <= m.dist(me.home).get((x, y), 99) <= 2


def _corner_helps(m: _Mind, a: Action) -> bool:
    """Around the Corner pays when an enemy in no direct sight is seen from the pivot and we
    hold an attack by line of sight."""
    if m.v.round <= 1 or m.v.attacked or not any(
            C.BY_SLUG[s].kind == C.ATTACK and C.BY_SLUG[s].target.startswith("los")
            for s in m.v.hand):
        return False
    pivot = parse_square(a.targets[0])
    seen = {p.seat for p in m.in_sight()}
    return any(p.seat not in seen and p.at is not None and m.sees(pivot, p.at)
               for p in m.enemies)


# ---------------------------------------------------------------------------------------
# the archmage
# ---------------------------------------------------------------------------------------
def choose(v: View, seat: str, legal: list[Action], level: str = "apprentice", *,
           budget: int | None = None, seed: int = 0, more: More | None = None) -> Action:
    """Pick one of ``legal`` for ``seat`` from view ``v`` at bot ``level`` (one of
    ``LEVELS``), or one of the far creations ``more`` lists (:data:`More`; None: ``legal``
    only). ``budget`` is the archmage's playouts per decision (default
    :data:`DEFAULT_BUDGET`), ``seed`` varies its sampling. Raises ``ValueError`` if ``legal``
    is empty or the level unknown."""
    if not legal:
        raise ValueError("no legal action")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    # the choice depends on the set of legal actions, never on their order (which follows,
    # for one, the order the rules met the edges in: a restored state may list them otherwise)
    legal = sorted(legal, key=str)
    if level == "archmage":
        return archmage(v, seat, legal, DEFAULT_BUDGET if budget is None else budget, seed,
                        more)
    return apprentice(v, seat, legal, more)


def archmage(v: View, seat: str, legal: list[Action], budget: int, seed: int = 0,
             more: More | None = None) -> Action:
    """The archmage's choice: determinized Monte Carlo over the hidden cards.

    On its own turn (nothing on the stack, nothing to discard) it shortlists a few candidates
    (the apprentice's choice and its other preferences, every step, the end of the turn, its
    best attack), imagines the hidden cards (:func:`core.wizwar.determinize.sample_state`,
    seeded from the view and ``seed``) in ``budget // candidates`` worlds (at least 2), plays
    every candidate out in every world with apprentices for every seat to the end of the next
    player's turn and scores the outcome. It takes another candidate than the apprentice's
    only when that does better by :data:`MARGIN` points on average over the same worlds and
    in most of them. Elsewhere (answers, discards, retreats, Telepath's choice), and with
    ``budget`` 0, it plays as the apprentice. Raises ``ValueError`` if ``legal`` is empty."""
    from core.wizwar import determinize as D

    if not legal:
        raise ValueError("no legal action")
    base = apprentice(v, seat, legal, more)
    if len(legal) == 1 or budget <= 0 or v.discarding or v.picked_up or \
            base.verb in ("choose",) or _obvious(v, seat, base):
        return base
    if v.stack:
        cands = _answer_list(v, seat, legal, base)
    elif v.active == seat:
        cands = _shortlist(v, seat, legal, base, more=more)
    else:
        return base  # a forced retreat
    if len(cands) == 1:
        return base
    rng = D.view_rng(v, seed)
    n = max(2, budget // len(cands))
    worlds = [D.sample_state(v, rng) for _ in range(n)]
    scores = {str(a): [_playout(w, seat, a) for w in worlds] for a in cands}
    ref = scores[str(base)]
    best, best_gain = base, 0
    for a in cands[1:]:
        diffs = [x - y for x, y in zip(scores[str(a)], ref, strict=True)]
        gain = sum(diffs) // n
        better = sum(1 for d in diffs if d > 0)
        worse = sum(1 for d in diffs if d < 0)
        if gain > MARGIN and better >= 2 * worse and gain > best_gain:
            best, best_gain = a, gain
    return best


def _obvious(v: View, seat: str, a: Action) -> bool:
    """Choices no search improves: scoring a treasure, taking one, a stone, Speed."""
    me = v.player(seat)
    if a.verb == "drop" and me.carrying and a.targets == (me.carrying,) and \
            me.at in team_bases(v, seat):
        return True
    if a.verb == "pickup" and "." in a.targets[0]:
        return True
    return a.verb == "play" and (a.card in _STONES or a.card == "speed"
                                 or a.arg("spell") == "speed")


def _answer_list(v: View, seat: str, legal: list[Action], base: Action, size: int = 6
                 ) -> list[Action]:
    """The answers the archmage weighs: the apprentice's, passing, and each counteraction it
    may play (one way each, the apprentice's favourite: Teleport's square, Invisible's
    number, the edge of a block)."""
    out = [base]
    seen = {str(base), base.card}
    for a in prefs(v, seat, legal):
        key = "pass" if a.verb == "pass" else a.card
        if key not in seen and len(out) < size:
            seen.add(key)
            out.append(a)
    return out


def _shortlist(v: View, seat: str, legal: list[Action], base: Action, size: int = 6, *,
               more: More | None = None) -> list[Action]:
    """The candidates the archmage weighs, the apprentice's choice first: its best attack,
    every step, the end of the turn, then the apprentice's other preferences (never a
    discard or a drop away from home)."""
    out: list[Action] = []
    seen: set[str] = set()

    def add(a: Action | None) -> None:
        if a is not None and str(a) not in seen and len(out) < size:
            seen.add(str(a))
            out.append(a)

    add(base)
    m = _Mind(v, seat, legal, None)
    for a in _attack_options(m)[:2]:
        add(a)
    for a in legal:
        if a.verb == "move":
            add(a)
    add(m.by.get(f"{seat} end"))
    for a in prefs(v, seat, legal, tail=False, more=more):
        if a.verb not in ("discard", "drop"):
            add(a)
    return out


#: How much better (score points per playout) a candidate must do than the apprentice's
#: choice to replace it, against the noise of few playouts.
MARGIN = 30
#: A playout stops after this many actions even inside the horizon.
PLAYOUT_STEPS = 40


def _playout(world, seat: str, first: Action) -> int:
    """Play ``first`` in a copy of the imagined game ``world``, then apprentices for every
    seat until the turn after the next begins (or the game ends); the score for ``seat``."""
    from core.engine import IllegalAction
    from core.wizwar import determinize as D
    from core.wizwar import rules

    st = D.clone(world)
    turn = st.turn  # the horizon counts from the turn of the decision
    try:
        rules.apply(st, first)
    except IllegalAction:
        return _score(st, seat) - 5000  # not legal in this imagined game: a poor bet
    try:
        _play_on(st, turn)
    except Exception:  # noqa: BLE001 - an imagined game holds guessed facts (who cast
        pass  # what, the turn's modifiers) that can make it inconsistent: score it as it is
    return _score(st, seat)


def _play_on(st, turn) -> None:
    """Apprentices play every seat of ``st`` until the turn after the one after ``turn``
    begins, the game ends or :data:`PLAYOUT_STEPS` actions are played."""
    from core.wizwar import rules
    from core.wizwar.view import view as view_of

    turns = 0
    cands = getattr(rules, "_candidates", None)
    for _ in range(PLAYOUT_STEPS):
        if st.winner:
            break
        if st.turn is not turn:
            turns += 1
            turn = st.turn
            if turns >= 2:
                break
        mover = rules.to_move(st)[0]
        acts = cands(st, mover) if cands is not None else rules.legal_actions(st, mover)
        pick = None
        for a in prefs(view_of(st, mover), mover, acts, ok=lambda a: rules.is_legal(st, a)):
            if rules.is_legal(st, a):
                pick = a
                break
        if pick is None:
            legal = rules.legal_actions(st, mover)
            if not legal:
                break
            pick = legal[0]
        # found legal on this very state just now: the rules run once (issue 14, eighth round)
        rules.apply(st, pick, checked=True)


def _life(n: int) -> int:
    return n + min(n, 6)


def _team(st, seat: str) -> set[str]:
    team_of = getattr(st, "team_of", None)
    return set(team_of(seat)) if team_of is not None else {seat}


def _score(st, seat: str) -> int:
    """How good an (imagined) game looks for ``seat`` (and its team-mates in the team
    variant), in integer points: winning, life against the enemies' life, treasures on the
    bases or on the way, the way to the next goal, cards in hand, lost turns."""
    team = _team(st, seat)
    if st.winner:
        return 100_000 if set(st.winner.split("+")) & team else -100_000
    me = st.wizard(seat)
    if not me.in_game and len(team) == 1:
        return -100_000
    enemies = [w for w in st.wizards if w.seat not in team]
    n = max(1, len(enemies))
    score = 0
    for w in st.wizards:
        if w.seat not in team:
            continue
        if not w.in_game:
            score -= 2000
            continue
        score += 20 * _life(w.life) + 8 * len(w.hand) - 30 * w.lost_turns
    for o in enemies:
        if not o.in_game:
            score += 400
            continue
        score -= (20 * _life(o.life) + 6 * len(o.hand) - 30 * o.lost_turns) // n
    bases = {w.home for w in st.wizards if w.seat in team and w.home is not None
             and (w.seat == seat or w.in_game)}
    for t, sq in st.treasures.items():
        owner = t.split(".")[0]
        home_of = st.home_owner(sq) if sq is not None else None
        if owner in team:
            if home_of is not None and home_of.seat not in team:
                score -= 300  # half of an enemy's win
        elif sq is not None and sq in bases:
            score += 350  # half of ours
    if not me.in_game or me.at is None:
        return score
    dist = _state_distances(st, me.at)
    theirs = me.carrying and me.carrying.split(".")[0] not in team
    if theirs:
        score += 200 - 8 * min(min(dist.get(b, 40) for b in bases), 40)
    elif me.carrying and me.home is not None:  # our own, rescued: home is safest
        score -= 2 * min(dist.get(me.home, 40), 40)
    else:
        goals = [sq for t, sq in st.treasures.items()
                 if sq is not None and t.split(".")[0] not in team and sq not in bases]
        if goals:
            score -= 5 * min(min(dist.get(g, 40) for g in goals), 40)
    for o in enemies:
        if o.in_game and o.carrying and o.home is not None and o.at is not None:
            owner = o.carrying.split(".")[0]
            if owner in _team(st, o.seat):
                continue  # he only rescues his own (or his team's)
            d = min(_state_distances(st, o.at).get(o.home, 40), 40)
            if owner in team:
                score -= 300 - 8 * d  # ours, on its way to his base
            else:
                score -= (200 - 8 * d) // n  # a third player's: he nears a win
    return score


#: Extra cost of crossing a closed door in the archmage's distances (a key, or some turns).
DOOR_COST = 4


def _state_distances(st, frm: Square) -> dict[Square, int]:
    """Walking cost in an (imagined) state: a step costs 1, a closed door
    :data:`DOOR_COST` more, a thornbush 3 more; walls and stone blocks stop the walk."""
    import heapq

    dist = {frm: 0}
    heap = [(0, frm)]
    lay = st.layout
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist.get(cur, 1 << 30):
            continue
        for side in "nesw":
            nb = lay.neighbor(cur, side)
            if nb is None:
                continue
            sq, e = nb
            if sq in st.stones:
                continue
            cost = 1
            es = st.edges.get(e)
            if es is not None and e not in st.turn.open_doors:
                if es.kind == "door":
                    cost += DOOR_COST
                elif es.kind in ("wall-of-fire", "door-jammed"):
                    cost += 2 * DOOR_COST
                else:
                    continue
            if sq in st.bushes:
                cost += 3
            nd = d + cost
            if nd < dist.get(sq, 1 << 30):
                dist[sq] = nd
                heapq.heappush(heap, (nd, sq))
    return dist


__all__ = ["DEFAULT_BUDGET", "LEVELS", "apprentice", "card_value", "choose", "distances",
           "path_to", "prefs", "sees"]
