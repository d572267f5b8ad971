"""The LAN transport against a hostile network (issue 13, items 3 and 8): text from the
network made safe, memory and stalls bounded.

Every socket is on 127.0.0.1; nothing advertises. No pass/fail here depends on how fast the
machine is: a deadline only turns a hang into a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
from typing import Any

import pytest

from core.codec import pack
from net import cli
from net.lan import (
    HELLO_TIMEOUT,
    KEEPALIVE,
    MAX_UNAUTHENTICATED,
    HostClosed,
    HostGame,
    JoinRefused,
    PeerGame,
    clean_name,
    describe,
)
from net.protocol import HELLO_FRAME, MAX_FRAME, PROTOCOL_VERSION, FrameReader, ProtocolError
from net.safe import markup_safe, safe_text

HOSTILE = "ev\x1b]0;pwned\x07\x1b[2J\x1b[31mIL"  # sets the pane title, clears, turns red
EVIL_REASON = "\x1b[2J\x1b]2;owned\x07go away\x1b[H\x9b31m [bold]now[/bold]\r\n\x07"


def _no_escape(text: str) -> None:
    assert not any(ch in text for ch in "\x1b\x07\x9b\x9d\r\n"), repr(text)
    for debris in ("]0;", "[2J", "[31m", "2;owned", "[H"):
        assert debris not in text, repr(text)


# ---- item 3: terminal escapes from the network ----------------------------------------
def test_safe_text_removes_escapes_whole() -> None:
    """Escape sequences go whole (no "[31m" debris), control and bidi characters go; Rich
    markup is kept as text by safe_text and escaped by markup_safe."""
    assert safe_text(HOSTILE) == "evIL"
    assert clean_name(HOSTILE) == "evIL"
    assert safe_text("a\u202eb\tc\n d") == "ab c d"
    assert safe_text(b"\xff[bold]x") == "\ufffd[bold]x"
    assert markup_safe("[bold]x[/bold]") == "\\[bold]x\\[/bold]"
    _no_escape(safe_text(EVIL_REASON, 300))
    assert safe_text(EVIL_REASON, 300) == "go away [bold]now[/bold]"


async def _hostile_host(replies: list[dict[str, Any]]) -> tuple[asyncio.Server, int]:
    """A "host" that reads the hello and answers with ``replies`` (raw frames)."""

    async def serve(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        frames = FrameReader(r)
        with pytest.raises(Exception):  # noqa: B017 - whatever ends the stream
            await frames.read()
            for m in replies:
                w.write(pack(m))
            await w.drain()
            await frames.read()
            raise EOFError
        w.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def _welcome(game: str) -> dict[str, Any]:
    return {"type": "welcome", "seat": "P2", "token": "0" * 32, "players": 2, "game": game,
            "ruleset": "wizwar"}


async def test_a_hostile_hosts_texts_reach_the_peer_safe() -> None:
    """The game name of ``welcome``, the names of ``peers``, the reasons of ``reject``,
    ``desync`` and ``bye``: none keeps an escape sequence, a control character or debris."""
    server, port = await _hostile_host([
        _welcome(HOSTILE),
        {"type": "peers", "seats": {"P1\x1b[2J": "host\x1b[31m", "P2": "connected"},
         "names": {"P1": HOSTILE, "P2": "\x1b]0;x\x07me"}},
        {"type": "reject", "reason": EVIL_REASON, "action": []},
        {"type": "bye", "reason": EVIL_REASON},
    ])
    logged: list[str] = []
    peer = PeerGame("127.0.0.1", port, name="p", log=logged.append)
    try:
        with pytest.raises(HostClosed) as info:
            await asyncio.wait_for(peer.run(), 20)
    finally:
        server.close()
    assert peer.game == "evIL"
    assert peer.peer_names == {"P1": "evIL", "P2": "me"}
    assert peer.peer_status["P1"] == "host"
    for text in (str(info.value), peer.last_reject, *logged, *peer.peer_status):
        _no_escape(text)
    assert str(info.value) == "go away [bold]now[/bold]"


async def test_a_refusal_is_printed_safe_by_the_headless_join(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar join --headless`` prints the host's refusal without its escapes."""
    server, port = await _hostile_host([{"type": "refuse", "reason": EVIL_REASON}])
    args = argparse.Namespace(target=f"127.0.0.1:{port}", timeout=1.0, game="wizwar",
                              name="guest", retries=0)
    try:
        status = await asyncio.wait_for(cli.join_headless(args), 20)
    finally:
        server.close()
    out = capsys.readouterr()
    assert status == 1
    assert "refused: go away [bold]now[/bold]" in out.err
    _no_escape(out.err.replace("\n", " "))
    _no_escape(out.out.replace("\n", " "))


async def test_a_joining_name_keeps_no_escape_debris() -> None:
    """The host keeps a joiner's name with its escape sequences removed whole, and tells the
    other seats that name."""
    host = HostGame(players=2)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name=HOSTILE)
    task = asyncio.create_task(peer.run())
    try:
        async with asyncio.timeout(30):
            while not host.seat("P2").token:
                await asyncio.sleep(0.01)
        assert host.seat("P2").name == "evIL"
        assert host.seat_names()["P2"] == "evIL"
    finally:
        task.cancel()
        await host.close()


def test_the_app_shows_network_text_as_text_not_markup() -> None:
    """A refusal that reads like Rich markup is shown as written on the join screen."""
    from textual.widgets import Static

    from wizwar_tui.app import WizWarApp
    from wizwar_tui.lobby import JoinScreen

    async def go() -> str:
        app = WizWarApp(discovery=False, save_games=False)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = JoinScreen(discover=False)
            app.push_screen(screen)
            await pilot.pause()
            screen.show_error("the host refused: [bold red]obey[/] [link=x]y[/link]")
            await pilot.pause()
            return str(screen.query_one("#join-error", Static).render())

    shown = asyncio.run(go())
    assert "[bold red]obey[/]" in shown and "[link=x]" in shown


# ---- item 8: memory and stalls ----------------------------------------------------------
async def _closed_by_host(reader: asyncio.StreamReader, deadline: float = 20) -> bytes:
    """Everything the host sends until it closes (a deadline only turns a hang into a
    failure)."""
    got = b""
    async with asyncio.timeout(deadline):
        while True:
            try:
                chunk = await reader.read(65536)
            except ConnectionError:
                return got
            if not chunk:
                return got
            got += chunk


@pytest.mark.parametrize("prefix", [
    b"\x81\xa4type\xdb\xff\xff\xff\xff",  # {"type": str32 of 4 GB}
    b"\xc6\xff\xff\xff\xf0",  # bin32 of ~4 GB
    b"\x82\xa4type\xa5hello\xa4name\xc9\x7f\xff\xff\xff\x01",  # ext32 of 2 GB, nested
])
async def test_a_huge_length_prefix_is_refused_on_sight(prefix: bytes) -> None:
    """A length prefix beyond the frame cap closes the connection at once, not at the
    hello timeout (set far away here)."""
    logged: list[str] = []
    host = HostGame(players=2, hello_timeout=600, log=logged.append)
    port = await host.start()
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(prefix)
        await w.drain()
        assert await _closed_by_host(r) == b""
        w.close()
        async with asyncio.timeout(10):
            while not logged:
                await asyncio.sleep(0.01)
        assert "declares more than the limit" in logged[0]
    finally:
        await host.close()


async def test_connections_before_hello_are_capped_in_number_and_bytes() -> None:
    """At most MAX_UNAUTHENTICATED connections may wait to say hello; one more is refused
    in words at once. A pending hello may hold at most HELLO_FRAME bytes."""
    logged: list[str] = []
    host = HostGame(players=2, hello_timeout=600, log=logged.append)
    port = await host.start()
    conns = []
    try:
        partial = b"\xdc\xff\xff" + b"\x01" * 100  # an array of 65,535 numbers, unfinished
        for _ in range(MAX_UNAUTHENTICATED):
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(partial)
            await w.drain()
            conns.append((r, w))
        async with asyncio.timeout(20):
            while host._unauthenticated < MAX_UNAUTHENTICATED:
                await asyncio.sleep(0.01)
        r, w = await asyncio.open_connection("127.0.0.1", port)
        answer = await _closed_by_host(r)
        w.close()
        assert b"too many connections are joining" in answer
        # a pending frame larger than the hello cap is dropped (no waiting for the rest)
        r2, w2 = conns.pop()
        w2.write(b"\x01" * HELLO_FRAME)
        await w2.drain()
        assert await _closed_by_host(r2) == b""
        w2.close()
        assert any(f"larger than the limit of {HELLO_FRAME}" in m for m in logged)
        # the others are still waiting; a slot is free again: an honest joiner gets in
        async with asyncio.timeout(20):
            while host._unauthenticated >= MAX_UNAUTHENTICATED:
                await asyncio.sleep(0.01)
        peer = PeerGame("127.0.0.1", port, name="honest")
        task = asyncio.create_task(peer.run())
        async with asyncio.timeout(20):
            while not host.seat("P2").token:
                await asyncio.sleep(0.01)
        task.cancel()
    finally:
        for _r, w in conns:
            w.close()
        await host.close()
    assert MAX_FRAME >= 1 << 20 > HELLO_FRAME


async def test_a_watcher_that_never_reads_does_not_hold_the_game_back() -> None:
    """A watcher that reads nothing (tiny socket buffers) is dropped once too much waits
    for it, with the reason logged; the game goes on to its end at once."""
    logged: list[str] = []
    host = HostGame(players=2, max_unsent=512, log=logged.append)
    port = await host.start()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect(("127.0.0.1", port))
    sock.sendall(pack({"type": "hello", "proto": PROTOCOL_VERSION, "ruleset": "wizwar",
                       "rules_version": host.ruleset.version,
                       "content": host.ruleset.content_digest(), "name": "lurker",
                       "token": "", "nonce_commit": "", "watch": True}))
    try:
        async with asyncio.timeout(20):
            while not host.watchers:
                await asyncio.sleep(0.01)
        host.watchers[0].writer.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, 1024)
        peer = PeerGame("127.0.0.1", port, name="player")
        host_hash, peer_hash = await asyncio.wait_for(
            asyncio.gather(host.run(), peer.run()), 240)
        assert host_hash and host_hash == peer_hash
        assert not host.watchers
        assert any("a watcher left: too slow" in m for m in logged), logged[-5:]
    finally:
        sock.close()
        await host.close()


async def test_every_game_connection_has_tcp_keepalive() -> None:
    """Both ends of a game connection turn TCP keepalive on, so a dead link is noticed."""
    host = HostGame(players=2)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="p")
    task = asyncio.create_task(peer.run())
    try:
        async with asyncio.timeout(30):
            while host.seat("P2").conn is None or peer.conn is None:
                await asyncio.sleep(0.01)
        for conn in (host.seat("P2").conn, peer.conn):
            assert conn is not None
            s = conn.writer.get_extra_info("socket")
            assert s.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            if hasattr(socket, "TCP_KEEPIDLE"):
                assert s.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == KEEPALIVE[0]
                assert s.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == KEEPALIVE[2]
    finally:
        task.cancel()
        await host.close()


async def test_drop_reasons_are_never_empty() -> None:
    """A connection that never says hello is dropped with a reason in words (a
    ``TimeoutError`` has no message of its own)."""
    assert describe(TimeoutError()) == "no answer in time"
    assert describe(ConnectionResetError()) == "the connection was lost"
    assert describe(ProtocolError("\x1b[2J")) == "ProtocolError"
    logged: list[str] = []
    host = HostGame(players=2, hello_timeout=0.2, log=logged.append)
    port = await host.start()
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        assert await _closed_by_host(r) == b""
        w.close()
        async with asyncio.timeout(10):
            while not logged:
                await asyncio.sleep(0.01)
        assert logged[0] == "dropping a connection: no hello within 0.2 s"
    finally:
        await host.close()
    assert HELLO_TIMEOUT <= 10


async def test_a_refusal_with_an_empty_reason_still_says_something() -> None:
    """An empty (or all-escape) refusal becomes words."""
    server, port = await _hostile_host([{"type": "refuse", "reason": "\x1b[2J"}])
    peer = PeerGame("127.0.0.1", port, name="p")
    try:
        with pytest.raises(JoinRefused) as info:
            await asyncio.wait_for(peer.run(), 20)
    finally:
        server.close()
    assert str(info.value) == "(no reason given)"
