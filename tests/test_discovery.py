"""Tests for net.discovery.

The unit tests touch no network at all. The discovery tests run every advertiser and browser
inside two network namespaces that this file creates (joined by a veth pair, 10.213.x.0/24)
and deletes afterwards, so no multicast ever leaves on the host's own interfaces. They need
root and iproute2, and are skipped with the reason otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from zeroconf import ServiceInfo

from net.discovery import SERVICE_TYPE, Advertiser, Browser, GameAd, parse_ad, safe_text

PEER = Path(__file__).resolve().parent / "netns_discovery_peer.py"
STEP_TIMEOUT = 20.0  # generous bound for one discovery step; it normally takes 0.1-2 s

Event = dict[str, Any]

# --------------------------------------------------------------------------------------------
# safe_text


def test_safe_text_keeps_non_ascii() -> None:
    assert safe_text("Zauberer-Duell ✨ 魔法使い") == "Zauberer-Duell ✨ 魔法使い"
    assert safe_text("Ça va".encode()) == "Ça va"


def test_safe_text_strips_control_characters_and_escapes() -> None:
    assert safe_text("a\x00b\x07c\x7fd\x80e\x9af") == "abcdef"
    assert safe_text("next\x85line") == "next line"  # NEL is a line break
    assert safe_text("\x1b[2J\x1b[31mred\x1b[0m") == "red"
    assert safe_text("\x1b]0;pwned\x07title") == "title"
    assert safe_text("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\") == "link"


def test_safe_text_strips_bidi_overrides_and_invisible_characters() -> None:
    assert safe_text("abc\u202egnp.exe") == "abcgnp.exe"
    assert safe_text("\u2066x\u2069\u200e\u200f\u061c\u200by") == "xy"


def test_safe_text_collapses_whitespace() -> None:
    assert safe_text("  two\r\n\tlines  \u2028 here ") == "two lines here"


def test_safe_text_cuts_long_text_with_ellipsis() -> None:
    out = safe_text("x" * 100)
    assert out == "x" * 39 + "…"
    assert len(safe_text("y" * 100, limit=10)) == 10
    assert safe_text("exactly ten", limit=11) == "exactly ten"


def test_safe_text_bytes_none_and_invalid_utf8() -> None:
    assert safe_text(None) == ""
    assert safe_text(b"ok\xff\xfe") == "ok\ufffd\ufffd"
    assert safe_text(b"\xc0\x80") == "\ufffd\ufffd"  # overlong NUL stays harmless


def test_safe_text_limits_combining_marks() -> None:
    zalgo = "Z" + "\u0336\u0337\u0338\u0335" * 20 + "!"
    assert safe_text(zalgo) == "Z\u0336\u0337!"


# --------------------------------------------------------------------------------------------
# parse_ad

GOOD_PROPS: dict[str | bytes, str | bytes | None] = {
    "name": "Alice's game",
    "proto": "1",
    "ruleset": "wizwar/1",
    "options": "players=3",
    "taken": "1",
    "free": "2",
}


def make_info(
    props: dict[str | bytes, str | bytes | None] | bytes | None = None,
    *,
    instance: str = "Alice's game",
    port: int | None = 7001,
    addresses: list[bytes] | None = None,
) -> ServiceInfo:
    """A resolved-looking ServiceInfo built by hand (no network)."""
    return ServiceInfo(
        SERVICE_TYPE,
        f"{instance}.{SERVICE_TYPE}",
        port=port,
        properties=GOOD_PROPS if props is None else props,
        server="alice.local.",
        addresses=[socket.inet_aton("10.0.0.1")] if addresses is None else addresses,
    )


def test_parse_ad_good() -> None:
    ad = parse_ad(make_info())
    assert ad == GameAd(
        name="Alice's game",
        host="10.0.0.1",
        port=7001,
        proto=1,
        ruleset="wizwar/1",
        options="players=3",
        seats_taken=1,
        seats_free=2,
        service=f"Alice's game.{SERVICE_TYPE}",
        hosts=("10.0.0.1",),
    )
    assert ad.label() == "Alice's game — Wiz-War — 1/3 seats — wizwar/1 players=3 — 10.0.0.1:7001"
    assert ad.game == "wizwar" and ad.title == "Wiz-War"


def test_parse_ad_optional_keys_default() -> None:
    props = {k: v for k, v in GOOD_PROPS.items() if k not in ("name", "options")}
    ad = parse_ad(make_info(props, instance="Bob"))
    assert ad is not None
    assert (ad.name, ad.options) == ("Bob", "")


@pytest.mark.parametrize("missing", ["proto", "ruleset", "taken", "free"])
def test_parse_ad_missing_required_key(missing: str) -> None:
    props = {k: v for k, v in GOOD_PROPS.items() if k != missing}
    assert parse_ad(make_info(props)) is None


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("proto", "one"),
        ("proto", "-1"),
        ("proto", "+1"),
        ("proto", " 1"),
        ("proto", "1.0"),
        ("proto", "٣"),  # a non-ASCII digit
        ("proto", "99999999999999999999999999"),
        ("proto", "65536"),
        ("proto", ""),
        ("proto", None),  # key present without "=value"
        ("taken", "-3"),
        ("taken", "65"),
        ("free", "1e3"),
        ("free", "1_0"),
        ("ruleset", ""),
        ("ruleset", "\x1b[0m\u202e"),
    ],
)
def test_parse_ad_garbage_values(key: str, value: str | None) -> None:
    assert parse_ad(make_info({**GOOD_PROPS, key: value})) is None


def test_parse_ad_rejects_bad_seat_totals_ports_and_addresses() -> None:
    assert parse_ad(make_info({**GOOD_PROPS, "taken": "0", "free": "0"})) is None
    assert parse_ad(make_info({**GOOD_PROPS, "taken": "40", "free": "40"})) is None
    assert parse_ad(make_info(port=0)) is None
    assert parse_ad(make_info(port=None)) is None
    assert parse_ad(make_info(port=70000)) is None
    assert parse_ad(make_info(addresses=[])) is None
    v6_only = [socket.inet_pton(socket.AF_INET6, "fe80::1")]
    assert parse_ad(make_info(addresses=v6_only)) is None


def test_parse_ad_huge_values_are_cut() -> None:
    props = {**GOOD_PROPS, "name": "N" * 240, "options": "o" * 240, "ruleset": "r" * 240}
    ad = parse_ad(make_info(props))
    assert ad is not None
    assert len(ad.name) == 40 and ad.name.endswith("…")
    assert len(ad.options) <= 64 and len(ad.ruleset) <= 32
    assert len(ad.label()) < 200


def test_parse_ad_hostile_text_is_made_safe() -> None:
    props: dict[str | bytes, str | bytes | None] = {
        **{k.encode() if isinstance(k, str) else k: v for k, v in GOOD_PROPS.items()},
        b"name": b"\x1b[2J\x1b[31mEvil\xe2\x80\xae\xff game\r\nline2",
        b"options": b"\x00\x01players=2\x9b",
    }
    ad = parse_ad(make_info(props))
    assert ad is not None
    assert ad.name == "Evil\ufffd game line2"
    assert ad.options == "players=2\ufffd"  # a lone 0x9b byte is not UTF-8, so not a CSI
    assert all(ch.isprintable() for ch in ad.label())


def test_parse_ad_non_utf8_keys_and_raw_txt() -> None:
    props = {**GOOD_PROPS, b"\xff\xfe": b"\xff", b"": b"x"}
    assert parse_ad(make_info(props)) is not None
    # A raw TXT blob with truncated length bytes: zeroconf parses what it can, we never raise.
    for blob in (b"\xff" + b"a" * 10, b"\x05proto", b"\x07proto=1" * 50, b"\x00" * 10):
        assert parse_ad(make_info(blob)) is None


def test_parse_ad_never_raises_on_broken_objects() -> None:
    class Broken:
        name = "x"

        def __getattr__(self, item: str) -> Any:
            raise RuntimeError("boom")

    assert parse_ad(Broken()) is None  # type: ignore[arg-type]


async def test_advertiser_rejects_bad_arguments_before_touching_the_network() -> None:
    good: dict[str, Any] = dict(
        proto=1, ruleset="wizwar/1", options="", seats_taken=1, seats_free=1
    )
    adv = Advertiser()
    with pytest.raises(ValueError):
        await adv.start("\x1b\u202e\x00", 7001, **good)
    with pytest.raises(ValueError):
        await adv.start("ok", 0, **good)
    with pytest.raises(ValueError):
        await adv.start("ok", 7001, **{**good, "seats_free": -1})
    with pytest.raises(ValueError):
        await adv.start("ok", 7001, **{**good, "options": "x" * 300})
    with pytest.raises(OSError):
        await adv.start("ok", 7001, **good, interfaces=["not-an-address"])
    assert not adv.running
    await adv.stop()  # harmless when never started


def test_instance_names_fit_one_dns_label_with_their_suffix() -> None:
    from net.discovery import _clean_game_name, _fit_label

    long = _clean_game_name("Заклинатель " * 10)  # 2 bytes a letter
    assert len(long.encode()) <= 63
    suffixed = _fit_label(long, " (12)")
    assert suffixed.endswith(" (12)") and len(suffixed.encode()) <= 63
    assert _clean_game_name("my.game\n\x1b[1mv2") == "my·game v2"  # no dots: one label


def test_browser_handler_accepts_zeroconfs_exact_keyword_names() -> None:
    """zeroconf calls handlers by keyword; a renamed parameter silently breaks browsing."""
    import inspect

    params = list(inspect.signature(Browser()._on_service_state_change).parameters)
    assert params == ["zeroconf", "service_type", "name", "state_change"]


# --------------------------------------------------------------------------------------------
# Which addresses are advertised and joined (issue 13, item 9)


def test_an_advert_never_points_a_joiner_at_its_own_loopback() -> None:
    """Loopback, unspecified and multicast addresses of an ad are dropped; an ad with only
    such addresses is skipped; every other address is kept, in order."""
    a = [socket.inet_aton(x) for x in ("127.0.0.1", "172.17.0.1", "0.0.0.0", "10.0.0.5",
                                       "224.0.0.251")]
    ad = parse_ad(make_info(addresses=a))
    assert ad is not None and ad.host == "172.17.0.1"
    assert ad.hosts == ("172.17.0.1", "10.0.0.5")
    assert parse_ad(make_info(addresses=[socket.inet_aton("127.0.0.1"),
                                         socket.inet_aton("127.9.9.9")])) is None


def test_a_game_on_every_address_advertises_no_bridge_and_no_loopback() -> None:
    """A game bound to 0.0.0.0 advertises the addresses of real interfaces only: not a
    Docker bridge, a VM bridge or loopback."""
    import ifaddr

    from net.discovery import advertised_addresses

    def adapter(name: str, *ips: str) -> ifaddr.Adapter:
        return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips])

    adapters = [adapter("lo", "127.0.0.1"), adapter("docker0", "172.17.0.1"),
                adapter("eth0", "192.168.1.20"), adapter("br-5f1c2a", "172.18.0.1"),
                adapter("virbr0", "192.168.122.1"), adapter("wlan0", "10.0.0.7")]
    assert advertised_addresses(adapters) == ["192.168.1.20", "10.0.0.7"]


async def test_a_joiner_tries_every_advertised_address() -> None:
    """The first address that answers is the one joined, whatever its place in the ad
    (127.0.0.x only: nothing here leaves the machine)."""
    from net.discovery import first_reachable

    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        assert await first_reachable(["127.0.0.2", "127.0.0.3", "127.0.0.1"], port) == \
            "127.0.0.1"
        assert await first_reachable(["127.0.0.2"], port) is None
    finally:
        server.close()
        await server.wait_closed()


async def test_a_running_browser_drops_a_game_that_stops_answering() -> None:
    """A listed game whose port stops answering leaves the list after RECHECK_MISSES
    checks, and comes back when it answers again while still advertised."""
    from net.discovery import RECHECK_MISSES

    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    seen: list[list[str]] = []
    browser = Browser(on_change=lambda games: seen.append([g.name for g in games]),
                      recheck_seconds=0)
    ad = GameAd(name="Duel", host="127.0.0.2", port=port, proto=1, ruleset="wizwar/1",
                options="", seats_taken=1, seats_free=1, service=f"Duel.{SERVICE_TYPE}",
                hosts=("127.0.0.2", "127.0.0.1"))
    browser.games[ad.service] = ad
    await browser.recheck()
    assert browser.games[ad.service].host == "127.0.0.1"  # the address that answered
    server.close()
    await server.wait_closed()
    for _ in range(RECHECK_MISSES):
        await browser.recheck()
    assert browser.games == {} and seen[-1] == []
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", port)
    try:
        await browser.recheck()
        assert list(browser.games) == [ad.service] and seen[-1] == ["Duel"]
    finally:
        server.close()
        await server.wait_closed()


# --------------------------------------------------------------------------------------------
# Discovery between two test-made network namespaces


@dataclass
class NetnsPair:
    """Two namespaces joined by a veth pair: advertisers live in ``a``, browsers in ``b``."""

    a: str
    b: str
    ip_a: str
    ip_b: str


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


@pytest.fixture(scope="module")
def netns() -> Iterator[NetnsPair]:
    """Create the namespaces (root only) and always delete them afterwards."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("discovery tests need root to create network namespaces")
    if shutil.which("ip") is None:
        pytest.skip("discovery tests need iproute2's `ip` to create network namespaces")
    pid = os.getpid()
    subnet = f"10.213.{pid % 250}"
    pair = NetnsPair(f"wzdiscA{pid}", f"wzdiscB{pid}", f"{subnet}.1", f"{subnet}.2")
    veth_a, veth_b = f"wzdA{pid}"[:15], f"wzdB{pid}"[:15]
    made: list[str] = []
    try:
        for ns in (pair.a, pair.b):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("link", "add", veth_a, "type", "veth", "peer", "name", veth_b)
        _ip("link", "set", veth_a, "netns", pair.a)
        _ip("link", "set", veth_b, "netns", pair.b)
        _ip("-n", pair.a, "addr", "add", f"{pair.ip_a}/24", "dev", veth_a)
        _ip("-n", pair.b, "addr", "add", f"{pair.ip_b}/24", "dev", veth_b)
        for ns, veth in ((pair.a, veth_a), (pair.b, veth_b)):
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "link", "set", veth, "up")
    except (subprocess.SubprocessError, OSError) as exc:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        subprocess.run(["ip", "link", "del", veth_a], capture_output=True, timeout=10)
        detail = getattr(exc, "stderr", None) or exc
        pytest.skip(f"cannot create test network namespaces: {str(detail).strip()}")
    try:
        yield pair
    finally:
        for ns in made:  # deleting a namespace also deletes its end of the veth pair
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


class Peer:
    """A tests/netns_discovery_peer.py process inside one namespace, speaking JSON lines."""

    def __init__(self, proc: asyncio.subprocess.Process, what: str) -> None:
        self.proc = proc
        self.what = what
        self.events: list[Event] = []
        self.started = time.monotonic()

    @classmethod
    async def start(cls, ns: str, *args: str) -> Peer:
        proc = await asyncio.create_subprocess_exec(
            "ip", "netns", "exec", ns, sys.executable, str(PEER), *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        return cls(proc, " ".join(args))

    async def expect(self, pred: Callable[[Event], bool], timeout: float = STEP_TIMEOUT) -> Event:
        """Read events until one matches ``pred``; fail with the peer's output on timeout/exit."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = await asyncio.wait_for(self.proc.stdout.readline(), max(remaining, 0.01))
            except TimeoutError:
                line = None
            if not line:
                pytest.fail(
                    f"peer `{self.what}`: no matching event within {timeout:.0f} s "
                    f"(exit={self.proc.returncode}); events={self.events}; "
                    f"stderr={await self._stderr()}"
                )
            event = json.loads(line)
            self.events.append(event)
            if pred(event):
                return event

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def close(self) -> None:
        """Ask the peer to stop (goodbye packets), killing it if it hangs."""
        if self.proc.returncode is None:
            with contextlib.suppress(OSError, ConnectionError):
                await self.send("stop")
            try:
                await asyncio.wait_for(self.proc.wait(), 5)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    async def finish(self) -> list[Event]:
        """Stop the peer and return all its events, including those not read yet."""
        await self.close()
        assert self.proc.stdout is not None
        for line in (await self.proc.stdout.read()).splitlines():
            self.events.append(json.loads(line))
        return self.events

    async def _stderr(self) -> str:
        assert self.proc.stderr is not None
        if self.proc.returncode is None:
            return "(still running)"
        return (await self.proc.stderr.read()).decode(errors="replace")[-2000:]


@contextlib.asynccontextmanager
async def peers() -> Any:
    """Collects the peers started in a test and stops them all at the end."""
    started: list[Peer] = []

    async def spawn(ns: str, *args: str) -> Peer:
        peer = await Peer.start(ns, *args)
        started.append(peer)
        return peer

    try:
        yield spawn
    finally:
        await asyncio.gather(*(p.close() for p in started), return_exceptions=True)


def by_name(event: Event) -> dict[str, Event]:
    return {g["name"]: g for g in event["games"]}


async def test_find_games_across_veth(netns: NetnsPair) -> None:
    async with peers() as spawn:
        # Default interfaces here (all of the namespace's: lo and the veth end).
        adv = await spawn(netns.a, "advertise", "Alice's game", "7001", "all", "1", "2")
        reg = await adv.expect(lambda e: e["event"] == "registered")
        finder = await spawn(netns.b, "find", "all", "2.0")
        cold = await spawn(netns.b, "watch", netns.ip_b)
        browsing = await cold.expect(lambda e: e["event"] == "browsing")
        first_seen = await cold.expect(lambda e: e["event"] == "games")
        found = await finder.expect(lambda e: e["event"] == "found")
    assert [g["name"] for g in first_seen["games"]] == ["Alice's game"]
    games = by_name(found)
    assert set(games) == {"Alice's game"}
    game = games["Alice's game"]
    assert (game["host"], game["port"]) == (netns.ip_a, 7001)
    assert (game["proto"], game["ruleset"], game["options"]) == (1, "wizwar/1", "players=2")
    assert (game["seats_taken"], game["seats_free"]) == (1, 2)
    assert re.fullmatch(rf"Alice's game #[0-9a-f]{{6}}\.{re.escape(SERVICE_TYPE)}",
                        game["service"]), game["service"]
    print(
        f"\n[discovery] advertiser registered after {reg['t']:.2f} s; a browser started later "
        f"saw it {first_seen['t'] - browsing['t']:.3f} s after it began; find_games(2.0) found it"
    )


async def test_browser_follows_games_coming_changing_and_going(netns: NetnsPair) -> None:
    def has(*names: str) -> Callable[[Event], bool]:
        return lambda e: e["event"] == "games" and sorted(by_name(e)) == sorted(names)

    async with peers() as spawn:
        watcher = await spawn(netns.b, "watch", netns.ip_b)
        await watcher.expect(lambda e: e["event"] == "browsing")

        launched = time.monotonic()
        first = await spawn(netns.a, "advertise", "Duel", "7001", netns.ip_a, "1", "1")
        reg = await first.expect(lambda e: e["event"] == "registered")
        registered = time.monotonic()
        seen = await watcher.expect(has("Duel"))
        now = time.monotonic()
        assert (by_name(seen)["Duel"]["port"], by_name(seen)["Duel"]["seats_free"]) == (7001, 1)
        print(
            f"\n[discovery] game seen {now - launched:.2f} s after launching the advertiser "
            f"({reg['t']:.2f} s of it registering, {now - registered:.2f} s after registration)"
        )

        # Same name again: the second advertiser gets a suffix instead of failing.
        second = await spawn(netns.a, "advertise", "Duel", "7002", netns.ip_a, "0", "3")
        reg2 = await second.expect(lambda e: e["event"] == "registered")
        assert reg2["name"] == "Duel (2)" and reg2["service"].startswith("Duel (2) #")
        both = by_name(await watcher.expect(has("Duel", "Duel (2)")))
        assert (both["Duel (2)"]["port"], both["Duel (2)"]["seats_free"]) == (7002, 3)
        assert both["Duel"]["port"] == 7001

        # Seats change: the TXT update reaches the browser.
        await first.send("update 2 0")
        await first.expect(lambda e: e["event"] == "updated")
        updated = await watcher.expect(
            lambda e: has("Duel", "Duel (2)")(e) and by_name(e)["Duel"]["seats_free"] == 0
        )
        assert by_name(updated)["Duel"]["seats_taken"] == 2

        # The advertiser stops: its goodbye removes the game.
        stopped_at = time.monotonic()
        await second.close()
        await watcher.expect(has("Duel"))
        print(f"[discovery] stopped game gone after {time.monotonic() - stopped_at:.2f} s")


async def test_browser_skips_garbage_and_sanitises_hostile_names(netns: NetnsPair) -> None:
    async with peers() as spawn:
        watcher = await spawn(netns.b, "watch", netns.ip_b)
        await watcher.expect(lambda e: e["event"] == "browsing")
        hostile = await spawn(netns.a, "hostile", netns.ip_a)
        await hostile.expect(lambda e: e["event"] == "registered")
        event = await watcher.expect(lambda e: e["event"] == "games" and len(e["games"]) > 0)
        await asyncio.sleep(1.0)  # give the garbage ad (registered first) every chance to show
        events = await watcher.finish()
    games = [g for e in events if e["event"] == "games" for g in e["games"]]
    assert {g["port"] for g in games} == {7101}, "the ad with proto=one must be skipped"
    evil = event["games"][0]
    assert evil["name"] == "Evil\ufffd game line2"
    assert all(ch.isprintable() for ch in evil["label"])


async def test_a_killed_host_leaves_a_running_browser_within_seconds(netns: NetnsPair) -> None:
    """A host killed without its goodbye (kill -9) leaves a running browser's list within
    seconds (a trial saw it listed 170 s later: its records had not expired)."""
    async with peers() as spawn:
        watcher = await spawn(netns.b, "watch", netns.ip_b)
        await watcher.expect(lambda e: e["event"] == "browsing")
        adv = await spawn(netns.a, "advertise", "Doomed", "7005", netns.ip_a, "1", "1")
        await adv.expect(lambda e: e["event"] == "registered")
        await watcher.expect(lambda e: e["event"] == "games" and "Doomed" in by_name(e))
        adv.proc.kill()
        await adv.proc.wait()
        killed = time.monotonic()
        await watcher.expect(lambda e: e["event"] == "games" and "Doomed" not in by_name(e))
        print(f"\n[discovery] killed host gone after {time.monotonic() - killed:.1f} s")


@pytest.fixture
def netns_line() -> Iterator[tuple[str, str, str, str, str]]:
    """Three namespaces in a line, a - b - c, on two links (two veth pairs, two subnets):
    mDNS does not cross b, so a and c never see each other's adverts; b sees both.
    Yields (a, b, c, a's address, c's address)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2 (ip) to make network namespaces")
    pid = os.getpid() % 10000
    sub1, sub2 = f"10.214.{pid % 250}", f"10.215.{pid % 250}"
    a, b, c = f"wzlA{pid}", f"wzlB{pid}", f"wzlC{pid}"
    made: list[str] = []
    try:
        for ns in (a, b, c):
            _ip("netns", "add", ns)
            made.append(ns)
        for (x, y, sub, n) in ((a, b, sub1, 1), (c, b, sub2, 2)):
            vx, vy = f"wzl{n}x{pid}"[:15], f"wzl{n}y{pid}"[:15]
            _ip("link", "add", vx, "type", "veth", "peer", "name", vy)
            _ip("link", "set", vx, "netns", x)
            _ip("link", "set", vy, "netns", y)
            _ip("-n", x, "addr", "add", f"{sub}.1/24", "dev", vx)
            _ip("-n", y, "addr", "add", f"{sub}.2/24", "dev", vy)
            _ip("-n", x, "link", "set", vx, "up")
            _ip("-n", y, "link", "set", vy, "up")
        for ns in (a, b, c):
            _ip("-n", ns, "link", "set", "lo", "up")
    except (subprocess.SubprocessError, OSError) as exc:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        detail = getattr(exc, "stderr", None) or exc
        pytest.skip(f"cannot create test network namespaces: {str(detail).strip()}")
    try:
        yield a, b, c, f"{sub1}.1", f"{sub2}.1"
    finally:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


async def test_the_same_game_name_on_two_links_shows_two_games(
        netns_line: tuple[str, str, str, str, str]) -> None:
    """Two hosts on two links, neither seeing the other, both call their game "Duel": a
    browser on both links lists two games, each at its own address (they shared one
    service name, so it showed one)."""
    a, b, c, ip_a, ip_c = netns_line
    async with peers() as spawn:
        watcher = await spawn(b, "watch", "all")
        await watcher.expect(lambda e: e["event"] == "browsing")
        one = await spawn(a, "advertise", "Duel", "7001", ip_a, "1", "1")
        two = await spawn(c, "advertise", "Duel", "7002", ip_c, "1", "1")
        reg = [await p.expect(lambda e: e["event"] == "registered") for p in (one, two)]
        assert [r["name"] for r in reg] == ["Duel", "Duel"]
        both = await watcher.expect(lambda e: e["event"] == "games" and len(e["games"]) == 2)
    assert sorted((g["name"], g["host"], g["port"]) for g in both["games"]) == [
        ("Duel", ip_a, 7001), ("Duel", ip_c, 7002)]


async def test_a_poker_game_is_announced_with_its_dealer(netns: NetnsPair) -> None:
    """A game dealt by mental poker is announced as the other hosted games are, and the
    listing says its dealer (issue 15)."""
    async with peers() as spawn:
        adv = await spawn(netns.a, "poker", "Poker night", netns.ip_a)
        reg = await adv.expect(lambda e: e["event"] == "registered")
        finder = await spawn(netns.b, "find", "all", "2.0")
        found = await finder.expect(lambda e: e["event"] == "found")
    game = by_name(found)["Poker night"]
    assert (game["host"], game["port"]) == (netns.ip_a, reg["port"])
    assert game["dealer"] == "poker"
    assert (game["seats_taken"], game["seats_free"]) == (1, 1)
    assert game["ruleset"].startswith("wizwar/")


GAME = Path(__file__).resolve().parent / "netns_poker_game.py"


async def test_a_new_sequencer_announces_the_poker_game_again(netns: NetnsPair,
                                                              tmp_path: Path) -> None:
    """Issue 15: a poker game announced on the LAN outlives its host there too. In
    namespace ``a`` the host advertises the game and two joiners join; the host's process
    is killed and its ad goes; P2's process, sequencing now, announces the game again under
    the same name at its own address, every seat taken (``seats_free`` 0). From namespace
    ``b`` a browser sees exactly that, and the host's process comes back there with
    ``wizwar join --back`` from keys whose addresses were wiped: it finds the game by
    zeroconf, and the game ends on one hash."""
    game = await asyncio.create_subprocess_exec(
        "ip", "netns", "exec", netns.a, sys.executable, str(GAME), netns.ip_a, str(tmp_path),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert game.stdout is not None
    events: list[Event] = []

    async def until(kind: str) -> Event:
        assert game.stdout is not None
        while True:
            line = await asyncio.wait_for(game.stdout.readline(), 120)
            assert line, (events, await game.stderr.read() if game.stderr else b"")
            events.append(json.loads(line))
            if events[-1]["event"] == kind:
                return events[-1]

    try:
        first = await until("advertised")
        assert first["name"] == "Poker night"
        killed = await until("killed")
        again = await until("announced")
        assert again["name"] == "Poker night"
        ip, port = str(again["addr"]).rsplit(":", 1)
        assert ip == netns.ip_a and int(port) != first["port"]
        async with peers() as spawn:
            finder = await spawn(netns.b, "find", "all", "3.0")
            found = await finder.expect(lambda e: e["event"] == "found")
        games = by_name(found)
        assert list(games) == ["Poker night"], games  # the old ad is gone
        ad = games["Poker night"]
        assert (ad["host"], ad["port"], ad["seats_free"], ad["dealer"]) == (
            netns.ip_a, int(port), 0, "poker"), ad
        keys = Path(str(killed["keys"]))
        kept = json.loads(keys.read_text())
        kept["addrs"] = {}  # no kept address answers: only the LAN finds the game
        keys.write_text(json.dumps(kept))
        back = await asyncio.create_subprocess_exec(
            "ip", "netns", "exec", netns.b, "env", f"XDG_DATA_HOME={tmp_path / 'data'}",
            sys.executable, "-c", "import sys; from wizwar_tui.cli import main; "
            "sys.exit(main(sys.argv[1:]))", "join", "--headless", "--bot", "--back",
            str(keys), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            cwd=str(Path(__file__).resolve().parent.parent))
        out, err = await asyncio.wait_for(back.communicate(), 180)
        done = await until("done")
    finally:
        if game.returncode is None:
            game.kill()
        await game.wait()
    text = out.decode() + err.decode()
    assert back.returncode == 0, text
    assert "looking for the game 'Poker night' on the LAN" in text, text
    hashes = done["hashes"]
    assert hashes[0] == hashes[1] and f"final hash {hashes[0]}" in text, (done, text)
    assert done["verified"] == [True, True], done
