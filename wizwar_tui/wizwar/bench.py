"""``wizwar bench``: how fast the rules core and the app are, with baselines from the same run.

Every figure is the median of several runs with the spread (lowest to highest run). Two
baselines are measured in the same run, so the ratios hold on a busy machine: a bare Textual
app (one ``Static``) started to its first paint, and a raw msgpack echo over TCP on loopback.
The figures and the machine they came from are recorded in docs/performance.md.

What is measured (docs/performance.md gives the definitions):

* actions applied per second: the actions of recorded random games re-applied from the start
  (``rules.apply``, which checks each action then does it);
* legal-action generation: ``rules.legal_actions`` at every position of a recorded game, with the
  board's line-of-sight tables already built (warm) and from a fresh board (cold);
* random games per second: seeded random legal actions until the game ends, with a cap on
  actions after which the game counts as a draw (how many ended by themselves is printed);
  each action drawn with ``rules.sample_legal_action`` (uniform over the legal actions, a
  few dry runs), and for comparison by listing every legal action (``legal_actions``);
* line-of-sight checks per second: ``rules.has_los`` between every two squares of a 4-player
  board, warm and cold;
* state hashes per second (``state_hash``) and log verification speed (``core.log`` replay
  of recorded logs, every stored hash checked, as ``wizwar verify`` does, from a fresh board);
* app start to first paint: ``wizwar`` started on a pseudo-terminal of 120x40 until the menu
  is on the screen, against the bare Textual app started the same way;
* board render time: the game screen's board widget drawn to screen lines at 120x40.

This module uses clocks, so it lives outside ``core/``; it only reads the core.
"""

from __future__ import annotations

import asyncio
import os
import platform
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from core.rng import Rng

#: The clock of the in-process figures: CPU time of this process, so other programs on a
#: busy machine do not count (on an idle machine it equals the wall time). Start-up is
#: given in wall time and in CPU time.
cpu = time.process_time

#: The marker looked for on the screen: the first option of the main menu.
APP_MARKER = "Play against 1 bot"
BARE_MARKER = "bare textual app ready"
#: Actions after which a random game is stopped and counted as a draw.
GAME_CAP = 5000
#: Relative weights of the "lightly weighted" random player, by verb (others: 4).
LIGHT_WEIGHTS = {"discard": 1, "end": 1, "boost": 2}

_ANSI = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|.)")

_BARE_APP = f"""
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static({BARE_MARKER!r})

Bare().run()
"""

_WIZWAR_APP = "import sys\nfrom wizwar_tui.cli import main\nsys.exit(main([]))\n"


# ---- figures -----------------------------------------------------------------------------
@dataclass
class Figure:
    """One measured figure: its samples (one per run), unit and an optional target.

    ``higher`` says whether more is better; ``target`` is the bound to meet (compared with
    the median), ``note`` a short remark printed after the figure.
    """

    name: str
    unit: str
    samples: list[float] = field(default_factory=list)
    higher: bool = True
    target: float | None = None
    note: str = ""
    #: CPU seconds per action of each run (random games), for the ratio to python-chess
    per_action: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """The median of the samples (0 with none)."""
        return statistics.median(self.samples) if self.samples else 0.0

    def verdict(self) -> str:
        """``"meets"``, ``"MISSES"`` or ``""`` when there is no target."""
        if self.target is None or not self.samples:
            return ""
        ok = self.median >= self.target if self.higher else self.median <= self.target
        return "meets" if ok else "MISSES"

    def line(self) -> str:
        """The figure as one printed line: median, spread, unit, target and verdict."""
        if not self.samples:
            return f"{self.name:<44} (not measured) {self.note}".rstrip()
        lo, hi = min(self.samples), max(self.samples)
        out = (f"{self.name:<44} {_num(self.median):>10} {self.unit:<10} "
               f"[{_num(lo)} .. {_num(hi)}, {len(self.samples)} runs]")
        if self.target is not None:
            op = ">=" if self.higher else "<="
            out += f"  target {op} {_num(self.target)}: {self.verdict()}"
        if self.note:
            out += f"  ({self.note})"
        return out


def _num(x: float) -> str:
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def machine() -> dict[str, str]:
    """The machine the figures come from: CPU, cores, load, OS, Python and library versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    try:
        from importlib.metadata import version

        libs = ", ".join(f"{p} {version(p)}" for p in ("textual", "rich", "msgpack"))
    except Exception:  # noqa: BLE001 - informative only
        libs = "?"
    return {"cpu": cpu, "cores": str(os.cpu_count()), "load average": load,
            "os": platform.platform(), "python": platform.python_version(), "libraries": libs}


# ---- random games ------------------------------------------------------------------------
@dataclass
class GameRun:
    """One random game: its actions, whether it ended by itself, and the winner."""

    players: int
    seed: int
    actions: list[Any]
    ended: bool
    winner: str
    error: str = ""


def _choose(legal: list[Any], rng: Rng, weights: dict[str, int] | None) -> Any:
    if weights is None:
        return legal[rng.below(len(legal))]
    ws = [weights.get(a.verb, 4) for a in legal]
    r = rng.below(sum(ws))
    for a, w in zip(legal, ws, strict=True):
        r -= w
        if r < 0:
            return a
    return legal[-1]  # pragma: no cover - unreachable


def random_game(players: int, seed: int, cap: int = GAME_CAP,
                weights: dict[str, int] | None = None, listed: bool = False) -> GameRun:
    """Play one game by random legal actions: at every step one legal action of the player
    to move drawn from a generator seeded by ``seed``, uniformly or in proportion to
    ``weights`` by verb, with ``rules.sample_legal_action`` (the candidates in random order,
    the first legal one: the same distribution as drawing from ``rules.legal_actions``,
    with a few dry runs). ``listed``: list every legal action with ``rules.legal_actions``
    and draw from the list instead (the definition before issue 6's second round; another
    sequence of games). Stops when the game ends or after ``cap`` actions (a draw). An
    engine error stops the game and is recorded in ``error`` (it is a bug to report)."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply, legal_actions, sample_legal_action, to_move

    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"wizwar-bench-{seed}")
    done: list[Any] = []

    def weight(a: Any) -> int:
        return weights.get(a.verb, 4)  # type: ignore[union-attr]

    try:
        while not st.winner and len(done) < cap:
            seat = to_move(st)[0]
            if listed:
                a = _choose(legal_actions(st, seat), rng, weights)
            else:
                a = sample_legal_action(st, seat, rng.below,
                                        None if weights is None else weight)
                if a is None:
                    raise RuntimeError(f"{seat} to move has no legal action")
            apply(st, a, checked=True)  # drawn among the legal ones of this very state
            done.append(a)
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        return GameRun(players, seed, done, False, "", f"{type(exc).__name__}: {exc}")
    return GameRun(players, seed, done, bool(st.winner), st.winner)


def bot_game(players: int, seed: int, cap: int = GAME_CAP) -> GameRun:
    """A game of apprentice bots in every seat (each choosing from its own view), as the
    app plays them: the kind of game a saved log holds."""
    from core.wizwar import bot
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply, legal_actions, to_move
    from core.wizwar.view import view

    st = new_game(GameConfig(players=players), seed)
    done: list[Any] = []
    while not st.winner and len(done) < cap:
        seat = to_move(st)[0]
        a = bot.choose(view(st, seat), seat, legal_actions(st, seat))
        apply(st, a)
        done.append(a)
    return GameRun(players, seed, done, bool(st.winner), st.winner)


def _fresh_boards() -> None:
    """Forget every board built so far (a memo of boards by spec, if the core keeps one), so
    the next game starts with empty line-of-sight tables, like a new process."""
    from core.wizwar import board as board_mod
    from core.wizwar import state as state_mod

    memo = getattr(state_mod, "_LAYOUT_MEMO", None)
    if memo is not None:
        memo.clear()
    forget = getattr(board_mod, "forget_geometries", None)  # the tables shared by geometry
    if forget is not None:
        forget()
    _forget_answers()


def _forget_answers() -> None:
    """Forget this thread's line-of-sight answers kept by what blocks (``rules.sight``), so a
    "cold" figure traces and checks every line again."""
    from core.wizwar.rules import sight

    blocking = getattr(sight, "_BLOCKING", None)
    if blocking is not None:
        blocking.__dict__.clear()


# ---- the python-chess reference ----------------------------------------------------------
#: Seeds of the python-chess random games played per run (about 3,300 plies in all).
CHESS_SEEDS = range(10)


def chess_available() -> bool:
    """True when python-chess is installed (``pip install -e '.[bench]'``)."""
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


def chess_random_plies(seeds: Iterable[int] = CHESS_SEEDS) -> tuple[int, float]:
    """Play python-chess random games (a field-standard, well-optimised pure-Python engine):
    at every ply the legal moves are listed, one drawn uniformly with the same generator as
    the Wiz-War random games (``core.rng``), pushed, and the end tested (``is_game_over``:
    mate, stalemate, insufficient material, the 75-move and fivefold-repetition rules).
    Returns (plies played, CPU seconds spent). Raises ``ImportError`` without python-chess."""
    import chess

    plies = 0
    t0 = cpu()
    for s in seeds:
        rng = Rng.from_seed(f"chess-bench-{s}")
        board = chess.Board()
        while not board.is_game_over():
            moves = list(board.legal_moves)
            board.push(moves[rng.below(len(moves))])
            plies += 1
    return plies, cpu() - t0


def chess_figure(samples: list[float]) -> Figure:
    """The reference figure: python-chess random-game plies per second, one sample per run."""
    return Figure("python-chess random-game plies", "plies/s", list(samples),
                  note="the reference of the ratios")


# ---- the measurements --------------------------------------------------------------------
def _timed(fn: Callable[[], Any]) -> float:
    t0 = cpu()
    fn()
    return cpu() - t0


def bench_games(players: int, seeds: Iterable[int], runs: int, weights: dict[str, int] | None,
                label: str, listed: bool = False) -> tuple[Figure, list[GameRun]]:
    """Random games per second over the same seeds in every run (boards built in an earlier
    run are reused by the core's memo, as in any long-running process). ``listed``: every
    legal action listed at each step (see :func:`random_game`)."""
    seeds = list(seeds)
    fig = Figure(f"random {players}-player games ({label})", "games/s")
    last: list[GameRun] = []
    for _ in range(runs):
        t0 = cpu()
        last = [random_game(players, s, weights=weights, listed=listed) for s in seeds]
        spent = cpu() - t0
        fig.samples.append(len(seeds) / spent)
        fig.per_action.append(spent / max(1, sum(len(g.actions) for g in last)))
    ended = sum(g.ended for g in last)
    mean = statistics.mean(len(g.actions) for g in last)
    errors = [g for g in last if g.error]
    fig.note = f"{ended}/{len(last)} ended by themselves, mean {mean:.0f} actions"
    if errors:
        fig.note += f"; {len(errors)} engine errors: {errors[0].error}"
    return fig, last


def bench_apply(games: list[GameRun], runs: int) -> Figure:
    """Actions applied per second: every recorded game re-applied from its start."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply

    fig = Figure("actions applied", "actions/s")
    total = sum(len(g.actions) for g in games)
    for _ in range(runs):
        spent = 0.0
        for g in games:
            st = new_game(GameConfig(players=g.players), g.seed)
            t0 = cpu()
            for a in g.actions:
                apply(st, a)
            spent += cpu() - t0
        fig.samples.append(total / spent)
    return fig


def bench_legal(game: GameRun, runs: int) -> tuple[Figure, Figure]:
    """Mean ``legal_actions`` time over every position of ``game``: warm (line-of-sight
    tables built by an earlier pass) and cold (a fresh board each run)."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply, legal_actions, to_move

    warm = Figure(f"legal_actions, {game.players} players, warm", "ms/call", higher=False)
    cold = Figure(f"legal_actions, {game.players} players, cold", "ms/call", higher=False)
    for i in range(runs + 1):
        _fresh_boards()
        st = new_game(GameConfig(players=game.players), game.seed)
        st.layout._cache.clear()
        _forget_answers()
        for fig in (cold, warm):
            # the cold pass fills the tables of this board, the warm pass reuses them
            st2 = new_game(GameConfig(players=game.players), game.seed)
            st2.layout = st.layout
            spent = 0.0
            for a in game.actions:
                seat = to_move(st2)[0]
                t0 = cpu()
                legal_actions(st2, seat)
                spent += cpu() - t0
                apply(st2, a)
            if i:  # the first round warms up the interpreter
                fig.samples.append(1000 * spent / len(game.actions))
    return warm, cold


def bench_los(runs: int) -> tuple[Figure, Figure]:
    """``rules.has_los`` between every two squares of a 4-player board in its starting state:
    warm (tables built) and cold (a fresh board, every sightline traced)."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import has_los

    warm = Figure("LOS checks, warm", "checks/s")
    cold = Figure("LOS checks, cold (every line traced)", "checks/s")
    st = new_game(GameConfig(players=4), 3)
    squares = st.layout.squares()
    pairs = [(a, b) for a in squares for b in squares]
    for _ in range(runs):
        st.layout._cache.clear()
        _forget_answers()
        cold.samples.append(len(pairs) / _timed(lambda: [has_los(st, a, b) for a, b in pairs]))
        warm.samples.append(len(pairs) / _timed(lambda: [has_los(st, a, b) for a, b in pairs]))
    return warm, cold


def bench_hash(games: list[GameRun], runs: int) -> Figure:
    """``state_hash`` of every position of the recorded games."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply
    from core.wizwar.state import state_hash

    fig = Figure("state hashes", "hashes/s")
    for _ in range(runs):
        spent, n = 0.0, 0
        for g in games:
            st = new_game(GameConfig(players=g.players), g.seed)
            for a in g.actions[:400]:
                apply(st, a)
                t0 = cpu()
                state_hash(st)
                spent += cpu() - t0
                n += 1
        fig.samples.append(n / spent)
    return fig


def game_log(g: GameRun) -> bytes:
    """The log of a recorded random game, as the app writes it (a hash every 10 actions)."""
    from core import log, registry

    rs = registry.get("wizwar")
    opts = rs.validate_options({"players": g.players})
    st = rs.new_game(opts, g.seed)
    out = [log.encode(log.header(rs, opts, g.seed))]
    for i, a in enumerate(g.actions, 1):
        rs.apply(st, a)
        out.append(log.encode(log.record(rs, i, a, st)))
    if rs.result(st).over:
        out.append(log.encode(log.end_record(rs, st)))
    return b"".join(out)


def bench_verify(games: list[GameRun], runs: int, label: str) -> Figure:
    """Log verification: read and replay each log, checking every stored hash (``wizwar
    verify``), each from a fresh board as in a new process."""
    from core import log

    logs = [game_log(g) for g in games]
    total = sum(len(g.actions) for g in games)
    fig = Figure(f"log verify ({label})", "actions/s")
    for _ in range(runs):
        spent = 0.0
        for data in logs:
            _fresh_boards()
            t0 = cpu()
            log.replay(log.read(data))
            spent += cpu() - t0
        fig.samples.append(total / spent)
    return fig


# ---- replay, self-play, archmage (issue 14) ----------------------------------------------
def long_game(actions: int, players: int = 4, seed: int = 1) -> GameRun:
    """A lightly weighted random game made to last ``actions`` actions (for the replay
    figures: random games end after about 1,300): an action that would end the game, open
    an attack's answer window or cost anyone life (tried on a copy) is replaced by the first
    listed legal one that does none of these (walls, moves, treasures and the other cards
    are still played)."""
    from core.wizwar.determinize import clone
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply, legal_actions, sample_legal_action, to_move

    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"wizwar-bench-long-{seed}")
    done: list[Any] = []
    while len(done) < actions and not st.winner:
        seat = to_move(st)[0]
        a = sample_legal_action(st, seat, rng.below, lambda x: LIGHT_WEIGHTS.get(x.verb, 4))
        lives = [w.life for w in st.wizards]

        def harmful(b: Any, lives: list[int] = lives) -> bool:
            trial = clone(st)
            apply(trial, b)
            return bool(trial.winner or trial.windows) or \
                [w.life for w in trial.wizards] != lives

        if harmful(a):
            a = next((b for b in legal_actions(st, seat) if not harmful(b)), a)
        apply(st, a)
        done.append(a)
    return GameRun(players, seed, done, bool(st.winner), st.winner)


def bench_replay(runs: int, lengths: tuple[int, ...] = (2000, 8000), seeks: int = 60
                 ) -> list[Figure]:
    """The replay screen's data: opening a log (``wizwar_tui.replay.from_log``: one pass
    over every action, keeping the events and a checkpoint every 50 actions) of each length,
    from fresh boards; and seeking in the shortest: the state after a random action
    (``Replay.at``: the nearest checkpoint restored, the rest replayed) and the view of the
    player to move, p95 of ``seeks`` seeks. The drawing of the screen is not in these."""
    from core.wizwar.view import view
    from wizwar_tui import replay

    longest = long_game(max(lengths))
    figs: list[Figure] = []
    logs = {n: game_log(GameRun(4, longest.seed, longest.actions[:n], False, ""))
            for n in lengths if n <= len(longest.actions)}
    for n, data in logs.items():
        fig = Figure(f"replay opening, {n:,} actions", "ms", higher=False,
                     target=1000 if n == 8000 else None)
        for _ in range(runs):
            _fresh_boards()
            t0 = cpu()
            replay.from_log(f"bench-{n}.wwlog", data)
            fig.samples.append(1000 * (cpu() - t0))
        figs.append(fig)
    if len(figs) >= 2:
        a, b = figs[0], figs[-1]
        lin = Figure("replay opening: time per action, longest / shortest", "x",
                     higher=False, target=1.25, note="1.0 is linear in the log's length")
        na, nb = list(logs)[0], list(logs)[-1]
        lin.samples = [(y / nb) / (x / na) for x, y in zip(a.samples, b.samples, strict=True)]
        figs.append(lin)
    n0 = min(logs)
    rp = replay.from_log("bench-seek.wwlog", logs[n0])
    rng = Rng.from_seed("wizwar-bench-seek")
    seek = Figure(f"replay seek p95, {n0:,} actions", "ms", higher=False, target=50,
                  note="state and view; the drawing not included")
    for _ in range(runs):
        times = []
        for _ in range(seeks):
            n = rng.below(rp.total + 1)
            t0 = cpu()
            st = rp.at(n)
            view(st, st.turn.active)
            times.append(1000 * (cpu() - t0))
        times.sort()
        seek.samples.append(times[min(len(times) - 1, (95 * len(times)) // 100)])
    figs.append(seek)
    return figs


# The peak is the child's own VmHWM: ``ru_maxrss`` survives ``execve`` on Linux, so a child
# started by a large bench process would report the bench's size.
_SELFPLAY_CHILD = """
import time
from core.wizwar import selfplay
t0 = time.process_time()
rep = selfplay.run({games}, players=4, levels=("apprentice",), seed={seed})
spent = time.process_time() - t0
bad = sum(1 for r in rep.games if r.failure)
with open("/proc/self/status") as f:
    peak = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:"))
print(spent, peak, bad)
"""


def bench_selfplay(runs: int, games: int) -> list[Figure]:
    """``wizwar selfplay`` (4 apprentice bots, every check on) for ``games`` games in a
    child process: its CPU time scaled to 200 games (target 3 minutes on one core) and its
    peak resident memory (``VmHWM``, Linux; target 80 MB). Each run plays other seeds."""
    est = Figure("self-play, 200 4-player games (from a sample)", "s", higher=False,
                 target=180, note=f"{games} games per run, scaled to 200; every check on")
    mem = Figure("self-play peak memory", "MB", higher=False, target=80)
    for i in range(runs):
        code = _SELFPLAY_CHILD.format(games=games, seed=1000 + i * games)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=os.getcwd())
        spent, rss, bad = out.stdout.split()[-3:]
        est.samples.append(float(spent) * 200 / games)
        mem.samples.append(int(rss) / 1024)
        if int(bad):
            est.note += f"; {bad} games failed a check (a bug to report)"
    return [est, mem]


def bench_archmage(runs: int, decisions: int) -> Figure:
    """Seconds per archmage decision (default budget) in 2-player games against the
    apprentice: p95 over ``decisions`` decisions per run (target 0.3 s). Only decisions
    with a choice count (a single legal action is answered at once)."""
    from core.wizwar import bot
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply, legal_actions, to_move
    from core.wizwar.view import view

    fig = Figure("archmage decision p95", "s", higher=False, target=0.3,
                 note=f"{decisions} decisions per run, 2 players, default budget")
    seed = 1
    for _ in range(runs):
        times: list[float] = []
        while len(times) < decisions:
            st = new_game(GameConfig(players=2), seed)
            seed += 1
            while not st.winner and len(times) < decisions:
                seat = to_move(st)[0]
                legal = legal_actions(st, seat)
                level = "archmage" if seat == "P1" else "apprentice"
                t0 = cpu()
                a = bot.choose(view(st, seat), seat, legal, level=level)
                if level == "archmage" and len(legal) > 1:
                    times.append(cpu() - t0)
                apply(st, a)
        times.sort()
        fig.samples.append(times[min(len(times) - 1, (95 * len(times)) // 100)])
    return fig


# ---- baselines: msgpack echo over TCP ----------------------------------------------------
def bench_echo(runs: int, messages: int = 2000) -> Figure:
    """Round trips per second of a msgpack map (an action record) sent over TCP on loopback
    to a thread that unpacks it and sends it back packed (CPU time of both ends, the
    kernel's work in their system calls included)."""
    import msgpack

    fig = Figure("baseline: msgpack TCP echo (loopback)", "trips/s")
    msg = {"seq": 12, "seat": "P2", "action": ["P2", "play", "fireball", ["P3"], 3, []],
           "hash": "0123456789abcdef"}
    for _ in range(runs):
        srv = socket.create_server(("127.0.0.1", 0))
        port = srv.getsockname()[1]

        def serve(srv: socket.socket = srv) -> None:
            conn, _ = srv.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            up = msgpack.Unpacker(raw=False)
            with conn:
                while True:
                    data = conn.recv(65536)
                    if not data:
                        return
                    up.feed(data)
                    for obj in up:
                        conn.sendall(msgpack.packb(obj, use_bin_type=True))

        th = threading.Thread(target=serve, daemon=True)
        th.start()
        cli = socket.create_connection(("127.0.0.1", port))
        cli.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        up = msgpack.Unpacker(raw=False)
        t0 = cpu()
        for _ in range(messages):
            cli.sendall(msgpack.packb(msg, use_bin_type=True))
            got = None
            while got is None:
                up.feed(cli.recv(65536))
                for obj in up:
                    got = obj
        fig.samples.append(messages / (cpu() - t0))
        cli.close()
        th.join(timeout=5)
        srv.close()
    return fig


# ---- the app: start to first paint, board render -----------------------------------------
def first_paint(code: str, marker: str, size: tuple[int, int] = (120, 40),
                timeout: float = 30.0, pycache: str | None = None) -> tuple[float, float]:
    """Start ``python -c code`` on a pseudo-terminal of ``size`` and wait until ``marker`` is
    on its screen (escape sequences removed). Returns (wall seconds, CPU seconds the process
    had used by then, all its threads). The app is then asked to quit (Ctrl+Q) and killed if
    it does not. Raises ``RuntimeError`` on a timeout or an early exit.

    ``pycache``: a folder for the compiled bytecode of every module (as an installed app has
    it); ``None``: no bytecode is written, so modules without compiled bytecode next to them
    (the project's own, in a source checkout) are compiled at each start."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(size[0]), LINES=str(size[1]))
    env.pop("PYTHONPYCACHEPREFIX", None)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    tick = os.sysconf("SC_CLK_TCK")
    with tempfile.TemporaryDirectory() as tmp:
        env["XDG_DATA_HOME"] = tmp
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave,
                                stderr=slave, env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        buf = b""
        found: tuple[float, float] | None = None
        try:
            while found is None:
                left = timeout - (time.perf_counter() - t0)
                if left <= 0:
                    raise RuntimeError(f"no first paint within {timeout:.0f} s")
                ready, _, _ = select.select([master], [], [], min(left, 0.5))
                if not ready:
                    if proc.poll() is not None:
                        text = _ANSI.sub("", buf.decode("utf-8", "replace"))
                        raise RuntimeError(f"the app exited early: {text[-300:]}")
                    continue
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise RuntimeError("the app closed its terminal before painting")
                buf += chunk
                if marker in _ANSI.sub("", buf.decode("utf-8", "replace")):
                    wall = time.perf_counter() - t0
                    found = (wall, _cpu_of(proc.pid, tick))
        finally:
            try:
                os.write(master, b"\x11")  # Ctrl+Q
                _drain(master, proc, 3.0)
            finally:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
                os.close(master)
    return found


def _cpu_of(pid: int, tick: int) -> float:
    """CPU seconds (user + system, every thread) used so far by process ``pid`` (Linux
    /proc; ``nan`` elsewhere). The kernel counts in clock ticks (usually 10 ms)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick
    except (OSError, IndexError, ValueError):
        return float("nan")


def _drain(master: int, proc: subprocess.Popen[bytes], wait: float) -> None:
    end = time.perf_counter() + wait
    while proc.poll() is None and time.perf_counter() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 65536)
            except OSError:
                return


def bench_start(runs: int) -> tuple[Figure, ...]:
    """Start to first paint of ``wizwar`` (its menu) and of the bare Textual app, run in
    turns, with every module's bytecode compiled once beforehand into a private cache (as an
    installed app has it). Wall time of each, and the ratio of the CPU time each had used by
    its first paint (target at most 1.3): wall time on a shared machine swings with the
    other programs, the work done does not. Then the same with no bytecode cache for the
    project's own modules (a source checkout run with PYTHONDONTWRITEBYTECODE)."""
    app = Figure("app start to first paint (wizwar menu)", "ms", higher=False)
    bare = Figure("baseline: bare Textual app first paint", "ms", higher=False)
    wall = Figure("start-up ratio wizwar / bare, wall time", "x", higher=False)
    ratio = Figure("start-up ratio wizwar / bare, CPU time", "x", higher=False, target=1.3)
    cold = Figure("start-up ratio, project not compiled", "x", higher=False,
                  note="CPU time; the project's modules compiled at each start")
    with tempfile.TemporaryDirectory() as cache:
        first_paint(_BARE_APP, BARE_MARKER, pycache=cache)  # compile, warm the file cache
        first_paint(_WIZWAR_APP, APP_MARKER, pycache=cache)
        for _ in range(runs):
            b = first_paint(_BARE_APP, BARE_MARKER, pycache=cache)
            a = first_paint(_WIZWAR_APP, APP_MARKER, pycache=cache)
            bare.samples.append(1000 * b[0])
            app.samples.append(1000 * a[0])
            wall.samples.append(a[0] / b[0])
            ratio.samples.append(a[1] / b[1])
    for _ in range(max(1, runs // 2)):
        b = first_paint(_BARE_APP, BARE_MARKER)
        a = first_paint(_WIZWAR_APP, APP_MARKER)
        cold.samples.append(a[1] / b[1])
    return app, bare, wall, ratio, cold


def bench_render(runs: int, reps: int = 20) -> Figure:
    """The game screen's board (4 players) drawn to screen lines at 120x40: the board text
    built from the view and turned into the widget's strips, ``reps`` times per run."""
    from textual.geometry import Region

    from wizwar_tui.app import WizWarApp
    from wizwar_tui.wizwar.widgets import Board

    fig = Figure("board render at 120x40 (4 players)", "ms", higher=False)

    async def go() -> None:
        app = WizWarApp(players=4, seed=7, start_game=True, bot_delay=0.0, discovery=False,
                        save_games=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            board = app.screen.query_one(Board)
            region = Region(0, 0, board.size.width, board.size.height)
            if not board.size.area:
                raise RuntimeError("the board has no size on the game screen")
            for i in range(runs + 1):
                t0 = cpu()
                for _ in range(reps):
                    board.refresh()
                    board.render_lines(region)
                if i:
                    fig.samples.append(1000 * (cpu() - t0) / reps)

    asyncio.run(go())
    return fig


# ---- the command -------------------------------------------------------------------------
PARTS = ("games", "apply", "legal", "los", "hash", "verify", "echo", "start", "render",
         "replay", "selfplay", "archmage", "lan", "poker", "poker-lan")


def bench_poker_lan(runs: int) -> tuple[Figure, ...]:
    """Mental poker between network namespaces over a veth pair (``net.poker_netns``; root
    only): the host's process in one, every joiner's in the other, one process each, every
    seat its bot's; wall time: a 4-seat game's deal, median draw and card shown to all; a
    2-seat game's reshuffle (seed ``tp:6``). With netem's 0.2 ms delay on each end when the
    kernel has it (the note says)."""
    from net.poker_netns import costs

    four = [costs() for _ in range(max(1, runs // 3))]
    two = costs(players=2, seed="tp:6")
    note = (f"netem delay {four[0]['netem']} each way" if four[0]["netem"] else
            f"no netem ({four[0]['netem_error'] or 'unavailable'}): veth only")
    return (Figure("mental poker between namespaces: deal, 4 seats", "ms", higher=False,
                   samples=[1e3 * x["deal"] for x in four], note=note),
            Figure("mental poker between namespaces: draw (median)", "ms", higher=False,
                   samples=[1e3 * x["draw"] for x in four]),
            Figure("mental poker between namespaces: a card shown to all", "ms",
                   higher=False, samples=[1e3 * x["show"] for x in four]),
            Figure("mental poker between namespaces: reshuffle, 2 seats", "ms",
                   higher=False, samples=[1e3 * two["reshuffle"]]))


def bench_poker(runs: int) -> tuple[Figure, ...]:
    """The mental-poker dealer's costs (``net.bench.mental_costs``; docs/protocol.md,
    Mental-poker dealing): a 4-seat Wiz-War deal, a draw, a card shown to everyone, a
    30-card reshuffle and the end's audit. CPU in one process (loopback); the deal's
    critical path as on a LAN with one machine per seat, network time left out."""
    from net.bench import mental_costs

    res = mental_costs(runs)
    n = int(res["cards"][0])
    return (Figure(f"mental poker: deal {n} cards, 4 seats, one process", "ms", higher=False,
                   samples=[1e3 * x for x in res["deal"]]),
            Figure("mental poker: the deal's critical path (LAN)", "ms", higher=False,
                   samples=[1e3 * x for x in res["deal_path"]],
                   note="each step made and checked once; add 8 one-way trips"),
            Figure("mental poker: draw (a card opened to its drawer)", "ms", higher=False,
                   samples=[1e3 * x for x in res["draw"]]),
            Figure("mental poker: a card shown to everyone", "ms", higher=False,
                   samples=[1e3 * x for x in res["show"]]),
            Figure("mental poker: reshuffle of 30 cards, one process", "ms", higher=False,
                   samples=[1e3 * x for x in res["reshuffle"]]),
            Figure("mental poker: the end's audit, one process", "ms", higher=False,
                   samples=[1e3 * x for x in res["audit"]]),
            *bench_poker_loopback(runs))


def bench_poker_loopback(runs: int) -> tuple[Figure, ...]:
    """Mental poker wired (``net.poker.loopback_costs``): whole games over 127.0.0.1, host
    and joiners in one process (one core: every process's work adds up), wall time: the
    deal of a 4-seat game, its median draw and card shown to everyone; a reshuffle from a
    2-seat game that deals its discard pile again twice (seed ``tp:6``)."""
    from net.poker import loopback_costs

    four = loopback_costs(max(1, runs // 3))
    two = loopback_costs(seeds=["tp:6"], players=2)
    return (Figure("mental poker over loopback: deal, 4 seats", "ms", higher=False,
                   samples=[1e3 * x for x in four["deal"]]),
            Figure("mental poker over loopback: draw (median)", "ms", higher=False,
                   samples=[1e3 * x for x in four["draw"]]),
            Figure("mental poker over loopback: a card shown to all (median)", "ms",
                   higher=False, samples=[1e3 * x for x in four["show"]]),
            Figure("mental poker over loopback: reshuffle, 2 seats (median)", "ms",
                   higher=False, samples=[1e3 * x for x in two["reshuffle"]]))


def bench_lan(runs: int) -> tuple[Figure, ...]:
    """LAN latency (``net.bench``): host and two joiners, each its own process, on loopback;
    per run one game, the median time from a joiner's proposal to every peer having applied
    it, and having also checked its state hash, beside the median round trip of a msgpack
    echo between two processes; their ratio (target at most 8). Wall time."""
    from net.bench import measure

    res = measure(runs)
    lat = Figure("LAN: proposal to every peer applied", "ms", higher=False,
                 samples=[1000 * x for x in res["latency"]])
    checked = Figure("LAN: ... and every hash checked", "ms", higher=False,
                     samples=[1000 * x for x in res["checked"]])
    echo = Figure("baseline: msgpack echo round trip, 2 processes", "ms", higher=False,
                  samples=[1000 * x for x in res["echo"]])
    ratio = Figure("LAN latency / echo round trip", "x", higher=False, target=8,
                   samples=res["ratio"], note="wall time, host + 2 joiners")
    ratio_checked = Figure("LAN latency with hash checks / echo", "x", higher=False,
                           samples=res["ratio_checked"])
    cpu = Figure("LAN: CPU on the critical path", "us", higher=False,
                 samples=[1e6 * x for x in res["cpu_path"]],
                 note="host + slowest joiner + one echo's CPU")
    echo_cpu = Figure("baseline: echo round trip CPU, 2 processes", "us", higher=False,
                      samples=[1e6 * x for x in res["echo_cpu"]])
    ratio_cpu = Figure("LAN CPU on the path / echo CPU", "x", higher=False,
                       samples=res["ratio_cpu"], note="a busy machine's wall time hides it")
    return lat, checked, echo, ratio, ratio_checked, cpu, echo_cpu, ratio_cpu


def run(runs: int = 5, quick: bool = False, only: Iterable[str] = (),
        echo: Callable[[str], None] = print) -> int:
    """Measure and print every figure (or the ``only`` parts, see :data:`PARTS`). ``quick``
    plays fewer games and runs (a smoke test, not for the record). Returns 0, or 1 when a
    figure with a target misses it."""
    want = set(only) or set(PARTS)
    unknown = want - set(PARTS)
    if unknown:
        raise ValueError(f"unknown part(s) {', '.join(sorted(unknown))}; parts: {', '.join(PARTS)}")
    if quick:
        runs = min(runs, 2)
    echo("wizwar bench: median of runs [lowest .. highest]; in-process figures in CPU time "
         "of this process, start-up in wall time and in CPU time")
    for k, v in machine().items():
        echo(f"  {k}: {v}")
    figs: list[Figure] = []

    def show(*fs: Figure) -> None:
        for f in fs:
            figs.append(f)
            echo(f.line())

    chess_runs: list[tuple[int, float]] = []
    has_chess = chess_available()

    def chess_per_ply() -> list[float]:
        """CPU seconds per python-chess ply, one per run (measured once, on first use)."""
        if has_chess and not chess_runs:
            chess_runs.extend(chess_random_plies() for _ in range(runs))
        return [t / n for n, t in chess_runs]

    def show_chess() -> None:
        if not has_chess:
            echo("python-chess is not installed (pip install -e '.[bench]'): no ratios")
        elif not any(f.name.startswith("python-chess") for f in figs):
            show(chess_figure([1 / p for p in chess_per_ply()]))

    n4 = 2 if quick else 6
    n2 = 2 if quick else 10
    games4: list[GameRun] = []
    games2: list[GameRun] = []
    if want & {"games", "apply", "legal", "hash", "verify"}:
        g4, games4 = bench_games(4, range(1, 1 + n4), runs if "games" in want else 1, None,
                                 "uniform")
        g2, games2 = bench_games(2, range(1, 1 + n2), runs if "games" in want else 1, None,
                                 "uniform")
        if "games" in want:
            show(g4, g2)
            show_chess()
            ratio = Figure("random 4-player action / python-chess ply", "x", higher=False,
                           target=0.5, note="CPU time per action over CPU time per ply")
            ratio.samples = [pa / per for pa, per in zip(g4.per_action, chess_per_ply(),
                                                         strict=False)]
            show(ratio)
            w4, _ = bench_games(4, range(1, 1 + n4), runs, LIGHT_WEIGHTS, "lightly weighted")
            show(w4)
            l4, _ = bench_games(4, range(1, 1 + n4), runs, None, "uniform, all listed",
                                listed=True)
            show(l4)
    recorded = games4[:3] + games2[:3]
    if "apply" in want:
        show(bench_apply(recorded, runs))
    if "legal" in want:
        show(*bench_legal(games4[0], runs))
        show(*bench_legal(games2[0], runs))
    if "los" in want:
        show(*bench_los(runs))
    if "hash" in want:
        show(bench_hash(recorded, runs))
    if "verify" in want:
        bots = [bot_game(4, s) for s in (1, 2, 3)] + [bot_game(2, s) for s in (1, 2, 3)]
        show_chess()
        for logs, label in ((bots, "bot games"), (recorded, "random games")):
            fig = bench_verify(logs, runs, label)
            fig.note = f"{len(logs)} logs, {sum(len(g.actions) for g in logs)} actions"
            show(fig)
            if has_chess:
                ratio = Figure(f"log verify ({label}) / python-chess plies", "x", target=2,
                               note="actions/s over plies/s")
                ratio.samples = [v * per for v, per in zip(fig.samples, chess_per_ply(),
                                                           strict=False)]
                show(ratio)
    if "replay" in want:
        show(*bench_replay(runs))
    if "selfplay" in want:
        show(*bench_selfplay(min(runs, 2), 3 if quick else 10))
    if "archmage" in want:
        show(bench_archmage(runs, 10 if quick else 40))
    if "echo" in want:
        show(bench_echo(runs))
    if "start" in want:
        show(*bench_start(runs))
    if "render" in want:
        show(bench_render(runs))
    if "lan" in want:
        show(*bench_lan(runs))
    if "poker" in want:
        show(*bench_poker(runs))
    if "poker-lan" in want:
        try:
            show(*bench_poker_lan(runs))
        except RuntimeError as exc:
            echo(f"mental poker between namespaces: not measured ({exc})")
    echo_fig = next((f for f in figs if f.name.startswith("baseline: msgpack")), None)
    if echo_fig is not None and echo_fig.median:
        echo("per 1,000 msgpack TCP echo round trips (a machine-independent scale):")
        for f in figs:
            if f.unit.endswith("/s") and f is not echo_fig:
                echo(f"  {f.name:<42} {1000 * f.median / echo_fig.median:.4g} "
                     f"{f.unit.split('/')[0]}")
    missed = [f.name for f in figs if f.verdict() == "MISSES"]
    echo(f"targets missed: {', '.join(missed)}" if missed else "every target met")
    return 1 if missed else 0
