"""ArcoMage self-play (issue 17): bots play whole games headless while every action is
checked; ``wizwar selfplay arcomage --games N`` (the ruleset's ``tools["selfplay"]``).

Before every action, the engine's checks: whoever must act (exactly one player, or none in
the end) has a legal action; every listed action round-trips through its text and its
msgpack form; ``sample`` of them (all when 0), chosen with a seeded generator, apply on a
copy; the bot's choice is one of them. After every action: the state round-trips through
msgpack (same form, same hash); no view shows a trap target its player may not know (the
view is unchanged when the hidden traps are dealt anew, ``Ruleset.redeal_hidden``); and
ArcoMage's own invariants (:func:`check_state`, :func:`check_action`):

- no resource below zero (Mana, INT, corpses, Moat/Wall/Tower, the worker buildings, the
  workers; Life only once the game is over);
- the cast ceiling respected: a cast's Circle is at most its caster's ceiling (R39) and its
  cost at most his Mana, checked on the state before the cast;
- each spell at most once per turn per player (R47), counted by the run itself, not read
  from the rules' own list;
- every piece (wizards, creatures) on a passable hex of the field, no two on one hex (R74);
- Zone of Control respected by every walk (R75): a mover that starts next to an enemy
  creature walks one hex at most, and a walk stops on the first guarded hex it enters;
  every step goes to an adjacent, passable, unoccupied hex (R74).

Books vary so that the run casts the whole pool: the game of seed ``s`` plays the two
starting books when ``s % 3 == 0`` and otherwise two books of 20 spells drawn from the pool by the game's
seed (within R25-R26). A bot's choice is replaced one time in ``noise`` (0: never) by a
seeded random cast (a spell drawn among the castable ones, then one of its casts; a random
legal action when nothing is castable), so that rarely chosen spells get cast too. A game longer than
``max_actions`` stops as a draw ("capped"). A failure stops its game, keeps its log (the
header's ``extra`` names the first bad action and why) and the run goes on.

Everything is pure and deterministic (:class:`core.rng.Rng`); the caller prints the report
(``wizwar_tui/cli.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core import log
from core.arcomage import bot
from core.arcomage import field as fld
from core.arcomage.actions import Action, parse
from core.arcomage.data import ALTERNATE_WINS, RITES, SPELLS, check_book
from core.arcomage.ruleset import RULESET
from core.arcomage.state import ceiling
from core.arcomage.turn import cost_of
from core.codec import pack, unpack
from core.engine import IllegalAction
from core.rng import Rng
from core.selfplay import GameResult, tenths
from core.selfplay import RunReport as _RunReport

#: Default cap on a game's length, in actions (a capped game counts as a draw).
MAX_ACTIONS = 3000
DEFAULT_PLAYERS = 2
#: one bot choice in ``NOISE`` is a random legal action (0: never)
NOISE = 5
LEVELS = (*bot.LEVELS, "random")
_NONNEG = ("mana", "int", "corpses", "moat", "wall", "tower", "quarry", "mage-tower", "altar",
           "graveyard")


@dataclass
class RunReport(_RunReport):
    """The totals of a self-play run; ``casts`` counts casts per spell slug."""

    casts: Counter = field(default_factory=Counter)


# ---- the checks --------------------------------------------------------------------------
def check_state(g: dict[str, Any]) -> str:
    """ArcoMage's state invariants (resources, pieces on passable hexes, once per turn as
    the rules keep it, one player to act); ``""`` when they hold."""
    for p in ("P1", "P2"):
        pl = g["players"][p]
        for k in _NONNEG:
            if int(pl[k]) < 0:
                return f"{p}'s {k} is {pl[k]}, below zero"
        for post, n in pl["workers"].items():
            if int(n) < 0:
                return f"{p} has {n} workers on his {post}"
        if int(pl["life"]) < 0 and not g["winner"]:
            return f"{p}'s Life is {pl['life']} and the game goes on"
        if len(set(pl["cast"])) != len(pl["cast"]):
            return f"{p} has cast a spell twice this turn: {pl['cast']}"
    seen: dict[str, str] = {}
    pieces = [(p, g["players"][p]["at"]) for p in ("P1", "P2")]
    pieces += [(f"{c['kind']} of {c['controller']}", c["at"]) for c in g["creatures"]]
    for who, at in pieces:
        if not fld.is_hex(at) or not fld.passable(at):
            return f"{who} stands on {at}, not a passable hex"
        if at in seen:
            return f"{who} and {seen[at]} both stand on {at}"
        seen[at] = who
    if not g["winner"] and len(RULESET.to_move(_St(g))) > 1:
        return f"several players must act at once: {RULESET.to_move(_St(g))}"
    return ""


class _St:
    """A state wrapper for a ruleset call on a dict (no copy)."""

    __slots__ = ("d",)

    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d


def _guarded(g: dict[str, Any], h: str, mover: str, cid: Any) -> bool:
    """Whether hex ``h`` is next to a creature whose controller is not ``mover``'s."""
    return any(c["controller"] != mover and c.get("id") != cid and fld.adjacent(c["at"], h)
               for c in g["creatures"])


def check_action(g: dict[str, Any], a: Action, cast_now: set[tuple[int, str, str]]) -> str:
    """The checks of one action on the state *before* it: the ceiling and the Mana of a cast
    (R39), once per turn (``cast_now``: the ``(turn, player, slug)`` casts of the run so
    far, updated here), and a walk's hexes and Zone of Control (R74, R75)."""
    p = a.actor
    if a.verb == "cast":
        pl, spell = g["players"][p], SPELLS[a.slug]
        if spell.circle > ceiling(pl):
            return f"{a}: Circle {spell.circle} is above {p}'s cast ceiling {ceiling(pl)}"
        if cost_of(pl, spell) > int(pl["mana"]):
            return f"{a}: it costs {cost_of(pl, spell)} and {p} has {pl['mana']} Mana"
        key = (int(g["turn"]), p, a.slug)
        if key in cast_now:
            return f"{a}: {p} casts {a.slug} a second time in turn {g['turn']}"
        cast_now.add(key)
    if a.verb == "move":
        path = list(a.targets)
        cid = next((c.get("id") for c in g["creatures"] if c["at"] == path[0]), None)
        if len(path) > 2 and _guarded(g, path[0], p, cid):
            return f"{a}: the mover starts next to an enemy creature and walks more than one hex"
        for i in range(1, len(path)):
            h = path[i]
            if not fld.adjacent(path[i - 1], h) or not fld.passable(h):
                return f"{a}: the step to {h} is not to an adjacent passable hex"
            occupied = any(c["at"] == h for c in g["creatures"]) or any(
                g["players"][x]["at"] == h for x in ("P1", "P2"))
            if occupied:
                return f"{a}: {h} is occupied"
            if i < len(path) - 1 and _guarded(g, h, p, cid):
                return f"{a}: the walk goes on through {h}, guarded by an enemy creature"
    return ""


def check_actions(st: Any, legal: list[Action], rng: Rng, sample: int) -> str:
    """Every listed action round-trips (text, msgpack); ``sample`` of them apply on
    copies."""
    for a in legal:
        if parse(str(a)) != a:
            return f"parse(str(a)) != a for {a}"
        if Action.from_wire(unpack(pack(a.to_wire()))) != a:
            return f"{a} does not survive its msgpack form"
    pool = list(legal)
    tries = pool if sample <= 0 or sample >= len(pool) else [
        pool.pop(rng.below(len(pool))) for _ in range(sample)]
    for a in tries:
        try:
            RULESET.apply(RULESET.clone(st), a)
        except IllegalAction as exc:
            return f"{a} is listed legal but refused: {exc.reason}"
    return ""


def check_round_trip_and_views(st: Any, k: int) -> str:
    """The state survives msgpack (same form, same hash); no view changes when the traps
    its player may not see are dealt anew."""
    wire = RULESET.state_to_wire(st)
    back = RULESET.state_from_wire(unpack(pack(wire)))
    if RULESET.state_to_wire(back) != wire:
        return "the state changes through its msgpack form"
    if RULESET.state_hash(back) != RULESET.state_hash(st):
        return "the state hash changes through the msgpack form"
    if st.d["traps"]:
        for p in ("P1", "P2", ""):
            other_deal = RULESET.redeal_hidden(st, p, k)
            if RULESET.view(st, p) != RULESET.view(other_deal, p):
                return f"{p or 'a watcher'}'s view shows a trap target he may not know"
    return ""


# ---- books and games ----------------------------------------------------------------------
def random_book(rng: Rng) -> list[str]:
    """20 spells of the pool drawn with ``rng`` within R25-R26 (no rite, at most 6 of
    Circle V or more, at most one alternate win)."""
    pool = [s for s in SPELLS if s not in RITES]
    book: list[str] = []
    while len(book) < 20:
        s = pool.pop(rng.below(len(pool)))
        if SPELLS[s].circle >= 5 and sum(SPELLS[x].circle >= 5 for x in book) >= 6:
            continue
        if s in ALTERNATE_WINS and any(x in ALTERNATE_WINS for x in book):
            continue
        book.append(s)
    assert not check_book(book), check_book(book)
    return book


def game_options(seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options of the game of ``seed``: ``options`` with the books of the run's
    rotation (see the module docstring), unless ``options`` names books of its own."""
    opts = dict(options or {})
    opts.pop("players", None)
    if seed % 3 and not (opts.get("p1_spells") or opts.get("p2_spells")):
        rng = Rng.from_seed(f"arcomage-selfplay-books:{seed}")
        opts["p1_spells"] = ",".join(random_book(rng))
        opts["p2_spells"] = ",".join(random_book(rng))
    return RULESET.validate_options(opts)


def _choose(st: Any, seat: str, level: str, rng: Rng, noise: int) -> Action:
    legal = RULESET.legal_actions(st, seat)
    if level == "random":
        return legal[rng.below(len(legal))]
    if noise and rng.below(noise) == 0:  # a random spell among the castable ones, if any
        slugs = sorted({a.slug for a in legal if a.verb == "cast"})
        if not slugs:
            return legal[rng.below(len(legal))]
        slug = slugs[rng.below(len(slugs))]
        casts = [a for a in legal if a.verb == "cast" and a.slug == slug]
        return casts[rng.below(len(casts))]
    return RULESET.bot_act(st, seat, level)


def play_game(seed: int, levels: tuple[str, ...], *,
              options: Mapping[str, Any] | None = None, max_actions: int = MAX_ACTIONS,
              sample: int = 3, noise: int = NOISE, casts: Counter | None = None,
              checks: bool = True) -> GameResult:
    """Play one game (``levels``: P1's and P2's) from ``seed`` with every check. ``casts``
    (if given) counts the casts per spell. Never raises: a crash or a failed check is in
    the result."""
    opts = game_options(seed, options)
    res = GameResult(seed, 2, tuple(levels), opts)
    st = RULESET.new_game(opts, seed)
    rng = Rng.from_seed(f"arcomage-selfplay:{seed}")
    counter = casts if casts is not None else Counter()
    cast_now: set[tuple[int, str, str]] = set()
    a: Action | None = None

    def fail(kind: str, why: str, bad: Action | None, applied: bool) -> GameResult:
        res.failure = f"{kind}: {why}"
        n = len(res.moves) if applied else len(res.moves) + 1
        res.bad_action = "" if bad is None else f"#{n} {bad}"
        res.log = _log_bytes(res)
        res.actions, res.rounds = len(res.moves), int(st.d["turn"])
        return res

    if checks:
        why = check_state(st.d) or check_round_trip_and_views(st, 0)
        if why:
            return fail("invariant", why, None, True)
    while not RULESET.result(st).over:
        if len(res.moves) >= max_actions:
            res.capped = True
            break
        a = None
        try:
            who = RULESET.to_move(st)
            if not who:
                return fail("invariant", "nobody is to act and the game is not over", None,
                            True)
            seat = who[0]
            legal = RULESET.legal_actions(st, seat)
            if not legal:
                return fail("invariant", f"{seat} must act but has no legal action", None,
                            True)
            if checks:
                why = check_actions(st, legal, rng, sample)
                if why:
                    return fail("invariant", why, None, True)
            a = _choose(st, seat, levels[0 if seat == "P1" else 1], rng, noise)
            if a not in legal:
                return fail("invariant", f"the bot chose {a}, which is not legal", a, False)
            why = check_action(st.d, a, cast_now) if checks else ""
            if why:
                return fail("invariant", why, a, False)
        except Exception as exc:  # noqa: BLE001 - a crash is reported, never raised
            return fail("crash", f"{type(exc).__name__}: {exc}", a, False)
        try:
            RULESET.apply(st, a)
        except IllegalAction as exc:
            return fail("invariant", f"{a} is listed legal but refused: {exc.reason}", a, False)
        except Exception as exc:  # noqa: BLE001
            return fail("crash", f"{type(exc).__name__}: {exc}", a, False)
        res.moves.append(a)
        if a.verb == "cast":
            counter[a.slug] += 1
        if checks:
            try:
                why = check_state(st.d) or check_round_trip_and_views(st, len(res.moves))
            except Exception as exc:  # noqa: BLE001
                return fail("crash", f"checking after it: {type(exc).__name__}: {exc}", a,
                            True)
            if why:
                return fail("invariant", why, a, True)
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
    record), from the run's ``options`` (the books follow from the seed, as in
    :func:`play_game`). ``players`` is unused (two seats). Raises ``IllegalAction`` if the
    actions do not replay."""
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


def run(games: int, players: int = 2, levels: tuple[str, ...] = ("apprentice",), seed: int = 0,
        *, max_actions: int = MAX_ACTIONS, sample: int = 3, budget: int | None = None,
        on_game: Callable[[int, GameResult], None] | None = None,
        options: Mapping[str, Any] | None = None, noise: int = NOISE) -> RunReport:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...). ``levels``: one level for
    both seats or one per seat (``apprentice``, ``archmage``, ``random``); ``players`` and
    ``budget`` are accepted for the shared command line and unused (always two seats).
    Raises ``ValueError`` for an unknown level or a wrong number of levels."""
    if len(levels) == 1:
        levels = tuple(levels) * 2
    if len(levels) != 2:
        raise ValueError("give one bot level, or one per seat (2)")
    for lv in levels:
        if lv not in LEVELS:
            raise ValueError(f"unknown bot level {lv!r} ({', '.join(LEVELS)})")
    rep = RunReport(2, tuple(levels))
    for i in range(games):
        g = play_game(seed + i, tuple(levels), options=options, max_actions=max_actions,
                      sample=sample, noise=noise, casts=rep.casts)
        rep.games.append(g)
        if on_game is not None:
            on_game(i, g)
    return rep


def format_report(rep: RunReport) -> str:
    """The run's summary: games, wins per seat, draws, mean length, crashes and invariant
    failures (each with its first bad action), and the casts of every spell of the pool
    (the never-cast ones named)."""
    n = len(rep.games)
    lines = [f"games played: {n} (ArcoMage; bots "
             f"{', '.join(rep.levels) if len(set(rep.levels)) > 1 else rep.levels[0]})"]
    wins = rep.wins()
    draws = sum(1 for g in rep.games if g.winner == "-" and not g.failure)
    capped = sum(1 for g in rep.games if g.capped and not g.failure)
    lines.append(f"wins per seat: P1 {wins['P1']}, P2 {wins['P2']}; draws: {draws}; "
                 f"capped: {capped}")
    if n:
        tot = sum(g.actions for g in rep.games)
        turns = sum(g.rounds for g in rep.games)
        lines.append(f"mean length: {tenths(tot, n)} actions, {tenths(turns, n)} turns")
    lines.append(f"crashes: {rep.crashes}, invariant failures: {rep.invariant_failures}")
    for g in rep.games:
        if g.failure:
            lines.append(f"  seed {g.seed}: {g.failure}"
                         + (f"; first bad action {g.bad_action}" if g.bad_action else ""))
    never = [s for s in SPELLS if rep.casts[s] == 0]
    lines.append(f"spell casts ({len(SPELLS)} spells in the pool; cast at least once: "
                 f"{len(SPELLS) - len(never)}):")
    row: list[str] = []
    for s in SPELLS:
        row.append(f"{s} {rep.casts[s]}")
        if len(row) == 5:
            lines.append("  " + ", ".join(row))
            row = []
    if row:
        lines.append("  " + ", ".join(row))
    lines.append("never cast: " + (", ".join(never) if never else "none"))
    return "\n".join(lines)
