"""``wizwar host``, ``wizwar join`` and ``wizwar list`` without the app (``--headless``).

For tests and scripts: ``--headless --bot`` plays the seat with the bot and prints the final
state hash, so several processes on one machine can show they ended on the same state.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Collection
from typing import Any

from core import registry
from core.engine import Option, OptionError, Ruleset, UnknownRuleset

# the LAN machinery and the rules core are imported where a LAN command runs, not at every
# ``wizwar`` start (the parsers below are built for the menu too); the registry loads a
# ruleset's module only when asked for it

DEFAULT_PORT = 7654

#: other flags an option answers to on a command: ``wizwar host --seats N`` is ``--players``
FLAG_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {"host": {"players": ("--seats",)}}


def _err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _winner_line(res: Any) -> str:
    """The headless ``winner`` line for an Outcome: ``winner P1`` (``P1+P3``, a team), or
    ``winner -`` with the game's words for why (``winner - (a draw)``, ``(no winner)``)."""
    from core.log import result_text  # here, so that start-up stays lean

    if res.winners:
        return f"winner {'+'.join(res.winners)}"
    return f"winner - ({result_text(res)})"


def say_log(path: str) -> None:
    """``game log: PATH`` on stderr, if the game wrote that file (a game stopped before
    its deal wrote none: no line for a file that does not exist)."""
    if path and os.path.exists(path):
        _err(f"game log: {path}")


# ---- the game and its options on a command line ---------------------------------------
def game_in_argv(argv: list[str], cmd: str,
                 value_flags: Collection[str] = ()) -> str:
    """The GAME named after ``cmd`` in ``argv`` (``wizwar play arcomage ...``): the first
    word after the command that is a registered ruleset or alias, and not the value of a
    flag in ``value_flags`` (the command's flags that take one: ``wizwar host --name
    ArcoMage`` hosts the default game, named ArcoMage); the default otherwise. The options
    flags are built for it before argparse runs (``wizwar_tui.cli.parse`` checks)."""
    if cmd not in argv:
        return registry.DEFAULT
    words = argv[argv.index(cmd) + 1:]
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "--":
            continue
        if word.startswith("-"):
            skip = "=" not in word and word in value_flags
            continue
        try:
            return registry.canonical(word)
        except UnknownRuleset:
            continue
    return registry.DEFAULT


def value_flags(parser: argparse.ArgumentParser, cmd: str) -> set[str]:
    """The flags of sub-command ``cmd`` of ``parser`` that take a value (``--name``,
    ``--port``...), for :func:`game_in_argv`; empty for an unknown command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sp = action.choices.get(cmd)
            if sp is None:
                return set()
            return {flag for a in sp._actions if a.nargs != 0 for flag in a.option_strings}
    return set()


def add_game_argument(p: argparse.ArgumentParser) -> None:
    """The optional GAME positional of ``play``/``host``/``selfplay``/``bench``."""
    p.add_argument("game", nargs="?", default=registry.DEFAULT, metavar="GAME",
                   help=f"the game: {', '.join(registry.names())} (default {registry.DEFAULT})"
                   + (f"; still being built, not offered yet: {', '.join(registry.BUILDING)}"
                      if registry.BUILDING else ""))


def _dest(o: Option) -> str:
    return f"opt_{o.name}"


class _OnceAction(argparse.Action):
    """An option's flag: given twice with two values (``host --players 2 --seats 3``, or
    ``--crossed --no-crossed``) is refused in words instead of the last one winning
    (issue 12). The same value twice is accepted."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        value = self.const if self.nargs == 0 else values
        old = getattr(namespace, self.dest, None)
        seen = f"_{self.dest}_flag"
        if old is not None and old != value and hasattr(namespace, seen):
            def said(flag: str, v: Any) -> str:
                return flag if isinstance(v, bool) else f"{flag} {v}"
            parser.error(f"{said(option_string or '', value)} conflicts with "
                         f"{said(getattr(namespace, seen), old)}: they set the same option "
                         f"({self.metavar_name}); give it once")
        setattr(namespace, self.dest, value)
        setattr(namespace, seen, option_string or "")

    metavar_name = ""


def _once(name: str) -> type[_OnceAction]:
    """A :class:`_OnceAction` for option ``name`` (its words in the refusal)."""
    return type("_Once", (_OnceAction,), {"metavar_name": name})


def add_option_flags(p: argparse.ArgumentParser, ruleset: Ruleset, cmd: str = "") -> None:
    """One flag per option of ``ruleset.options`` (``--name``; a bool also ``--no-name``),
    with its help and default, so no option is ever left off a command. An option whose
    flag the command already has (ArcoMage's ``clock`` on ``host``, whose ``--clock`` is
    the LAN answer clock) is ``--game-NAME`` there."""
    g = p.add_argument_group(f"{ruleset.title} options")
    aliases = FLAG_ALIASES.get(cmd, {})
    taken = p._option_string_actions  # the command's own flags (host's --clock)
    for o in ruleset.options:
        flags = [f for f in (o.flag, *aliases.get(o.name, ())) if f not in taken] \
            or ["--game-" + o.flag[2:]]  # an option named like a flag of the command
        default = f" (default {'on' if o.default else 'off'})" if o.kind == "bool" else \
            f" (default {o.default})" if o.default != "" else " (default: none)"
        if o.kind == "bool" and o.default:
            default = f" (default on; --no-{o.flag[2:]}: off)"
        if o.choices and o.kind != "bool":  # the metavar hides them: say them
            default = f" (one of {', '.join(str(c) for c in o.choices)}; {default[2:]}"
        once = _once(o.name)
        if o.kind == "bool":
            g.add_argument(*flags, dest=_dest(o), action=once, nargs=0, const=True,
                           default=None, help=(o.help or o.label) + default)
            g.add_argument("--no-" + o.flag[2:], dest=_dest(o), action=once, nargs=0,
                           const=False, help=argparse.SUPPRESS)
        elif o.kind == "int":
            g.add_argument(*flags, dest=_dest(o), action=once, type=int, default=None,
                           metavar="N", choices=list(o.choices) or None,
                           help=(o.help or o.label) + default)
        else:
            g.add_argument(*flags, dest=_dest(o), action=once, default=None, metavar="VALUE",
                           type=str.lower if o.kind == "choice" else str,  # as coerce does
                           choices=list(o.choices) or None, help=(o.help or o.label) + default)


def options_from_args(p: argparse.ArgumentParser, ruleset: Ruleset,
                      args: argparse.Namespace) -> dict[str, Any]:
    """The validated options of the flags given (defaults for the others). A refused value
    or combination is an argparse error naming the option (exit status 2)."""
    given = {o.name: getattr(args, _dest(o)) for o in ruleset.options
             if getattr(args, _dest(o), None) is not None}
    try:
        return ruleset.validate_options(given)
    except OptionError as exc:
        flags = " ".join(ruleset.options[k].flag for k in given) or "the options"
        p.error(f"{flags}: {exc}")
    raise AssertionError("unreachable")  # p.error exits


def advertise_wanted(bind: str, flag: bool) -> bool:
    """Advertise on the LAN unless told not to or bound to loopback only (a loopback host is
    for this machine; tests bind 127.0.0.1 and so never multicast)."""
    return flag and not bind.startswith("127.") and bind != "localhost"


def dealer_choice(args: argparse.Namespace) -> str:
    """The dealer ``wizwar host`` uses: ``--dealer`` when given, else mental poker whenever
    two or more people play (the seats neither the host's bots nor the host's own bot
    play), else the host's dealer. A game with no dealer-held secret has no dealer to
    choose: "host" (the trusted dealer deals nothing); a resumed game (``--resume``) keeps
    the host's dealer that dealt it (a poker game cannot be resumed yet), and so does a game
    with an answer clock (``--clock``: a poker game has none yet)."""
    resuming = bool(getattr(args, "resume", None))
    if resuming or not args.ruleset.dealing().values(args.options):
        return "host"  # no secret to deal; or a resumed game, which the host's dealer dealt
    if getattr(args, "dealer", None):
        return str(args.dealer)
    if getattr(args, "clock", None) is not None:
        return "host"  # the answer clock is the host dealer's only (a poker game has none yet)
    people = args.seats - args.bots - (1 if getattr(args, "bot", False) else 0)
    return "poker" if people >= 2 else "host"


def dealer_line(dealer: str, bots: int, seats: list[str]) -> str:
    """The lobby's line saying which dealer the game uses and whose machine holds each of
    the host's bots' cards (a joiner's bots are said when they join)."""
    held = [f"{s} (bot) on the host's machine" for s in seats[len(seats) - bots:]] \
        if bots else []
    if dealer == "poker":
        return ("dealer: mental poker (each hand readable only on its owner's machine)"
                + ("; " + ", ".join(held) if held else ""))
    return "dealer: the host (it can read every hand; faster)"


async def host_poker(args: argparse.Namespace) -> int:
    """Host a game dealt by mental poker (net/poker.py), the host's own seat played by the
    bot; print the final hash and the audit's verdict."""
    from platformdirs import user_data_dir

    from net.logfiles import games_dir
    from net.poker import PokerHost

    rs: Ruleset = args.ruleset
    game = PokerHost(rs, players=args.seats, bots=args.bots, options=args.options,
                     bind=args.bind, port=args.port or 0, log=_err,
                     keys_dir=os.path.join(user_data_dir("wizwar"), "poker-keys"),
                     log_dir=games_dir(),
                     seed=None if args.seed is None else str(args.seed))
    try:
        port = await game.start()
    except OSError as exc:
        _err(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}")
        return 1
    print(f"listening on {args.bind}:{port}", flush=True)
    print(game.lobby_line(), flush=True)
    adv = None
    if advertise_wanted(args.bind, getattr(args, "advertise", False)):
        try:
            adv = await advertise_poker(game, args.name)
        except Exception as exc:  # noqa: BLE001 - discovery is a convenience only
            _err(f"could not advertise on the LAN ({exc}); join by address")
        else:
            seated = game.log

            def log_and_update(msg: str) -> None:  # a join: the ad's seats follow
                seated(msg)
                asyncio.ensure_future(update_poker_ad(adv, game))

            game.log = log_and_update
    try:
        final = await game.run()
    finally:
        if adv is not None:
            with contextlib.suppress(Exception):
                await adv.stop()
        await game.close()
    if not final:
        _err(f"the game stopped: {game.stopped}"
             + (f"; report in {game.report}" if game.report else ""))
        say_log(game.player.log_path)  # the log as the game went
        return 2
    say_log(game.player.log_path)
    res = rs.result(game.player.state)
    print(_winner_line(res), flush=True)
    print("audit passed", flush=True)
    print(f"final hash {final}", flush=True)
    return 0


async def back_poker(args: argparse.Namespace) -> int:
    """``wizwar join --back KEYS``: a poker game's process back after it died (the host's
    too), from the keys it kept, its bot playing its seats (net/handover.py); prints the
    final hash and the audit's verdict."""
    import json

    from net.handover import come_back
    from net.logfiles import games_dir
    from net.poker import Player, Stopped

    try:
        with open(args.back, encoding="utf-8") as f:
            kept = json.load(f)
        rs = registry.get(str(kept.get("ruleset", registry.DEFAULT)))
        if int(kept.get("proc", -1)) < 0 or not (kept.get("addrs") or kept.get("ad")):
            raise ValueError("it holds no process number or no addresses of the game (nor "
                             "the name it is announced under on the LAN)")
    except (OSError, ValueError, AttributeError, UnknownRuleset) as exc:
        _err(f"cannot come back with {args.back}: {exc}")
        return 1

    async def unjoined(_m: Any) -> None:
        raise ConnectionError("not joined")

    async def nothing() -> None:
        return None

    player = Player(rs, unjoined, nothing, log=_err, rejoin_from=args.back,
                    keys_dir=os.path.dirname(os.path.abspath(args.back)), log_dir=games_dir())
    try:
        final = await come_back(player)
    except Stopped as exc:
        _err(f"the game stopped: {exc}" + (f" ({exc.seat} cheated)" if exc.seat else ""))
        return 2
    say_log(player.log_path)
    print(f"seat {player.mine[0]}", flush=True)
    print("audit passed", flush=True)
    print(f"final hash {final}", flush=True)
    return 0


async def join_poker(args: argparse.Namespace, rs: Ruleset, host: str, port: int) -> int:
    """Join a game dealt by mental poker with the bot playing our seat; print the final
    hash and the audit's verdict."""
    from platformdirs import user_data_dir

    from net.handover import play
    from net.logfiles import games_dir
    from net.poker import Player, Stopped

    async def unjoined(_m: Any) -> None:
        raise ConnectionError("not joined")

    async def nothing() -> None:
        return None

    player = Player(rs, unjoined, nothing, log=_err,
                    keys_dir=os.path.join(user_data_dir("wizwar"), "poker-keys"),
                    log_dir=games_dir())
    try:
        final = await play(player, host, port, args.name)  # outlives the host
    except Stopped as exc:
        _err(f"the game stopped: {exc}" + (f" ({exc.seat} cheated)" if exc.seat else ""))
        say_log(player.log_path)  # the log as the game went (docs/protocol.md, Logs)
        return 2
    except (ConnectionError, OSError) as exc:
        _err(f"cannot join {host}:{port}: {exc}")
        return 1
    say_log(player.log_path)
    print(f"seat {player.mine[0]}", flush=True)
    print("audit passed", flush=True)
    print(f"final hash {final}", flush=True)
    return 0


async def host_headless(args: argparse.Namespace) -> int:
    """Host a game whose own seat the bot plays; print the final hash."""
    if dealer_choice(args) == "poker":
        return await host_poker(args)
    from net.lan import HostGame
    from net.logfiles import new_log, now_text

    rs: Ruleset = args.ruleset
    save = new_log("host", args.name)
    args.log_path = save.path  # said if the game is stopped (Ctrl+C)
    game = HostGame(ruleset=rs, options=args.options, name=args.name, bind=args.bind,
                    port=args.port, bots=args.bots, local_bot=True, clock=args.clock, log=_err,
                    writer=save.write, started=now_text(), seed=args.seed)
    from net.hosting import resumed

    if not await resumed(args, game, save):
        return 1
    try:
        port = await game.start()
    except OSError as exc:
        _err(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}")
        return 1
    print(f"listening on {args.bind}:{port}", flush=True)
    adv = None
    if advertise_wanted(args.bind, args.advertise):
        adv = await advertise(game, args.name, port, args.bind, taken=1 + args.bots)
    try:
        final = await game.run()
    finally:
        if adv is not None:
            await adv.stop()
        await game.close()
        save.close()
    say_log(save.path)
    if not final:
        _err(f"the game stopped: desync, report in {game.desync}")
        return 2
    res = rs.result(game.state)
    print(_winner_line(res), flush=True)
    print(f"final hash {final}", flush=True)
    return 0


async def advertise(game: Any, name: str, port: int, bind: str, taken: int) -> Any:
    """Announce ``game`` (a ``HostGame``) on the LAN: its name, the protocol, the ruleset
    and its public options (:func:`net.discovery.txt_fields`), the seats; kept up to date as
    seats fill. Returns the started ``Advertiser``."""
    from net.discovery import Advertiser, txt_fields
    from net.protocol import PROTOCOL_VERSION

    adv = Advertiser()
    rules, opts = txt_fields(game.ruleset, game.options)
    remote = game.free_seats
    await adv.start(name, port, proto=PROTOCOL_VERSION, ruleset=rules, options=opts,
                    seats_taken=taken, seats_free=remote,
                    interfaces=None if bind in ("0.0.0.0", "") else [bind])
    game.on_change = lambda: asyncio.ensure_future(
        adv.update(taken + (remote - game.free_seats), game.free_seats))
    return adv


async def advertise_poker(host: Any, name: str) -> Any:
    """Announce a game dealt by mental poker (a started ``net.poker.PokerHost``) on the LAN
    as :func:`advertise` does a ``HostGame``, with ``dealer=poker`` in its TXT record; the
    seats are the host's own (its person's and its bots') and the free ones. Returns the
    started ``Advertiser`` (:meth:`update_poker_ad` keeps it up to date)."""
    from net.discovery import Advertiser, txt_fields
    from net.protocol import PROTOCOL_VERSION

    adv = Advertiser()
    rules, opts = txt_fields(host.ruleset, host.options)
    free = len(host.free())
    await adv.start(name, host.port, proto=PROTOCOL_VERSION, ruleset=rules, options=opts,
                    seats_taken=len(host.seat_ids) - free, seats_free=free, dealer="poker",
                    interfaces=None if host.bind in ("0.0.0.0", "") else [host.bind])
    host.ad_name = adv.name or ""  # the table says it: a new sequencer announces it again
    return adv


async def update_poker_ad(adv: Any, host: Any) -> None:
    """Publish a poker game's seats as they fill (a failure is ignored: discovery is a
    convenience only)."""
    free = len(host.free())
    with contextlib.suppress(Exception):
        await adv.update(len(host.seat_ids) - free, free)


def parse_target(target: str) -> tuple[str, int] | None:
    """``HOST:PORT`` as (host, port), or None when it is a game name."""
    host, sep, port = target.rpartition(":")
    if sep and port.isdigit() and host:
        if not 1 <= int(port) <= 65535:
            raise LookupError(f"{port} is not a port (1-65535)")
        return host.strip("[]"), int(port)
    return None


async def resolve(target: str, timeout: float) -> tuple[str, int, str]:
    """A game to join: ``HOST:PORT`` directly, else a game name found by zeroconf; with the
    ruleset name its TXT record gives ("" for an address). Raises ``LookupError`` when no
    such game is found."""
    direct = parse_target(target)
    if direct:
        return direct[0], direct[1], ""
    if ":" in target:
        raise LookupError(f"{target!r} is not HOST:PORT")
    from net.discovery import find_games, first_reachable

    games = await find_games(timeout)
    tried: list[str] = []
    for g in games:
        if g.name == target or (not target and g.seats_free > 0):
            hosts = g.hosts or (g.host,)
            host = await first_reachable(hosts, g.port)  # every advertised address at once
            if host is not None:
                return host, g.port, g.game
            tried.append(f"{g.name!r} at {', '.join(hosts)} port {g.port}")
    if tried:
        raise LookupError(f"found {'; '.join(tried)}, but no address answers")
    raise LookupError(f"no game called {target!r} found on the network"
                      if target else "no game with a free seat found on the network")


async def join_headless(args: argparse.Namespace) -> int:
    """Join with the bot playing our seat; reconnect if the connection drops; print the
    final hash."""
    if getattr(args, "back", ""):
        return await back_poker(args)
    try:
        host, port, found = await resolve(args.target or "", args.timeout)
    except LookupError as exc:
        _err(str(exc))
        return 1
    from net.dealer import DealError
    from net.lan import HostClosed, JoinRefused, OtherGame, PeerGame
    from net.logfiles import new_log, now_text

    asked = getattr(args, "game", None)  # --game, or None: whatever the host plays
    try:
        rs = registry.get(found or asked or registry.DEFAULT)
    except UnknownRuleset as exc:
        _err(f"cannot join: {exc}")
        return 1
    if found and asked and registry.get(asked).name != rs.name:
        _err(f"cannot join: {args.target!r} plays {rs.title}, not {registry.get(asked).title}"
             f" (--game {asked}): join without --game, or with --game {rs.name}")
        return 1
    save = new_log("peer", args.name)
    args.log_path = save.path  # said if the game is stopped (Ctrl+C)
    from platformdirs import user_data_dir

    peer = PeerGame(host, port, name=args.name, log=_err, ruleset=rs,
                    follow_host=not (found or asked),
                    token=load_token(host, port, args.name), writer=save.write,
                    started=now_text(),
                    secrets_dir=os.path.join(user_data_dir("wizwar"), "owner-secrets"))
    for attempt in range(args.retries + 1):
        try:
            await peer.connect()
            final = await peer.run_saving_token(
                lambda h, p, tok: save_token(h, p, args.name, tok))
            break
        except HostClosed as exc:
            _err(str(exc))
            return 1
        except OtherGame as exc:
            save.close()
            _err(f"refused: {exc}: join without --game, or with --game {exc.ruleset}")
            return 1
        except JoinRefused as exc:
            save.close()
            if "mental poker" in str(exc) and not peer.seat:
                return await join_poker(args, rs, host, port)
            _err(f"refused: {exc}")
            return 1
        except DealError as exc:  # the peer wrote its report and told the host
            save.close()
            _err(f"the game stopped: {exc}; report in {peer.desync}")
            return 2
        except (ConnectionError, OSError) as exc:
            if not peer.seat:  # never got in: nothing to rejoin
                _err(f"cannot join {host}:{port}: {exc}")
                return 1
            if attempt == args.retries:
                _err(f"lost the host: {exc}")
                return 1
            _err(f"connection lost ({exc}); rejoining")
            peer.conn = None
            await asyncio.sleep(0.5)
    save.close()
    say_log(save.path)
    if not final:
        _err(f"the game stopped: desync, report in {peer.desync}")
        return 2
    print(f"seat {peer.seat}", flush=True)
    print(f"final hash {final}", flush=True)
    return 0


def _token_path(host: str, port: int, name: str) -> str:
    import os

    from platformdirs import user_data_dir

    safe = "".join(ch if ch.isalnum() or ch in ".-" else "_" for ch in f"{host}_{port}_{name}")
    return os.path.join(user_data_dir("wizwar"), "seats", f"{safe[:120]}.token")


#: the token slot this process holds for each (host, port, name): see :func:`token_slot`
_SLOTS: dict[tuple[str, int, str], tuple[str, Any]] = {}


def token_slot(host: str, port: int, name: str) -> str:
    """The file where this process keeps its seat token for ``host:port`` under ``name``.

    Two ``wizwar join`` processes of one user under one name (two terminals, both "guest")
    must not share a token: the second would take the first one's seat. So each process
    holds a lock on its slot (``NAME.token``, then ``NAME.token.2``...) for as long as it
    runs; a process that crashed holds nothing, so the next ``wizwar join`` under that name
    takes the first free slot and with it the seat. One process asking again (a rejoin from
    the app, the SSH server's sessions) gets the slot it holds. Without ``fcntl`` (not a
    POSIX system) every process uses the first slot."""
    key = (host, port, name)
    held = _SLOTS.get(key)
    if held is not None:
        return held[0]
    import os

    base = _token_path(host, port, name)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - POSIX only
        return base
    os.makedirs(os.path.dirname(base), exist_ok=True)
    for k in range(1, 33):
        path = base if k == 1 else f"{base}.{k}"
        try:
            lock = open(path + ".lock", "a")  # noqa: SIM115 - held while the process runs
        except OSError:
            return base
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        _SLOTS[key] = (path, lock)
        return path
    return base


def load_token(host: str, port: int, name: str) -> str:
    """The seat token saved when this slot (:func:`token_slot`) last joined ``host:port``
    ("" if none): it lets ``wizwar join`` take its seat back after a crash or a lost
    connection. Keyed by host, port and player name, so two players on one machine keep
    their own seats, and by process, so two terminals under one name do too."""
    try:
        with open(token_slot(host, port, name), encoding="ascii") as f:
            tok = f.read().strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return tok if len(tok) == 32 and all(c in "0123456789abcdef" for c in tok) else ""


def save_token(host: str, port: int, name: str, token: str) -> None:
    """Remember our seat token for ``host:port`` under ``name`` (see :func:`load_token`)."""
    import os

    path = token_slot(host, port, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii") as f:
        f.write(token)


async def list_games(timeout: float) -> int:
    """Print the games found on the network, then exit."""
    from net.discovery import find_games

    games = await find_games(timeout)
    if not games:
        print("no games found")
    for g in games:
        print(g.label())
    return 0


def _port(text: str) -> int:
    """A TCP port 1-65535 (0: any free port)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{n} is not a port (0-65535)")
    return n


def _seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not x > 0:
        raise argparse.ArgumentTypeError("the clock must be more than 0 seconds")
    return x


SEED_MAX = 2**64 - 1  # a seed is stored in the log header as a msgpack uint 64


def seed_arg(text: str) -> int:
    """A game seed from the command line: a whole number from 0 to 2**64 - 1 (argparse type;
    larger ones cannot be stored in a log, so they are refused here, not at the first save)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{text}: a seed is a whole number from 0 to "
                                         f"{SEED_MAX}")
    return n


_seed = seed_arg


def add_parsers(sub: argparse._SubParsersAction, host_ruleset: Ruleset | None = None) -> None:
    """The host/join/list sub-commands of ``wizwar``; ``host`` gets the options flags of
    ``host_ruleset`` (default: the registry's default game)."""
    rs = host_ruleset or registry.get()
    p = sub.add_parser(
        "host", help="host a LAN game",
        description="Host a game of GAME: players join it with `wizwar join HOST:PORT` "
                    "(--port), or with --ssh log in with `ssh -p PORT NAME@HOST` (the --ssh "
                    "port), or with --web open http://ADDR:PORT/ in a browser. The game's "
                    "options are flags (below).")
    add_game_argument(p)
    p.add_argument("--name", default="wizwar game", help="the game's name, shown on the LAN")
    p.add_argument("--port", type=_port, default=None, metavar="N",
                   help=f"the game port, for `wizwar join` (default {DEFAULT_PORT}; 0 any free "
                        "one; with --ssh or --web a free one, for its sessions only)")
    p.add_argument("--bind", default=None, metavar="ADDR",
                   help="address the game port listens on (default 0.0.0.0; with --ssh or "
                        "--web 127.0.0.1, and the SSH port follows --bind when given). Any "
                        "user of this machine can reach the game port directly, without the "
                        "SSH or web password (docs/ssh.md)")
    p.add_argument("--bots", type=int, default=0, metavar="B",
                   help="the last B seats are played by the host's bots")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="the host's share of the game seed (its own and its bots' seed "
                        "nonces, and the secret deal): with no joined seat the game is the "
                        "same for the same S; default: fresh randomness")
    p.add_argument("--dealer", choices=("poker", "host"), default=None,
                   help="who deals the cards: poker (mental poker: nobody, the host "
                        "included, can read a hand but its owner's; the default with two or "
                        "more people) or host (the host's dealer: faster, but the host could "
                        "read every hand)")
    p.add_argument("--clock", type=_seconds, default=None, metavar="S",
                   help="seconds to answer an attack before a pass is entered")
    p.add_argument("--no-advertise", dest="advertise", action="store_false",
                   help="do not announce the game on the LAN (join by address)")
    p.add_argument("--headless", action="store_true", help="no app (needs --bot)")
    p.add_argument("--bot", action="store_true", help="the bot plays your seat (P1)")
    p.add_argument("--resume", default="", metavar="LOG",
                   help="play on a LAN game that stopped before its end, from the host's "
                        "log (the saved games' folder: `wizwar` > Saved games shows where): "
                        "its game, options and bots are the log's; each player takes its "
                        "seat back by joining under the name it had (in the app, or with "
                        "--headless --bot, --ssh or --web; docs/protocol.md, Resuming a game)")
    p.add_argument("--ssh", metavar="[HOST:]PORT", default=None,
                   help="serve the game over SSH on this port: players `ssh -p PORT "
                        "NAME@HOST` (headless; every seat joins: docs/ssh.md). It listens "
                        "on HOST, else on --bind when given, else on 0.0.0.0. Wrong "
                        "passwords are throttled per address and logged")
    p.add_argument("--ssh-password", default="", metavar="PW",
                   help="SSH players log in with this password (or $WIZWAR_SSH_PASSWORD)")
    p.add_argument("--ssh-keys", default="", metavar="FILE",
                   help="SSH players log in with a key from this authorized_keys file")
    p.add_argument("--web", metavar="[ADDR:]PORT", default=None,
                   help="serve the game as a web page on this port (address default "
                        "127.0.0.1): players open http://ADDR:PORT/ (headless; every seat "
                        "joins: docs/web.md)")
    p.add_argument("--web-password", default="", metavar="PW",
                   help="web players give this password (or $WIZWAR_WEB_PASSWORD)")
    p.add_argument("--web-no-key", action="store_true",
                   help="serve the page without the game's key: by default the link it "
                        "prints holds a key made for this game, and the page opens only "
                        "with it")
    p.add_argument("--web-url", default="", metavar="URL",
                   help="the address players open when a TLS proxy serves the page "
                        "(https://game.example.org)")
    add_option_flags(p, rs, "host")
    p.set_defaults(built_for=rs.name)
    j = sub.add_parser("join", help="join a LAN game by name or HOST:PORT",
                       description="Join a game found on the LAN by its name (see `wizwar "
                                   "list`), or at HOST:PORT; with no TARGET, the first game "
                                   "found with a free seat.")
    j.add_argument("target", nargs="?", default="", metavar="TARGET",
                   help="the game's name as `wizwar list` shows it, or HOST:PORT")
    j.add_argument("--name", default="guest", help="your player name (default guest)")
    j.add_argument("--game", default=None, metavar="GAME",
                   help="the game you mean to join: "
                        f"{', '.join(registry.names())} (default: whatever the host plays;"
                        " a host of another game is refused)")
    j.add_argument("--timeout", type=float, default=3.0, help="seconds to look for games")
    j.add_argument("--retries", type=int, default=20, help="rejoins after a lost connection")
    j.add_argument("--headless", action="store_true", help="no app (needs --bot)")
    j.add_argument("--bot", action="store_true", help="the bot plays your seat")
    j.add_argument("--back", default="", metavar="KEYS",
                   help="a poker game whose process died (the host's too): come back to it "
                        "with the keys that process kept (its poker-keys/poker-GAME-SEATS"
                        ".json); the game's other processes are reached at the addresses "
                        "kept with them; in the app you play on, its past moves made "
                        "again from its log (--headless --bot: the bot plays; no TARGET)")
    lp = sub.add_parser("list", help="list the games on the network (and which game each "
                                     "plays)")
    lp.add_argument("--timeout", type=float, default=3.0, help="seconds to look for games")


def prepare(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Check a parsed ``host``/``join``: ``args.ruleset`` and (host) ``args.options``, the
    validated options of its flags. Exits with an argparse error (status 2) naming a refused
    option or an unknown game."""
    if args.cmd == "join":
        if args.game is not None:
            try:
                args.game = registry.canonical(args.game)
            except UnknownRuleset as exc:
                parser.error(str(exc))
        args.ruleset = registry.get(args.game or registry.DEFAULT)  # a first guess: None
        # follows the host's game (the handshake says which)
    if args.cmd == "host" and getattr(args, "resume", ""):
        from net.resume import ResumeError, load

        try:
            args.saved = load(args.resume)
        except ResumeError as exc:
            parser.error(f"--resume: {exc}")
        args.ruleset = args.saved.ruleset
        args.game = args.ruleset.name
        args.options = args.saved.options
        args.seats = len(args.ruleset.seats(args.options))
        args.bots = args.saved.bots
    elif args.cmd == "host":
        args.ruleset = registry.get(args.game)
        args.options = options_from_args(parser, args.ruleset, args)
        args.seats = len(args.ruleset.seats(args.options))


def host_defaults(args: argparse.Namespace) -> str | None:
    """Fill in a parsed ``host``'s defaults: ``bind_given`` (the ``--bind`` typed, or None),
    ``bind`` (0.0.0.0; with ``--ssh`` or ``--web`` 127.0.0.1: the game port is for those
    sessions only) and ``port`` (:data:`DEFAULT_PORT`; with ``--ssh``/``--web`` on loopback a
    free one). Returns the ``--ssh`` (else ``--web``) value (None without either)."""
    ssh = getattr(args, "ssh", None) or getattr(args, "web", None)
    args.bind_given = args.bind
    if args.bind is None:
        args.bind = "127.0.0.1" if ssh else "0.0.0.0"
    if args.port is None:
        args.port = 0 if ssh and args.bind.startswith("127.") else DEFAULT_PORT
    return ssh


def _blank(text: str) -> bool:
    """True for a name with nothing to show (empty, spaces, control characters only)."""
    return not "".join(ch for ch in text if ch.isprintable()).strip()


def refusal(args: argparse.Namespace) -> str:
    """Why a parsed ``host``/``join`` (checked by :func:`prepare`) cannot run, in words
    ("" when it can): a blank ``--name``; ``--bot``/``--bots`` (and so ``--headless``) for
    a game without bots (``ruleset.bot_levels`` empty); options the ruleset cannot host on a
    LAN yet (``ruleset.lan_refusal``); ``--clock`` for a game that refuses
    the answer clock (``ruleset.answer_clock_refusal``) and ``--dealer`` for one that deals
    no secret; ``--dealer poker`` with ``--ssh``/``--web``; the SSH or web flags without ``--ssh`` or ``--web``."""
    rs: Ruleset = args.ruleset
    if args.cmd == "join" and _blank(args.name):
        return "--name: your player name cannot be empty (the other players see it)"
    if args.cmd == "host" and _blank(args.name):
        return "--name: the game's name cannot be empty (it is shown on the LAN)"
    if not rs.bot_levels:
        if args.bot or (args.cmd == "host" and args.bots):
            flag = "--bot" if args.bot else "--bots"
            return (f"{flag}: {rs.title} has no bots yet, so no seat can be played by one"
                    + (" (--headless needs --bot)" if args.headless else ""))
        if args.headless:
            return f"--headless needs --bot, and {rs.title} has no bots yet"
    if args.cmd == "host" and not getattr(args, "resume", ""):
        if rs.lan_refusal(getattr(args, "options", None) or {}):
            return rs.lan_refusal(args.options)
        if getattr(args, "clock", None) is not None and rs.answer_clock_refusal():
            return f"--clock: {rs.answer_clock_refusal()}"
        if getattr(args, "dealer", None) and not rs.dealing().values(args.options):
            return (f"--dealer: {rs.title} deals no secret, so there is no dealer to choose "
                    "(its secrets are each held by their owner)")
    if args.cmd == "host" and getattr(args, "dealer", None) == "poker" and (
            getattr(args, "ssh", None) or getattr(args, "web", None)):
        return ("--dealer poker: every SSH or browser player's game runs in the host's "
                "process, so the host deals it (--dealer host, or host without --ssh/--web)")
    if args.cmd == "host":
        for flag, needs in (("ssh_password", "ssh"), ("ssh_keys", "ssh"),
                            ("web_password", "web"), ("web_url", "web")):
            if getattr(args, flag, "") and not getattr(args, needs, None):
                return (f"--{flag.replace('_', '-')} needs --{needs} (it is for the "
                        f"{'SSH' if needs == 'ssh' else 'web'} players; without --{needs} "
                        "nobody would be asked for it)")
    return ""


def _stopped(path: str = "") -> int:
    """Ctrl+C on a headless host or join: one line, the log if there is one, status 130."""
    _err("stopped: the game is closed")
    say_log(path)
    return 130


def run(args: argparse.Namespace) -> int | None:
    """Run a headless host/join/list (``args`` checked by :func:`prepare`); None when the
    app should handle it. A :func:`refusal` is said on stderr (status 2); Ctrl+C stops
    with one line and status 130."""
    if args.cmd == "list":
        return asyncio.run(list_games(args.timeout))
    problem = refusal(args)
    if problem:
        _err(f"wizwar {args.cmd}: {problem}")
        return 2
    if args.cmd == "host":
        ssh = host_defaults(args)
        if ssh:
            if not 0 <= args.bots < args.seats - (1 if args.bot else 0):
                _err("--bots must leave a seat for a player")
                return 2
            if getattr(args, "web", None):
                if getattr(args, "ssh", None):
                    _err("--ssh and --web: one at a time")
                    return 2
                from net.web import host_web as serve
            else:
                from net.ssh import host_ssh as serve

            try:
                return asyncio.run(serve(args))
            except KeyboardInterrupt:
                _err("stopped: the game is closed")
                return 130
    if args.cmd == "host" and getattr(args, "dealer", None) == "poker" and \
            getattr(args, "resume", ""):
        _err("--dealer poker: a resumed game keeps the host's dealer that dealt it")
        return 2
    if args.cmd == "host" and getattr(args, "dealer", None) == "poker" and \
            getattr(args, "clock", None) is not None:
        _err("--dealer poker: a game dealt by mental poker has no answer clock yet "
             "(--dealer host, or no --clock)")
        return 2
    if not args.headless:
        return None  # the app: a poker game (net.cli.dealer_choice) from wizwar_tui.pokerlink
    if not args.bot:
        _err("--headless needs --bot (someone has to play the seat)")
        return 2
    if args.cmd == "host":
        if not 0 <= args.bots < args.seats:
            _err("--bots must leave your own seat free")
            return 2
    try:
        return asyncio.run(host_headless(args) if args.cmd == "host" else join_headless(args))
    except KeyboardInterrupt:
        return _stopped(getattr(args, "log_path", ""))
