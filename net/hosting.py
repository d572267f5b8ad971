"""What ``wizwar host --ssh`` and ``wizwar host --web`` share: the hosted LAN game under a
front server (SSH sessions or browser tabs), its log, the advert, the signals, and the end.

Each front (``net/ssh.py``, ``net/web.py``) checks its own flags, builds its server on the
game's loopback port and hands it to :func:`serve`; the game itself is an ordinary
:class:`net.lan.HostGame` every front joins like any LAN player (docs/ssh.md, docs/web.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from net.lan import HostGame
    from net.logfiles import LogFile


def err(msg: str) -> None:
    """A line for the host's operator, on stderr."""
    print(msg, file=sys.stderr, flush=True)


class Front(Protocol):
    """A server in front of the hosted game (``GameSSHServer``, ``GameWebServer``)."""

    def stop_listening(self) -> None:
        """Take no new session or tab."""

    async def close(self, reason: str) -> None:
        """End every session or tab, telling it ``reason``."""


async def start_game(args: argparse.Namespace) -> tuple[HostGame, LogFile, int, str] | int:
    """The hosted game of a parsed ``host`` (its options, seats, bots, clock, seed), started
    with its log: ``(game, log, game port, the loopback-or-bind host fronts join on)``, or
    the exit status 1 when the game port cannot be listened on (said on stderr)."""
    from net.lan import HostGame
    from net.logfiles import HeldHeader, new_log, now_text

    save = new_log("host", args.name)
    # the header waits for the first action: a game stopped before anyone acted saves none
    game = HostGame(ruleset=args.ruleset, options=args.options, name=args.name,
                    bind=args.bind, port=args.port, bots=args.bots, local_bot=True,
                    local_seat=bool(args.bot), clock=args.clock, log=err,
                    writer=HeldHeader(save.write).write,
                    started=now_text(), seed=args.seed)
    if not await resumed(args, game, save):
        return 1
    try:
        lan_port = await game.start()
    except OSError as exc:
        err(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}")
        save.close()
        return 1
    lan_host = "127.0.0.1" if args.bind in ("0.0.0.0", "", "localhost") else args.bind
    return game, save, lan_port, lan_host


async def resumed(args: argparse.Namespace, game: HostGame, save: LogFile) -> bool:
    """``--resume LOG`` (``args.saved``, read by ``net.cli.prepare``): set ``game`` at the
    log's last action (``net.resume.restore``); False, said on stderr and the new log
    closed, when the game does not fit the log. True at once without ``--resume``."""
    saved = getattr(args, "saved", None)
    if saved is None:
        return True
    from net.resume import ResumeError, restore

    try:
        await restore(game, saved, say=err)
    except ResumeError as exc:
        err(f"--resume: {exc}")
        save.close()
        return False
    return True


def say_game_port(args: argparse.Namespace, lan_host: str, lan_port: int, only: str) -> None:
    """Print the game port and who may use it (``only``: "the SSH sessions", "the web tabs")."""
    if lan_host.startswith("127.") or lan_host == "::1":
        print(f"game port {args.bind}:{lan_port} (for {only} only)", flush=True)
    else:
        print(f"game port {args.bind}:{lan_port} (LAN players may also wizwar join it)",
              flush=True)


def stop_on_signals() -> asyncio.Event:
    """An event that Ctrl+C, SIGTERM and SIGHUP set (their handlers installed now, on the
    running loop). A front calls it before it prints its link or address, so a signal that
    comes the moment a player could first see the game stops it cleanly (status 130), never
    with the signal's default death (-15)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop


async def serve(args: argparse.Namespace, game: HostGame, save: LogFile, lan_port: int,
                server: Front, wait_left: Callable[[], Awaitable[Any]], left: str,
                stop: asyncio.Event | None = None) -> int:
    """Advertise the game when asked, play it until it is over (then wait, with
    ``wait_left``, for the players to go: ``left`` says how, "leave", "close their tabs") or
    until Ctrl+C/SIGTERM/SIGHUP, then close the game before the front (its players hear
    "bye" first). ``stop`` is the front's :func:`stop_on_signals` (made here when None).
    Returns the exit status: 0 over (the final hash printed), 130 stopped, 2 stopped by a
    desync (the report named)."""
    from net.cli import advertise, advertise_wanted

    if stop is None:  # Ctrl+C, SIGTERM, SIGHUP: close the game and every front
        stop = stop_on_signals()
    adv = None
    if advertise_wanted(args.bind, args.advertise):
        with contextlib.suppress(Exception):
            adv = await advertise(game, args.name, lan_port, args.bind,
                                  taken=args.seats - game.free_seats)
    final = ""
    stopping = asyncio.ensure_future(stop.wait())
    playing = asyncio.ensure_future(game.run())
    try:
        await asyncio.wait({playing, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if playing.done():
            final = playing.result()
            if final:
                res = game.ruleset.result(game.state)
                err(f"the game is over (winner {'+'.join(res.winners) or '-'}"
                    f"); waiting for the players to {left}")
            server.stop_listening()
            waiting = asyncio.ensure_future(wait_left())
            await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
        else:
            err("stopped: closing the game")
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await playing
    finally:
        stopping.cancel()
        if adv is not None:
            with contextlib.suppress(Exception):
                await adv.stop()
        await game.close()  # the players' apps hear "bye" first, then their fronts end
        if final:
            why = "the game is over and its server has closed"
        elif stop.is_set():
            why = "the host stopped the game: it has ended"
        else:
            why = "the game stopped (a desync): its server has closed"
        await server.close(why)
        save.close()
    from net.cli import say_log

    say_log(save.path)  # none for a game stopped before its deal: it wrote no file
    if not final and stop.is_set():
        return 130
    if not final:
        err(f"the game stopped: desync, report in {game.desync}")
        return 2
    print(f"final hash {final}", flush=True)
    return 0
