"""Discovery peer for tests/test_discovery.py; run ONLY inside a test-made network namespace.

IFACE is an IPv4 address of the namespace, or ``all`` for the default (all interfaces).
Every mode writes JSON lines to stdout (one event per line, flushed) so the test can follow it.

``advertise NAME PORT IFACE TAKEN FREE``
    Listen on PORT (TCP, as a game host does: a browser checks that its games answer) and
    advertise a game with :class:`net.discovery.Advertiser`, print ``{"event": "registered",
    "name": ..., "service": ..., "t": seconds}``, then obey stdin lines: ``update TAKEN FREE``
    re-announces the seats, ``stop`` (or end of input, or SIGTERM) unregisters and exits.

``hostile IFACE``
    Register, with raw python-zeroconf and no sanitising, one ad with a garbage ``proto`` and
    one whose name TXT holds terminal escapes and a bidi override; then wait like advertise.

``poker NAME IFACE``
    Host a 2-seat Wiz-War game dealt by mental poker (:class:`net.poker.PokerHost`, listening
    on IFACE) and advertise it as the app and ``wizwar host`` do
    (:func:`net.cli.advertise_poker`); print ``registered``; then wait like advertise.

``watch IFACE``
    Run a :class:`net.discovery.Browser`; print ``{"event": "games", "t": ..., "games": [...]}``
    on every change. Exits on ``stop``/end of input.

``find IFACE TIMEOUT``
    Print ``{"event": "found", "t": ..., "games": [...]}`` from :func:`net.discovery.find_games`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from zeroconf import IPVersion  # noqa: E402
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf  # noqa: E402

from net.discovery import SERVICE_TYPE, Advertiser, Browser, GameAd, find_games  # noqa: E402

T0 = time.monotonic()
_KEEP: set[asyncio.Task[None]] = set()


def iface_list(iface: str) -> list[str] | None:
    """The ``interfaces`` argument for an IFACE command-line value."""
    return None if iface == "all" else [iface]


def emit(event: str, **fields: object) -> None:
    """Write one JSON event line to stdout."""
    payload = {"event": event, "t": round(time.monotonic() - T0, 3), **fields}
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def ads(games: list[GameAd]) -> list[dict[str, object]]:
    """GameAds as JSON-ready dicts, with their label."""
    return [{**dataclasses.asdict(g), "label": g.label()} for g in games]


async def commands() -> asyncio.Queue[list[str]]:
    """Feed stdin lines (split into words) into a queue; SIGTERM and EOF queue ``stop``."""
    queue: asyncio.Queue[list[str]] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, queue.put_nowait, ["stop"])
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def pump() -> None:
        while True:
            line = await reader.readline()
            if not line:
                queue.put_nowait(["stop"])
                return
            queue.put_nowait(line.decode().split())

    _KEEP.add(loop.create_task(pump()))  # held: an unreferenced task may be collected
    return queue


async def listen(iface: str, port: int) -> asyncio.Server:
    """A TCP listener on the game's port that closes every connection (a browser's probe)."""

    async def serve(_r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.close()

    return await asyncio.start_server(serve, "0.0.0.0" if iface == "all" else iface, port)


async def advertise(name: str, port: str, iface: str, taken: str, free: str) -> None:
    """The ``advertise`` mode."""
    queue = await commands()
    await listen(iface, int(port))
    adv = Advertiser()
    await adv.start(
        name,
        int(port),
        proto=1,
        ruleset="wizwar/1",
        options="players=2",
        seats_taken=int(taken),
        seats_free=int(free),
        interfaces=iface_list(iface),
    )
    emit("registered", name=adv.name, service=adv.service)
    try:
        while (words := await queue.get())[:1] != ["stop"]:
            if words[:1] == ["update"]:
                await adv.update(int(words[1]), int(words[2]))
                emit("updated")
    finally:
        await adv.stop()
        emit("stopped")


async def hostile(iface: str) -> None:
    """The ``hostile`` mode: ads a sloppy or malicious peer could send."""
    queue = await commands()
    for port in (7100, 7101):
        await listen(iface, port)
    azc = AsyncZeroconf(interfaces=iface_list(iface), ip_version=IPVersion.V4Only)
    common = {"ruleset": b"wizwar/1", "taken": b"1", "free": b"1"}
    infos = [
        AsyncServiceInfo(
            SERVICE_TYPE,
            f"Garbage.{SERVICE_TYPE}",
            port=7100,
            properties={**common, b"proto": b"one", b"name": b"Garbage"},
            server="hostile-a.local.",
            addresses=[socket.inet_aton(iface)],
        ),
        AsyncServiceInfo(
            SERVICE_TYPE,
            f"Evil.{SERVICE_TYPE}",
            port=7101,
            properties={
                **common,
                b"proto": b"1",
                b"name": b"\x1b[2J\x1b[31mEvil\xe2\x80\xae\xff game\r\nline2",
            },
            server="hostile-b.local.",
            addresses=[socket.inet_aton(iface)],
        ),
    ]
    try:
        for info in infos:
            await (await azc.async_register_service(info))
        emit("registered", names=[info.name for info in infos])
        while (await queue.get())[:1] != ["stop"]:
            pass
    finally:
        await azc.async_close()
        emit("stopped")


async def watch(iface: str) -> None:
    """The ``watch`` mode."""
    queue = await commands()
    browser = Browser(on_change=lambda games: emit("games", games=ads(games)))
    await browser.start(iface_list(iface))
    emit("browsing")
    try:
        while (await queue.get())[:1] != ["stop"]:
            pass
    finally:
        await browser.stop()
        emit("stopped")


async def find(iface: str, timeout: str) -> None:
    """The ``find`` mode."""
    games = await find_games(float(timeout), iface_list(iface))
    emit("found", games=ads(games))


async def poker(name: str, iface: str) -> None:
    """The ``poker`` mode."""
    from net.cli import advertise_poker
    from net.poker import PokerHost

    queue = await commands()
    host = PokerHost(players=2, bind="0.0.0.0" if iface == "all" else iface)
    await host.start()
    adv = await advertise_poker(host, name)
    emit("registered", name=adv.name, service=adv.service, port=host.port)
    try:
        while (await queue.get())[:1] != ["stop"]:
            pass
    finally:
        await adv.stop()
        await host.close()
        emit("stopped")


MODES = {"advertise": advertise, "poker": poker, "hostile": hostile, "watch": watch, "find": find}


def main() -> None:
    """Dispatch on the first argument."""
    mode, *args = sys.argv[1:]
    asyncio.run(MODES[mode](*args))


if __name__ == "__main__":
    main()
