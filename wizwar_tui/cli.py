"""The ``wizwar`` command: the app, and the headless tools.

``wizwar`` opens the main menu; ``wizwar play [GAME] [--seed S] [OPTIONS] [--bot LEVEL]...
[--ascii|--unicode]`` starts a game against bots (GAME one of the registry's games, default
``wizwar``; OPTIONS the game's options as flags, from its schema: Wiz-War's ``--players N``,
``--crossed``, ``--doors``, ``--team``); ``wizwar replay FILE`` replays a saved game (a ``.wwlog`` or export text);
``wizwar scenario PATH...`` runs conformance scenarios and prints
``N passed, N failed`` (exit 1 on any failure); ``wizwar selfplay --games N`` lets bots play
headless games checking every action (exit 1 on any crash or failed check);
``wizwar host``/``join``/``list`` play on the LAN (``--headless --bot`` without the app, see
net/cli.py); ``wizwar bench`` prints performance figures (docs/performance.md).
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import registry

if TYPE_CHECKING:  # (loaded with a command: the menu needs neither; docs/performance.md)
    import argparse

    from core.engine import Ruleset

#: Wiz-War's bench parts, for ``bench --help`` (wizwar_tui/wizwar/bench.py's ``PARTS``; a
#: test keeps them the same: importing the bench here would slow every command)
BENCH_PARTS = ("games", "apply", "legal", "los", "hash", "verify", "echo", "start", "render",
               "replay", "selfplay", "archmage", "lan", "poker", "poker-lan")


def shared_root() -> Path:
    """The shared reference folder: ``$WIZWAR_SHARED``, else ``shared`` beside the
    checkout (as the tests find it, tests/shared.py)."""
    return Path(os.environ.get("WIZWAR_SHARED") or Path(__file__).resolve().parents[2]
                / "shared")


def own_scenario_folders() -> list[str]:
    """The project's own scenario folders in this checkout, as paths from its root:
    ``tests/scenarios`` (the default game's), then each game's ``tests/<game>/scenarios``
    found there, sorted (the shell names no game)."""
    root = Path(__file__).resolve().parents[1]
    games = sorted(p.relative_to(root).as_posix() for p in root.glob("tests/*/scenarios")
                   if p.is_dir())
    return ["tests/scenarios", *games]


def _scenario(parser: argparse.ArgumentParser, paths: list[str]) -> int:
    """``wizwar scenario PATH...``: run the scenarios, exit 1 on any failure. No PATH, or
    one that does not exist under a missing shared folder, is said in words with where the
    scenarios are."""
    from core.scenario import run_paths

    shared = shared_root()
    where = (f"the shared set: {shared / 'scenarios'}" if shared.is_dir() else
             f"the shared folder {shared} is absent: set WIZWAR_SHARED to where shared/ is")
    if not paths:
        parser.error("name scenario files or folders, e.g. tests/scenarios (the project's "
                     f"own scenarios); {where}")
    _passed, failed = run_paths(paths)
    gone = [p for p in paths if not os.path.exists(p)]
    if gone and not shared.is_dir():
        print(f"note: {where} (the project's own scenarios: "
              f"{', '.join(own_scenario_folders())})", file=sys.stderr)
    return 1 if failed else 0


def play_levels(parser: argparse.ArgumentParser, args: argparse.Namespace,
                ruleset: Ruleset, options: dict[str, Any]) -> dict[str, str]:
    """Check ``wizwar play``'s other flags and give the bot level of each bot seat
    (``--bot`` once: every bot; several times: the bot seats in order). Exits with a usage
    error (status 2) on a bad combination or an unknown level."""
    if args.ascii and args.unicode:
        parser.error("--ascii and --unicode exclude each other")
    bots = ruleset.seats(options)[1:]
    given: list[str] = args.bot
    for level in given:
        if level not in ruleset.bot_levels:
            parser.error(f"unknown bot level {level!r} (levels: "
                         f"{', '.join(ruleset.bot_levels)})")
    if len(given) > 1 and len(given) != len(bots):
        parser.error(f"--bot: give one level for every bot, or one per bot seat "
                     f"({len(bots)}: {', '.join(bots)})")
    if not given:
        return {}
    if len(given) == 1:
        return dict.fromkeys(bots, given[0])
    return dict(zip(bots, given, strict=True))


def refuse_building(parser: argparse.ArgumentParser, game: str | None, cmd: str) -> None:
    """Refuse a game still being built (``registry.BUILDING``: its rules exist for scenarios,
    logs and self-play, but it is not offered yet) with a usage error in words (status 2).
    One whose screens exist may be tried locally (``cmd`` "play"; a note on stderr says what
    is missing); it is never hosted or joined, since its secrets are not yet kept on the
    LAN (a joiner would receive what its player may not see)."""
    if not game or game not in registry.BUILDING or game in registry.RULESETS:
        return
    from wizwar_tui import games

    title = registry.get(game).title
    if cmd == "play" and game in games.UI_PARTS:
        print(f"{title} is still being built: it plays locally against bots, not yet on a "
              "LAN, over SSH or in a browser", file=sys.stderr)
        return
    if cmd == "play":
        parser.error(f"{title} ({game}) is still being built and cannot be played yet: "
                     f"this wizwar plays {', '.join(registry.names())}")
    parser.error(f"{title} ({game}) is still being built and cannot be hosted or joined yet "
                 f"(its hidden information is not yet kept on the LAN); try it locally with "
                 f"`wizwar play {game}`")


def _version() -> str:
    """The installed package's version ("unknown" when run from a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wizwar")
    except PackageNotFoundError:
        return "unknown"


def _version_action() -> type[argparse.Action]:
    """The ``--version`` action: the installed version, looked up only when asked
    (``importlib.metadata`` loads email, csv and zipfile: not for every command's parser;
    docs/performance.md, start-up)."""
    import argparse

    class VersionAction(argparse.Action):
        def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                     default: str = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002
            super().__init__(option_strings, dest=dest, default=default, nargs=0,
                             help=help or "show program's version number and exit")

        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            parser._print_message(f"wizwar {_version()}\n", sys.stdout)
            parser.exit()

    return VersionAction


def _positive(text: str) -> int:
    """A whole number of at least 1 (argparse type)."""
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: must be at least 1")
    return n


def _delay(text: str) -> float:
    """A replay's seconds between two actions: a number more than 0 and at most 3600 (not
    nan, inf or a negative: argparse type)."""
    import argparse
    import math

    try:
        d = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(d) or not 0 < d <= 3600:
        raise argparse.ArgumentTypeError(f"{text}: the delay is a number of seconds more "
                                         "than 0 and at most 3600")
    return d


def build_parser(games: dict[str, Ruleset],
                 selfplay_players: int | None = None) -> argparse.ArgumentParser:
    """The ``wizwar`` parser; ``play`` and ``host`` get the options flags of the ruleset
    ``games`` gives for them; ``selfplay_players``: the players self-play plays without
    ``--players`` (its module's ``DEFAULT_PLAYERS``), said in its help."""
    import argparse

    from net.cli import add_game_argument, add_option_flags, add_parsers, seed_arg

    parser = argparse.ArgumentParser(prog="wizwar", description="Wizard games in the terminal")
    parser.add_argument("--version", action=_version_action())
    sub = parser.add_subparsers(dest="cmd")
    p_play = sub.add_parser("play", help="play against bots",
                            description="Play GAME against bots; the game's options are "
                                        "flags (below).")
    add_game_argument(p_play)
    p_play.add_argument("--seed", type=seed_arg, default=None, metavar="S",
                        help="the game seed, 0 to 2**64-1 (default: a random one, shown in "
                             "the header so the game can be replayed)")
    p_play.add_argument("--ascii", action="store_true",
                        help="draw with ASCII only (the default when the locale is not UTF-8)")
    p_play.add_argument("--unicode", action="store_true",
                        help="draw with Unicode even when the locale is not UTF-8")
    p_play.add_argument("--bot", action="append", default=[], metavar="LEVEL",
                        help="bot level: once for every bot, or once per bot seat (P2, P3, "
                             "...) in order")
    add_option_flags(p_play, games["play"], "play")
    p_play.set_defaults(built_for=games["play"].name, sub_parser=p_play)
    p_sc = sub.add_parser("scenario", help="run rules-conformance scenario files (of any "
                                           "game: a file's `ruleset` key)")
    p_sc.add_argument("paths", nargs="*", metavar="PATH",
                      help="scenario files or folders of them, e.g. tests/scenarios (the "
                           "project's own) or ../shared/scenarios (the shared set)")
    p_sc.set_defaults(sub_parser=p_sc)
    p_ver = sub.add_parser("verify", help="replay saved games and check every hash")
    p_ver.add_argument("files", nargs="+")
    p_exp = sub.add_parser("export", help="print a saved game as notation text")
    p_exp.add_argument("file")
    p_exp.add_argument("--all", dest="show_all", action="store_true",
                       help="a game still in progress: show everything, the other players' "
                            "secrets included (by default it is written as the log's player "
                            "saw it; a finished game always shows all)")
    p_rep = sub.add_parser("replay", help="replay a saved game (.wwlog or export text)")
    p_rep.add_argument("file")
    p_rep.add_argument("--delay", type=_delay, default=0.5, metavar="SECONDS",
                       help="seconds between two actions when playing, more than 0 and at "
                            "most 3600 (default 0.5)")
    p_rep.add_argument("--ascii", action="store_true", help="draw the board with ASCII only")
    p_bench = sub.add_parser("bench", help="measure the speed of the rules and the app "
                             "(docs/performance.md)")
    add_game_argument(p_bench)
    p_bench.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    p_bench.add_argument("--quick", action="store_true",
                         help="fewer games and runs: a smoke test, not for the record")
    p_bench.add_argument("--only", action="append", default=[], metavar="PART",
                         help="measure only these parts (repeat or comma-separate): "
                              f"{', '.join(BENCH_PARTS)}")
    p_self = sub.add_parser("selfplay", help="bots play headless games, every action checked")
    add_game_argument(p_self)
    p_self.add_argument("--games", type=_positive, default=10, help="how many games (default 10)")
    # before the options' flags: an option named budget (Wizard Kings') is --game-budget here
    p_self.add_argument("--budget", type=int, default=None, help="archmage playouts")
    add_option_flags(p_self, games["selfplay"], "selfplay")
    if selfplay_players is not None:  # self-play's own table, not the schema's default
        for act in p_self._actions:
            if act.dest == "opt_players" and act.help:
                head, _, _ = act.help.rpartition("default ")  # "(default 2)", "(...; default 2)"
                act.help = f"{head}default {selfplay_players})"
    p_self.add_argument("--bots", default="",
                        help="bot level for every seat, or one per seat: archmage,apprentice "
                             "(default: the game's first level)")
    p_self.add_argument("--seed", type=seed_arg, default=0, help="seed of the first game")
    p_self.add_argument("--logs", default="selfplay-logs",
                        help="folder for the logs of failed games (default selfplay-logs)")
    p_self.add_argument("--save-all", action="store_true", help="keep every game's log")
    p_self.add_argument("--max-actions", type=int, default=None,
                        help="length cap: a longer game stops as a draw")
    p_self.add_argument("--sample", type=int, default=3,
                        help="legal actions tried on copies per step (0: all)")
    add_parsers(sub, games["host"])
    for name, sp in sub.choices.items():  # usage errors show the command's own usage
        if name != "play":
            sp.set_defaults(sub_parser=sp)
    return parser


def parse(argv: list[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """Parse ``argv`` (default ``sys.argv[1:]``): the options flags of ``play``/``host`` are
    those of the GAME named (an unknown GAME is a one-line usage error, status 2)."""
    from core.engine import UnknownRuleset
    from net.cli import game_in_argv, value_flags

    words = list(sys.argv[1:] if argv is None else argv)
    plain = build_parser(dict.fromkeys(("play", "host", "selfplay"), registry.get()))
    # an option's value is never taken for GAME: `wizwar host --name ArcoMage` is Wiz-War's
    games = {c: registry.get(game_in_argv(words, c, value_flags(plain, c)))
             for c in ("play", "host", "selfplay")}
    sp_players = _selfplay_players(games["selfplay"]) if "selfplay" in words else None
    parser = build_parser(games, sp_players)
    args = _parse(parser, words)
    if getattr(args, "game", None) is not None:
        try:
            args.game = registry.canonical(args.game)
        except UnknownRuleset as exc:
            args.sub_parser.error(str(exc))
        built = getattr(args, "built_for", args.game)
        if built != args.game:  # the word first taken for GAME was an option's value
            games[args.cmd] = registry.get(args.game)
            if args.cmd == "selfplay":
                sp_players = _selfplay_players(games["selfplay"])
            parser = build_parser(games, sp_players)
            args = _parse(parser, words)
            args.game = registry.canonical(args.game)
    return parser, args


def _selfplay_players(rs: Ruleset) -> int | None:
    """How many players ``wizwar selfplay`` of ``rs`` plays without ``--players`` (its
    self-play module's ``DEFAULT_PLAYERS``; None for a game without self-play or players)."""
    import importlib

    tool = rs.tools.get("selfplay")
    if not tool or "players" not in [o.name for o in rs.options]:
        return None
    got = getattr(importlib.import_module(tool), "DEFAULT_PLAYERS", None)
    return got if isinstance(got, int) else None


def _parse(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """``parser.parse_args(words)``, except that words no command knows are said with the
    command's own usage (``wizwar play --bogus``: "wizwar play: error: unrecognized
    arguments: --bogus", not the top-level usage argparse prints for them)."""
    args, extra = parser.parse_known_args(words)
    if extra:
        where = getattr(args, "sub_parser", None) or parser
        where.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script. Returns the process exit status. Output cut
    short by its reader (``wizwar export FILE | head``) ends quietly: status 141, no
    traceback."""
    try:
        return _main(argv)
    except BrokenPipeError:
        import os

        with contextlib.suppress(OSError):  # nothing more reaches the closed pipe, even
            devnull = os.open(os.devnull, os.O_WRONLY)  # the flush at exit
            os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command cut off by `head`


def _main(argv: list[str] | None) -> int:
    """:func:`main` itself. ``wizwar`` with no words opens the menu at once: no parser is
    built (building it loads the default game's rules for its option flags, which the menu
    does not need; docs/performance.md, start-up)."""
    if not (sys.argv[1:] if argv is None else argv):
        from wizwar_tui.app import run as run_app

        return run_app()
    from net.cli import options_from_args, prepare
    from net.cli import run as run_net

    parser, args = parse(argv)
    parser = getattr(args, "sub_parser", None) or parser
    if args.cmd in ("host", "join"):
        refuse_building(parser, getattr(args, "game", None), args.cmd)
        prepare(parser, args)
    if args.cmd == "verify":
        from wizwar_tui.saves import verify_files

        return verify_files(args.files)
    if args.cmd == "bench":
        from wizwar_tui import games

        parts = [p for arg in args.only for p in arg.split(",") if p]
        try:
            return games.ui(args.game).run_bench(runs=max(1, args.runs), quick=args.quick,
                                                 only=parts)
        except ValueError as exc:
            parser.error(str(exc))
    if args.cmd == "export":
        from wizwar_tui.saves import export_file

        return export_file(args.file, show_all=args.show_all)
    if args.cmd in ("host", "join", "list"):
        code = run_net(args)
        if code is not None:
            return code
    if args.cmd == "selfplay":
        return _selfplay(parser, args)
    if args.cmd == "scenario":
        return _scenario(parser, args.paths)
    from wizwar_tui.app import run

    if args.cmd == "replay":
        return run(replay=args.file, ascii_only=True if args.ascii else None,
                   replay_delay=args.delay)
    if args.cmd == "play":
        refuse_building(parser, args.game, "play")
        rs = registry.get(args.game)
        options = options_from_args(parser, rs, args)
        levels = play_levels(parser, args, rs, options)
        variants: dict[str, Any] = {k: v for k, v in options.items() if k != "players"}
        variants["levels"] = levels
        extra: dict[str, Any] = {} if rs.name == registry.DEFAULT else {"game": rs.name}
        return run(players=options.get("players", len(rs.seats(options))), seed=args.seed,
                   start_game=True,
                   ascii_only=True if args.ascii else (False if args.unicode else None),
                   variants=variants, **extra)
    if args.cmd in ("host", "join"):
        from wizwar_tui.app import run_lan

        return run_lan(args)
    return run()


def _selfplay(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``wizwar selfplay [GAME]``: play, show a progress bar on stderr, save logs, print the
    report. Returns 1 when any game crashed or failed a check."""
    import importlib
    import os
    import time

    from core.engine import OptionError
    from net.cli import options_from_args

    rs = registry.get(args.game)
    tool = rs.tools.get("selfplay")
    if not tool:
        parser.error(f"{rs.title} has no self-play yet")
    selfplay: Any = importlib.import_module(tool)
    given = options_from_args(parser, rs, args)
    if getattr(args, "opt_players", None) is None and "players" in given:
        # self-play's own default table, unless a variant given needs the schema's (crossed)
        with contextlib.suppress(OptionError):
            given = rs.validate_options({**given, "players": selfplay.DEFAULT_PLAYERS})

    levels = tuple(x.strip() for x in args.bots.split(",") if x.strip()) or \
        tuple(rs.bot_levels[:1]) or ("apprentice",)
    started = time.monotonic()

    def save(name: str, data: bytes) -> str:
        os.makedirs(args.logs, exist_ok=True)
        path = os.path.join(args.logs, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def on_game(i: int, g: selfplay.GameResult) -> None:
        name = f"selfplay-{g.players}p-seed{g.seed}.wwlog"
        if g.failure:
            path = save(name, g.log)
            print(f"\nseed {g.seed}: {g.failure}; first bad action {g.bad_action or '-'}; "
                  f"log saved to {path}", file=sys.stderr)
        elif args.save_all:
            save(name, selfplay.game_log(g.players, g.seed, g.levels, g.moves, options=given))
        done = i + 1
        width = 30
        fill = done * width // args.games
        spent = time.monotonic() - started
        eta = spent / done * (args.games - done)
        print(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{args.games} games, "
              f"{spent:.0f}s, about {eta:.0f}s left ", end="", file=sys.stderr, flush=True)

    try:
        rep = selfplay.run(args.games, given.get("players", 0), levels, args.seed,
                           options=given,
                           max_actions=args.max_actions or selfplay.MAX_ACTIONS,
                           sample=args.sample, budget=args.budget, on_game=on_game)
    except ValueError as exc:
        print(f"wizwar selfplay: {exc}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    print(selfplay.format_report(rep))
    return 1 if rep.crashes or rep.invariant_failures else 0


if __name__ == "__main__":
    sys.exit(main())
