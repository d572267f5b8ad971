"""LAN play in the app: the host form, the lobby, the found-games screen, and ``LanLink``,
which runs a hosted or joined game (net/lan.py) as Textual workers in the app's event loop.

The screens read only what the net layer reports (seat statuses, seat names, the peer's
last refusal); the game itself is seen through a :class:`net.session.NetSession`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from net.cli import DEFAULT_PORT, advertise_wanted, load_token, parse_target, save_token
from net.lan import HostClosed, HostGame, JoinRefused, OtherGame, PeerGame
from net.session import NetSession
from wizwar_tui.saves import HeldHeader, LogFile, PeerLog, new_log, now_text
from wizwar_tui.screens import TooSmall
from wizwar_tui.seats import player_colour, seat_status_text

if TYPE_CHECKING:
    from net.discovery import Advertiser, Browser, GameAd

NAME_LIMIT = 40
"""The longest player name the net layer keeps (net/lan.py ``clean_name``)."""


def parse_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (or just ``HOST``, on the default port) as (host, port); None if
    the text is not an address."""
    text = text.strip()
    if not text:
        return None
    try:
        direct = parse_target(text)
    except LookupError:  # a port out of range
        return None
    if direct:
        return direct if 0 < direct[1] < 65536 and plausible_host(direct[0]) else None
    if ":" in text.strip("[]") and not text.startswith("["):
        return None  # "host:abc"
    if any(ch.isspace() for ch in text):
        return None
    host = text.strip("[]")
    return (host, DEFAULT_PORT) if plausible_host(host) else None


def _ip_literal(text: str) -> bool:
    """True when ``text`` is an IPv4 or IPv6 address (not a name)."""
    import ipaddress

    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True


def plausible_host(host: str) -> bool:
    """True when ``host`` can name a machine: an IPv4 address written in full (four numbers
    0-255: ``2`` or ``192.168.1`` are not, though the C resolver would take them), an
    IPv6 address, or a host name (letters, digits, ``-`` and ``.``, not all digits)."""
    import ipaddress

    if not host:
        return False
    if all(ch.isdigit() or ch == "." for ch in host):
        parts = host.split(".")
        return len(parts) == 4 and all(p.isdigit() and int(p) < 256 and len(p) <= 3
                                       for p in parts)
    if ":" in host:
        try:
            ipaddress.IPv6Address(host.split("%")[0])
        except ValueError:
            return False
        return True
    return all(ch.isalnum() or ch in "-._" for ch in host) and not host.startswith(("-", "."))


class LanLink:
    """The app's one LAN game: the ``HostGame`` or ``PeerGame``, its ``NetSession``, the
    advertiser, and what went wrong if anything.

    ``changed()`` is the net layer's ``on_change``: it coalesces bursts of changes into one
    redraw of the lobby and game screens (same event loop, so no thread hop is needed).

    Attributes:
        phase: ``connecting``, ``lobby``, ``playing``, ``rejoining`` (the connection dropped;
            trying again), ``over``, ``failed`` (never got in or a protocol error), ``lost``
            (the host is gone), ``refused`` or ``desync``.
        problem: the message to show when something went wrong ("" otherwise).
        messages: the net layer's log lines, oldest first.
        save: the game log file being written (None when not saving).
    """

    def __init__(self, app: Any, game: HostGame | PeerGame, name: str,
                 advertise: bool = False, retries: int = 5, save: bool = False) -> None:
        self.app = app
        self.game = game
        self.save: LogFile | PeerLog | None = None
        if save:  # the game log, as ``wizwar host/join --headless`` writes it
            with contextlib.suppress(OSError):
                # a joined player who joins the same game again continues its log
                self.save = new_log("host", game.name) if isinstance(game, HostGame) \
                    else PeerLog(game.host, game.port, game.name)
                # the header waits for the first action: no file for a game nobody played
                held = HeldHeader(self.save.write, joined=isinstance(self.save, LogFile))
                game.writer, game.started = held.write, now_text()
        self.session = NetSession(game)
        self.name = name
        self.advertise = advertise
        self.retries = retries
        self.phase = "lobby" if isinstance(game, HostGame) else "connecting"
        self.problem = ""
        self.messages: list[str] = []
        self.advertiser: Advertiser | None = None
        self.game_shown = False
        self.closed = False
        self._pending = False
        self.listeners: list[Callable[[], None]] = []
        game.on_change = self.changed
        game.log = self.log

    # ---- what the screens show ----------------------------------------------------------
    @property
    def hosting(self) -> bool:
        """True on the host's side."""
        return isinstance(self.game, HostGame)

    @property
    def address(self) -> str:
        """``HOST:PORT`` of the game (the listening address on the host)."""
        return f"{self.game.bind if self.hosting else self.game.host}:{self.game.port}"  # type: ignore[union-attr]

    def join_addresses(self) -> list[str]:
        """What friends type after ``wizwar join`` (host side)."""
        assert isinstance(self.game, HostGame)
        bind, port = self.game.bind, self.game.port
        if bind in ("0.0.0.0", "", "::"):
            from net.discovery import local_addresses

            ips = local_addresses() or ["127.0.0.1"]
        else:
            ips = [bind]
        return [f"{ip}:{port}" for ip in ips]

    def rejoin_hint(self) -> str:
        """The command that takes this seat back: the seat token is kept under the player's
        name, so the command names it (``wizwar join 192.168.1.20:7654 --name bob``)."""
        import shlex

        return f"wizwar join {self.address} --name {shlex.quote(self.game.name)}"

    def seats(self) -> list[tuple[str, str, str]]:
        """(seat, who, status) for every seat; ``who`` is the name of who sits there (on a
        joined player's side: as the host last told it, ``(you)`` marking our own seat;
        "" for a free seat)."""
        status = self.session.seat_status()
        if isinstance(self.game, HostGame):
            out = []
            for s in self.game.seats:
                who = s.name if s.kind != "local" else f"{s.name} (you)"
                out.append((s.seat, who if status.get(s.seat) != "free" else "", status.get(
                    s.seat, "")))
            return out
        me = self.game.seat
        names = self.game.peer_names
        n = self.game.players or len(status)
        out = []
        for i in range(n):
            seat = f"P{i + 1}"
            st = status.get(seat, "")
            who = names.get(seat, "") if st != "free" else ""
            if seat == me:
                who = f"{who or self.game.name} (you)"
            out.append((seat, who, st))
        return out

    def dealer_text(self) -> str:
        """The lobby's dealer line: a hosted game whose ruleset deals secret cards is dealt
        by the host (``net.cli.dealer_line``); "" when there is nothing to say (no secret
        dealt, or a joined game: its host says)."""
        from net.cli import dealer_line

        game = self.game
        if not isinstance(game, HostGame) or not game.ruleset.dealing().values(game.options):
            return ""
        return dealer_line("host", 0, [])

    def take_reject(self) -> str:
        """The host's last refusal of one of our actions, once ("" if none new)."""
        if isinstance(self.game, PeerGame) and self.game.last_reject:
            reason, self.game.last_reject = self.game.last_reject, ""
            return reason
        return ""

    # ---- notifications -----------------------------------------------------------------
    def log(self, msg: str) -> None:
        """The net layer's log: kept for the lobby, and a redraw."""
        self.messages.append(msg)
        del self.messages[:-200]
        self.changed()

    def changed(self) -> None:
        """A change in the net game: redraw once on the next turn of the event loop."""
        if self._pending or self.closed:
            return
        self._pending = True
        self.app.call_later(self._dispatch)

    def _dispatch(self) -> None:
        """The coalesced redraw: note the deal, update the ad, show the game, tell the
        screens."""
        self._pending = False
        if self.closed:
            return
        if self.session.started and self.phase in ("lobby", "connecting"):
            self.phase = "playing"
        if self.advertiser is not None and isinstance(self.game, HostGame):
            free = self.game.free_seats
            task = asyncio.ensure_future(self._update_ad(self.game.players - free, free))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        if self.session.started and not self.game_shown:
            self.game_shown = True
            self.app.show_lan_game(self)
        for listener in list(self.listeners):
            listener()

    async def _update_ad(self, taken: int, free: int) -> None:
        """Tell the LAN how many seats are still free."""
        if self.advertiser is not None:
            with contextlib.suppress(Exception):
                await self.advertiser.update(taken, free)

    # ---- running -------------------------------------------------------------------------
    async def run_host(self) -> None:
        """Wait for the seats, then play (the ``HostGame.run`` of the app's game)."""
        assert isinstance(self.game, HostGame)
        try:
            final = await self.game.run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - never crash the app on a net error
            self.phase, self.problem = "failed", f"the game stopped: {exc}"
        else:
            if final:
                self.phase = "over"
            else:
                self.phase = "desync"
                self.problem = ("the game stopped: the players' states disagree (desync) — "
                                f"report in {self.game.desync}")
        self.close_log()
        self.changed()

    async def run_peer(self) -> None:
        """Connect, play, and rejoin (with the saved seat token) when the connection drops."""
        peer = self.game
        assert isinstance(peer, PeerGame)
        attempt = 0
        while True:
            try:
                peer.conn = None
                await peer.connect()
                if attempt:
                    self.log("reconnected to the host")
                self.problem = ""
                if self.phase in ("connecting", "rejoining"):
                    self.phase = "playing" if self.game_shown else "lobby"
                final = await peer.run_saving_token(
                    lambda h, p, tok: save_token(h, p, peer.name, tok))
            except asyncio.CancelledError:
                raise
            except HostClosed as exc:
                over = "the game is over" if self.game_shown else "no game was dealt"
                self.phase, self.problem = "lost", f"{exc} — {over}"
            except OtherGame as exc:  # a game named (--game): not the host's
                self.phase, self.problem = "refused", (
                    f"the host refused: {exc}: join without --game, or with --game "
                    f"{exc.ruleset}")
            except JoinRefused as exc:
                self.phase, self.problem = "refused", f"the host refused: {exc}"
            except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
                if not peer.seat:  # never got in: nothing to rejoin
                    self.phase = "failed"
                    self.problem = f"cannot join {self.address}: {connect_problem(exc)}"
                    self.changed()
                    return
                attempt += 1
                if attempt <= self.retries:
                    self.phase = "rejoining"
                    self.problem = (f"connection to the host lost — rejoining "
                                    f"({attempt}/{self.retries})…")
                    # the host replays every commit to a rejoining peer: start the record
                    # again so no event is shown twice
                    peer.events.clear()
                    self.changed()
                    await asyncio.sleep(1.0)
                    continue
                self.phase = "lost"
                self.problem = ("connection to the host lost — rejoin with "
                                f"`{self.rejoin_hint()}`")
            except Exception as exc:  # noqa: BLE001 - a protocol or deal error: stop cleanly
                self.phase, self.problem = "failed", f"the game stopped: {exc}"
            else:
                if final:
                    self.phase, self.problem = "over", ""
                else:
                    self.phase = "desync"
                    where = peer.desync
                    self.problem = ("the game stopped: the players' states disagree (desync)"
                                    + (f" — report in {where}" if "/" in where or "\\" in where
                                       else f" — {where}"))
            self.close_log()
            self.changed()
            return

    async def start_advertising(self) -> None:
        """Advertise the hosted game on the LAN (mDNS); a failure is only logged."""
        assert isinstance(self.game, HostGame)
        from net.discovery import Advertiser

        host = self.game
        adv = Advertiser()
        free = host.free_seats
        try:
            from net.discovery import txt_fields
            from net.protocol import PROTOCOL_VERSION

            rules, opts = txt_fields(host.ruleset, host.options)
            await adv.start(self.name, host.port, proto=PROTOCOL_VERSION,
                            ruleset=rules, options=opts,
                            seats_taken=host.players - free, seats_free=free,
                            interfaces=None if host.bind in ("0.0.0.0", "") else [host.bind])
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
        """Finish the game log (idempotent) and say where it is."""
        save, self.save = self.save, None
        if save is not None:
            save.close()
            path = getattr(save, "path", "")
            if path and os.path.exists(path):  # a lobby left before the deal wrote none
                self.messages.append(f"game log: {path}")

    async def close(self) -> None:
        """Stop advertising, close the game's connections and its log (idempotent)."""
        self.closed = True
        self.listeners.clear()
        self.close_log()
        adv, self.advertiser = self.advertiser, None
        if adv is not None:
            with contextlib.suppress(Exception):
                await adv.stop()
        if isinstance(self.game, HostGame):
            with contextlib.suppress(Exception):
                await self.game.close()
        elif self.game.conn is not None:
            with contextlib.suppress(Exception):
                await self.game.conn.close()


def new_host(app: Any, name: str, seats: int, bots: int, port: int, bind: str,
             clock: float | None = None, advertise: bool = True,
             save: bool = True, options: dict[str, Any] | None = None,
             game: str = "") -> LanLink:
    """A ``LanLink`` hosting a game of ``game`` ("" the default) whose own seat (P1) the
    app's player plays, with ``seats`` seats and the game's ``options``."""
    from core import registry

    hosted = HostGame(players=seats, name=name, bind=bind, port=port, bots=bots,
                      local_bot=False, clock=clock, options=dict(options or {}),
                      ruleset=registry.get(game or registry.DEFAULT))
    return LanLink(app, hosted, name, advertise=advertise_wanted(bind, advertise), save=save)


def new_peer(app: Any, host: str, port: int, name: str, retries: int = 5,
             save: bool = True, game: str = "") -> LanLink:
    """A ``LanLink`` joining ``host:port`` as ``name`` (with the seat token saved last time)
    to play ``game`` (a registry name; a host of another game refuses it in words), or with
    ``game`` "" whatever the host plays (the handshake says which: ``PeerGame.follow_host``).
    """
    from core import registry

    peer = PeerGame(host, port, name=name, bot_play=False, token=load_token(host, port, name),
                    ruleset=registry.get(game or registry.DEFAULT), follow_host=not game)
    return LanLink(app, peer, f"{host}:{port}", retries=retries, save=save)


def options_text(link: LanLink) -> str:
    """The game and its options in words for the lobby ("Wiz-War: 3 players, doors
    variant", from ``ruleset.options.describe``); "" while the session does not know them
    (a joining player before the host's welcome)."""
    from core.engine import OptionError

    session = link.session
    ruleset = getattr(session, "ruleset", None)
    options = getattr(session, "options", None)
    if ruleset is None or not options:
        return ""
    try:
        return f"{ruleset.title}: {ruleset.options.describe(options)}"
    except OptionError:
        return str(ruleset.title)


# ---------------------------------------------------------------------------- leaving
def connect_problem(exc: BaseException) -> str:
    """Why a connection to a host failed, in plain words (not the socket's errno text)."""
    if isinstance(exc, ConnectionRefusedError):
        return "nothing is listening there (is the game hosted, and the port right?)"
    if isinstance(exc, socket.gaierror):
        return "no such host name"
    if isinstance(exc, TimeoutError):
        return "no answer (a firewall, or the wrong address?)"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (``y`` / ``n``, ``Esc`` no); returns True for yes."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"),
                Binding("n,escape", "answer(False)", "No")]
    CSS_PATH = "dialogs.tcss"  # (as a DEFAULT_CSS its width lost to the app's .dialog)

    def __init__(self, question: str, note: str = "") -> None:
        super().__init__()
        self.question = question
        self.note = note

    def compose(self) -> ComposeResult:
        """The question, a note, the keys."""
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(f"{self.question} y/n", id="confirm-question")
            if self.note:
                yield Static(self.note, id="confirm-note")
            yield Static("y yes · n no (Esc) · ctrl+q again quits at once", classes="hint")
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


def leave_question(link: LanLink | None) -> tuple[str, str]:
    """What to ask before the app leaves the LAN game ``link`` (quits, or leaves the
    lobby): ``(question, note)``, or ``("", "")`` when leaving hurts nobody.

    - The host, once someone has joined (lobby or game): leaving ends the game for
      everyone: "End the game for all players?".
    - A joined player, once the cards are dealt: the others wait for their seat: "Leave
      the game?", with how to take the seat back.
    - Nothing to ask: no game, the game is over or already lost, a watcher, a joined player
      in the lobby (the seat is just freed), a host nobody has joined yet.
    """
    if link is None or link.closed or link.session.over or link.phase in (
            "over", "failed", "lost", "refused", "desync"):
        return "", ""
    game = link.game
    if getattr(link, "poker", False):  # a game dealt by mental poker (wizwar_tui.pokerlink)
        if link.hosting:
            if not any(st == "connected" for st in link.session.seat_status().values()):
                return "", ""
            return ("End the game for all players?",
                    "You host it: leaving closes the game for everyone.")
        if not link.session.started:
            return "", ""
        return ("Leave the game?", "It is dealt by mental poker: it cannot go on without "
                "your keys, so leaving ends it for everyone.")
    if isinstance(game, HostGame):
        joined = [s for s in game.seats if s.kind == "remote" and s.token]
        if not joined:
            return "", ""
        return ("End the game for all players?",
                "You host it: leaving closes the game for everyone.")
    if game.watch or not link.session.started:
        return "", ""
    return "Leave the game?", f"You can take your seat back with: {link.rejoin_hint()}"


def ask_before_quitting(app: Any) -> bool:
    """Ctrl+Q in a LAN game (``app.lan``): ask first when quitting would end the game for
    the others or leave them waiting (:func:`leave_question`); ``y`` quits. Returns True
    when it asked (the caller must not quit now); False: quit at once (nothing to ask, or
    the question is already open: Ctrl+Q twice quits)."""
    question, note = leave_question(getattr(app, "lan", None))
    if not question or isinstance(app.screen, ConfirmScreen):
        return False

    def answered(yes: bool | None) -> None:
        if yes:
            app.exit()

    app.push_screen(ConfirmScreen(question, note), answered)
    return True


# ---------------------------------------------------------------------------- screens
DEALER_WORDS = {"poker": "poker", "mental poker": "poker", "mental": "poker",
                "host": "host", "trusted host": "host", "trusted": "host"}
"""The host form's words for the dealer (``net.cli.dealer_choice``'s two)."""


class HostFormScreen(Screen[None]):
    """The host's form: the game's name on the LAN, then every option of the game's schema
    (``ruleset.options``: labels and allowed values from it, each typed as text: ``3``,
    ``yes``/``no``, a choice's word), the seats played by the host's bots, the port and the
    listen address, and for a game that deals secret cards the dealer (``poker``: mental
    poker, the default when two or more people play; ``host``: the host's dealer); then the
    lobby. A value or combination the ruleset refuses is said in its words (``OptionError``)
    and the form stays open."""

    CSS_PATH = "lan.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape", "back", "Back")]

    def __init__(self, name: str = "wizwar game", seats: int = 2, bots: int = 0,
                 port: int = DEFAULT_PORT, bind: str = "0.0.0.0", error: str = "",
                 clock: float | None = None, advertise: bool = True, game: str = "",
                 options: dict[str, Any] | None = None, dealer: str = "") -> None:
        super().__init__()
        from wizwar_tui import games

        self.game = game
        self.ruleset = games.ui(game).ruleset()
        self.schema = self.ruleset.options
        values = self.schema.defaults()
        if "players" in values:  # the table size, as `wizwar host --seats` gives it
            values["players"] = seats
        values.update(options or {})
        self.defaults = {"name": name, "bots": str(bots), "port": str(port), "bind": bind}
        for o in self.schema:
            x = values[o.name]
            self.defaults[f"opt-{o.name}"] = ("yes" if x else "no") if o.kind == "bool" \
                else str(x)
        self.error = error
        self.clock = clock
        self.advertise = advertise
        #: the game deals secret cards: the form offers the dealer (issue 15)
        self.deals = bool(self.ruleset.dealing().values(self.ruleset.validate_options(values)))
        if self.deals:  # net.cli.dealer_choice's default: poker when 2+ people play
            self.defaults["dealer"] = dealer or (
                "poker" if len(self.ruleset.seats(self.ruleset.validate_options(values)))
                - bots >= 2 and clock is None else "host")

    def fields(self) -> list[tuple[str, str, str, str]]:
        """The form's fields: (key, label, hint, input type)."""
        out = [("name", "Game name", "shown to players on the LAN", "text")]
        for o in self.schema:
            kind = "integer" if o.kind == "int" else "text"
            out.append((f"opt-{o.name}", o.label, o.allowed(), kind))
        out += [("bots", "Bots", "seats played by your bots", "integer")]
        if self.deals:
            out.append(("dealer", "Dealer", "poker (secret) or host (fast)", "text"))
        out += [
                ("port", "Port", f"TCP port (default {DEFAULT_PORT})", "integer"),
                ("bind", "Listen address", "0.0.0.0 all networks · 127.0.0.1 local", "text")]
        return out

    def compose(self) -> ComposeResult:
        """The form fields, a button and an error line."""
        from wizwar_tui import games

        title = "Host a LAN game" if len(games.names()) == 1 else \
            f"Host a LAN game of {self.ruleset.title}"
        with Vertical(id="host-box", classes="dialog lan-box"):
            yield Static(title, classes="lan-title")
            for key, label, hint, kind in self.fields():
                with Horizontal(classes="form-row"):
                    yield Label(label, classes="form-label")
                    yield Input(self.defaults[key], id=f"host-{key}", classes="form-input",
                                type=kind)  # type: ignore[arg-type]
                    yield Static(hint, classes="form-hint")
            yield Static(self.error, id="host-error", classes="lan-error")
            yield Button("Open the lobby", id="host-go", variant="primary")
            yield Static("Tab next field · Enter open the lobby · Esc back", classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Focus the first field."""
        self.show_error(self.error)
        self.query_one("#host-name", Input).focus()

    def value(self, key: str) -> str:
        """The text of field ``key``."""
        return self.query_one(f"#host-{key}", Input).value.strip()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in any field opens the lobby."""
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button opens the lobby."""
        event.stop()
        self.submit()

    def options(self) -> dict[str, Any]:
        """The options typed in the form, validated by the ruleset's schema. Raises
        ``OptionError`` with the ruleset's words."""
        return self.schema.validate({o.name: self.value(f"opt-{o.name}") for o in self.schema})

    def submit(self) -> None:
        """Check the fields, then host the game (errors stay on the form)."""
        from core.engine import OptionError

        err = self.show_error
        try:
            options = self.options()
        except OptionError as exc:
            err(f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
            return
        if self.ruleset.lan_refusal(options):
            why = self.ruleset.lan_refusal(options)
            err(f"{why[:1].upper()}{why[1:]}.")
            return
        seats = len(self.ruleset.seats(options))
        try:
            bots, port = int(self.value("bots")), int(self.value("port"))
        except ValueError:
            err("Bots and port must be whole numbers.")
            return
        name = self.value("name") or "wizwar game"
        bind = self.value("bind") or "0.0.0.0"
        dealer = DEALER_WORDS.get(self.value("dealer").lower(), "?") if self.deals else "host"
        if dealer == "?":
            err("Dealer: poker (mental poker: each hand readable only on its owner's "
                "machine) or host (the host's dealer: faster, but it could read every hand).")
        elif dealer == "poker" and self.clock is not None:
            err("Dealer: a game dealt by mental poker has no answer clock yet (host, or "
                "no --clock).")
        elif bots and not self.ruleset.bot_levels:
            err(f"Bots: {self.ruleset.title} has no bots yet (0: every seat is a player's).")
        elif not 0 <= bots < seats:
            err(f"Bots: 0 to {seats - 1} (your own seat stays yours).")
        elif not 0 <= port < 65536:
            err("Port: 1 to 65535 (0 picks a free one).")
        else:
            err("")
            self.app.host_lan(name=name, seats=seats, bots=bots,  # type: ignore[attr-defined]
                              port=port, bind=bind, clock=self.clock,
                              advertise=self.advertise, form=self, options=options,
                              game=self.game, dealer=dealer)

    def show_error(self, text: str) -> None:
        """Say why the game could not be hosted."""
        err = self.query_one("#host-error", Static)
        err.update(text)
        err.display = bool(text)

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()


class LobbyScreen(Screen[None]):
    """Waiting for the players: the seats and who is in them, the address to give friends
    (host side), the seat we got (joining side). The game screen replaces it at the deal."""

    CSS_PATH = "lan.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape,q", "leave", "Leave")]

    def __init__(self, link: LanLink) -> None:
        super().__init__()
        self.link = link

    def compose(self) -> ComposeResult:
        """Title, seats, how to join, the net log."""
        with Vertical(id="lobby-box", classes="dialog lan-box"):
            yield Static(id="lobby-title", classes="lan-title")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-info")
            yield Static(id="lobby-problem", classes="lan-error")
            yield RichLog(id="lobby-log", wrap=True, markup=False, min_width=20)
            yield Static("Esc leave the game", classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """First drawing; redraw on every change of the game."""
        self.query_one("#lobby-seats").border_title = "Seats"
        self.query_one("#lobby-log").border_title = "Log"
        self.query_one("#lobby-log", RichLog).can_focus = False
        self.logged = 0
        self.link.listeners.append(self.net_changed)
        self.net_changed()

    def on_unmount(self) -> None:
        """Stop listening to the game."""
        with contextlib.suppress(ValueError):
            self.link.listeners.remove(self.net_changed)

    def net_changed(self) -> None:
        """Redraw from what the net layer reports now."""
        link = self.link
        title = Text()
        if link.hosting:
            title.append(f"Hosting \u201c{link.name}\u201d", "bold")
        elif link.phase == "connecting":
            title.append(f"Joining {link.address}…", "bold")
        else:
            game = link.game.game if isinstance(link.game, PeerGame) else \
                str(getattr(link, "name", ""))  # game name
            # over SSH the game's address is the server's own, of no use to the player
            at = f" at {link.address}" if getattr(self.app, "HAS_MENU", True) else ""
            title.append(f"Joined \u201c{game}\u201d{at}", "bold")
        what = options_text(link)
        if what:
            title.append(f" · {what}", "dim")
        self.query_one("#lobby-title", Static).update(title)
        seats = Text()
        rows = link.seats()
        if not rows:
            seats.append("(waiting for the host)", "dim")
        for i, (seat, who, status) in enumerate(rows):
            if i:
                seats.append("\n")
            seats.append(f" {seat}  ", f"bold {player_colour(seat)}")
            seats.append(f"{(who or ('—' if status == 'free' else '')):<22}"[:22])
            seats.append("  ")
            seats.append_text(seat_status_text(status))
            if status == "free":
                seats.append("  waiting for a player", "dim italic")
        self.query_one("#lobby-seats", Static).update(seats)
        info = Text()
        free = sum(1 for _s, _w, st in rows if st == "free")
        if link.hosting:
            info.append("Friends join with:  ", "bold")
            for i, addr in enumerate(link.join_addresses()):
                info.append(("\n                    " if i else "") + f"wizwar join {addr}",
                            "bold #ffd75f")
            info.append(f"\nListening on {link.address}")
            if link.advertiser is not None:
                info.append(f" · on the LAN as \u201c{link.name}\u201d (Join a LAN game)")
            elif not link.advertise:
                info.append(" · not advertised (join by address)", "dim")
            info.append("\n")
        elif link.phase != "connecting" and not link.hosting:
            seat = link.session.human
            me = getattr(link.game, "name", "") or getattr(link, "player_name", "")
            if seat:
                info.append(f"You are {seat} ({me}).\n", f"bold {player_colour(seat)}")
        dealer = link.dealer_text()
        if dealer:
            info.append(dealer.replace("dealer: ", "Dealer: ", 1) + "\n")
        if link.session.started:
            info.append("Every seat is taken: the game starts…", "bold green")
        elif link.phase in ("lobby", "connecting"):
            if free:
                info.append(f"Waiting for {free} more player{'s' if free > 1 else ''}: the "
                            "game starts by itself when every seat is taken.", "italic")
            else:
                info.append("Every seat is taken: dealing…", "italic")
        self.query_one("#lobby-info", Static).update(info)
        problem = self.query_one("#lobby-problem", Static)
        problem.update(Text(link.problem))  # network text: never parsed as markup
        problem.display = bool(link.problem)
        log = self.query_one("#lobby-log", RichLog)
        for msg in link.messages[self.logged:]:
            log.write(Text(msg, "dim"))
        self.logged = len(link.messages)

    def action_leave(self) -> None:
        """Leave (closing the game if we host it) and go back; the host is asked first once
        someone has joined (:func:`leave_question`)."""
        question, note = leave_question(self.link)

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.leave_lan()  # type: ignore[attr-defined]
                self.app.show_menu()  # type: ignore[attr-defined]

        if question:
            self.app.push_screen(ConfirmScreen(question, note), answered)
        else:
            answered(True)


SEARCH_NOTE_AFTER = 5.0
"""Seconds the join screen looks for games before it says none was found yet."""


class JoinScreen(Screen[None]):
    """The games found on the LAN (live), and an address field for joining directly."""

    CSS_PATH = "lan.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape", "back", "Back")]

    def __init__(self, name: str = "guest", target: str = "", discover: bool = True,
                 games: list[GameAd] | None = None, retries: int = 5) -> None:
        super().__init__()
        self.searched = False  # looked a while (SEARCH_NOTE_AFTER) and found nothing
        self.player_name = name
        self.target = target
        self.discover = discover
        self.games: list[GameAd] = list(games or [])
        self.browser: Browser | None = None
        self.retries = retries
        # one word (``wizwar join duel``) names a game to look for, as ``net.cli.resolve``
        # reads it; an IP address alone goes in the address field
        self.auto_join = target if target and ":" not in target \
            and not _ip_literal(target) else ""

    def compose(self) -> ComposeResult:
        """Name, the found games, the address field."""
        with Vertical(id="join-box", classes="dialog lan-box"):
            yield Static("Join a LAN game", classes="lan-title")
            with Horizontal(classes="form-row"):
                yield Label("Your name", classes="form-label")
                yield Input(self.player_name[:NAME_LIMIT], id="join-name",
                            classes="form-input", max_length=NAME_LIMIT)
                yield Static(f"up to {NAME_LIMIT} letters", id="join-name-hint",
                             classes="form-hint")
            yield Static("Games on this network", id="join-found-title", classes="lan-sub")
            yield OptionList(id="join-games")
            with Horizontal(classes="form-row"):
                yield Label("Or address", classes="form-label")
                yield Input(self.target if not self.auto_join else "",
                            placeholder="HOST:PORT, e.g. 192.168.1.20:7654", id="join-addr",
                            classes="form-input")
            yield Static(id="join-error", classes="lan-error")
            yield Static("↑↓ choose · Enter join · Tab next field · Esc back", classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Show the games; start looking for more."""
        self.show_error("")
        self.show_games(self.games)
        if self.auto_join and not self.discover:
            self.show_error(self.not_found_text())
        if self.discover:
            self.run_worker(self._browse(), exclusive=False, exit_on_error=False)
            self.set_timer(SEARCH_NOTE_AFTER, self._searched_a_while)
        self.query_one("#join-name", Input).focus()

    def _searched_a_while(self) -> None:
        """Some seconds without a game found: say so (the search goes on)."""
        self.searched = True
        if not self.games:
            self.show_games(self.games)
        if self.auto_join:  # the game asked for is not (yet) among those found
            self.show_error(self.not_found_text())

    def not_found_text(self) -> str:
        """Why the game named on the command line was not joined (issue 12: the Join form
        showed the name in the address field and Enter did nothing visible)."""
        where = "discovery is off" if not self.discover else "still looking"
        return (f"No game named \u201c{self.auto_join[:30]}\u201d found on this network "
                f"({where}): choose a game above or type its address (HOST:PORT).")

    async def _browse(self) -> None:
        """Start the zeroconf browser (it calls :meth:`show_games` on every change)."""
        from net.discovery import Browser

        self.browser = Browser(on_change=self.show_games)
        try:
            await self.browser.start()
        except Exception as exc:  # noqa: BLE001 - discovery is a convenience only
            self.browser = None
            self.query_one("#join-found-title", Static).update(
                f"Games on this network (cannot look: {exc}; join by address)")

    async def on_unmount(self) -> None:
        """Stop looking for games."""
        browser, self.browser = self.browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await browser.stop()

    def show_games(self, games: list[GameAd]) -> None:
        """Redraw the list of found games (the browser calls this on every change)."""
        self.games = list(games)
        lst = self.query_one("#join-games", OptionList)
        keep = lst.highlighted
        lst.clear_options()
        # nothing to choose: Tab skips the list (name -> address)
        lst.can_focus = bool(self.games)
        if not self.games:
            if lst.has_focus:
                self.query_one("#join-addr", Input).focus()
            if not self.discover:
                note = "(discovery off: type an address below)"
            elif self.searched:
                note = ("no game found on this network yet (still looking); a game on "
                        "another network: type its address below")
            else:
                note = "looking for games…"
            lst.add_option(Option(Text(note, "dim"), id="none", disabled=True))
            return
        for i, g in enumerate(self.games):
            t = Text()
            t.append(f"{g.name[:28]:<28}", "bold")
            free = f"{g.seats_free} of {g.seats_taken + g.seats_free} seats free"
            t.append(f"  {free:<20}", "green" if g.seats_free else "dim")
            t.append(f"  {g.host}:{g.port}")
            if g.dealer:
                t.append("  mental poker" if g.dealer == "poker" else "  host deals", "dim")
            lst.add_option(Option(t, id=f"g{i}"))
        lst.highlighted = min(keep or 0, len(self.games) - 1)
        addr = self.query_one("#join-addr", Input)
        if addr.has_focus and not addr.value:  # the first game found: Enter joins it
            lst.focus()
        if self.auto_join:
            for g in self.games:
                if g.name == self.auto_join:
                    self.auto_join = ""
                    self.join(g.host, g.port, g.dealer, g.game)
                    return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a game joins it."""
        event.stop()
        oid = event.option.id or ""
        if oid.startswith("g"):
            g = self.games[int(oid[1:])]
            self.join(g.host, g.port, g.dealer, g.game)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the address field joins that address."""
        event.stop()
        if event.input.id == "join-name":
            self.query_one("#join-games" if self.games else "#join-addr").focus()
            return
        text = event.value.strip()
        addr = parse_address(text)
        if not text:
            self.show_error("Type the host's address (HOST:PORT, e.g. 192.168.1.20:7654)"
                            + (" or choose a game above." if self.games else "."))
            return
        if addr is None:
            self.show_error(f"\u201c{text[:30]}\u201d is not an address: type HOST:PORT "
                            "(e.g. 192.168.1.20:7654; a port is 1-65535).")
            return
        self.join(*addr)

    def on_key(self, event: events.Key) -> None:
        """A letter typed while the games list has focus goes to the address field (the
        list only takes arrows and Enter), so no typed key is lost."""
        lst = self.query_one("#join-games", OptionList)
        if lst.has_focus and event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            addr = self.query_one("#join-addr", Input)
            addr.select_on_focus = False  # keep what is there: the letter goes after it
            addr.focus()
            addr.insert_text_at_cursor(event.character)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The address field selects its text when focused again (see :meth:`on_key`)."""
        if event.widget.id == "join-addr":
            event.widget.select_on_focus = True  # type: ignore[attr-defined]

    def join(self, host: str, port: int, dealer: str = "", game: str = "") -> None:
        """Join ``host:port`` under the typed name (a game its ad says is dealt by mental
        poker, ``dealer`` ``poker``, as a poker process at once; another host that deals by
        poker refuses the first hello, and the app joins it so then); ``game``: the ruleset
        the ad names."""
        self.show_error("")
        name = self.query_one("#join-name", Input).value.strip() or "guest"
        if dealer == "poker":
            self.app.join_poker(host, port, name, game=game)  # type: ignore[attr-defined]
            return
        self.app.join_lan(host, port, name, retries=self.retries)  # type: ignore[attr-defined]

    def show_error(self, text: str) -> None:
        """Say why joining did not work (the host's words among it: shown as plain text,
        never parsed as markup)."""
        err = self.query_one("#join-error", Static)
        err.update(Text(text))
        err.display = bool(text)

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
