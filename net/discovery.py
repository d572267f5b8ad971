"""LAN game discovery over mDNS/DNS-SD (python-zeroconf, asyncio API).

A host advertises its game as a ``_wizwar._tcp.local.`` service; players browse for it.
Everything read from the network is hostile: :func:`parse_ad` never raises and skips
malformed ads, and every name or TXT value meant for display goes through
:func:`net.safe.safe_text`.

Discovery is a convenience only: ``join host:port`` never needs it. This is the only module
that imports zeroconf. See ``docs/discovery.md`` for the TXT keys and the naming rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import ipaddress
import logging
import re
import socket
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import ifaddr  # a dependency of zeroconf; replaces its deprecated get_all_addresses()
from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.safe import safe_text

__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "GameAd",
    "find_games",
    "parse_ad",
    "safe_text",
]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_wizwar._tcp.local."
"""The DNS-SD service type every wizwar game is advertised under."""

MAX_PROTO = 65535
"""Largest protocol version accepted from the network."""
MAX_SEATS = 64
"""Largest seat count (taken or free, and their sum) accepted from the network."""
MAX_INSTANCE_BYTES = 63
"""DNS label limit (RFC 6763 §4.1.1) for the instance part of the service name."""
MAX_TXT_VALUE_BYTES = 200
"""Limit for a TXT value we publish (a TXT string is at most 255 bytes including the key)."""
MAX_NAME_SUFFIX = 99
"""Give up after ``name (99)``; nobody runs a hundred games of the same name on one LAN."""
SURVEY_SECONDS = 1.2
"""How long an advertiser listens for existing games' names before probing its own.

Long enough for an owner that multicast its records less than a second ago (RFC 6762 §14:
it must wait a second before multicasting them again) to answer."""
RESOLVE_TIMEOUT_MS = 3000
"""How long a browser waits for a service's SRV/TXT/A records."""
PROBE_TIMEOUT = 1.5
"""Seconds a connection attempt to one advertised address may take (every address of a game
is tried at once; the first that answers is the one to join)."""
RECHECK_SECONDS = 3.0
"""How often a running browser checks that each listed game still answers on its port."""
RECHECK_MISSES = 2
"""Checks in a row a game may fail before it leaves the list (it comes back if it answers
again while it is still advertised)."""
VIRTUAL_INTERFACES = ("docker", "br-", "veth", "virbr", "vnet", "lxcbr", "lxdbr", "cni",
                      "flannel", "cali", "vmnet", "vboxnet", "podman", "tailscale", "zt")
"""Name prefixes of the interfaces a host's players cannot reach it on (container and VM
bridges, tunnels): a game bound to every address does not advertise theirs."""
_TAG = re.compile(r" #[0-9a-f]{6}$")

TXT_NAME = "name"
TXT_PROTO = "proto"
TXT_RULESET = "ruleset"
TXT_OPTIONS = "options"
TXT_TAKEN = "taken"
TXT_FREE = "free"
TXT_DEALER = "dealer"

GameCallback = Callable[[list["GameAd"]], None]


@dataclass(frozen=True)
class GameAd:
    """One advertised game, as seen by a browser. All text fields are already safe_text'ed."""

    name: str
    """The game's display name (with a " (2)"-style suffix if the name was taken)."""
    host: str
    """IPv4 address text of the host."""
    port: int
    proto: int
    """Wire protocol version; a client refuses a game with a different one."""
    ruleset: str
    """Rules identifier ``NAME/VERSION``, e.g. ``wizwar/3`` (:func:`txt_fields`)."""
    options: str
    """The public options as ``name=value`` words, e.g. ``players=3 crossed=0 ...``."""
    seats_taken: int
    seats_free: int
    service: str
    """The full zeroconf service name (unique on the LAN); the key in :attr:`Browser.games`."""
    hosts: tuple[str, ...] = ()
    """Every usable advertised IPv4 address (never a loopback one), :attr:`host` first:
    :func:`first_reachable` tries them all."""
    dealer: str = ""
    """Who deals its secret cards: ``poker`` (mental poker), ``host`` (the host's dealer), ""
    (not said: a game with no dealt secret, or an older wizwar)."""

    @property
    def game(self) -> str:
        """The ruleset's name from :attr:`ruleset` (``wizwar``)."""
        return self.ruleset.partition("/")[0]

    @property
    def title(self) -> str:
        """The game's name for people ("Wiz-War"), or the ruleset name this wizwar does not
        know."""
        from core import registry
        from core.engine import UnknownRuleset

        try:
            return registry.get(self.game).title
        except UnknownRuleset:
            return self.game

    def label(self) -> str:
        """One safe display line: ``Duel — Wiz-War — 1/2 seats — wizwar/3 players=2 —
        10.0.0.1:7001``."""
        total = self.seats_taken + self.seats_free
        rules = " ".join(part for part in (self.ruleset, self.options) if part)
        parts = [
            safe_text(self.name),
            safe_text(self.title, 32),
            f"{self.seats_taken}/{total} seats",
            safe_text(rules, 64),
            f"{self.host}:{self.port}",
        ]
        return " — ".join(part for part in parts if part)


def txt_fields(ruleset: Any, options: dict[str, Any]) -> tuple[str, str]:
    """The ``ruleset`` and ``options`` TXT values of a game: ``NAME/VERSION`` and its public
    options as ``name=value`` words (``ruleset.options.to_txt``), in schema order."""
    words = " ".join(f"{k}={v}" for k, v in ruleset.options.to_txt(options).items())
    return f"{ruleset.name}/{ruleset.version}", words


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (what friends type to join)."""
    out: list[str] = []
    with contextlib.suppress(Exception):
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str) and not ip.ip.startswith("127.") \
                        and ip.ip not in out:
                    out.append(ip.ip)
    if not out:
        with contextlib.suppress(OSError):
            got = socket.gethostbyname(socket.gethostname())
            if not got.startswith("127."):
                out.append(got)
    return out


def _txt(props: dict[bytes, bytes | None], key: str) -> bytes | None:
    value = props.get(key.encode("ascii"))
    return value if isinstance(value, bytes) else None


def _txt_int(props: dict[bytes, bytes | None], key: str, low: int, high: int) -> int | None:
    raw = _txt(props, key)
    if raw is None or not 0 < len(raw) <= 6 or not raw.isdigit():
        return None  # also rejects signs, spaces, "1_000" and non-ASCII digits
    number = int(raw)
    return number if low <= number <= high else None


def _instance_label(service: str, type_: str) -> str:
    """The instance part of a service name, without the advertiser's tag (`` #a1b2c3``)."""
    if service.lower().endswith("." + type_.lower()):
        service = service[: -len(type_) - 1]
    return _TAG.sub("", service)


def usable_address(address: str) -> bool:
    """True for an advertised IPv4 address a joiner may connect to: not loopback (an advert
    must never point a joiner at its own machine), unspecified, multicast or broadcast."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast
                or ip == ipaddress.IPv4Address("255.255.255.255"))


def parse_ad(info: AsyncServiceInfo | ServiceInfo) -> GameAd | None:
    """Build a :class:`GameAd` from a resolved service, or None if the ad is unusable.

    Required: an IPv4 address, a port in 1..65535, and TXT keys ``proto`` (0..65535),
    ``ruleset``, ``taken`` and ``free`` (0..64 each, sum 1..64). ``name`` falls back to the
    instance label and ``options`` to "". Never raises, whatever the peer sent.
    """
    try:
        return _parse_ad(info)
    except Exception:  # noqa: BLE001 - hostile input must never crash a browser
        log.debug("unparseable ad %r", getattr(info, "name", None), exc_info=True)
        return None


def _parse_ad(info: ServiceInfo) -> GameAd | None:
    port = info.port
    if not isinstance(port, int) or not 1 <= port <= 65535:
        return None
    addresses = [a for a in info.parsed_addresses(IPVersion.V4Only) if usable_address(a)]
    if not addresses:
        return None
    props = info.properties
    if not isinstance(props, dict):
        return None
    proto = _txt_int(props, TXT_PROTO, 0, MAX_PROTO)
    taken = _txt_int(props, TXT_TAKEN, 0, MAX_SEATS)
    free = _txt_int(props, TXT_FREE, 0, MAX_SEATS)
    if proto is None or taken is None or free is None or not 0 < taken + free <= MAX_SEATS:
        return None
    ruleset = safe_text(_txt(props, TXT_RULESET), 32)
    if not ruleset:
        return None
    service = str(info.name)
    name = safe_text(_txt(props, TXT_NAME)) or safe_text(_instance_label(service, info.type))
    if not name:
        return None
    return GameAd(
        name=name,
        host=addresses[0],
        port=port,
        proto=proto,
        ruleset=ruleset,
        options=safe_text(_txt(props, TXT_OPTIONS), 64),
        seats_taken=taken,
        seats_free=free,
        service=service,
        hosts=tuple(dict.fromkeys(addresses)),
        dealer={b"poker": "poker", b"host": "host"}.get(_txt(props, TXT_DEALER) or b"", ""),
    )


def _interface_choice(interfaces: list[str] | None) -> list[str] | None:
    """Validate an interface list (IPv4 address texts); None means all interfaces."""
    if interfaces is None:
        return None
    if not interfaces:
        raise ValueError("interfaces must be None (all) or a non-empty list of IPv4 addresses")
    for address in interfaces:
        socket.inet_aton(address)  # raises OSError on junk
    return list(interfaces)


def advertised_addresses(adapters: Iterable[Any]) -> list[str]:
    """The IPv4 addresses a game bound to every address advertises, from ``adapters``
    (``ifaddr.get_adapters()``): those of the interfaces other machines can reach, not
    loopback and not a container or VM bridge or tunnel (:data:`VIRTUAL_INTERFACES`; the
    joiner would try an address it can never reach). Empty when there is none."""
    found: list[str] = []
    for adapter in adapters:
        name = str(getattr(adapter, "nice_name", "") or getattr(adapter, "name", ""))
        if name.startswith(VIRTUAL_INTERFACES):
            continue
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and usable_address(ip.ip) \
                    and ip.ip not in found:
                found.append(ip.ip)
    return found


def _local_ipv4_addresses() -> list[str]:
    """The addresses to advertise on every interface (:func:`advertised_addresses`);
    loopback only when nothing else exists (browsers skip such an ad)."""
    return advertised_addresses(ifaddr.get_adapters()) or ["127.0.0.1"]


async def first_reachable(hosts: list[str] | tuple[str, ...], port: int,
                          timeout: float = PROBE_TIMEOUT) -> str | None:
    """The first of ``hosts`` (IPv4 address texts) that accepts a TCP connection on
    ``port`` within ``timeout`` seconds, all tried at once; None when none does. The probe
    connections are closed at once (a wizwar host drops a connection that closes before its
    hello without a word)."""

    async def attempt(host: str) -> str:
        async with asyncio.timeout(timeout):
            _r, w = await asyncio.open_connection(host, port)
        w.close()
        with contextlib.suppress(Exception):
            await w.wait_closed()
        return host

    tasks = [asyncio.ensure_future(attempt(h)) for h in dict.fromkeys(hosts)]
    try:
        for done in asyncio.as_completed(tasks):
            with contextlib.suppress(Exception):
                return await done
        return None
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _fit_label(base: str, suffix: str) -> str:
    """Cut ``base`` so that ``base + suffix`` fits in one DNS label (63 bytes of UTF-8)."""
    room = MAX_INSTANCE_BYTES - len(suffix.encode("utf-8"))
    while len(base.encode("utf-8")) > room:
        base = base[:-1]
    return base.rstrip() + suffix


def _clean_game_name(name: str) -> str:
    """The display name an advertiser publishes: safe, dot-free, fits a DNS label."""
    text = safe_text(name, 200).replace(".", "·")
    text = _fit_label(text, "")
    if not text:
        raise ValueError("game name is empty after removing control characters")
    return text


def _check_txt_value(key: str, value: str) -> str:
    if len(value.encode("utf-8")) > MAX_TXT_VALUE_BYTES:
        raise ValueError(f"{key} is longer than {MAX_TXT_VALUE_BYTES} bytes")
    return value


def _check_count(key: str, value: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ValueError(f"{key} must be an int in 0..{high}, got {value!r}")
    return value


async def _survey_names(azc: AsyncZeroconf, taken: set[str]) -> AsyncServiceBrowser:
    """Start a multicast (QM) browse and give it :data:`SURVEY_SECONDS` to fill ``taken``.

    zeroconf's probe only sees a clash once the other service's PTR record is in the cache.
    A probe is a QU question, which the owner answers by *unicast* if it multicast that record
    recently; when the owner is another process on the same host, that unicast reply may be
    delivered to the owner's own socket (SO_REUSEPORT) and the clash goes unnoticed. Answers
    to a QM question are multicast, so every process sees them. The browse keeps running
    during probing and is cancelled by the caller.
    """

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is not ServiceStateChange.Removed:
            taken.add(name.lower())

    await azc.zeroconf.async_wait_for_start()
    survey = AsyncServiceBrowser(
        azc.zeroconf, [SERVICE_TYPE], handlers=[on_change], question_type=DNSQuestionType.QM
    )
    await asyncio.sleep(SURVEY_SECONDS)
    return survey


def _labels_but(taken: set[str], own: str) -> set[str]:
    """The display labels (lower case, tags removed) of the surveyed service names in
    ``taken``, leaving out the advertiser's own service ``own`` (a full service name)."""
    return {_instance_label(n, SERVICE_TYPE.lower()) for n in taken if n != own.lower()}


class Advertiser:
    """Advertises one hosted game on the LAN until :meth:`stop`.

    Must be started from a running asyncio loop. If the name is taken, ``" (2)"``,
    ``" (3)"``... is appended; :attr:`name` and :attr:`service` give the name finally used.
    """

    def __init__(self) -> None:
        """Create an idle advertiser; nothing touches the network until :meth:`start`."""
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._props: dict[str, str] = {}
        self.name: str | None = None
        """The display name in use (with suffix), once started."""
        self.service: str | None = None
        """The full service name in use, once started."""

    @property
    def running(self) -> bool:
        """True between a successful :meth:`start` and :meth:`stop`."""
        return self._info is not None

    async def start(
        self,
        name: str,
        port: int,
        *,
        proto: int,
        ruleset: str,
        options: str,
        seats_taken: int,
        seats_free: int,
        interfaces: list[str] | None = None,
        dealer: str = "",
    ) -> None:
        """Find a free name and register the game (about 2.5 s: survey, probes, announce).
        ``dealer`` (``poker`` or ``host``; "" says nothing): who deals its secret cards.

        ``interfaces`` is a list of IPv4 addresses to advertise on (and to publish as the
        game's address); None means all interfaces and all non-loopback IPv4 addresses.
        Raises ValueError for bad arguments and RuntimeError if no free name was found.
        """
        if self._azc is not None:
            raise RuntimeError("advertiser already started")
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise ValueError(f"port must be in 1..65535, got {port!r}")
        _check_count("proto", proto, MAX_PROTO)
        _check_count("seats_taken", seats_taken, MAX_SEATS)
        _check_count("seats_free", seats_free, MAX_SEATS)
        if not 0 < seats_taken + seats_free <= MAX_SEATS:
            raise ValueError(f"seats_taken + seats_free must be in 1..{MAX_SEATS}")
        base = _clean_game_name(name)
        if not safe_text(ruleset, 32):
            raise ValueError("ruleset must not be empty")
        choice = _interface_choice(interfaces)
        addresses = choice if choice is not None else _local_ipv4_addresses()
        self._props = {
            TXT_PROTO: str(proto),
            TXT_RULESET: _check_txt_value("ruleset", ruleset),
            TXT_OPTIONS: _check_txt_value("options", options),
            TXT_TAKEN: str(seats_taken),
            TXT_FREE: str(seats_free),
        }
        if dealer:
            self._props[TXT_DEALER] = _check_txt_value("dealer", dealer)
        uid = uuid.uuid4().hex[:12]
        host = f"wizwar-{uid}.local."  # unique: no A-record clashes
        tag = f" #{uid[:6]}"  # in the service name: games on two links never share one
        azc = AsyncZeroconf(
            interfaces=choice if choice is not None else InterfaceChoice.All,
            ip_version=IPVersion.V4Only,
        )
        self._azc = azc
        taken: set[str] = set()
        survey: AsyncServiceBrowser | None = None
        try:
            survey = await _survey_names(azc, taken)
            for number in range(1, MAX_NAME_SUFFIX + 1):
                label = base if number == 1 else _fit_label(base, f" ({number})")
                if label.lower() in _labels_but(taken, ""):
                    continue
                info = AsyncServiceInfo(
                    SERVICE_TYPE,
                    f"{_fit_label(label, tag)}.{SERVICE_TYPE}",
                    port=port,
                    properties={**self._props, TXT_NAME: label},
                    server=host,
                    parsed_addresses=list(addresses),
                )
                try:
                    announced = await azc.async_register_service(info, allow_name_change=False)
                except NonUniqueNameException:
                    log.debug("game name %r taken, trying the next suffix", label)
                    continue
                await announced
                # The survey kept listening through the probes and announcements: an owner
                # slow to answer (a loaded machine) is heard here, and we take the next name.
                if label.lower() in _labels_but(taken, info.name):
                    log.debug("game name %r heard late, trying the next suffix", label)
                    await (await azc.async_unregister_service(info))
                    # Two hosts that chose one name at once would keep meeting on each next
                    # suffix: a pause of 0..1 s drawn from this advertiser's tag parts them.
                    await asyncio.sleep(int(uid[6:8], 16) / 255)
                    continue
                await survey.async_cancel()
                survey = None
                self._info, self.name, self.service = info, label, info.name
                self._props[TXT_NAME] = label
                return
            raise RuntimeError(f"no free game name left for {base!r}")
        except BaseException:
            self._azc = None
            with contextlib.suppress(Exception):
                if survey is not None:
                    await survey.async_cancel()
            with contextlib.suppress(Exception):
                await azc.async_close()
            raise

    async def update(self, seats_taken: int, seats_free: int) -> None:
        """Publish new seat counts (re-announces the TXT record)."""
        if self._azc is None or self._info is None:
            raise RuntimeError("advertiser not started")
        _check_count("seats_taken", seats_taken, MAX_SEATS)
        _check_count("seats_free", seats_free, MAX_SEATS)
        if not 0 < seats_taken + seats_free <= MAX_SEATS:
            raise ValueError(f"seats_taken + seats_free must be in 1..{MAX_SEATS}")
        self._props[TXT_TAKEN] = str(seats_taken)
        self._props[TXT_FREE] = str(seats_free)
        old = self._info
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            old.name,
            port=old.port,
            properties=dict(self._props),
            server=old.server,
            parsed_addresses=old.parsed_addresses(),
        )
        announced = await self._azc.async_update_service(info)
        self._info = info
        await announced

    async def stop(self) -> None:
        """Send goodbye packets and close the sockets. Safe to call twice."""
        azc, info = self._azc, self._info
        self._azc = self._info = None
        if azc is None:
            return
        try:
            if info is not None:
                with contextlib.suppress(Exception):
                    await (await azc.async_unregister_service(info))
        finally:
            await azc.async_close()


class Browser:
    """Keeps :attr:`games` up to date with the games advertised on the LAN.

    ``on_change(games)`` (a plain function, called on the event loop) gets the sorted list of
    games each time a game appears, changes or disappears. Every :data:`RECHECK_SECONDS`
    each listed game is probed on its port (:meth:`recheck`): one that does not answer
    :data:`RECHECK_MISSES` times in a row leaves the list (a host killed without its goodbye
    is gone within seconds, not when its records expire), and :attr:`GameAd.host` is the
    advertised address that answered.
    """

    def __init__(self, on_change: GameCallback | None = None,
                 recheck_seconds: float = RECHECK_SECONDS) -> None:
        """Create an idle browser; nothing touches the network until :meth:`start`."""
        self.games: dict[str, GameAd] = {}
        self.on_change = on_change
        self.recheck_seconds = recheck_seconds
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._misses: dict[str, int] = {}  # service -> checks in a row it did not answer
        self._hidden: dict[str, GameAd] = {}  # advertised, but not answering: not listed
        self._rechecking: asyncio.Task[None] | None = None

    async def recheck(self) -> None:
        """Probe every advertised game once (:func:`first_reachable` on its addresses):
        one that answers is listed, with the address that answered first; one that missed
        :data:`RECHECK_MISSES` checks in a row is taken off the list until it answers again
        (or its advert goes)."""
        names = list(self.games) + [n for n in self._hidden if n not in self.games]
        ads = {n: self.games.get(n) or self._hidden[n] for n in names}
        found = await asyncio.gather(*(first_reachable(ad.hosts or (ad.host,), ad.port)
                                       for ad in ads.values()))
        changed = False
        for (name, ad), host in zip(ads.items(), found, strict=True):
            if name not in self.games and name not in self._hidden:
                continue  # removed meanwhile
            if host is not None:
                self._misses.pop(name, None)
                back = self._hidden.pop(name, None) is not None
                if back or ad.host != host:
                    self.games[name] = dataclasses.replace(ad, host=host)
                    changed = True
                continue
            self._misses[name] = self._misses.get(name, 0) + 1
            if self._misses[name] >= RECHECK_MISSES and name in self.games:
                self._hidden[name] = self.games.pop(name)
                changed = True
        if changed:
            self._notify()

    async def _recheck_loop(self) -> None:
        while True:
            await asyncio.sleep(self.recheck_seconds)
            try:
                await self.recheck()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a failed check must not stop browsing
                log.debug("recheck failed", exc_info=True)

    async def start(self, interfaces: list[str] | None = None) -> None:
        """Start browsing on ``interfaces`` (IPv4 addresses; None means all)."""
        if self._azc is not None:
            raise RuntimeError("browser already started")
        choice = _interface_choice(interfaces)
        self._azc = AsyncZeroconf(
            interfaces=choice if choice is not None else InterfaceChoice.All,
            ip_version=IPVersion.V4Only,
        )
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf, [SERVICE_TYPE], handlers=[self._on_service_state_change]
        )
        if self.recheck_seconds > 0:
            self._rechecking = asyncio.ensure_future(self._recheck_loop())

    async def stop(self) -> None:
        """Stop browsing and close the sockets. :attr:`games` keeps its last content."""
        browser, azc = self._browser, self._azc
        self._browser = self._azc = None
        rechecking, self._rechecking = self._rechecking, None
        if rechecking is not None:
            rechecking.cancel()
            await asyncio.gather(rechecking, return_exceptions=True)
        try:
            if browser is not None:
                await browser.async_cancel()  # first, so that no new resolve tasks start
        finally:
            tasks = list(self._tasks.values())
            self._tasks.clear()
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
            if azc is not None:
                await azc.async_close()

    def sorted_games(self) -> list[GameAd]:
        """The known games sorted by name (case-insensitively), then service name."""
        return sorted(self.games.values(), key=lambda g: (g.name.casefold(), g.service))

    # The keyword names are fixed: zeroconf calls handlers as
    # handler(zeroconf=..., service_type=..., name=..., state_change=...).
    def _on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        try:
            old = self._tasks.pop(name, None)
            if old is not None:
                old.cancel()
            if state_change is ServiceStateChange.Removed:
                self._hidden.pop(name, None)
                self._misses.pop(name, None)
                if self.games.pop(name, None) is not None:
                    self._notify()
                return
            task = asyncio.get_running_loop().create_task(
                self._resolve(zeroconf, service_type, name)
            )
            self._tasks[name] = task
            task.add_done_callback(functools.partial(self._done_for, name))
        except Exception:  # noqa: BLE001 - never let an exception escape into zeroconf
            log.debug("discovery handler failed for %r", name, exc_info=True)

    def _done_for(self, name: str, task: asyncio.Task[None]) -> None:
        """``_task_done`` with the name first (a done callback bound to one service)."""
        self._task_done(name, task)

    def _task_done(self, name: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(name) is task:
            del self._tasks[name]

    async def _resolve(self, zc: Zeroconf, service_type: str, name: str) -> None:
        try:
            info = AsyncServiceInfo(service_type, name)
            ok = await info.async_request(zc, RESOLVE_TIMEOUT_MS)
            ad = parse_ad(info) if ok else None
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - skip the game, keep going
            log.debug("could not resolve %r", name, exc_info=True)
            ad = None
        if ad is None:
            self._hidden.pop(name, None)
            if self.games.pop(name, None) is not None:
                self._notify()
            return
        if name in self._hidden:  # advertised again, still not answering: kept off the list
            self._hidden[name] = ad
            return
        old = self.games.get(name)
        if old is not None and old.host in ad.hosts:  # keep the address that answered
            ad = dataclasses.replace(ad, host=old.host)
        if old != ad:
            self.games[name] = ad
            self._notify()

    def _notify(self) -> None:
        if self.on_change is None:
            return
        try:
            self.on_change(self.sorted_games())
        except Exception:  # noqa: BLE001 - a UI bug must not stop discovery
            log.exception("discovery on_change callback failed")


async def find_games(timeout: float = 2.0, interfaces: list[str] | None = None,
                     probe: bool = False) -> list[GameAd]:
    """Browse for ``timeout`` seconds and return the games found, sorted by name. ``probe``:
    keep only the games that answer on their port (:meth:`Browser.recheck`), each with the
    address that answered as :attr:`GameAd.host`."""
    browser = Browser(recheck_seconds=0)
    await browser.start(interfaces)
    try:
        await asyncio.sleep(max(0.0, timeout))
        if probe:
            for _ in range(RECHECK_MISSES):
                await browser.recheck()
    finally:
        await browser.stop()
    return browser.sorted_games()
