"""Wizard Kings self-play (issue 18): bots play whole games headless while every action is
checked; ``wizwar selfplay wizard-kings --games N`` (the ruleset's ``tools["selfplay"]``).

Before every action, the engine's checks: whoever must act has a legal action (in a
sealed stage every player listed; the first is asked first, as the rules apply the orders
in seat order anyway, R89); every listed action round-trips through its text and its
msgpack form; ``sample`` of them (all when 0), chosen with a seeded generator, apply on a
copy; the bot's choice is listed or a member of a family it was offered. After every
action: the state round-trips through msgpack (same hash); no view shows a block its
player may not know (the view is unchanged when the hidden blocks are dealt other
strengths, ``Ruleset.redeal_hidden``); and Wizard Kings' own invariants
(:func:`check_state`):

- stacking (R47): outside a pending settlement no side has more units in a hex than the
  stacking option allows, nor two wizards;
- hexside limits (R46): no hexside counts more entries into a battle hex than 2;
- no unit on terrain it may not occupy (R24-R36): ground units on land, Aquatics in water or
  coastal or river hexes, Flyers at sea only while their battle is fought;
- the treasury spent, never saved (R90, R91): every Build Phase's treasury is the GP of
  the cities the player controls then, and no order costs more;
- strengths within 1..max for every block on the map (R4).

A bot's choice is replaced one time in ``noise`` (0: never) by a seeded random one among
the listed actions and the members of one family (a rarely chosen unit or spell gets used
too). A game longer than ``max_actions`` stops ("capped"). A failure stops its game, keeps
its log (the header's ``extra`` names the first bad action and why) and the run goes on.

The report counts, across the run, every unit type used (moved, transported, sent through
a gate, fired, retreated or regrouped) and every spell cast.

Everything is pure and deterministic (:class:`core.rng.Rng`); the caller prints the report
(``wizwar_tui/cli.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core import log
from core.codec import pack, unpack
from core.engine import IllegalAction
from core.rng import Rng
from core.selfplay import GameResult, tenths
from core.selfplay import RunReport as _RunReport
from core.wizardkings import bot
from core.wizardkings import game as G
from core.wizardkings.actions import Action
from core.wizardkings.ruleset import RULESET
from core.wizardkings.turn import MOVE_SPELLS, SPELLS
from core.wizardkings.units import ARMIES

MAX_ACTIONS = 4000
DEFAULT_PLAYERS = 2
NOISE = 6
LEVELS = (*bot.LEVELS, "random")
#: the events that say a unit of some type was used, and the block they name
_USE_EVENTS = ("moved", "transported", "gated", "fired", "retreated", "regrouped")


def unit_types() -> list[str]:
    """``army:type`` for every unit type of both armies (castles and Chaos units too)."""
    return [f"{a}:{t}" for a in sorted(ARMIES) for t in ARMIES[a]]


def spells() -> list[str]:
    """Every spell slug of both wizards."""
    return sorted(set(SPELLS) | set(MOVE_SPELLS))


@dataclass
class RunReport(_RunReport):
    """The totals of a run: uses per unit type (``army:type``), casts per spell."""

    units: Counter = field(default_factory=Counter)
    casts: Counter = field(default_factory=Counter)


# ---- the checks --------------------------------------------------------------------------
def check_state(g: dict[str, Any]) -> str:
    """Wizard Kings' invariants on a state dict (see the module docstring); ``""`` when
    they hold, else what is wrong."""
    b = G.bd(g)
    settle = g.get("settle") or {}
    bt = g.get("battle") or {}
    hexes = sorted({x["at"] for x in g["blocks"].values() if x["state"] == "map"})
    for h in hexes:
        for s in G.sides_in(g, h):
            units, wiz = G.overstacked(g, h, s)
            if (units or wiz) and settle.get("hex") != h:
                return f"{h} is overstacked for {s} with no settlement pending (R47)"
    for k, n in g["counts"].items():
        if n > 2:
            return f"hexside {k} counts {n} entries (R46)"
    for x_id in sorted(g["blocks"], key=G.bkey):
        x = g["blocks"][x_id]
        if x["state"] != "map":
            continue
        ut = G.utype(g, x_id)
        if not 1 <= x["strength"] <= ut.max:
            return f"{x_id} has strength {x['strength']} (1..{ut.max}, R4)"
        hx = b.hexes[x["at"]]
        if ut.ability == "aquatic":
            if not (hx.water or hx.coastal or hx.rivers):
                return f"the Aquatic {x_id} is on the land hex {x['at']}"
        elif ut.ability == "flyer":
            if hx.water and bt.get("hex") != x["at"] and x["at"] not in g["contacts"]:
                return f"the Flyer {x_id} is at sea in {x['at']} with no battle there (R73)"
        elif hx.water:
            return f"the ground unit {x_id} is in the water hex {x['at']}"
    if g["phase"] == "build":
        for p, n in g["treasury"].items():
            if n != G.treasury(g, p):
                return f"{p}'s treasury is {n}, not the GP of his cities (R90, R91)"
    return ""


def _cost(g: dict[str, Any], a: Action) -> int:
    plan = G.check_build(g, a.actor, a.words)
    army = ARMIES[g["armies"][a.actor]]
    b = G.bd(g)
    cost = sum(army[t].cost * k for t, _h, k in plan["new"]) + \
        army["castle"].cost * len(plan["castles"])
    for x, k in plan["steps"]:
        ut = G.utype(g, x)
        cost += (1 if ut.wizard and b.hexes[g["blocks"][x]["at"]].henge else ut.cost) * k
    return cost


def check_actions(st: Any, legal: list[Action], rng: Rng, sample: int) -> str:
    """Every listed action round-trips (text, msgpack); ``sample`` of them apply on a
    copy."""
    for a in legal:
        if RULESET.parse_action(str(a)) != a or \
                RULESET.action_from_wire(unpack(pack(a.to_wire()))) != a:
            return f"{a} does not round-trip"
    pick = list(legal) if not sample or sample >= len(legal) else \
        [legal[rng.below(len(legal))] for _ in range(sample)]
    for a in pick:
        try:
            RULESET.apply(RULESET.clone(st), a)
        except IllegalAction as exc:
            return f"{a} is listed legal but refused: {exc.reason}"
    return ""


def check_round_trip_and_views(st: Any, k: int) -> str:
    """The state round-trips through msgpack with its hash; no view changes when the
    hidden blocks are dealt other strengths."""
    back = RULESET.state_from_wire(unpack(pack(RULESET.state_to_wire(st))))
    if RULESET.state_hash(back) != RULESET.state_hash(st):
        return "the state does not round-trip through msgpack"
    for p in st.d["players"]:
        other = RULESET.redeal_hidden(st, p, k)
        if RULESET.view(other, p) != RULESET.view(st, p):
            return f"{p}'s view shows a hidden block"
    return ""


# ---- one game ----------------------------------------------------------------------------
def game_options(seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options of the game of ``seed``: the run's, validated."""
    return RULESET.validate_options(dict(options or {}))


def _choose(st: Any, seat: str, level: str, rng: Rng, noise: int,
            legal: list[Action]) -> tuple[Action, list[Action]]:
    """The action for ``seat`` and the set it must belong to (legal plus the members of
    the families offered)."""
    fams = RULESET.families(st, seat)
    cache: dict[str, list[Action]] = {}

    def expand(f: str) -> list[Action]:
        if f not in cache:
            cache[f] = RULESET.expand(st, seat, f) if f in fams else []
        return cache[f]

    if level == "random" or (noise and rng.below(noise) == 0):
        pool = list(legal)
        if fams and rng.below(3) == 0:
            extra = expand(fams[rng.below(len(fams))])
            if extra:
                pool = extra
        a = pool[rng.below(len(pool))]
    else:
        a = RULESET.bot_choose(RULESET.view(st, seat), seat, legal, level, expand=expand)
    allowed = list(legal) + [m for f in cache for m in cache[f]]
    return a, allowed


def play_game(seed: int, levels: tuple[str, ...], *, options: Mapping[str, Any] | None = None,
              max_actions: int = MAX_ACTIONS, sample: int = 3, noise: int = NOISE,
              units: Counter | None = None, casts: Counter | None = None,
              checks: bool = True) -> GameResult:
    """One game of bots at ``levels`` (one per seat), every action checked; ``units`` and
    ``casts`` count what was used. Never raises: a failure is in the result."""
    opts = game_options(seed, options)
    res = GameResult(seed, len(RULESET.seats(opts)), levels, opts)
    rng = Rng.from_seed(f"wk-selfplay {seed}")
    ucount: Counter = Counter() if units is None else units
    ccount: Counter = Counter() if casts is None else casts
    st = RULESET.new_game(opts, seed)

    def fail(kind: str, why: str, a: Any) -> GameResult:
        res.failure = f"{kind}: {why}"
        res.bad_action = f"{len(res.moves) + 1}: {a}" if a is not None else ""
        res.log = _log_bytes(res)
        return res

    while not RULESET.result(st).over:
        if len(res.moves) >= max_actions:
            res.capped = True
            break
        a: Any = None
        try:
            who = RULESET.to_move(st)
            if not who:
                return fail("invariant", "nobody is to act and the game is not over", None)
            seat = who[0]
            legal = RULESET.legal_actions(st, seat)
            if not legal:
                return fail("invariant", f"{seat} must act but has no legal action", None)
            if checks:
                why = check_actions(st, legal, rng, sample)
                if why:
                    return fail("invariant", why, None)
            lv = levels[int(seat[1:]) - 1]
            a, allowed = _choose(st, seat, lv, rng, noise, legal)
            if a not in allowed:
                return fail("invariant", f"the bot chose {a}, which is not offered", a)
            if checks and a.verb == "build":
                cost = _cost(st.d, a)
                if cost > st.d["treasury"].get(seat, 0):
                    return fail("invariant", f"the orders cost {cost} GP, more than the "
                                "treasury (R91)", a)
        except Exception as exc:  # noqa: BLE001 - a crash is reported, never raised
            return fail("crash", f"{type(exc).__name__}: {exc}", a)
        try:
            events = RULESET.apply(st, a)
        except IllegalAction as exc:
            return fail("invariant", f"{a} is offered but refused: {exc.reason}", a)
        except Exception as exc:  # noqa: BLE001
            return fail("crash", f"{type(exc).__name__}: {exc}", a)
        res.moves.append(a)
        for e in events:
            if e.kind in _USE_EVENTS:
                b = str(e.data["block"])
                x = st.d["blocks"][b]
                ucount[f"{st.d['armies'][x['owner']]}:{x['type']}"] += 1
            elif e.kind == "spell_declared":
                ccount[str(e.data["spell"])] += 1
        if checks:
            try:
                why = check_state(st.d) or check_round_trip_and_views(st, len(res.moves))
            except Exception as exc:  # noqa: BLE001
                return fail("crash", f"checking after it: {type(exc).__name__}: {exc}", a)
            if why:
                return fail("invariant", why, a)
    out = RULESET.result(st)
    res.winner = "" if not out.over else ("-" if out.draw else out.winners[0])
    res.actions, res.rounds = len(res.moves), int(st.d["turn"])
    return res


def _log_bytes(res: GameResult) -> bytes:
    extra = {"selfplay": {"bots": list(res.levels), "failure": res.failure,
                          "bad_action": res.bad_action}}
    out = [log.encode(log.header(RULESET, res.options, res.seed, kind="selfplay",
                                 extra=extra))]
    out += [log.encode(log.record(RULESET, i, a)) for i, a in enumerate(res.moves, 1)]
    return b"".join(out)


def game_log(players: int, seed: int, levels: tuple[str, ...], actions: list[Action],
             options: Mapping[str, Any] | None = None) -> bytes:
    """The log of a finished self-play game (header, every action with its hash, the end
    record). ``players`` is unused (the options give the seats). Raises ``IllegalAction``
    if the actions do not replay."""
    opts = game_options(seed, options)
    st = RULESET.new_game(opts, seed)
    out = [log.encode(log.header(RULESET, opts, seed, kind="selfplay",
                                 extra={"selfplay": {"bots": list(levels)}}))]
    for n, a in enumerate(actions, 1):
        RULESET.apply(st, a)
        out.append(log.encode(log.record(RULESET, n, a, st, force_hash=True)))
    if RULESET.result(st).over:
        out.append(log.encode(log.end_record(RULESET, st)))
    return b"".join(out)


def run(games: int, players: int = 2, levels: tuple[str, ...] = ("captain",), seed: int = 0,
        *, max_actions: int = MAX_ACTIONS, sample: int = 3, budget: int | None = None,
        on_game: Callable[[int, GameResult], None] | None = None,
        options: Mapping[str, Any] | None = None, noise: int = NOISE) -> RunReport:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...). ``levels``: one level for
    every seat or one per seat (``captain``, ``warlord``, ``random``); ``players`` and
    ``budget`` are accepted for the shared command line (the options give the seats).
    Raises ``ValueError`` for an unknown level or a wrong number of levels."""
    n = len(RULESET.seats(game_options(seed, options)))
    if len(levels) == 1:
        levels = tuple(levels) * n
    if len(levels) != n:
        raise ValueError(f"give one bot level, or one per seat ({n})")
    for lv in levels:
        if lv not in LEVELS:
            raise ValueError(f"unknown bot level {lv!r} ({', '.join(LEVELS)})")
    rep = RunReport(n, tuple(levels))
    for i in range(games):
        g = play_game(seed + i, tuple(levels), options=options, max_actions=max_actions,
                      sample=sample, noise=noise, units=rep.units, casts=rep.casts)
        rep.games.append(g)
        if on_game is not None:
            on_game(i, g)
    return rep


def _rows(names: list[str], counts: Counter) -> list[str]:
    out, row = [], []
    for s in names:
        row.append(f"{s} {counts[s]}")
        if len(row) == 5:
            out.append("  " + ", ".join(row))
            row = []
    if row:
        out.append("  " + ", ".join(row))
    return out


def format_report(rep: RunReport) -> str:
    """The run's summary: games, wins per seat, draws, mean length, crashes and invariant
    failures (each with its first bad action), the uses of every unit type and the casts
    of every spell (the never-used ones named)."""
    n = len(rep.games)
    lines = [f"games played: {n} (Wizard Kings; bots "
             f"{', '.join(rep.levels) if len(set(rep.levels)) > 1 else rep.levels[0]})"]
    wins = rep.wins()
    draws = sum(1 for g in rep.games if g.winner == "-" and not g.failure)
    capped = sum(1 for g in rep.games if g.capped and not g.failure)
    lines.append("wins per seat: " + ", ".join(f"{p} {k}" for p, k in wins.items())
                 + f"; draws: {draws}; capped: {capped}")
    if n:
        tot = sum(g.actions for g in rep.games)
        turns = sum(g.rounds for g in rep.games)
        lines.append(f"mean length: {tenths(tot, n)} actions, {tenths(turns, n)} turns")
    lines.append(f"crashes: {rep.crashes}, invariant failures: {rep.invariant_failures}")
    for g in rep.games:
        if g.failure:
            lines.append(f"  seed {g.seed}: {g.failure}"
                         + (f"; first bad action {g.bad_action}" if g.bad_action else ""))
    ut, sp = unit_types(), spells()
    never_u = [u for u in ut if rep.units[u] == 0]
    never_s = [s for s in sp if rep.casts[s] == 0]
    lines.append(f"unit types used ({len(ut)} types; used at least once: "
                 f"{len(ut) - len(never_u)}):")
    lines += _rows(ut, rep.units)
    lines.append("never used: " + (", ".join(never_u) if never_u else "none"))
    lines.append(f"spells cast ({len(sp)} spells; cast at least once: "
                 f"{len(sp) - len(never_s)}):")
    lines += _rows(sp, rep.casts)
    lines.append("never cast: " + (", ".join(never_s) if never_s else "none"))
    return "\n".join(lines)
