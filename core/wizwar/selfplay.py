"""Self-play: bots play whole games headless while every action is checked (issue 6).

After every action the checks of :func:`check_state`, :func:`check_views` and
:func:`check_round_trip` run, and before it :func:`check_actions` tries the legal actions:

- every card instance is in exactly one place (draw pile, discard pile, a hand, the floor or
  the open stack; a striking Dagger or Wizardblade is on the stack and still in its owner's
  hand) and the total stays the size of the game's deck; displayed cards are in their
  owner's hand;
- life totals and positions are legal: a wizard in the game stands on a square of the board
  (not in a stone block) with life above 0; a dead or out wizard is off the board; every
  treasure lies on a square or is carried by exactly one wizard in the game;
- whoever must act has at least one legal action unless the game is over;
- every legal action round-trips through its text (``parse(str(a)) == a``) and its msgpack
  form, and a sample of them (all when ``sample`` is 0) applies without error on a copy;
- the state round-trips through its msgpack form (same form, same hash);
- no view shows a face its player may not know (:func:`~core.wizwar.determinize.blind_view`).

A game longer than ``max_actions`` stops and counts as a draw ("capped"). A failure stops its
game, keeps the game's log (core/log.py format: the actions applied so far; the header's
``extra`` names the first bad action and why) and the run goes on with the next game.

Everything is pure and deterministic: the caller gets log bytes through a callback and
prints the report (wizwar_tui/cli.py, ``wizwar selfplay``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core import log
from core.codec import pack, unpack
from core.engine import Event, IllegalAction
from core.rng import Rng
from core.selfplay import GameResult, tenths
from core.selfplay import RunReport as _RunReport
from core.wizwar import bot
from core.wizwar import cards as C
from core.wizwar.actions import Action, parse
from core.wizwar.determinize import blind_view, clone
from core.wizwar.families import expand
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, hand_limit, legal_actions, to_move
from core.wizwar.state import State, state_hash
from core.wizwar.view import view

#: Default cap on a game's length, in actions (a capped game counts as a draw).
MAX_ACTIONS = 4000
DEFAULT_PLAYERS = 4  # ``wizwar selfplay`` without --players: the busiest table


@dataclass
class RunReport(_RunReport):
    """The totals of a self-play run; ``plays`` counts the cards played per kind."""

    plays: Counter = field(default_factory=Counter)


# ---- the checks -------------------------------------------------------------------------
def check_state(state: State, deck_size: int) -> str:
    """The state invariants (cards, life, positions, treasures, hand limit, one player to
    act); "" when they hold, else the first broken one in words. (That whoever must act has
    a legal action is checked by :func:`play_game`, which lists them anyway.)"""
    places: list[int] = list(state.deck) + list(state.discard)
    in_hands: set[int] = set()
    for w in state.wizards:
        places.extend(w.hand)
        in_hands.update(w.hand)
        for c in w.displayed:
            if c not in w.hand:
                return f"{w.seat} displays card {c}, which is not in his hand"
        if len(set(w.displayed)) != len(w.displayed):
            return f"{w.seat} displays a card twice"
    places.extend(c for _sq, c in state.floor)
    for win in state.windows:
        for wc in (win.cid, win.number_cid):
            if wc is not None and wc not in in_hands:
                places.append(wc)
        for k in win.counters:
            places.extend(c for c in (k.cid, k.number_cid) if c is not None)
    if len(places) != deck_size:
        counts = Counter(places)
        twice = sorted(c for c, n in counts.items() if n > 1)
        gone = sorted(set(range(len(state.faces))) - set(counts))
        return (f"{len(places)} cards in play, the deck has {deck_size}"
                + (f"; in two places: {twice[:5]}" if twice else "")
                + (f"; nowhere: {gone[:5]}" if gone else ""))
    if len(set(places)) != deck_size or len(state.faces) != deck_size:
        twice = sorted(c for c, n in Counter(places).items() if n > 1)
        return f"card(s) {twice[:5]} in two places"
    lay = state.layout
    for w in state.wizards:
        if w.in_game:
            if w.at is None or not lay.has_square(w.at):
                return f"{w.seat} is in the game but not on a square of the board"
            if w.at in state.stones:
                return f"{w.seat} stands inside a stone block"
            if w.life <= 0 and not state.windows:  # dying: his death waits for the event's
                return f"{w.seat} is in the game with {w.life} life"  # other windows (§1.9)
        elif w.at is not None:
            return f"{w.seat} is out of the game but still on the board"
        if w.home is not None and not lay.has_square(w.home):
            return f"{w.seat}'s home base is off the board"
        if w.lost_turns < 0:
            return f"{w.seat} has {w.lost_turns} lost turns"
        if w.in_game and not (state.windows or state.discarding or state.choice
                              or state.retreats or state.winner) \
                and len(w.hand) > hand_limit(state, w):
            return f"{w.seat} holds {len(w.hand)} cards, over his limit, and nobody discards"
    for t, sq in state.treasures.items():
        carriers = [w.seat for w in state.wizards if w.carrying == t]
        if sq is None:
            if len(carriers) != 1:
                return f"treasure {t} is nowhere (carried by {carriers})"
            if not state.wizard(carriers[0]).in_game:
                return f"treasure {t} is carried by {carriers[0]}, who is out of the game"
        else:
            if carriers:
                return f"treasure {t} lies at a square and is carried by {carriers}"
            if not lay.has_square(sq):
                return f"treasure {t} lies off the board"
    for w in state.wizards:
        if w.carrying and w.carrying not in state.treasures:
            return f"{w.seat} carries an unknown treasure {w.carrying}"
    if not state.winner and len(to_move(state)) != 1:
        return f"{len(to_move(state))} players must act at once: {to_move(state)}"
    return ""


def check_views(state: State) -> str:
    """"" when no seat's view shows a face that seat may not know."""
    for w in state.wizards:
        if view(state, w.seat) != blind_view(state, w.seat):
            return f"{w.seat}'s view shows a face he may not know"
    if view(state, "") != blind_view(state, ""):
        return "the spectator's view shows a hidden face"
    return ""


def check_round_trip(state: State) -> str:
    """"" when the state survives its msgpack form unchanged (same form, same hash)."""
    wire = state.to_wire()
    back = State.from_wire(unpack(pack(wire)))
    if back.to_wire() != wire:
        diff = sorted(k for k in wire if back.to_wire()[k] != wire[k])
        return f"the state changes through its msgpack form ({', '.join(diff)})"
    if state_hash(back) != state_hash(state):
        return "the state hash changes through the msgpack form"
    return ""


def check_actions(state: State, legal: list[Action], rng: Rng, sample: int = 3) -> str:
    """Every legal action round-trips (text and msgpack); ``sample`` of them chosen with
    ``rng`` (all when 0) apply on copies of ``state``. "" when all is well."""
    for a in legal:
        if parse(str(a)) != a:
            return f"parse(str(a)) != a for {a}"
        if Action.from_wire(unpack(pack(a.to_wire()))) != a:
            return f"{a} does not survive its msgpack form"
    if sample <= 0 or sample >= len(legal):
        tries = list(legal)
    else:
        pool = list(legal)
        tries = []
        for _ in range(sample):
            tries.append(pool.pop(rng.below(len(pool))))
    for a in tries:
        try:
            apply(clone(state), a)
        except IllegalAction as exc:
            return f"{a} is listed legal but refused: {exc.reason}"
    return ""


# ---- counting card plays ----------------------------------------------------------------
def count_plays(a: Action, events: list[Event], counter: Counter) -> None:
    """Count the cards an action played: its card (a play in turn or an answer, a stone
    displayed), its number card (``+N``, a boost) and a Trap! going off."""
    if a.verb == "play" and a.card:
        counter[a.card] += 1
        if a.number is not None and C.is_number(str(a.number)):
            counter[str(a.number)] += 1
    elif a.verb == "boost" and a.number is not None:
        counter[str(a.number)] += 1
    for e in events:
        if e.kind == "trap":
            counter["trap"] += 1


# ---- playing ----------------------------------------------------------------------------
def _config(players: int, options: Mapping[str, Any] | None) -> GameConfig:
    """The game's config: ``options`` (the ruleset's options map: the variants) at
    ``players`` seats. Raises ``OptionError`` for a refused combination."""
    return _ruleset().config({**dict(options or {}), "players": players})


def play_game(players: int, seed: int, levels: tuple[str, ...], *,
              max_actions: int = MAX_ACTIONS, sample: int = 3, plays: Counter | None = None,
              checks: bool = True, budget: int | None = None,
              options: Mapping[str, Any] | None = None) -> GameResult:
    """Play one game of bots at ``levels`` (one per seat) from ``seed`` with every check;
    ``options`` the variants (crossed exits, doors, team play) as the ruleset's options map.

    ``plays`` (if given) counts the cards played. ``budget`` is the archmage's playout budget
    (None: its default). Never raises: a crash or failed check is reported in the result."""
    levels = tuple(levels)
    cfg = _config(players, options)
    res = GameResult(seed, players, levels)
    actions: list[Action] = res.moves
    state = new_game(cfg, seed)
    deck_size = len(state.faces)
    rng = Rng.from_seed(f"selfplay-checks:{seed}")
    counter = plays if plays is not None else Counter()
    a: Action | None = None

    def fail(kind: str, why: str, bad: Action | None, applied: bool) -> GameResult:
        res.failure = f"{kind}: {why}"
        n = len(actions) if applied else len(actions) + 1
        res.bad_action = "" if bad is None else f"#{n} {bad}"
        res.log = _log_bytes(cfg, seed, levels, actions, res)
        res.actions, res.rounds = len(actions), state.round
        return res

    if checks:
        why = check_state(state, deck_size) or check_views(state) or check_round_trip(state)
        if why:
            return fail("invariant", why, None, True)
    while not state.winner:
        if len(actions) >= max_actions:
            res.capped = True
            break
        a = None
        try:
            seat = to_move(state)[0]
            legal = legal_actions(state, seat)
            if not legal:
                return fail("invariant", f"{seat} must act but has no legal action", None, True)
            if checks:
                why = check_actions(state, legal, rng, sample)
                if why:
                    return fail("invariant", why, None, True)
            lv = levels[state.seats.index(seat)]
            far: list[Action] = []

            def more(family: str, state: State = state, seat: str = seat,
                     far: list[Action] = far) -> list[Action]:
                out = expand(state, seat, family)
                far.extend(out)
                return out

            a = bot.choose(view(state, seat), seat, legal, level=lv, budget=budget, more=more)
            if a not in legal and a not in far:
                return fail("invariant", f"the bot chose {a}, which is not legal", a, False)
        except Exception as exc:  # noqa: BLE001 - a crash is reported, never raised
            return fail("crash", f"{type(exc).__name__}: {exc}", a, False)
        try:
            events = apply(state, a)
        except IllegalAction as exc:
            return fail("invariant", f"{a} is listed legal but refused: {exc.reason}", a, False)
        except Exception as exc:  # noqa: BLE001
            return fail("crash", f"{type(exc).__name__}: {exc}", a, False)
        actions.append(a)
        count_plays(a, events, counter)
        if checks:
            try:
                why = check_state(state, deck_size) or check_views(state) or \
                    check_round_trip(state)
            except Exception as exc:  # noqa: BLE001
                return fail("crash", f"checking after it: {type(exc).__name__}: {exc}", a,
                            True)
            if why:
                return fail("invariant", why, a, True)
    res.winner = state.winner
    res.actions, res.rounds = len(actions), state.round
    return res


def _ruleset() -> Any:
    """Wiz-War's Ruleset object (the log is written through it)."""
    from core.wizwar.ruleset import RULESET

    return RULESET


def _log_bytes(cfg: GameConfig, seed: int, levels: tuple[str, ...], actions: list[Action],
               res: GameResult) -> bytes:
    extra = {"selfplay": {"bots": list(levels), "failure": res.failure,
                          "bad_action": res.bad_action}}
    rs = _ruleset()
    opts = {"players": cfg.players, "crossed": cfg.crossed, "doors": cfg.doors,
            "team": cfg.team}
    out = [log.encode(log.header(rs, opts, seed, kind="selfplay", extra=extra))]
    out += [log.encode(log.record(rs, i, a)) for i, a in enumerate(actions, 1)]
    return b"".join(out)


def game_log(players: int, seed: int, levels: tuple[str, ...], actions: list[Action],
             states_hashes: bool = True, options: Mapping[str, Any] | None = None) -> bytes:
    """The log of a finished self-play game (header, every action with its hash, the end
    record), replaying ``actions`` from ``seed`` with ``options`` (the variants). Raises
    ``IllegalAction`` if they do not replay."""
    cfg = _config(players, options)
    st = new_game(cfg, seed)
    rs = _ruleset()
    opts = {"players": cfg.players, "crossed": cfg.crossed, "doors": cfg.doors,
            "team": cfg.team}
    out = [log.encode(log.header(rs, opts, seed, kind="selfplay",
                                 extra={"selfplay": {"bots": list(levels)}}))]
    for i, a in enumerate(actions, 1):
        apply(st, a)
        out.append(log.encode(log.record(rs, i, a, st, force_hash=states_hashes)))
    if st.winner:
        out.append(log.encode(log.end_record(rs, st)))
    return b"".join(out)


def play_bots(players: int, seed: int, levels: tuple[str, ...], *,
              max_actions: int = MAX_ACTIONS, budget: int | None = None
              ) -> tuple[list[Action], str]:
    """One bot game without the checks (for matches, logs and determinism tests): the
    actions played and the winner ("" when stopped at ``max_actions``)."""
    st = new_game(GameConfig(players=players), seed)
    out: list[Action] = []
    while not st.winner and len(out) < max_actions:
        seat = to_move(st)[0]
        def more(family: str, st: State = st, seat: str = seat) -> list[Action]:
            return expand(st, seat, family)

        a = bot.choose(view(st, seat), seat, legal_actions(st, seat),
                       level=levels[st.seats.index(seat)], budget=budget, more=more)
        apply(st, a)
        out.append(a)
    return out, st.winner


def play_actions(players: int, seed: int, levels: tuple[str, ...], *,
                 max_actions: int = MAX_ACTIONS, budget: int | None = None) -> list[Action]:
    """The actions of one bot game without the checks (see :func:`play_bots`)."""
    return play_bots(players, seed, levels, max_actions=max_actions, budget=budget)[0]


def run(games: int, players: int = 4, levels: tuple[str, ...] = ("apprentice",), seed: int = 0,
        *, max_actions: int = MAX_ACTIONS, sample: int = 3, budget: int | None = None,
        on_game: Callable[[int, GameResult], None] | None = None,
        options: Mapping[str, Any] | None = None) -> RunReport:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) of ``players`` bots, with the
    variants of ``options`` (the ruleset's options map; ``players`` wins over its count).

    ``levels``: one bot level for every seat, or one per seat. ``on_game(i, result)`` is called
    after each game (progress, saving failed logs). Raises ``ValueError`` for an unknown level
    or a wrong number of levels."""
    if len(levels) == 1:
        levels = tuple(levels) * players
    if len(levels) != players:
        raise ValueError(f"give one bot level, or one per seat ({players})")
    for lv in levels:
        if lv not in bot.LEVELS:
            raise ValueError(f"unknown bot level {lv!r} ({', '.join(bot.LEVELS)})")
    rep = RunReport(players, tuple(levels))
    for i in range(games):
        g = play_game(players, seed + i, tuple(levels), max_actions=max_actions, sample=sample,
                      plays=rep.plays, budget=budget, options=options)
        rep.games.append(g)
        if on_game is not None:
            on_game(i, g)
    return rep


def card_kinds(players: int) -> list[str]:
    """The card names of a ``players``-player deck, in card-list order."""
    seen: list[str] = []
    for s in C.deck_list("full", players):
        if s not in seen:
            seen.append(s)
    return seen


def format_report(rep: RunReport) -> str:
    """The run's summary as text: games, wins per seat, draws, mean length, crashes and
    invariant failures, each failure with its first bad action, and the per-card play counts
    (every card of the deck listed, never-played ones named)."""
    n = len(rep.games)
    lines = [f"games played: {n} ({rep.players} players; bots "
             f"{', '.join(rep.levels) if len(set(rep.levels)) > 1 else rep.levels[0]})"]
    wins = rep.wins()
    capped = sum(1 for g in rep.games if g.capped and not g.failure)
    nobody = sum(1 for g in rep.games if g.winner == "-" and not g.failure)
    lines.append("wins per seat: " + ", ".join(f"{s} {k}" for s, k in wins.items())
                 + f"; draws (capped games): {capped}"
                 + (f"; nobody left: {nobody}" if nobody else ""))
    if n:
        tot = sum(g.actions for g in rep.games)
        rounds = sum(g.rounds for g in rep.games)
        lines.append(f"mean length: {tenths(tot, n)} actions, {tenths(rounds, n)} rounds")
    lines.append(f"crashes: {rep.crashes}, invariant failures: {rep.invariant_failures}")
    for g in rep.games:
        if g.failure:
            lines.append(f"  seed {g.seed}: {g.failure}"
                         + (f"; first bad action {g.bad_action}" if g.bad_action else ""))
    kinds = card_kinds(rep.players)
    never = [k for k in kinds if rep.plays[k] == 0]
    lines.append(f"card plays ({len(kinds)} kinds in the deck; played at least once: "
                 f"{len(kinds) - len(never)}):")
    row: list[str] = []
    for k in kinds:
        row.append(f"{k} {rep.plays[k]}")
        if len(row) == 6:
            lines.append("  " + ", ".join(row))
            row = []
    if row:
        lines.append("  " + ", ".join(row))
    lines.append("never played: " + (", ".join(never) if never else "none"))
    return "\n".join(lines)


__all__ = ["GameResult", "MAX_ACTIONS", "RunReport", "card_kinds", "check_actions",
           "check_round_trip", "check_state", "check_views", "count_plays", "format_report",
           "game_log", "play_actions", "play_bots", "play_game", "run"]
