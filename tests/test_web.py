"""Play in a browser (net/web.py, wizwar_tui/web.py).

Everything listens on 127.0.0.1 on free ports. Two layers:
- the web server driven by aiohttp's own client in this process, with a tiny Textual app as
  a stand-in for the game's (routes, refusals, the tab cap, the idle close), and the
  ``wizwar host --web`` command itself;
- a real headless Chromium (the system's, through chromedriver and Selenium) with tabs that
  play the real app: the page loads, keys reach the game, two tabs play a game to its end,
  each sees only its own hand, and a refused password gets no app. These skip only when
  ``chromium`` or ``chromedriver`` is missing (.ci/run installs both).

What a tab shows is read from the bytes its page received (a wrapper of the page's
``WebSocket``, added before the page's own script runs) through a small terminal model
(:class:`Term`): xterm.js draws on a canvas, which has no text to read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core import log
from net import web as wweb
from net.lan import HostGame, PeerGame

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
NEED_BROWSER = pytest.mark.skipif(
    (CHROMIUM is None or CHROMEDRIVER is None) and not os.environ.get("WIZWAR_REQUIRE_BROWSER"),
    reason="needs chromium and chromedriver (Debian: chromium chromium-driver); .ci/run "
           "installs both (and sets WIZWAR_REQUIRE_BROWSER=1: there they must run)")
LONG = 120.0  # bounds of the waits on a loaded machine: a hang fails, nothing is timed


async def until(cond: Callable[[], Any], what: str, timeout: float = LONG) -> None:
    """Wait until ``cond()`` holds (the deadline only turns a hang into a failure)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


# ------------------------------------------------------------------- a tiny terminal model
CSI = re.compile(r"\x1b\[([0-9;?<>=]*)([ -/]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                 r"|\x1b[P^_][^\x1b]*\x1b\\|\x1b[^\[\]P^_]")


class Term:
    """Just enough of a terminal for Textual's output: cursor position (``CSI H``), erase
    (``K``, ``2J``), text; colours and modes are skipped. ``text()`` is the screen."""

    def __init__(self) -> None:
        self.rows: dict[int, list[str]] = {}
        self.row = self.col = 0

    def _put(self, ch: str) -> None:
        line = self.rows.setdefault(self.row, [])
        if len(line) <= self.col:
            line.extend(" " * (self.col + 1 - len(line)))
        line[self.col] = ch
        self.col += 1

    def feed(self, data: str) -> None:
        """Apply the bytes the page received (as text)."""
        pos = 0
        for m in CSI.finditer(data):
            self._chars(data[pos:m.start()])
            pos = m.end()
            final, params = m.group(3), m.group(1) or ""
            if final in ("H", "f") and "?" not in params:
                parts = [int(p) if p.isdigit() else 1 for p in params.split(";")] + [1, 1]
                self.row, self.col = parts[0] - 1, parts[1] - 1
            elif final == "K":
                line = self.rows.get(self.row, [])
                del line[self.col:]
            elif final == "J" and params == "2":
                self.rows.clear()
        self._chars(data[pos:])

    def _chars(self, text: str) -> None:
        for ch in text:
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.row += 1
            elif ch >= " ":
                self._put(ch)

    def text(self) -> str:
        """The screen, one line per row."""
        if not self.rows:
            return ""
        return "\n".join("".join(self.rows.get(r, [])).rstrip()
                         for r in range(max(self.rows) + 1))


# ------------------------------------------------------------------------- the browser
CAPTURE = """(() => {
  const Orig = window.WebSocket;
  window.__wz = {text: "", all: "", closed: false, dec: new TextDecoder()};
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
    ws.addEventListener("message", (e) => {
      if (typeof e.data !== "string") {
        const t = window.__wz.dec.decode(new Uint8Array(e.data), {stream: true});
        window.__wz.text += t;
        window.__wz.all += t;
      }
    });
    ws.addEventListener("close", () => { window.__wz.closed = true; });
    return ws;
  };
  window.WebSocket.prototype = Orig.prototype;
  window.WebSocket.OPEN = Orig.OPEN;
})();"""


class Tab:
    """One browser tab: its window handle and what it has shown."""

    def __init__(self, browser: Browser, handle: str) -> None:
        self.browser, self.handle = browser, handle
        self.term = Term()
        self.all = ""  # every character the page received, for "never shown" checks

    def _here(self) -> Any:
        d = self.browser.driver
        if d.current_window_handle != self.handle:
            d.switch_to.window(self.handle)
        return d

    def screen(self) -> str:
        """The tab's screen now (reads what arrived since the last call)."""
        d = self._here()
        got = d.execute_script("if (!window.__wz) return ''; const t = window.__wz.text; "
                               "window.__wz.text = ''; return t;") or ""
        self.all += got
        self.term.feed(got)
        return self.term.text()

    def closed(self) -> bool:
        """The page's websocket has closed (the app ended)."""
        return bool(self._here().execute_script("return !!(window.__wz && window.__wz.closed)"))

    def title(self) -> str:
        """The page's title."""
        return str(self._here().title)

    def body_text(self) -> str:
        """The page's own HTML text (the name form, refusals); "" while a page is loading
        (no body yet, or the one just read went away with its page)."""
        from selenium.common.exceptions import (
            NoSuchElementException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.common.by import By

        try:
            return str(self._here().find_element(By.TAG_NAME, "body").text)
        except (NoSuchElementException, StaleElementReferenceException):
            return ""

    def keys(self, *keys: str) -> None:
        """Type into the terminal (xterm.js's input element): each key as Selenium names
        it (``Keys.ENTER``...) or plain text."""
        from selenium.webdriver.common.by import By

        box = self._here().find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        for k in keys:
            box.send_keys(k)

    def join(self, name: str, password: str | None = None) -> None:
        """Fill the name form (and the password) and press Play."""
        from selenium.common.exceptions import (
            NoSuchElementException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        d = self._here()
        # the form of a page that is still loading (a refusal just posted) is waited for
        box = WebDriverWait(d, LONG, ignored_exceptions=(
            NoSuchElementException, StaleElementReferenceException)).until(
            lambda drv: drv.find_element(By.ID, "name"))
        box.clear()
        box.send_keys(name)
        if password is not None:
            d.find_element(By.NAME, "password").send_keys(password)
        d.find_element(By.ID, "play").click()


class Browser:
    """A headless Chromium (the system's) through chromedriver; quit kills both."""

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        opts = webdriver.ChromeOptions()
        opts.binary_location = str(CHROMIUM)
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                    "--disable-gpu", "--window-size=1100,760", "--no-first-run",
                    "--disable-background-networking", "--disable-extensions",
                    "--disable-background-timer-throttling",
                    "--disable-renderer-backgrounding",
                    "--disable-backgrounding-occluded-windows"):
            opts.add_argument(arg)
        self.service = Service(str(CHROMEDRIVER))
        self.driver = webdriver.Chrome(service=self.service, options=opts)
        self.driver.set_page_load_timeout(LONG)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                    {"source": CAPTURE})
        self.first = True

    def open(self, url: str) -> Tab:
        """A new tab (the first one is the window's own) at ``url``."""
        d = self.driver
        if not self.first:
            d.switch_to.new_window("tab")
            d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE})
        self.first = False
        d.get(url)
        return Tab(self, d.current_window_handle)

    def quit(self) -> None:
        """Close the browser and its driver (the driver kills the browser's processes)."""
        try:
            self.driver.quit()
        finally:
            proc = getattr(self.service, "process", None)
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.quit()


async def off(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a (blocking) Selenium call off the event loop, so the host and the web server in
    this process go on meanwhile."""
    return await asyncio.to_thread(fn, *args)


async def until_tab(tab: Tab, cond: Callable[[str], bool], what: str,
                    timeout: float = LONG) -> str:
    """Wait until ``cond(screen)`` holds for ``tab``; returns that screen."""
    end = time.monotonic() + timeout
    while True:
        scr = await off(tab.screen)
        if cond(scr):
            return scr
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}; the screen:\n{scr}")
        await asyncio.sleep(0.2)


async def until_page(tab: Tab, cond: Callable[[str], bool], what: str,
                     timeout: float = LONG) -> str:
    """Wait until ``cond(the page's own text)`` holds for ``tab`` (a page still loading
    reads as ""); returns that text."""
    end = time.monotonic() + timeout
    while True:
        text = await off(tab.body_text)
        if cond(text):
            return text
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}; the page:\n{text}")
        await asyncio.sleep(0.2)


class Hosted:
    """A hosted game and its web server in this process (closed by :meth:`close`)."""

    def __init__(self, game: HostGame, server: wweb.GameWebServer) -> None:
        self.game, self.server = game, server
        self.run: asyncio.Future[str] = asyncio.ensure_future(game.run())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    async def close(self) -> None:
        if not self.run.done():
            self.run.cancel()
        await self.game.close()
        await self.server.close()


async def hosted(game: HostGame, **kw: Any) -> Hosted:
    lan_port = await game.start()
    kw.setdefault("log", print)
    server = wweb.GameWebServer("127.0.0.1", lan_port, game=game, **kw)
    await server.start()
    return Hosted(game, server)


# ------------------------------------------------------------- the server, no browser
STANDIN = """
import sys
from textual.app import App
from textual.widgets import Input, Static

class Standin(App):
    def compose(self):
        yield Static(f"hello {sys.argv[1]} {sys.argv[2]}", id="hello")
        yield Input(id="typed")

    def on_input_submitted(self, event):
        self.query_one("#hello", Static).update(f"got {event.value}")

Standin().run()
"""


def standin(name: str, watch: bool, rejoin: str) -> list[str]:
    """A stand-in for the game's app: a Textual app that says who it is, echoes a line."""
    return [sys.executable, "-c", STANDIN, name, "watch" if watch else "play"]


def test_parse_listen() -> None:
    assert wweb.parse_listen("8080") == ("127.0.0.1", 8080)  # loopback unless told
    assert wweb.parse_listen("0.0.0.0:80") == ("0.0.0.0", 80)
    assert wweb.parse_listen("[::1]:0") == ("::1", 0)
    for bad in ("x", "1.2.3.4:", "70000", ":-1"):
        with pytest.raises(ValueError):
            wweb.parse_listen(bad)


def test_the_tab_app_gets_the_web_driver_and_none_of_the_servers_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    monkeypatch.setenv("TEXTUAL", "devtools")
    monkeypatch.setenv("WIZWAR_WEB_PASSWORD", "sesame")
    env = wweb.app_env(100, 30)
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (env["COLUMNS"], env["ROWS"]) == ("100", "30")
    assert "TMUX" not in env and "TEXTUAL" not in env
    assert "WIZWAR_WEB_PASSWORD" not in env  # the app is not told the password
    assert wweb.player_command("127.0.0.1", 9, "ann", True, "http://h:1/", "wizwar")[1:] == [
        "-m", "wizwar_tui.web", "127.0.0.1:9", "--name", "ann", "--game", "wizwar",
        "--rejoin", "http://h:1/", "--watch"]


async def _ticket(session: aiohttp.ClientSession, url: str, name: str,
                  password: str = "") -> tuple[int, str]:
    """POST the name form: (status, the websocket path of the game page, or the page)."""
    async with session.post(url + "play", data={"name": name, "password": password}) as r:
        text = await r.text()
    m = re.search(r'data-session-websocket-url="ws://[^/]+(/ws/[^"]+)"', text)
    return r.status, m.group(1) if m else text


async def _read_ws(ws: aiohttp.ClientWebSocketResponse, want: str) -> str:
    """Read the app's screen bytes until ``want`` shows (the socket may then stay open)."""
    term = Term()
    seen = ""
    async with asyncio.timeout(LONG):
        while want not in term.text():
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen += msg.data.decode("utf-8", "replace")
                term.feed(msg.data.decode("utf-8", "replace"))
            elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                              aiohttp.WSMsgType.CLOSING):
                raise AssertionError(f"closed before {want!r}:\n{term.text()}")
    return term.text()


async def test_only_the_game_is_reachable() -> None:
    """The name form, the page's own static files and a ticket's websocket; no folder
    listing, no other file, no downloads, no websocket without a ticket, no form or
    websocket from another site's page."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin, title="Test game")
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(url) as r:
                page = await r.text()
                assert r.status == 200 and "<title>Test game</title>" in page
                assert r.headers["X-Frame-Options"] == "DENY"
                assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
            async with s.get(url + "static/js/textual.js") as r:
                assert r.status == 200 and len(await r.read()) > 100_000
            for path in ("static/", "static/js/", "static/../server.py",
                         "static/%2e%2e/server.py", "static/js/../../app_service.py",
                         "download/x", "ws", "ws/not-a-ticket", "play", "favicon.ico"):
                async with s.get(url + path) as r:
                    assert r.status in (403, 404, 405), (path, r.status)
            async with s.post(url + "play", data={"name": "ann"},
                              headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403
            # a name made to point at 127.0.0.1 (DNS rebinding): its page reaches nothing
            rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
            async with s.get(url, headers=rebound) as r:
                assert r.status == 403
            async with s.post(url + "play", data={"name": "ann"}, headers=rebound) as r:
                assert r.status == 403
            async with s.get(url, headers={"Host": f"localhost:{port}"}) as r:
                assert r.status == 200
            status, ws_path = await _ticket(s, url, "ann")
            assert status == 200 and ws_path.startswith("/ws/"), ws_path
            with pytest.raises(aiohttp.WSServerHandshakeError):  # another site's page
                await s.ws_connect(url + ws_path[1:], headers={"Origin": "http://evil.x"})
            assert not server.tabs
            status, ws_path = await _ticket(s, url, "ann")
            async with s.ws_connect(url + ws_path[1:]) as ws:
                await _read_ws(ws, "hello ann play")
                await ws.send_str(json.dumps(["stdin", "hi there\r"]))  # keys reach the app
                await _read_ws(ws, "got hi there")
            with pytest.raises(aiohttp.WSServerHandshakeError):  # a ticket is good once
                await s.ws_connect(url + ws_path[1:])
            for bad in ("", "a b", "x" * 21, "-ann", "ann\u202e"):
                status, page = await _ticket(s, url, bad)
                assert status == 409 and "A name is a letter or digit" in page, bad
    finally:
        await server.close()
    assert not server.tabs


async def test_the_games_link_key_opens_it_and_nothing_else_does() -> None:
    """With a key, only the link that holds it opens the name form, and only a form that
    sends it back gets a ticket; a missing or wrong key is refused in words (403) and starts
    no app; the key is never in the server's log, but is in the tab's way back."""
    logged: list[str] = []
    seen: list[tuple[str, str]] = []

    def command(name: str, watch: bool, rejoin: str) -> list[str]:
        seen.append((name, rejoin))
        return standin(name, watch, rejoin)

    server = wweb.GameWebServer("127.0.0.1", 9, command=command, key="k3y-of-the-game",
                                log=logged.append)
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    assert server.link(url) == url + "?key=k3y-of-the-game"
    try:
        async with aiohttp.ClientSession() as s:
            for bad in ("", "?key="):  # no key: the link is needed
                async with s.get(url + bad) as r:
                    page = await r.text()
                    assert r.status == 403 and "opens with its link only" in page, bad
                    assert "key is wrong" not in page and "name='name'" not in page
            for bad in ("?key=k3y-of-the-gamf", "?key=k3y"):  # another key: it is wrong
                async with s.get(url + bad) as r:
                    page = await r.text()
                    assert r.status == 403 and "This link's key is wrong" in page, bad
                    assert "opens with its link only" not in page and "name='name'" not in page
            async with s.get(server.link(url)) as r:
                page = await r.text()
                assert r.status == 200 and "name='key' value='k3y-of-the-game'" in page
            for bad, says in (({"name": "ann"}, "opens with its link only"),
                              ({"name": "ann", "key": "nope"}, "This link's key is wrong")):
                async with s.post(url + "play", data=bad) as r:
                    assert r.status == 403 and says in await r.text(), bad
            assert not server.tickets and not seen
            async with s.post(url + "play", data={"name": "ann", "key": "k3y-of-the-game"}) as r:
                page = await r.text()
                assert r.status == 200 and 'href="/?key=k3y-of-the-game"' in page
            ws_path = re.search(r'websocket-url="ws://[^/]+(/ws/[^"]+)"', page).group(1)
            async with s.ws_connect(url + ws_path[1:]) as ws:
                await _read_ws(ws, "hello ann play")
            assert seen == [("ann", f"http://127.0.0.1:{port}/?key=k3y-of-the-game")]
    finally:
        await server.close()
    assert logged and not any("k3y" in line for line in logged), logged


async def test_behind_a_tls_proxy_the_page_uses_the_public_url() -> None:
    """With ``public_url`` (``--web-url``), a page from there is the server's own (its
    ``Origin`` and ``Host``) and opens its websocket there with ``wss:``."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin,
                                public_url="https://game.example.org/")
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        async with aiohttp.ClientSession() as s:
            proxied = {"Host": "game.example.org", "Origin": "https://game.example.org"}
            async with s.post(url + "play", data={"name": "ann"}, headers=proxied) as r:
                page = await r.text()
                assert r.status == 200, page
            assert 'data-session-websocket-url="wss://game.example.org/ws/' in page
            async with s.post(url + "play", data={"name": "ann"},
                              headers={"Origin": "https://elsewhere.example.org"}) as r:
                assert r.status == 403
    finally:
        await server.close()


async def test_tabs_are_limited_and_an_idle_tab_is_closed() -> None:
    """One tab more than the cap is told to try later; a tab with no key for the idle time
    is closed, its app stopped; the same name from a second tab closes the first."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin, max_tabs=1,
                                idle_timeout=3600.0)
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        async with aiohttp.ClientSession() as s:
            _, ws_path = await _ticket(s, url, "ann")
            async with s.ws_connect(url + ws_path[1:]) as ws:
                await _read_ws(ws, "hello ann")
                pid = server.tabs["ann"].app.pid  # type: ignore[union-attr]
                status, page = await _ticket(s, url, "bob")
                assert status == 409 and "Too many players" in page
                status, again = await _ticket(s, url, "ann")  # the same name: allowed
                assert status == 200
                async with s.ws_connect(url + again[1:]) as ws2:
                    await _read_ws(ws2, "hello ann")
                    msg = await ws.receive(timeout=LONG)  # the first tab was closed
                    while msg.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                        msg = await ws.receive(timeout=LONG)  # screen bytes still on the way
                    # and told so, in words (the page shows the close reason)
                    assert msg.type == aiohttp.WSMsgType.CLOSE, msg
                    assert msg.data == wweb.CLOSE_THIS_TAB, msg
                    assert "ann opened the game in another tab" in msg.extra, msg
                    assert pid is not None and not _alive(pid)
                    pid2 = server.tabs["ann"].app.pid  # type: ignore[union-attr]
                    # no key for 2 s: closed (pings are no keys)
                    server.idle_timeout = 2.0
                    await ws2.send_str(json.dumps(["ping", "1"]))
                    msg = await ws2.receive(timeout=LONG)
                    while msg.type == aiohttp.WSMsgType.BINARY or (
                            msg.type == aiohttp.WSMsgType.TEXT):
                        msg = await ws2.receive(timeout=LONG)
                    assert msg.type == aiohttp.WSMsgType.CLOSE, msg
                    assert msg.data == wweb.CLOSE_THIS_TAB and "no key for 2 s" in msg.extra
                    await until(lambda: not server.tabs, "the idle tab gone")
                    assert pid2 is not None and not _alive(pid2)
    finally:
        await server.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie not yet reaped counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_wizwar_host_web_command(tmp_path: Path) -> None:
    """``wizwar host --web 0 --bot``: listens on 127.0.0.1 (the default), says where, the
    page's title names the game; a bad --web is refused before anything listens; SIGTERM
    closes the game (exit 130)."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    bad = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "host", "--web", "nope"],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=LONG)
    assert bad.returncode == 2 and "--web: 'nope' is not [ADDR:]PORT" in bad.stderr
    both = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "host", "--web", "0",
                           "--ssh", "0"], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=LONG)
    assert both.returncode == 2 and "--ssh and --web: one at a time" in both.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "wizwar_tui.cli", "host", "--web", "0", "--bot", "--seats",
         "2", "--name", "Friday game", "--no-advertise"], cwd=REPO, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.match(r"web listening on 127\.0\.0\.1:(\d+)", line)
        assert m, line
        port = int(m.group(1))
        assert "(for the web tabs only)" in proc.stdout.readline()
        link = proc.stdout.readline().strip()
        m = re.fullmatch(rf"players open:  (http://127\.0\.0\.1:{port}/\?key=([\w-]{{20,}}))",
                         link)
        assert m, link  # the link holds the game's key

        async def page(url: str) -> tuple[int, str]:
            async with aiohttp.ClientSession() as s, s.get(url) as r:
                return r.status, await r.text()

        status, text = asyncio.run(page(m.group(1)))
        assert status == 200 and "<title>Wiz-War: Friday game</title>" in text
        status, text = asyncio.run(page(f"http://127.0.0.1:{port}/"))
        assert status == 403 and "opens with its link only" in text
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(LONG) == 130
        err = proc.stderr.read() if proc.stderr else ""
        assert "web: log in: the game's link" in err and m.group(2) not in err, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


SIGNAL_AT_LINK = """
import os, signal, sys
from wizwar_tui.cli import main

class AtLink:
    \"\"\"stdout that sends this process the signal the moment the link is written\"\"\"
    def __init__(self, out):
        self.out = out
    def write(self, text):
        n = self.out.write(text)
        if "players open:" in text:
            self.out.flush()
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
        return n
    def flush(self):
        self.out.flush()

sys.stdout = AtLink(sys.stdout)
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_the_moment_the_link_is_printed_closes_the_game(tmp_path: Path,
                                                                  sig: str) -> None:
    """A signal that arrives as the link is printed (the first moment anyone could open
    the game) closes it like any later one: exit 130, "stopped" said, never the signal's
    own death (-15: its handler came only after the link)."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    done = subprocess.run([sys.executable, "-c", SIGNAL_AT_LINK, sig, "host", "--web", "0",
                           "--seats", "2", "--no-advertise"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=LONG)
    assert "players open:" in done.stdout
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert "stopped: closing the game" in done.stderr and "Traceback" not in done.stderr


# --------------------------------------------------------------------- a real browser
def pick_tab(lan_port: int) -> Callable[[str, bool, str], Sequence[str]]:
    """A tab's app that knows the test ruleset "Pick a number" (tests/web_tab.py)."""
    def command(name: str, watch: bool, rejoin: str) -> list[str]:
        argv = [sys.executable, str(REPO / "tests" / "web_tab.py"), f"127.0.0.1:{lan_port}",
                "--name", name, "--game", "pick-a-number", "--rejoin", rejoin]
        return argv + (["--watch"] if watch else [])
    return command


@NEED_BROWSER
async def test_two_tabs_play_a_game_to_its_end(browser: Browser,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tabs of one browser take P1 and P2 of "Pick a number" (two rounds; P3 is the
    host's bot) and play it to its end with their keys: a tab never sees the other's sealed
    pick before its own is in, and both end on the game-over line."""
    import pick_ruleset
    from selenium.webdriver.common.keys import Keys

    rs = pick_ruleset.register(monkeypatch)
    game = HostGame(ruleset=rs, options={"rounds": 2}, bots=1, local_seat=False,
                    name="web test", log=print)
    lan_port = await game.start()
    server = wweb.GameWebServer("127.0.0.1", lan_port, game=game,
                                command=pick_tab(lan_port), log=print)
    await server.start()
    h = Hosted(game, server)
    try:
        ann = await off(browser.open, h.url)
        assert await off(ann.title) == "Pick a number: web test"
        await off(ann.join, "ann")
        await until_tab(ann, lambda s: "You are P1" in s, "ann seated")
        bob = await off(browser.open, h.url)
        await off(bob.join, "bob")
        for tab, seat in ((ann, "P1"), (bob, "P2")):
            await until_tab(tab, lambda s, seat=seat: f"you are {seat}" in s
                            and f"{seat} pick 1" in s, f"{seat}'s game screen")
        for rnd in (1, 2):
            await off(ann.keys, Keys.ARROW_DOWN * (rnd + 1), Keys.ENTER)  # P1 picks rnd+2
            await off(bob.keys, Keys.ENTER)  # P2 picks 1
            try:
                await until(lambda rnd=rnd: game.state["round"] > rnd, f"round {rnd} over")
            except AssertionError:
                raise AssertionError(f"round {rnd} not over: {game.state}\nann:\n"
                                     f"{await off(ann.screen)}\nbob:\n{await off(bob.screen)}"
                                     ) from None
            for tab in (ann, bob):
                await until_tab(tab, lambda s, rnd=rnd: f"'round': {rnd + 1}" in s,
                                f"round {rnd + 1} on both tabs")
        final = await asyncio.wait_for(h.run, LONG)
        assert final and rs.result(game.state).over
        picks = game.state["order"]
        assert {"P1 pick 3", "P2 pick 1", "P1 pick 4"} <= set(picks), picks
        assert "P1 pick" not in bob.all and "P2 pick" not in ann.all  # sealed, and the
        # view never shows another seat's pick
        for tab in (ann, bob):
            await until_tab(tab, lambda s: "most points" in s, "the game over on both tabs")
        assert not game.desync
    finally:
        await h.close()
    assert not server.tabs  # every tab's app stopped


async def test_the_name_form_sends_the_player_to_a_game_page_of_its_own() -> None:
    """The name form answers with a redirect (303) to the name's game page, so a reload
    loads that page again (a new ticket each time) and never posts the form once more; a
    pass the server does not know is refused in words; a closed server's page says so."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin, key="k3y-of-the-game")
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        async with aiohttp.ClientSession() as s:
            form = {"name": "ann", "key": "k3y-of-the-game"}
            async with s.post(url + "play", data=form, allow_redirects=False) as r:
                assert r.status == 303, r.status
                where = r.headers["Location"]
            assert re.fullmatch(r"/game/[\w-]{30,}", where), where
            tickets = []
            for _ in range(2):  # the first load, and a reload
                async with s.get(url + where[1:]) as r:
                    page = await r.text()
                    assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
                m = re.search(r'data-session-websocket-url="ws://[^/]+/ws/([^"]+)"', page)
                assert m, page
                tickets.append(m.group(1))
            assert tickets[0] != tickets[1] and set(tickets) <= set(server.tickets)
            assert all(server.tickets[t][0] == "ann" for t in tickets)
            async with s.get(url + "game/not-a-pass") as r:
                page = await r.text()
                assert r.status == 403 and "open the game's link again" in page
                assert "data-session-websocket-url" not in page
            async with s.get(url + where[1:], headers={"Host": f"evil.example:{port}"}) as r:
                assert r.status == 403  # DNS rebinding reaches no game page either
            server.stop_listening()
            async with s.get(url + where[1:]) as r:
                page = await r.text()
                assert r.status == 410 and "The game is over" in page
    finally:
        await server.close()


@NEED_BROWSER
async def test_reloading_the_game_page_takes_the_seat_back(browser: Browser,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The game page's address is the name's own page, not the form's answer: reloading
    it (no "resend the form?") opens the game again under the name, in the same seat."""
    import pick_ruleset

    rs = pick_ruleset.register(monkeypatch)
    game = HostGame(ruleset=rs, options={"rounds": 2}, bots=1, local_seat=False,
                    name="web test", log=print)
    lan_port = await game.start()
    server = wweb.GameWebServer("127.0.0.1", lan_port, game=game,
                                command=pick_tab(lan_port), log=print)
    await server.start()
    h = Hosted(game, server)
    try:
        ann = await off(browser.open, h.url)
        await off(ann.join, "ann")
        await until_tab(ann, lambda s: "You are P1" in s, "ann seated")
        first = server.tabs["ann"]
        path = (await off(lambda: browser.driver.current_url)).split("/", 3)[3]
        assert path.startswith("game/"), path
        await off(browser.driver.refresh)
        again = Tab(browser, ann.handle)  # the reloaded page's own screen
        await until_tab(again, lambda s: "You are P1" in s, "ann seated again")
        await until(lambda: "ann" in server.tabs and server.tabs["ann"] is not first,
                    "the reloaded page's own tab")
        assert [s.name for s in game.seats if s.seat == "P1"] == ["ann"]
        assert "ann" not in [s.name for s in game.seats if s.seat != "P1"]
    finally:
        await h.close()
    assert not server.tabs


@NEED_BROWSER
async def test_wizwar_in_two_tabs_each_sees_only_its_own_hand(browser: Browser) -> None:
    """A Wiz-War game in two tabs: each shows the board and its own hand, never a card only
    the other holds; the player to move types an action and the host commits it; a third
    name watches (no hand); a player who opens the game again gets her seat and hand back."""
    from selenium.webdriver.common.keys import Keys

    from core.wizwar.rules import legal_actions, to_move
    from wizwar_tui.wizwar.render import card_title

    h = await hosted(HostGame(players=2, local_seat=False, name="web test"))
    try:
        ann = await off(browser.open, h.url)
        assert await off(ann.title) == "Wiz-War: web test"
        await off(ann.join, "ann")
        await until_tab(ann, lambda s: "You are P1" in s, "ann seated")
        bob = await off(browser.open, h.url)
        await off(bob.join, "bob")
        await until(lambda: h.game.state is not None, "the deal")
        st = h.game.state
        tabs = {"P1": ann, "P2": bob}
        names = {seat: {card_title(slug) for slug in st.hand_slugs(seat)} for seat in tabs}
        for seat, tab in tabs.items():
            await until_tab(tab, lambda s: "┌" in s and "│" in s, f"{seat}'s board")
        for seat, tab in tabs.items():
            other = "P2" if seat == "P1" else "P1"
            own = names[seat]
            theirs = names[other] - names[seat]
            assert own and theirs, names  # (a deal of the same cards would prove nothing)
            await until_tab(tab, lambda s, own=own: all(n in s for n in own),
                            f"{seat}'s own hand {sorted(own)}")
            for n in theirs:
                # a name inside one of our own cards' names ("Reflection" in "Full
                # Reflection") is searched for on its own only
                other_names = [o for o in own if n in o and o != n]
                text = tab.term.text()
                for o in other_names:
                    text = text.replace(o, "")
                assert not re.search(rf"\b{re.escape(n)}\b", text), (seat, n, tab.term.text())
        mover = to_move(st)[0]
        acts = legal_actions(st, mover)
        moves = [a for a in acts if a.verb == "move" and len(a.targets) == 1]
        action = (moves or acts)[0]
        before = len(h.game.actions)
        tab = tabs[mover]
        idle = await off(tab.screen)
        await off(tab.keys, ":")
        await until_tab(tab, lambda s: s != idle, "the command line open")
        await off(tab.keys, str(action), Keys.ENTER)
        await until(lambda: len(h.game.actions) > before, "the host commits the typed action")
        assert h.game.actions[before] == str(action)

        # a third name watches: the board and the action, no hand
        eve = await off(browser.open, h.url)
        await off(eve.join, "eve")
        scr = await until_tab(eve, lambda s: "watching" in s and "┌" in s
                              and str(action) in s, "eve watching the action")
        for n in names["P1"] | names["P2"]:
            if len(n) >= 6:  # (a short name such as "Add" may be any word)
                assert not re.search(rf"\b{re.escape(n)}\b", eve.all), (n, scr)
        assert [s.name for s in h.game.seats] == ["ann", "bob"]

        # ann opens the game again in another tab: her first tab is closed, the new one
        # has her seat and her hand back
        ann2 = await off(browser.open, h.url)
        await off(ann2.join, "ann")
        await until(lambda: ann.closed(), "ann's first tab closed")
        await until_tab(ann2, lambda s: "┌" in s and all(n in s for n in names["P1"]),
                        "ann's seat and hand in her new tab")
        assert {s.name: s.seat for s in h.game.seats} == {"ann": "P1", "bob": "P2"}
        assert not h.game.desync
    finally:
        await h.close()


@NEED_BROWSER
async def test_a_refused_password_gets_no_app(browser: Browser) -> None:
    """With a password, a wrong one is refused on the page and starts no app (no tab, no
    process); the right one plays."""
    started: list[str] = []
    game = HostGame(players=2, local_seat=False, name="web test")
    lan_port = await game.start()

    def command(name: str, watch: bool, rejoin: str) -> list[str]:
        started.append(name)
        return wweb.player_command("127.0.0.1", lan_port, name, watch, rejoin, "wizwar")

    server = wweb.GameWebServer("127.0.0.1", lan_port, game=game, password="sesame",
                                command=command, log=print)
    await server.start()
    h = Hosted(game, server)
    try:
        tab = await off(browser.open, h.url)
        await off(tab.join, "ann", "open up")
        await until_page(tab, lambda t: "Wrong password." in t, "the refusal on the page")
        assert not started and not server.tabs and not server.tickets
        assert not await off(tab.screen)  # no websocket, no screen
        await off(tab.join, "ann", "sesame")
        await until_tab(tab, lambda s: "You are P1" in s, "ann seated with the password")
        assert started == ["ann"]
    finally:
        await h.close()


@NEED_BROWSER
async def test_a_resumed_wizwar_game_is_played_to_its_end_in_two_tabs(
        browser: Browser, tmp_path: Path) -> None:
    """Two tabs play a Wiz-War game to its end: a recorded game (fixed seeds: 134
    actions) is hosted from its host's log three actions before its end (``--resume``:
    net/resume.py); ann and bob take P1 and P2 back by their names, each tab shows the
    board and only its own hand, and the three last actions are typed in the tab of the
    player who makes them (``P2 end``, ``P1 play powerthrust @P2``, ``P2 pass``: an attack
    and its answer) until the game is over on both."""
    from selenium.webdriver.common.keys import Keys
    from test_resume import cut, played_log

    from net.resume import load, restore
    from wizwar_tui.wizwar.render import card_title

    full = await played_log(1)
    left = 3
    rs = full.ruleset
    last = [rs.action_from_wire(r["action"]) for r in full.records[-left:]]
    assert not any(log.dice_of(r) for r in full.records[-left:])  # the same in any deal
    saved = load(str(cut(full, left, tmp_path / "host.wwlog")))
    game = HostGame(ruleset=saved.ruleset, options=saved.options, local_seat=False,
                    name="resumed", log=print)
    await restore(game, saved)
    h = await hosted(game)
    try:
        tabs: dict[str, Tab] = {}
        for name in ("bob", "ann"):
            tab = await off(browser.open, h.url)
            assert await off(tab.title) == "Wiz-War: resumed"
            await until_page(tab, lambda t, name=name: "This game was resumed: take your seat "
                             "back under the name you had" in t and name in t,
                             "the form naming the seats that wait")
            await off(tab.join, name)
            tabs[name] = tab
        await until(lambda: all(s.connected for s in game.seats), "both seats taken back")
        assert {s.name: s.seat for s in game.seats} == {"ann": "P1", "bob": "P2"}
        st = game.state
        by_seat = {"P1": tabs["ann"], "P2": tabs["bob"]}
        hands = {seat: {card_title(c) for c in st.hand_slugs(seat)} for seat in by_seat}
        seq = rs.seq(st)
        await until(lambda: set(game.acks.get(seq, {})) == {"P1", "P2"},
                    f"both tabs' apps caught up to action {seq}")
        # what everyone knows (a watcher's faces: a card once shown and taken back, an
        # object picked up) is no secret; every other card of the other hand is
        watcher = PeerGame("127.0.0.1", game.port, name="look", watch=True)
        looking = asyncio.ensure_future(watcher.run())
        await until(lambda: watcher.state is not None and rs.seq(watcher.state) == seq,
                    "a watcher caught up")
        looking.cancel()
        with contextlib.suppress(BaseException):
            await looking
        if watcher.conn is not None:
            await watcher.conn.close()
        public = {c for c, f in enumerate(watcher.state.faces) if f}
        secret = {seat: {card_title(st.face(c)) for c in st.wizard(seat).hand
                         if c not in public} for seat in by_seat}
        for seat, tab in by_seat.items():
            own = hands[seat]
            theirs = secret["P2" if seat == "P1" else "P1"] - hands[seat]
            assert own and theirs, hands
            await until_tab(tab, lambda s, own=own: "┌" in s and all(n in s for n in own),
                            f"{seat}'s board and its own hand {sorted(own)}")
            text = tab.term.text()
            for n in theirs:
                for o in own:  # "Reflection" inside our own "Full Reflection"
                    if n in o and o != n:
                        text = text.replace(o, "")
                assert not re.search(rf"\b{re.escape(n)}\b", text), (seat, n, text)
        for action in last:
            tab = by_seat[action.actor]
            done = len(game.actions)
            idle = await off(tab.screen)
            await off(tab.keys, ":")
            await until_tab(tab, lambda s, idle=idle: s != idle, "the command line open")
            await off(tab.keys, str(action), Keys.ENTER)
            try:
                await until(lambda done=done: len(game.actions) > done,
                            f"the host commits {action}")
            except AssertionError:
                raise AssertionError(f"{action} not committed:\n{await off(tab.screen)}"
                                     ) from None
            assert game.actions[done] == str(action)
        final = await asyncio.wait_for(asyncio.shield(h.run), LONG)
        assert final and rs.result(game.state).over and not game.desync
        assert rs.result(game.state).winners == tuple(full.end["winner"].split("+"))
        assert game.audit == ""
        for seat, tab in by_seat.items():
            await until_tab(tab, lambda s: "win" in s.lower(), f"the game over in {seat}'s tab")
    finally:
        await h.close()


# ------------------------------------------------------- the trial's findings (issue 16)
async def _screen_until(ws: aiohttp.ClientWebSocketResponse, term: Term,
                        cond: Callable[[str], bool], what: str,
                        timeout: float = LONG) -> str:
    """Feed ``term`` with the app's screen bytes until ``cond(its text)`` holds."""
    try:
        async with asyncio.timeout(timeout):
            while not cond(term.text()):
                msg = await ws.receive()
                if msg.type == aiohttp.WSMsgType.BINARY:
                    term.feed(msg.data.decode("utf-8", "replace"))
                elif msg.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"closed before {what}:\n{term.text()}")
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}:\n{term.text()}") from None
    return term.text()


async def test_the_first_players_tab_shows_its_keys_before_any_key() -> None:
    """The first player waits in the lobby; at the deal her tab's game screen shows its key
    bar at once, before she has pressed a key (the web driver's blur at start-up left the
    app unfocused, and an unfocused app's key bar never filled in)."""
    h = await hosted(HostGame(players=2, local_seat=False, name="web test", seed=3))
    peer: asyncio.Future[Any] | None = None
    try:
        async with aiohttp.ClientSession() as s:
            _, ws_path = await _ticket(s, h.url, "ann")
            async with s.ws_connect(h.url + ws_path[1:] + "?width=120&height=34") as ws:
                term = Term()
                await _screen_until(ws, term, lambda t: "Waiting for 1 more" in t,
                                    "ann in the lobby")
                bob = PeerGame("127.0.0.1", h.game.port, name="bob", bot_play=False)
                peer = asyncio.ensure_future(bob.run())
                await _screen_until(ws, term, lambda t: "Players" in t and "Hand" in t,
                                    "ann's game screen")
                scr = await _screen_until(ws, term, lambda t: "? Help" in t and "q Leave" in t,
                                          "the game screen's key bar, no key pressed")
                assert scr.splitlines()[-1].strip().startswith("? Help"), scr
    finally:
        if peer is not None:
            peer.cancel()
            with contextlib.suppress(BaseException):
                await peer
        await h.close()


async def test_a_tab_closed_by_the_server_is_told_why() -> None:
    """When the host stops the game, every tab is told so (the close reason, the code of a
    game that has ended) before its app is stopped; the page's script that shows it is
    served."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin)
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    closing: asyncio.Future[None] | None = None
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(url + "static/wizwar/tab.js") as r:
                assert r.status == 200 and "e.reason" in await r.text()
            _, ws_path = await _ticket(s, url, "ann")
            async with s.ws_connect(url + ws_path[1:]) as ws:
                await _read_ws(ws, "hello ann")
                pid = server.tabs["ann"].app.pid  # type: ignore[union-attr]
                closing = asyncio.ensure_future(
                    server.close("the host stopped the game: it has ended"))
                msg = await ws.receive(timeout=LONG)
                while msg.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    msg = await ws.receive(timeout=LONG)
                assert msg.type == aiohttp.WSMsgType.CLOSE, msg
                assert msg.data == wweb.CLOSE_ENDED, msg
                assert msg.extra == "The host stopped the game: it has ended", msg
            await closing
            assert pid is not None and not _alive(pid) and not server.tabs
    finally:
        await server.close()


@NEED_BROWSER
async def test_a_closed_tab_says_why_in_the_browser(browser: Browser) -> None:
    """In a real browser: a tab replaced by a second tab of its name says so in words and
    offers to open the game again; when the host stops the game, the tab says the game has
    ended, hides the app's screen (no key bar, no "online" left showing) and offers no way
    back."""
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin, log=print)
    port = await server.start()
    url = f"http://127.0.0.1:{port}/"
    try:
        first = await off(browser.open, url)
        await off(first.join, "ann")
        await until_tab(first, lambda s: "hello ann play" in s, "ann's first tab")
        second = await off(browser.open, url)
        await off(second.join, "ann")
        await until_tab(second, lambda s: "hello ann play" in s, "ann's second tab")
        text = await until_page(first, lambda t: "another tab" in t, "the first tab's words")
        assert "ann opened the game in another tab, so this tab was closed" in text, text
        assert "Open the game again" in text, text
        await server.close("the host stopped the game: it has ended")
        text = await until_page(second, lambda t: "stopped" in t, "the host stopped, in words")
        assert "The host stopped the game: it has ended." in text, text
        assert "Open the game again" not in text, text  # nothing to go back to
        hidden = await off(second._here().execute_script,
                           "return getComputedStyle(document.getElementById('terminal'))"
                           ".visibility")
        assert hidden == "hidden"
    finally:
        await server.close()


SERVER_ALONE = """
import asyncio, sys
from net import web as wweb

def standin(name, watch, rejoin):
    return [sys.executable, "-c", sys.argv[1], name, "watch" if watch else "play"]

async def main():
    server = wweb.GameWebServer("127.0.0.1", 9, command=standin)
    print(await server.start(), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""
"""A web server on its own in a process of its own (for ``kill -9``), its tabs' apps the
stand-in."""


@NEED_BROWSER
async def test_a_tab_of_a_killed_server_says_the_server_is_gone(browser: Browser) -> None:
    """The web host is killed outright (``kill -9``): the tab no longer offers "Open the
    game again" (a dead link: nothing answers it), it says in plain words that the game's
    server is gone. A tab closed while its server still answers keeps the link (the test
    above)."""
    proc = subprocess.Popen([sys.executable, "-c", SERVER_ALONE, STANDIN], cwd=REPO,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(await off(proc.stdout.readline))
        tab = await off(browser.open, f"http://127.0.0.1:{port}/")
        await off(tab.join, "ann")
        await until_tab(tab, lambda s: "hello ann play" in s, "ann's tab")
        proc.kill()
        await off(proc.wait)
        text = await until_page(tab, lambda t: "server is gone" in t, "the server gone, in words")
        assert "cannot open the game again" in text, text
        assert "Open the game again" not in text, text
        shown = await off(tab._here().execute_script,
                          "return getComputedStyle(document.getElementById('again')).display")
        assert shown == "none"
    finally:
        proc.kill()
        await off(proc.wait)


@NEED_BROWSER
async def test_a_tab_in_a_small_window_says_how_to_make_room(browser: Browser) -> None:
    """A tab in a window too small for the app says so in a browser's words (zoom out; not
    the terminal's Ctrl+Q, which in a browser may quit the browser), names no game it is
    not (an ArcoMage tab was told "Wiz-War needs..."), shows no scrollbars, and draws the
    game once the window is big enough."""
    h = await hosted(HostGame(players=2, local_seat=False, name="web test"))
    try:
        await off(browser.driver.set_window_size, 420, 300)
        tab = await off(browser.open, h.url)
        await off(tab.join, "ann")
        scr = await until_tab(tab, lambda s: "The window is too small" in s, "the notice")
        scr = await until_tab(tab, lambda s: "zoom out" in s, "the browser's words")
        assert "ctrl+q" not in scr.lower() and "Wiz-War needs" not in scr, scr
        sizes = await off(tab._here().execute_script,
                          "const e = document.documentElement; return [e.scrollWidth, "
                          "e.clientWidth, getComputedStyle(document.body).overflow];")
        assert sizes[0] <= sizes[1] and sizes[2] == "hidden", sizes  # no scrollbars
        await off(browser.driver.set_window_size, 1100, 760)
        await until_tab(tab, lambda s: "You are P1" in s, "the lobby once there is room")
    finally:
        await h.close()


async def test_an_arcomage_tab_names_no_internal_address() -> None:
    """An ArcoMage game in a tab: its top bar and log say the game is played in a browser,
    never the game port the tab's app joined on 127.0.0.1 (meaningless to the player, who
    opened a web page)."""
    from core import registry

    rs = registry.get("arcomage")
    h = await hosted(HostGame(ruleset=rs, options=rs.options.defaults(), players=2,
                              local_seat=False, name="web test", seed=4))
    peer: asyncio.Future[Any] | None = None
    try:
        async with aiohttp.ClientSession() as s:
            _, ws_path = await _ticket(s, h.url, "ann")
            async with s.ws_connect(h.url + ws_path[1:] + "?width=120&height=34") as ws:
                term = Term()
                await _screen_until(ws, term, lambda t: "You are P1" in t, "ann in the lobby")
                bob = PeerGame("127.0.0.1", h.game.port, name="bob", bot_play=False,
                               ruleset=rs)
                peer = asyncio.ensure_future(bob.run())
                scr = await _screen_until(ws, term, lambda t: "ArcoMage" in t
                                          and "in a browser" in t, "ann's game screen")
                assert f":{h.game.port}" not in scr and "joined 127.0.0.1" not in scr, scr
    finally:
        if peer is not None:
            peer.cancel()
            with contextlib.suppress(BaseException):
                await peer
        await h.close()


@NEED_BROWSER
async def test_arcomage_in_two_tabs_is_played_by_keys(browser: Browser) -> None:
    """ArcoMage in two tabs: each draws the field and its panels (the archmages' title
    too); a notation line the rules refuse closes with the
    reason, so the next key, ``e``, ends ann's turn; the host commits it and bob's tab has
    the move."""
    from selenium.webdriver.common.keys import Keys

    from core import registry

    rs = registry.get("arcomage")
    opts = rs.validate_options({"first": "p1"})
    h = await hosted(HostGame(ruleset=rs, options=opts, players=2, local_seat=False,
                              name="web test", seed=4))
    try:
        ann = await off(browser.open, h.url)
        assert await off(ann.title) == "ArcoMage: web test"
        await off(ann.join, "ann")
        await until_tab(ann, lambda s: "You are P1" in s, "ann seated")
        bob = await off(browser.open, h.url)
        await off(bob.join, "bob")
        screens = {}
        for tab, seat in ((ann, "P1"), (bob, "P2")):
            screens[seat] = await until_tab(
                tab, lambda s, seat=seat: f"you are {seat}" in s and "Nexus" in s
                and "Archmages" in s and "Spellbook" in s, f"{seat}'s field and panels")
        assert "c1 @P1" in screens["P1"] and "c6 @P2" in screens["P1"]
        # the next key after a refused notation line is the game's: "e" ends the turn
        before = len(h.game.actions)
        await off(ann.keys, ":")
        await until_tab(ann, lambda s: "Esc closes" in s, "ann's notation line")
        await off(ann.keys, "cast lich-form", Keys.ENTER)
        await until_tab(ann, lambda s: "above your cast ceiling" in s
                        and "to fix the line" in s, "the refusal in words")
        assert len(h.game.actions) == before
        await off(ann.keys, "e")
        await until(lambda: len(h.game.actions) > before, "the host commits ann's end")
        assert h.game.actions[before] == "P1 end", h.game.actions[before:]
        await until_tab(bob, lambda s: "P2's MAIN" in s or "your turn" in s.lower()
                        or "Your MAIN" in s, "bob's turn on his tab")
    finally:
        await h.close()
    assert not h.server.tabs
