"""A LAN game dealt by mental poker in the app (issue 15): hosting one from the host form,
joining one from the Join screen. :class:`PokerLink` is the :class:`~wizwar_tui.lobby.LanLink`
of such a game: the lobby and the game screens read it as they read any LAN game's, and the
game is seen through a :class:`net.poker_session.PokerSession` (the process's partial
state only: the screens render ``view(state, player)``).

Game-agnostic: the ruleset's own screens play it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from net.cli import dealer_line
from net.handover import come_back, play
from net.poker import Player, PokerHost, Stopped
from net.poker_session import PokerSession
from wizwar_tui.lobby import LanLink, connect_problem


def _keys_dir() -> str:
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("wizwar"), "poker-keys")


def _log_dir(save: bool) -> str | None:
    if not save:
        return None
    from net.logfiles import games_dir

    return games_dir()


class PokerLink(LanLink):
    """The app's one LAN game dealt by mental poker: the hosting process's
    :class:`~net.poker.PokerHost` (``host``) or a joiner's :class:`~net.poker.Player`
    (``host`` None, ``target`` the host's address). Phases as :class:`LanLink`'s."""

    poker = True
    session: PokerSession

    def __init__(self, app: Any, player: Player, name: str, *, host: PokerHost | None = None,
                 target: tuple[str, int] = ("", 0), player_name: str = "",
                 advertise: bool = False) -> None:
        # (LanLink.__init__ wires a HostGame/PeerGame: this link does its own)
        self.app = app
        self.player = player
        self.game = player  # type: ignore[assignment]  # (what LanLink's readers read)
        self.host = host
        self.target = target
        self.player_name = player_name or name
        self.save = None
        self.session = PokerSession(player, host=host)
        self.name = name
        self.advertise = advertise
        self.retries = 0
        self.phase = "lobby" if host is not None else "connecting"
        self.problem = ""
        self.messages: list[str] = []
        self.advertiser = None
        self.game_shown = False
        self.closed = False
        self._pending = False
        self.listeners = []
        player.on_change = self.changed
        player.log = self.log
        player.choose = self.session.choose
        if host is not None:
            host.log = self.log

    # ---- what the screens show ----------------------------------------------------------
    @property
    def hosting(self) -> bool:
        """True on the host's side."""
        return self.host is not None

    @property
    def address(self) -> str:
        """``HOST:PORT`` of the game (the listening address on the host; for a process
        back after it died, the sequencer's it reached)."""
        if self.host is not None:
            return f"{self.host.bind}:{self.host.port}"
        if not self.target[1]:  # a process back: the sequencer it reached, once it did
            relay = getattr(getattr(self.player, "link", None), "relay_addr", "")
            return str(relay or "the game's processes")
        return f"{self.target[0]}:{self.target[1]}"

    def join_addresses(self) -> list[str]:
        """What friends type after ``wizwar join`` (host side)."""
        assert self.host is not None
        bind, port = self.host.bind, self.host.port
        if bind in ("0.0.0.0", "", "::"):
            from net.discovery import local_addresses

            ips = local_addresses() or ["127.0.0.1"]
        else:
            ips = [bind]
        return [f"{ip}:{port}" for ip in ips]

    def rejoin_hint(self) -> str:
        """A poker seat is taken back only by the process that holds its keys (its kept
        keys file: ``wizwar join --back KEYS``; docs/protocol.md, Hand-over)."""
        path = self.player.keys_path
        return f"wizwar join --back {path or 'KEYS'}"

    def dealer_text(self) -> str:
        """The lobby's dealer line: mental poker, and whose machine holds each bot's
        cards."""
        if self.host is not None:
            return self.host.lobby_line()
        p = self.player
        bots = [f"{s} (bot) on {ss[0]}'s machine" for _proc, ss in sorted(p.plays.items())
                for s in ss[1:]]
        return dealer_line("poker", 0, []) + ("; " + ", ".join(bots) if bots else "")

    def seats(self) -> list[tuple[str, str, str]]:
        """(seat, who, status) for every seat."""
        status = self.session.seat_status()
        me = self.session.human
        if self.host is not None:
            names = {s: (p.name if s == p.seats[0] else "bot") for p in self.host.procs
                     for s in p.seats}
            order = self.host.seat_ids
        else:
            names = dict(zip(self.player.seats, self.player.names, strict=False))
            order = self.player.seats
        out = []
        for s in order:
            who = names.get(s, "")
            if s == me:
                who = f"{who or self.player_name} (you)"
            out.append((s, who, status.get(s, "")))
        return out

    def take_reject(self) -> str:
        """The last refusal of one of our actions, once ("" if none new)."""
        p = self.player
        reason, p.last_reject = p.last_reject, ""
        return reason

    def _dispatch(self) -> None:
        """The coalesced redraw: note the deal, update the ad, show the game, tell the
        screens."""
        self._pending = False
        if self.closed:
            return
        if self.session.started and self.phase in ("lobby", "connecting"):
            self.phase = "playing"
        if self.advertiser is not None and self.host is not None:
            from net.cli import update_poker_ad

            task = asyncio.ensure_future(update_poker_ad(self.advertiser, self.host))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        if self.session.started and not self.game_shown:
            self.game_shown = True
            self.app.show_lan_game(self)
        for listener in list(self.listeners):
            listener()

    # ---- running -------------------------------------------------------------------------
    async def run_host(self) -> None:
        """Wait for the seats, then play the game to its end (``PokerHost.run``)."""
        assert self.host is not None
        try:
            final = await self.host.run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - never crash the app on a net error
            final, self.host.stopped = "", f"{exc}"
        self._ended(final, self.host.stopped + (f"; report in {self.host.report}"
                                                if self.host.report else ""))

    async def run_peer(self) -> None:
        """Join the game and play it to its end over a link that outlives the host's
        process (``net.handover.play``: when the host is gone the lowest process still there
        relays the game, and the log says so); a process back after it died
        (``player.rejoin_from``) reaches the game's sequencer instead
        (``net.handover.come_back``), makes its past choices again and plays on."""
        try:
            if self.player.rejoin_from:  # a process back after it died (its kept keys)
                final = await come_back(self.player)
            else:
                final = await play(self.player, self.target[0], self.target[1],
                                   self.player_name)
        except asyncio.CancelledError:
            raise
        except Stopped as exc:
            final = ""
            why = str(exc) + (f" ({exc.seat} cheated)" if exc.seat else "")
            if not self.player.plays:  # never seated
                self.phase, self.problem = "refused", f"the host refused: {why}"
                self.session.stopped = why
                self.changed()
                return
            self._ended("", why)
            return
        except (ConnectionError, OSError) as exc:
            self.phase = "failed"
            self.problem = f"cannot join {self.address}: {connect_problem(exc)}"
            self.changed()
            return
        self._ended(final, "")

    def _ended(self, final: str, why: str) -> None:
        if final:
            self.phase, self.problem = "over", ""
            self.messages.append("the audit of the deal passed")
        else:
            self.phase = "failed"
            self.problem = f"the game stopped: {why or 'the host closed it'}"
            self.session.stopped = self.problem
        self.close_log()
        self.changed()

    async def start_advertising(self) -> None:
        """Advertise the hosted game on the LAN (mDNS), with its dealer
        (:func:`net.cli.advertise_poker`); a failure is only logged."""
        assert self.host is not None
        from net.cli import advertise_poker

        try:
            adv = await advertise_poker(self.host, self.name)
        except Exception as exc:  # noqa: BLE001 - discovery is a convenience only
            self.log(f"could not advertise on the LAN ({exc}); friends can still join by "
                     "address")
            return
        if self.closed:
            await adv.stop()
            return
        self.advertiser = adv
        self.log(f"advertised on the LAN as '{self.name}'")

    def close_log(self) -> None:
        """Say where the game's log is (written by the player as the game goes)."""
        path = self.player.log_path
        if path and os.path.exists(path) and f"game log: {path}" not in self.messages:
            self.messages.append(f"game log: {path}")

    async def close(self) -> None:
        """Stop advertising, close the game's connections (idempotent)."""
        self.closed = True
        self.listeners.clear()
        self.close_log()
        adv, self.advertiser = self.advertiser, None
        if adv is not None:
            with contextlib.suppress(Exception):
                await adv.stop()
        link = getattr(self.player, "link", None)  # a joiner's hand-over link
        if link is not None and self.host is None:
            link.abort()
        if self.host is not None:
            with contextlib.suppress(Exception):
                await self.host.close()
            task = self.host.player_task
            if task is not None and not task.done():  # the host's own seat's game
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


def new_poker_host(app: Any, name: str, seats: int, bots: int, port: int, bind: str,
                   advertise: bool = True, save: bool = True,
                   options: dict[str, Any] | None = None, game: str = "") -> PokerLink:
    """A :class:`PokerLink` hosting a game of ``game`` dealt by mental poker, its first
    seat the app's player's, its last ``bots`` seats the host's bots (their keys in this
    process)."""
    from core import registry
    from net.cli import advertise_wanted

    host = PokerHost(registry.get(game or registry.DEFAULT), players=seats, bots=bots,
                     options=dict(options or {}), bind=bind, port=port, name=name,
                     keys_dir=_keys_dir(), log_dir=_log_dir(save))
    return PokerLink(app, host.player, name, host=host,
                     advertise=advertise_wanted(bind, advertise))


def new_poker_peer(app: Any, host: str, port: int, name: str, save: bool = True,
                   game: str = "") -> PokerLink:
    """A :class:`PokerLink` joining the poker game at ``host:port`` as ``name``."""
    from core import registry

    async def unjoined(_m: Any) -> None:
        raise ConnectionError("not joined")

    async def nothing() -> None:
        return None

    player = Player(registry.get(game or registry.DEFAULT), unjoined, nothing,
                    keys_dir=_keys_dir(), log_dir=_log_dir(save))
    return PokerLink(app, player, f"{host}:{port}", target=(host, port), player_name=name)


def new_poker_back(app: Any, keys: str, name: str = "", save: bool = True) -> PokerLink:
    """A :class:`PokerLink` bringing back a poker game's process that died (the host's
    too) from the keys it kept (``keys``, ``wizwar join --back KEYS``): it reaches the
    game's sequencer, makes its past choices again from the log it wrote, and the person
    plays on from where the game is. Raises ``ValueError`` (or ``OSError``) in words when
    the file cannot be used."""
    import json

    from core import registry

    with open(keys, encoding="utf-8") as f:
        kept = json.load(f)
    if not isinstance(kept, dict) or int(kept.get("proc", -1)) < 0 or not (
            kept.get("addrs") or kept.get("ad")):
        raise ValueError("it holds no process number or no addresses of the game (nor the "
                         "name it is announced under on the LAN)")
    rs = registry.get(str(kept.get("ruleset", registry.DEFAULT)))

    async def unjoined(_m: Any) -> None:
        raise ConnectionError("not joined")

    async def nothing() -> None:
        return None

    player = Player(rs, unjoined, nothing, rejoin_from=keys,
                    keys_dir=os.path.dirname(os.path.abspath(keys)), log_dir=_log_dir(save))
    seats = ", ".join(str(x) for x in kept.get("seats") or [])
    return PokerLink(app, player, f"back to {seats or 'the game'}",
                     player_name=name or seats)
