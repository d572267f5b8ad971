"""The README's browser screenshots: a 2-player game hosted with the web server
(net/web.py), both seats taken from tabs of a real headless Chromium, P1's tab saved as
``screenshots/web-GAME.png`` (Wiz-War: ``web-wizwar.png``; ``arcomage``: ``web-arcomage.png``).

Run from the repository root: ``.venv/bin/python scripts/web_screenshot.py [GAME]`` (needs the system
``chromium`` and ``chromedriver``; listens on 127.0.0.1 only; every process it starts is
stopped before it returns).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from net.lan import HostGame  # noqa: E402
from net.web import GameWebServer  # noqa: E402


def out_path(game: str) -> Path:
    """Where the screenshot of ``game`` goes."""
    return REPO / "screenshots" / f"web-{game.replace('-', '')}.png"


def browser() -> webdriver.Chrome:
    """A headless Chromium of the system, sized for a 120x34 game."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1100,760", "--hide-scrollbars",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"),
                            options=opts)


def join(d: webdriver.Chrome, url: str, name: str) -> None:
    """Open the page in the current tab, give the name, press Play."""
    d.get(url)
    d.find_element(By.ID, "name").send_keys(name)
    d.find_element(By.ID, "play").click()


async def main(name: str = "wizwar") -> int:
    """Host ``name`` (a ruleset), open two tabs (ann, bob), wait for the deal, save ann's
    tab."""
    from core import registry

    rs = registry.get(name)
    game = HostGame(ruleset=rs, options=rs.validate_options({}), players=2, local_seat=False,
                    name="Friday game")
    lan_port = await game.start()
    server = GameWebServer("127.0.0.1", lan_port, game=game)
    port = await server.start()
    run = asyncio.ensure_future(game.run())
    url = f"http://127.0.0.1:{port}/"
    d = await asyncio.to_thread(browser)
    try:
        await asyncio.to_thread(join, d, url, "ann")
        ann = d.current_window_handle
        await asyncio.to_thread(d.switch_to.new_window, "tab")
        await asyncio.to_thread(join, d, url, "bob")
        end = time.monotonic() + 120
        while game.state is None:
            if time.monotonic() > end:
                raise SystemExit("no deal")
            await asyncio.sleep(0.2)
        await asyncio.to_thread(d.switch_to.window, ann)
        await asyncio.sleep(8)  # the tabs draw the board (a picture, not a test)
        out = out_path(name)
        out.parent.mkdir(exist_ok=True)
        await asyncio.to_thread(d.save_screenshot, str(out))
        print(f"saved {out.relative_to(REPO)}")
    finally:
        await asyncio.to_thread(d.quit)
        run.cancel()
        await game.close()
        await server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:2])))
