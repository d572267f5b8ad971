"""Play in a browser: ``wizwar host [GAME] --web [ADDR:]PORT`` serves a hosted game as a web
page (textual-serve's way: one app process per tab, its screen drawn by xterm.js).

Design (docs/web.md):

- The game itself is an ordinary LAN host (:class:`net.lan.HostGame`) on 127.0.0.1, in which
  every seat is taken by a joining player, as for ``--ssh`` (``--bot`` gives P1 to the host's
  bot, ``--bots B`` the last B seats).
- The page asks for a player name (and the game's password, if one is set). Each tab then
  runs its own ``python -m wizwar_tui.web`` (the app locked to this one game, like an SSH
  session's) as a LAN peer of that host, with Textual's web driver: its screen goes to the
  tab over a websocket and the tab's keys come back. No rules or network code is special to
  the browser.
- The same name takes the same seat back (the seat token ``wizwar join`` keeps per host, port
  and name); a second tab under a name closes the first. When every seat is taken (or the
  cards are dealt) a newcomer watches: public information only, never a hand.
- Safe by default: it listens on 127.0.0.1 unless told otherwise; ``--web-password`` (or
  ``WIZWAR_WEB_PASSWORD``); at most :data:`MAX_TABS` tabs; a tab with no key for
  :data:`IDLE_TIMEOUT` seconds is closed. Only the game is reachable: the page, the few
  static files it needs (no folder listing), and the websocket of a ticket the name form
  handed out; no downloads, no links opened by the app, requests from other sites' pages
  refused (their ``Origin``).

textual-serve provides the app side of the wire (:class:`textual_serve.app_service.AppService`:
the packets of Textual's web driver) and the page's script (``textual.js``, xterm.js); its
``Server`` is not used, because its routes serve a folder listing of its static files and
downloads, start one app for any websocket that connects, and run the command through a shell.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hmac
import html
import json
import os
import re
import secrets
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

if TYPE_CHECKING:
    from net.lan import HostGame

Log = Callable[[str], None]

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,19}")
"""A player name: a letter or digit, then up to 19 of ``A-Z a-z 0-9 _ . -`` (as over SSH)."""

MAX_TABS = 16
"""Tabs running an app at once (players and watchers); one more is told to try later."""
IDLE_TIMEOUT = 30 * 60.0
"""Seconds a tab may stay without a key before it is closed (its seat waits for its player)."""
TICKET_TIMEOUT = 60.0
"""Seconds the ticket of a name form stays good for opening the game's websocket."""
MAX_TICKETS = 64
"""Tickets handed out and not used yet, at most (a flood of forms costs nothing)."""
MAX_PASSES = 256
"""Game pages (``/game/PASS``) remembered at once; the oldest is forgotten first."""
END_WAIT = 600.0
"""Seconds the server waits, once the game is over, for the players to close their tabs."""
PASSWORD_ENV = "WIZWAR_WEB_PASSWORD"
CLOSE_ENDED = 4000
"""The websocket close code of a tab whose game has ended here (the host stopped it, or it
is over and the server closed): the page says why and offers no way back."""
CLOSE_THIS_TAB = 4001
"""The close code of a tab closed on its own (opened again elsewhere, idle): the page says
why and offers to open the game again."""

#: the module a tab runs (``python -m``): the app locked to one game. A command, not an
#: import: ``net/`` imports nothing of the app.
SESSION_MODULE = "wizwar_tui.web"

#: textual-serve's static files the page uses (nothing else under /static is served)
STATIC_FILES = ("js/textual.js", "css/xterm.css", "fonts/RobotoMono-VariableFont_wght.ttf",
                "fonts/RobotoMono-Italic-VariableFont_wght.ttf", "images/background.png")

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _quiet(_msg: str) -> None:
    pass


def parse_listen(text: str) -> tuple[str, int]:
    """``[ADDR:]PORT`` as (addr, port), the address 127.0.0.1 when left out (``[::1]:8080``
    for IPv6). Raises ``ValueError`` with a readable reason (a port is 0-65535, 0 picks a
    free one)."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", text
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit():
        raise ValueError(f"{text!r} is not [ADDR:]PORT (e.g. 8080 or 0.0.0.0:8080)")
    n = int(port)
    if not 0 <= n <= 65535:
        raise ValueError(f"{n} is not a port (0-65535)")
    return host, n


def host_name(host: str) -> str:
    """The name or address of a ``Host`` header (``[::1]:8080`` -> ``::1``), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def is_loopback(host: str) -> bool:
    """``localhost``, 127.x.x.x or ``::1``."""
    import ipaddress

    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def static_dir() -> Path:
    """textual-serve's folder of static files (the page's script, style sheet and fonts)."""
    import textual_serve

    return Path(textual_serve.__file__).resolve().parent / "static"


def player_command(lan_host: str, lan_port: int, name: str, watch: bool, rejoin: str = "",
                   game: str = "") -> list[str]:
    """The process a tab runs: the app (:data:`SESSION_MODULE`) locked to the game at
    ``lan_host:lan_port``; ``rejoin`` is the address that takes the seat back; ``game`` the
    ruleset's name (the app's default when "")."""
    argv = [sys.executable, "-m", SESSION_MODULE, f"{lan_host}:{lan_port}", "--name", name]
    if game:
        argv += ["--game", game]
    if rejoin:
        argv += ["--rejoin", rejoin]
    if watch:
        argv.append("--watch")
    return argv


def app_env(width: int, height: int) -> dict[str, str]:
    """The environment of a tab's app: the server's own, minus its terminal and devtools
    variables, with Textual's web driver and the tab's size in characters."""
    drop = ("COLUMNS", "LINES", "ROWS", "TMUX", "TMUX_PANE", "STY", "TERM", "TERM_PROGRAM",
            "COLORTERM")
    env = {k: v for k, v in os.environ.items()
           if k not in drop and not k.startswith(("TEXTUAL", "SSH_", "WIZWAR_WEB"))}
    env.update({"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
                "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
                "TERM_PROGRAM": "textual", "TERM": "xterm-256color",
                "COLUMNS": str(width), "ROWS": str(height), "PYTHONIOENCODING": "utf-8",
                "WIZWAR_ASCII": "0"})
    if "UTF-8" not in env.get("LANG", "").upper().replace("UTF8", "UTF-8"):
        env["LANG"] = "C.UTF-8"
    env.pop("LC_ALL", None)
    return env


def _size(value: Any, default: int) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return default
    return max(10, min(n, 500))


class TabApp(AppService):
    """One tab's app process: textual-serve's packets, but the command is an argv run
    without a shell in a session of its own (so it can be stopped whole), and of the app's
    meta packets only ``exit`` is passed on (no downloads, no links opened in the tab)."""

    def __init__(self, argv: Sequence[str], ws: web.WebSocketResponse) -> None:
        super().__init__(" ".join(argv), write_bytes=self._to_tab, write_str=self._ignore,
                         close=self._close_tab, download_manager=DownloadManager())
        self.argv = list(argv)
        self.ws = ws

    async def _to_tab(self, data: bytes) -> None:
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_bytes(data)

    async def _ignore(self, _text: str) -> None:
        pass

    async def _close_tab(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        """Start the app (argv, no shell, its own session) with :func:`app_env`."""
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=app_env(width, height),
            start_new_session=True)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_meta(self, data: bytes) -> None:
        """The app ended (``exit``): close the tab's websocket. Other meta is dropped."""
        try:
            meta = json.loads(data)
        except ValueError:
            return
        if isinstance(meta, dict) and meta.get("type") == "exit":
            await self.remote_close()

    @property
    def pid(self) -> int | None:
        """The app's process id (None before it started)."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        """The app has started and not ended."""
        return self._process is not None and self._process.returncode is None

    async def finish(self, grace: float = 5.0) -> None:
        """Ask the app to quit; after ``grace`` seconds stop its whole session (SIGTERM, then
        SIGKILL), and wait for it."""
        proc = self._process
        if proc is None:
            return
        if proc.returncode is None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self.send_meta({"type": "quit"})
            for sig in (None, signal.SIGTERM, signal.SIGKILL):
                if sig is not None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(proc.pid, sig)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(grace if sig is None else 3):
                        await proc.wait()
                if proc.returncode is not None:
                    break
        if self._task is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(3):
                    await self._task
            self._task = None


@dataclass
class Tab:
    """A tab that runs an app: its name, ``play`` or ``watch``, its app, its last key."""

    name: str
    mode: str
    ws: web.WebSocketResponse
    app: TabApp | None = None
    last_key: float = 0.0
    why: str = ""  # why the server closed it ("" when the player did)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class GameWebServer:
    """The web front door of one hosted game.

    Args:
        lan_host, lan_port: where the game's host (``HostGame``) listens; each tab's app
            joins there.
        bind, port: where the web server listens (port 0: a free one; see :attr:`port` after
            :meth:`start`).
        password: if set, the name form asks for it (compared in constant time).
        key: if set, the game's link key: only the link ``/?key=KEY`` (:meth:`link`) opens
            the name form, and the form sends it back (compared in constant time); a page
            without it, or with another, is refused in words. Never logged.
        game: the hosted game, to decide play or watch and to spot names seated from the LAN
            (None: always play).
        title: the page's title (default: the game's ruleset title and name).
        command: ``(name, watch, rejoin) -> argv`` of a tab's process (default
            :func:`player_command`; ``rejoin`` is the page's address).
        max_tabs: tabs running an app at once (:data:`MAX_TABS`).
        idle_timeout: seconds without a key before a tab is closed (:data:`IDLE_TIMEOUT`).
        public_url: the address players open when it is not this server's own (behind a
            TLS proxy: ``https://game.example.org``): the page's websocket goes there, and
            pages from there are this server's own.
        log: where to report tabs and refusals.
    """

    def __init__(self, lan_host: str, lan_port: int, *, bind: str = "127.0.0.1",
                 port: int = 0, password: str = "", key: str = "",
                 game: HostGame | None = None,
                 title: str = "", command: Callable[[str, bool, str], Sequence[str]] | None = None,
                 max_tabs: int = MAX_TABS, idle_timeout: float = IDLE_TIMEOUT,
                 public_url: str = "", log: Log = _quiet) -> None:
        self.lan_host, self.lan_port = lan_host, lan_port
        self.bind, self.port = bind, port
        self.password = password
        self.key = key
        self.game = game
        game_name = game.ruleset.name if game is not None else ""
        if not title and game is not None:
            title = f"{game.ruleset.title}: {game.name}" if game.name else game.ruleset.title
        self.title = title or "wizwar"
        self.command = command or (lambda name, watch, rejoin: player_command(
            lan_host, lan_port, name, watch, rejoin, game_name))
        self.max_tabs = max_tabs
        self.idle_timeout = idle_timeout
        self.log = log
        self.tabs: dict[str, Tab] = {}  # name -> its live tab
        self.web_names: set[str] = set()  # names that ever played through this server
        self.tickets: dict[str, tuple[str, float]] = {}  # ticket -> (name, expires)
        self.passes: dict[str, str] = {}  # a game page's pass -> its name (oldest first)
        self.public_url = public_url.rstrip("/")
        self.listening = True
        self._runner: web.AppRunner | None = None
        self._idle_task: asyncio.Task[None] | None = None
        self._ending: set[asyncio.Future[None]] = set()  # idle tabs being closed

    # ---- listening -------------------------------------------------------------------
    def make_app(self) -> web.Application:
        """The aiohttp application: ``/`` the name form, ``POST /play`` (a redirect to) the
        game page ``/game/{pass}``, ``/ws/{ticket}`` a tab's app, ``/static/...`` the page's
        own files. Nothing else."""
        app = web.Application(client_max_size=16384, middlewares=[self._headers])
        app.add_routes([web.get("/", self.handle_index), web.post("/play", self.handle_play),
                        web.get("/game/{game_pass}", self.handle_game),
                        web.get("/ws/{ticket}", self.handle_websocket),
                        web.get("/static/{path:.+}", self.handle_static)])
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        resp: web.StreamResponse = await handler(request)
        if not resp.prepared:
            for k, v in SECURITY_HEADERS.items():
                resp.headers.setdefault(k, v)
        return resp

    async def start(self) -> int:
        """Listen; returns the port. Raises ``OSError`` if it cannot be opened."""
        self._runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bind, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            self._runner = None
            raise
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.port
        self._idle_task = asyncio.ensure_future(self._close_idle_tabs())
        how = [w for w, on in (("the game's link", self.key), ("password", self.password))
               if on]
        self.log(f"web: log in: {' and '.join(how) or 'none'}")
        return self.port

    def link(self, base: str) -> str:
        """The address players open: ``base`` (``http://HOST:PORT/``) with the game's key."""
        return base + (f"?key={self.key}" if self.key else "")

    def stop_listening(self) -> None:
        """Take no new tabs (live tabs go on): the form says the game is closed."""
        self.listening = False
        self.tickets.clear()
        self.passes.clear()

    async def wait_tabs(self, timeout: float | None = None) -> None:
        """Wait until every tab has ended (or ``timeout`` seconds)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self.tabs:
                    await asyncio.sleep(0.2)

    async def close(self, why: str = "The game's server has closed") -> None:
        """Stop listening, end every tab (told ``why``, its app stopped and waited for) and
        close."""
        self.stop_listening()
        why = why[:1].upper() + why[1:]  # the tab's page shows it as a sentence
        for tab in list(self.tabs.values()):
            await self.end_tab(tab, why, ended=True)
        if self._idle_task is not None:
            self._idle_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_task
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def end_tab(self, tab: Tab, why: str, ended: bool = False) -> None:
        """Close ``tab`` from the server's side, then stop its app. The tab is told ``why``
        first (the websocket's close reason, which its page shows in words; the close code
        :data:`CLOSE_ENDED` when the game has ``ended`` here, else :data:`CLOSE_THIS_TAB`),
        so the app's own exit cannot close it without a word."""
        tab.why = why
        with contextlib.suppress(Exception):
            await tab.ws.close(code=CLOSE_ENDED if ended else CLOSE_THIS_TAB,
                               message=why.encode()[:120])
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(15):  # the tab's handler stops its app
                await tab.done.wait()
        if not tab.done.is_set() and tab.app is not None:
            await tab.app.finish()

    async def _close_idle_tabs(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(max(0.2, min(self.idle_timeout / 4, 10.0)))
            now = loop.time()
            for tab in list(self.tabs.values()):
                if now - tab.last_key > self.idle_timeout and not tab.why:
                    self.log(f"web: closed {tab.name}'s tab: no key for "
                             f"{int(self.idle_timeout)} s")
                    idle = int(self.idle_timeout)
                    tab.why = ("This tab was closed: no key for "
                               + (f"{idle // 60} minutes" if idle >= 120 else f"{idle} s")
                               + " (its seat waits for its player)")
                    task = asyncio.ensure_future(self.end_tab(tab, tab.why))
                    self._ending.add(task)
                    task.add_done_callback(self._ending.discard)

    # ---- deciding what a tab gets --------------------------------------------------------
    def check_name(self, name: str) -> str:
        """Why ``name`` cannot play here ("" when it can, for now)."""
        if not NAME_RE.fullmatch(name):
            return ("A name is a letter or digit, then up to 19 of A-Z a-z 0-9 _ . - "
                    "(no spaces).")
        if name not in self.tabs and len(self.tabs) >= self.max_tabs:
            return "Too many players and watchers are connected; try again later."
        game = self.game
        if game is not None:
            seat = next((s for s in game.seats if s.kind == "remote" and s.token
                         and s.name == name), None)
            if seat is not None and name not in self.web_names and seat.connected:
                return (f"Someone called {name} already plays {seat.seat} (from the LAN): "
                        "pick another name.")
        return ""

    def mode_for(self, name: str) -> str:
        """``play`` (a free seat, or this name's own) or ``watch`` (the game is full or
        dealt and the name has no seat)."""
        game = self.game
        if game is None:
            return "play"
        seat = next((s for s in game.seats if s.kind == "remote" and s.token
                     and s.name == name), None)
        if seat is None and (game.deal_msg or game.free_seats == 0):
            return "watch"
        return "play"

    def key_ok(self, given: str) -> bool:
        """The game's link key (constant time); True when the game has none."""
        return not self.key or hmac.compare_digest(given.encode(), self.key.encode())

    def password_ok(self, given: str) -> bool:
        """The game's password (constant time); True when none is set."""
        return not self.password or hmac.compare_digest(given.encode(), self.password.encode())

    def host_ok(self, request: web.Request) -> bool:
        """The ``Host`` the browser asked for may be this server: when it listens on
        loopback only, a loopback name or address (or the public URL's host), so a page
        whose own name was made to point at 127.0.0.1 (DNS rebinding) reaches nothing."""
        if not is_loopback(self.bind):
            return True
        name = host_name(request.host)
        return is_loopback(name) or (bool(self.public_url)
                                     and name == host_name(self.public_url.split("//")[-1]))

    def same_site(self, request: web.Request) -> bool:
        """The request comes from this server's own page: an ``Origin`` header, if sent,
        names this very host or the public URL (so another site's page cannot open the
        game in a visitor's browser), and the ``Host`` is fine (:meth:`host_ok`)."""
        if not self.host_ok(request):
            return False
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        own = {f"http://{request.host}", f"https://{request.host}"}
        if self.public_url:
            own.add(self.public_url)
        return origin in own

    # ---- pages ------------------------------------------------------------------------
    def _page(self, body: str, status: int = 200) -> web.Response:
        title = html.escape(self.title)
        text = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>"
                f"<style>{FORM_CSS}</style></head><body><main><h1>{title}</h1>{body}</main>"
                "</body></html>")
        return web.Response(text=text, status=status, content_type="text/html")

    def _form(self, problem: str = "", name: str = "", status: int = 200) -> web.Response:
        if not self.listening:
            return self._page("<p>The game is over: it takes no new players.</p>", 410)
        pw = ("<label>Password <input type='password' name='password' "
              "autocomplete='current-password' required></label>") if self.password else ""
        err = f"<p class='problem' id='problem'>{html.escape(problem)}</p>" if problem else ""
        key = (f"<input type='hidden' name='key' value='{html.escape(self.key)}'>"
               if self.key else "")
        body = (f"{err}<form method='post' action='/play' id='join'>{key}"
                f"<label>Your name <input name='name' id='name' value='{html.escape(name)}' "
                "maxlength='20' autofocus required pattern='[A-Za-z0-9][A-Za-z0-9_.\\-]*'>"
                f"</label>{pw}<button type='submit' id='play'>Play</button></form>"
                "<p class='hint'>A free seat is yours; when the game is full or dealt you "
                "watch. The same name takes its seat back.</p>")
        waiting = [s.name for s in self.game.seats if s.by_name] if self.game else []
        if waiting:  # a resumed game (net/resume.py): its seats wait for their names
            body += ("<p class='hint' id='resumed'>This game was resumed: take your seat "
                     "back under the name you had (" + html.escape(", ".join(waiting))
                     + ").</p>")
        return self._page(body, status)

    def _no_key(self, wrong: bool = False) -> web.Response:
        """403 in words: no key (``wrong`` False), or a key that is not this game's."""
        if wrong:
            return self._page("<p class='problem' id='problem'>This link's key is wrong: it "
                              "is not this game's (mistyped, cut short, or from an earlier "
                              "game of this host). Ask the host for the game's link again."
                              "</p>", 403)
        return self._page("<p class='problem' id='problem'>This game opens with its link "
                          "only: ask the host for the whole address (it ends in "
                          "<code>?key=</code> and the game's key).</p>", 403)

    async def handle_index(self, request: web.Request) -> web.Response:
        """The name form (and the password field when the game has one); with a key, only
        for the link that holds it (403 in words otherwise)."""
        if not self.host_ok(request):
            return self._page("<p>Open the game from its own address.</p>", 403)
        given = request.query.get("key", "")
        if not self.key_ok(given):
            self.log("web: refused a page with a wrong key" if given
                     else "web: refused a page without the game's link")
            return self._no_key(wrong=bool(given))
        return self._form()

    async def handle_play(self, request: web.Request) -> web.Response:
        """The name form sent: on a right password and a good name, a redirect (303) to the
        name's game page (:meth:`handle_game`), so reloading that page asks for it again
        instead of posting the form once more; else the form again with the reason (403 for
        the password)."""
        if not self.same_site(request):
            return self._page("<p>Open the game from its own address.</p>", 403)
        if not self.listening:
            return self._form()
        form = await request.post()
        name = str(form.get("name", "")).strip()
        given = str(form.get("key", ""))
        if not self.key_ok(given):
            self.log(f"web: refused {name[:20]!r}: "
                     + ("a wrong key" if given else "not the game's link"))
            return self._no_key(wrong=bool(given))
        if not self.password_ok(str(form.get("password", ""))):
            self.log(f"web: refused {name[:20]!r}: wrong password")
            return self._form("Wrong password.", name, 403)
        why = self.check_name(name)
        if why:
            self.log(f"web: refused {name[:20]!r}: {why}")
            return self._form(why, name if NAME_RE.fullmatch(name) else "", 409)
        game_pass = secrets.token_urlsafe(24)
        self.passes[game_pass] = name
        while len(self.passes) > MAX_PASSES:
            del self.passes[next(iter(self.passes))]
        return web.Response(status=303, headers={"Location": f"/game/{game_pass}"},
                            text="See the game's page.")

    async def handle_game(self, request: web.Request) -> web.Response:
        """A game page (``/game/PASS``, where the name form sent its player): the page with a
        new one-use ticket for its websocket, each time it is loaded (a reload is a second
        tab of its name, which takes the seat and hand back). A pass this server does not
        know (an earlier game's, or forgotten) is refused in words (403)."""
        if not self.host_ok(request):
            return self._page("<p>Open the game from its own address.</p>", 403)
        if not self.listening:
            return self._form()
        name = self.passes.get(request.match_info["game_pass"])
        if name is None:
            return self._page("<p class='problem' id='problem'>This game page is not this "
                              "game's, or is out of date: open the game's link again."
                              "</p>", 403)
        why = self.check_name(name)
        if why:
            return self._form(why, name, 409)
        loop = asyncio.get_running_loop()
        now = loop.time()
        for t, (_n, expires) in list(self.tickets.items()):
            if expires < now:
                del self.tickets[t]
        if len(self.tickets) >= MAX_TICKETS:
            return self._form("Too many players are joining; try again later.", name, 503)
        ticket = secrets.token_urlsafe(24)
        self.tickets[ticket] = (name, now + TICKET_TIMEOUT)
        if self.public_url:  # behind a proxy: https -> wss
            ws_url = "ws" + self.public_url.removeprefix("http") + f"/ws/{ticket}"
        else:
            ws_url = f"ws://{request.host}/ws/{ticket}"
        title = html.escape(self.title)
        again = html.escape(self.link("/"), quote=True)
        text = GAME_PAGE.format(title=title, ws_url=html.escape(ws_url, quote=True),
                                name=html.escape(name), again=again)
        return web.Response(text=text, content_type="text/html")

    async def handle_static(self, request: web.Request) -> web.StreamResponse:
        """One of :data:`STATIC_FILES`, or the page's own script (:data:`TAB_JS`); 404 for
        anything else: no listing, no other file."""
        path = request.match_info["path"]
        if path == TAB_SCRIPT:
            return web.Response(text=TAB_JS, content_type="text/javascript",
                                headers={"Cache-Control": "max-age=3600"})
        if path not in STATIC_FILES:
            raise web.HTTPNotFound()
        resp = web.FileResponse(static_dir() / path)
        resp.headers["Cache-Control"] = "max-age=3600"
        return resp

    # ---- a tab ---------------------------------------------------------------------------
    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """A tab's app: the ticket (one use, 60 s) names the player; the tab plays or
        watches; its screen goes out, its keys and sizes come in, until either side ends."""
        ticket = request.match_info["ticket"]
        entry = self.tickets.pop(ticket, None)
        if entry is None or entry[1] < asyncio.get_running_loop().time() or \
                not self.same_site(request) or not self.listening:
            raise web.HTTPForbidden(text="no such game ticket: open the game's page again")
        name = entry[0]
        why = self.check_name(name)
        if why:
            raise web.HTTPConflict(text=why)
        old = self.tabs.get(name)
        if old is not None:  # the same name from another tab: that one is closed
            self.log(f"web: {name} opened another tab: closing the first")
            await self.end_tab(old, f"{name} opened the game in another tab, so this "
                                    "tab was closed: play on in that one")
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=65536)
        await ws.prepare(request)
        mode = self.mode_for(name)
        tab = Tab(name, mode, ws, last_key=asyncio.get_running_loop().time())
        self.tabs[name] = tab
        if mode == "play":
            self.web_names.add(name)
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        rejoin = self.link(f"{self.public_url or 'http://' + request.host}/")
        self.log(f"web: {name} connected ({'watching' if mode == 'watch' else 'to play'}, "
                 f"{width}x{height})")
        try:
            tab.app = TabApp(self.command(name, mode == "watch", rejoin), ws)
            await tab.app.start(width, height)
            await self._pump(tab)
        except Exception as exc:  # noqa: BLE001 - a tab's failure must not stop the server
            self.log(f"web: {name}'s tab failed: {exc}")
        finally:
            if tab.app is not None:
                await tab.app.finish()
            with contextlib.suppress(Exception):
                await ws.close()
            if self.tabs.get(name) is tab:
                del self.tabs[name]
            tab.done.set()
            self.log(f"web: {name} left" + (f" ({tab.why})" if tab.why else ""))
        return ws

    async def _pump(self, tab: Tab) -> None:
        """The tab's messages to its app until the tab or the app ends: ``stdin`` (keys),
        ``resize``, ``ping``; anything else (``focus``, ``blur`` too) is ignored."""
        app = tab.app
        assert app is not None and app._task is not None
        reading = asyncio.ensure_future(self._read_tab(tab))
        try:
            await asyncio.wait({reading, app._task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading

    async def _read_tab(self, tab: Tab) -> None:
        app, ws = tab.app, tab.ws
        assert app is not None
        loop = asyncio.get_running_loop()
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(msg.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind = envelope[0]
            data = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                tab.last_key = loop.time()
                await app.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await app.set_terminal_size(_size(data.get("width"), 80),
                                            _size(data.get("height"), 24))
            elif kind == "ping" and isinstance(data, str):
                await ws.send_json(["pong", data[:40]])
            # "focus" and "blur" are not passed on: on a blur Textual drops the focused
            # widget until the app hears of focus again, so the first key after the tab
            # comes back (often the whole first move) would go nowhere


TAB_SCRIPT = "wizwar/tab.js"
"""Where the page's own script is served, under ``/static/``."""

TAB_JS = f"""// wizwar: say in the tab's closing box why the game's websocket closed.
// textual.js only marks the page closed; the server gives its reason as the close reason.
(() => {{
  const Orig = window.WebSocket;
  function say(e) {{
    const why = document.getElementById("why");
    const again = document.getElementById("again");
    if (!why) return;
    let text = e.reason;
    if (!text && e.code === 1006)
      text = "The connection to the game's server was lost (the host may have stopped it)";
    if (text) why.textContent = /[.!?]$/.test(text) ? text : text + ".";
    if (again && e.code === {CLOSE_ENDED}) again.style.display = "none";
    else if (again && e.code !== {CLOSE_THIS_TAB}) gone(why, again);
  }}
  // A server that vanished (kill -9) leaves a link that cannot work: ask the server for
  // this script; if nothing answers, say so in plain words instead of the dead link.
  function gone(why, again) {{
    fetch("/static/{TAB_SCRIPT}", {{method: "HEAD", cache: "no-store"}}).then(
      (r) => {{ if (!r.ok) throw new Error(String(r.status)); }}).catch(() => {{
        again.style.display = "none";
        why.textContent = "The game's server is gone (the host's program has stopped), so "
          + "this page cannot open the game again. Ask the host to start the game again "
          + "and send you its link.";
      }});
  }}
  function Socket(url, protocols) {{
    const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
    ws.addEventListener("close", say);
    return ws;
  }}
  Socket.prototype = Orig.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Socket[k] = Orig[k];
  window.WebSocket = Socket;
}})();
"""

FORM_CSS = """
body { background: #0c181f; color: #e8e8e8; font-family: monospace; }
main { max-width: 34em; margin: 4em auto; padding: 1.5em 2em; background: #12232d; }
h1 { font-size: 1.3em; color: #5fd7ff; }
label { display: block; margin: 0.8em 0; }
input { font: inherit; margin-left: 0.5em; padding: 0.2em; }
button { font: inherit; padding: 0.4em 1.6em; background: #5e0ba7; color: #fff; border: 0; }
.problem { color: #ff8787; }
.hint { color: #a0a0a0; font-size: 0.9em; }
"""

GAME_PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>{title}</title>
    <link rel="stylesheet" href="/static/css/xterm.css">
    <script src="/static/wizwar/tab.js"></script>
    <script src="/static/js/textual.js"></script>
    <style>
      @font-face {{ font-family: "Roboto Mono";
                   src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf"); }}
      html, body {{ margin: 0; height: 100%; background: #0c181f; overflow: hidden; }}
      #terminal {{ position: absolute; inset: 0; }}
      .closed-dialog {{ display: none; position: absolute; inset: 0; z-index: 10;
                       align-items: center; justify-content: center; }}
      body.-closed .closed-dialog {{ display: flex; }}
      body.-closed #terminal {{ visibility: hidden; }}
      .closed-dialog div {{ background: #12232d; color: #e8e8e8; padding: 2em 3em;
                           font-family: monospace; text-align: center; }}
      .closed-dialog a {{ color: #5fd7ff; }}
    </style>
  </head>
  <body>
    <div class="closed-dialog" id="closed"><div><p id="why">{name}: the game's tab has ended.</p>
      <p id="again"><a href="{again}">Open the game again</a> (the same name takes its seat
      back).</p></div>
    </div>
    <div id="terminal" class="textual-terminal" data-session-websocket-url="{ws_url}"
         data-font-size="16"></div>
  </body>
</html>
"""


# --------------------------------------------------------------------------- the command
def _err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def page_addresses(bind: str, port: int) -> list[str]:
    """The addresses players open (one per address of this machine when listening on every
    address)."""
    if bind in ("0.0.0.0", "", "::"):
        from net.discovery import local_addresses

        hosts = local_addresses() or ["127.0.0.1"]
    else:
        hosts = [bind]
    return [f"http://{h if ':' not in h else '[' + h + ']'}:{port}/" for h in hosts]


async def host_web(args: argparse.Namespace) -> int:
    """``wizwar host --web [ADDR:]PORT``: host a game (every seat joins, from a browser tab or
    the LAN; ``--bot``: P1 is the host's bot) and serve it as a web page until it is over and
    the last tab has closed. Returns the exit status."""
    from net.hosting import say_game_port, serve, start_game, stop_on_signals

    try:
        web_bind, web_port = parse_listen(args.web)
    except ValueError as exc:
        _err(f"--web: {exc}")
        return 2
    password = getattr(args, "web_password", "") or os.environ.get(PASSWORD_ENV, "")
    key = "" if getattr(args, "web_no_key", False) else secrets.token_urlsafe(16)
    public_url = str(getattr(args, "web_url", "") or "").rstrip("/")
    if public_url and not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", public_url):
        _err(f"--web-url: {public_url!r} is not http(s)://HOST[:PORT] (no path)")
        return 2
    stop = stop_on_signals()  # before the link is printed: a signal then ends it cleanly
    started = await start_game(args)
    if isinstance(started, int):
        return started
    game, save, lan_port, lan_host = started
    server = GameWebServer(lan_host, lan_port, bind=web_bind, port=web_port,
                           password=password, key=key, game=game, public_url=public_url,
                           log=_err)
    try:
        port = await server.start()
    except OSError as exc:
        _err(f"web: cannot listen on {web_bind}:{web_port}: {exc.strerror or exc}")
        await game.close()
        save.close()
        return 1
    print(f"web listening on {web_bind}:{port}", flush=True)
    say_game_port(args, lan_host, lan_port, "the web tabs")
    for url in [public_url + "/"] if public_url else page_addresses(web_bind, port):
        print(f"players open:  {server.link(url)}", flush=True)  # stdout: never a log
    if not key and not password and not (web_bind.startswith("127.") or web_bind == "::1"):
        _err("web: no link key and no --web-password: anyone who can reach this port "
             "may play")
    return await serve(args, game, save, lan_port, server,
                       lambda: server.wait_tabs(END_WAIT), "close their tabs", stop)
