"""Any terminal: sizes down to 40x12, resizing, ASCII-only output, colourless highlights,
stale keys, and the real app under tmux at 80x24 (TERM=linux, NO_COLOR, LANG=C)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from textual import events

from core.session import LocalSession
from core.wizwar import GameConfig, new_game
from core.wizwar.ruleset import RULESET
from core.wizwar.scenario import build_state
from core.wizwar.state import Script
from tests.readable import screen_text
from wizwar_tui.app import WizWarApp, size_classes
from wizwar_tui.ascii import CONSOLE_SAFE, console_char, locale_is_utf8, to_ascii, wants_ascii
from wizwar_tui.menu import MIN_SIZE, MenuScreen
from wizwar_tui.screens import HelpScreen
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.game import GameScreen
from wizwar_tui.wizwar.screens import CardScreen, CardsScreen

ROOT = Path(__file__).resolve().parent.parent




def seed_where(pred, players: int = 2) -> int:  # type: ignore[no-untyped-def]
    """The first seed whose new game satisfies ``pred(state)``."""
    for seed in range(1000):
        if pred(new_game(GameConfig(players=players), seed)):
            return seed
    raise AssertionError("no such seed")


def game_of(app: WizWarApp) -> GameScreen:
    """The running game screen."""
    game = app.game
    assert game is not None
    return game


# ---------------------------------------------------------------------------- sizes
def test_size_classes() -> None:
    assert size_classes((40, 12))["-tiny"]
    assert size_classes((MIN_SIZE[0] - 1, 30))["-tiny"]
    assert size_classes((100, MIN_SIZE[1] - 1))["-tiny"]
    small = size_classes(MIN_SIZE)  # type: ignore[arg-type]
    assert not small["-tiny"] and small["-narrow"] and small["-short"]
    std = size_classes((80, 24))
    assert not std["-tiny"] and not std["-narrow"] and std["-medium"] and std["-short"]
    big = size_classes((120, 40))
    assert big["-wide"] and big["-tall"] and not big["-narrow"]


@pytest.mark.parametrize("players", [2, 4])
async def test_too_small_at_40x12(players: int) -> None:
    """At 40x12 the game says the window is too small and draws nothing else; keys do not
    crash it; enlarging it brings the game back."""
    app = WizWarApp(players=players, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        game = game_of(app)
        assert app.has_class("-tiny")
        text = screen_text(app)
        assert "too small" in text and f"{MIN_SIZE[0]} x {MIN_SIZE[1]}" in text
        assert not game.query_one("#main").display
        await pilot.press("right", "down", "i")
        await pilot.pause()
        if isinstance(app.screen, CardScreen):  # a dialog over it says the same
            assert "too small" in screen_text(app)
            await pilot.press("escape")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.has_class("-tiny") and game.query_one("#main").display
        text = screen_text(app)
        assert "too small" not in text and "Hand" in text and "Players" in text


async def test_menu_too_small_and_back() -> None:
    app = WizWarApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and "too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "Play against 1 bot" in text and "too small" not in text
        await pilot.press("down", "enter")  # the keys still work: 2 bots
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.players == 3


def side_by_side(game: GameScreen) -> bool:
    """The board column and the panels are both on screen, not overlapping."""
    left, right = game.query_one("#left"), game.query_one("#right")
    return (left.display and right.display and left.region.width > 0
            and right.region.width > 0 and left.region.right <= right.region.x)


async def test_resize_mid_game() -> None:
    """120x40 -> 80x24 -> 60x20 (board or panels, Tab) -> 40x12 (too small) -> 120x40: every
    step draws a whole, non-overlapping layout; the game goes on after it."""
    app = WizWarApp(players=4, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = game_of(app)
        assert side_by_side(game)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert side_by_side(game)
        assert game.query_one("#right").region.right <= 80
        top = screen_text(app).splitlines()[0]
        assert "your turn" in top or "turn" in top
        # narrow: the board column alone, Tab shows the panels, Tab again the board
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert game.query_one("#left").display and not game.query_one("#right").display
        assert game.board.region.width > 0 and game.board.region.right <= 60
        await pilot.press("tab")
        await pilot.pause()
        assert not game.query_one("#left").display and game.query_one("#right").display
        text = screen_text(app)
        assert "Players" in text and "Hand" in text
        await pilot.press("tab")
        await pilot.pause()
        assert game.query_one("#left").display and game.board.has_focus
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert "too small" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert side_by_side(game)
        text = screen_text(app)
        assert "too small" not in text and "seed 3" in text.splitlines()[0]
        # the cursor keys still move the cursor, and the game still plays after all this
        cursor = game.board.cursor
        await pilot.press("down")
        await pilot.pause()
        assert game.board.cursor != cursor
        n = len(game.session.actions)
        await pilot.press("e")
        await pilot.pause()
        assert len(game.session.actions) > n


async def test_header_lines_never_wrap_at_80x24() -> None:
    """The header is one line at 80 columns even when its text is long (an attack being
    answered); it is shortened, not wrapped into the board."""
    st = build_state({
        "board": {"size": "5x5"},
        "players": [{"at": "a1", "hand": ["full-shield", "blunt", "3"]},
                    {"at": "a4", "hand": ["lightning-blast", "4"]}],
        "turn": {"active": "P2"},
    })
    st.script = Script()
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        game = GameScreen(session=LocalSession(RULESET, st, human="P1", bots=("P2",)), bot_delay=0,
                          seed=123456)
        app.push_screen(game)
        for _ in range(20):
            await pilot.pause()
            if game.session.view().stack:
                break
        assert game.session.view().stack
        top = game.query_one("#topbar")
        assert top.region.height == 1
        line = screen_text(app).splitlines()[0]
        assert "answer Lightning Blast" in line
        assert game.board.region.y >= 2  # the ruler and the board start below the header


# ---------------------------------------------------------------------------- ASCII
def test_to_ascii_keeps_widths() -> None:
    text = "╭─┬─╮│·…▶♥¤⌂é▁▔▏█"
    out = to_ascii(text)
    assert out.isascii() and len(out) == len(text)
    assert out[:5] == "+-+-+" and out[5] == "|"
    assert to_ascii("中") == "??"  # a wide character stays two cells
    # a scrollbar's thumb ends (lower blocks) are blanks, not stray "_" (issue 12)
    assert to_ascii("▁▂▃▄▅▆▇") == " " * 7


@pytest.mark.parametrize(("env", "coerced", "utf8"), [
    ({"LANG": "en_GB.UTF-8"}, False, True),
    ({"LANG": "C.utf8"}, False, True),
    ({"LANG": "C"}, False, False),
    ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, True, False),  # Python's PEP 538 coercion
    ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, False, True),  # the user's own LC_CTYPE
    ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False, False),
    ({"LC_ALL": "POSIX"}, True, False),
    ({}, True, False),
    ({"LANG": "de_DE.ISO-8859-1"}, False, False),
])
def test_locale_detection(env: dict[str, str], coerced: bool, utf8: bool) -> None:
    assert locale_is_utf8(env, coerced) is utf8
    assert wants_ascii(env, "utf-8", coerced) is (not utf8)


def test_ascii_overrides() -> None:
    assert wants_ascii({"LANG": "C.UTF-8"}, "ascii", False)  # stdout cannot take UTF-8
    assert wants_ascii({"LANG": "C.UTF-8", "WIZWAR_ASCII": "1"}, "utf-8", False)
    assert not wants_ascii({"LANG": "C", "WIZWAR_ASCII": "0"}, "utf-8", False)


async def test_ascii_mode_draws_only_ascii_everywhere() -> None:
    """--ascii: the game screen (board, panels, borders, footer), the card text, the Cards
    screen, the help and the menu are all ASCII."""
    app = WizWarApp(players=4, seed=3, start_game=True, ascii_only=True, bot_delay=0,
                    save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = game_of(app)
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        assert "Hand" in text and "hp15" in text and "+---" in text
        assert game.board.plain().isascii()
        for key, screen in (("i", CardScreen), ("C", CardsScreen), ("question_mark",
                                                                    HelpScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen)
            text = screen_text(app)
            assert text.isascii(), (key, sorted({c for c in text if not c.isascii()}))
            await pilot.press("escape")
            await pilot.pause()
        assert app.screen is game
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and screen_text(app).isascii()


def console_ok(text: str) -> bool:
    """Every character is one the Linux console's fonts draw."""
    return all(c.isascii() or c in CONSOLE_SAFE for c in text)


def test_console_chars() -> None:
    assert [console_char(c) for c in "╭╯╵┈┊┄═║┼≈•⌂¤♥▶▏▔"] == list("┌┘│·:░═║┼≈•⌂¤♥►│─")


async def test_linux_console_glyphs(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """TERM=linux: only characters of the console's fonts (CP437, Latin-1), walls and doors
    still apart (│ ║)."""
    monkeypatch.setenv("TERM", "linux")
    app = WizWarApp(players=4, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert console_ok(text), sorted({c for c in text if not console_ok(c)})
        assert "║" in text and "│" in text and "♥15" in text
        await pilot.press("C")
        await pilot.pause()
        assert console_ok(screen_text(app))


async def test_unicode_mode_is_not_filtered() -> None:
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "┌" in text and "♥15" in text


# ---------------------------------------------------------------------------- shapes
def shapes_session() -> LocalSession:
    """P1 in the middle of an open 5x5 board with cards that make things."""
    st = build_state({
        "board": {"size": "5x5"},
        "players": [{"at": "c3", "hand": ["wall-of-fire", "create-wall", "thornbush",
                                          "fill-square-with-stone", "illusion-wall", "3"]},
                    {"at": "e5", "hand": ["lightning-blast", "4"]}],
        "turn": {"active": "P1"},
    })
    st.script = Script()
    return LocalSession(RULESET, st, human="P1", bots=("P2",))


def made_things() -> LocalSession:
    """A wall of fire, a created wall, an illusion wall, a thornbush and a stone block."""
    s = shapes_session()
    for a in ("P1 play wall-of-fire @c3:e", "P1 play create-wall @c3:n",
              "P1 play illusion-wall @c3:w", "P1 play thornbush @c5",
              "P1 play fill-square-with-stone @c4"):
        s.submit(a)
    return s


@pytest.mark.parametrize("ascii_only", [False, True])
def test_highlights_and_edges_have_shapes(ascii_only: bool) -> None:
    """Without colour the drawing still tells apart: reachable squares (their own dot),
    targets (brackets), walls, doors, walls of fire and illusion walls, players (digits)."""
    g = render.board_glyphs(ascii_only)
    s = shapes_session()
    v = s.view()
    reach = render.reachable(v)
    assert reach
    plain = render.render_board(v, None, reach, {(4, 4)}, ascii_only, header=False).plain
    lines = plain.split("\n")
    left = render.row_label_width(v)

    def cell(sq: tuple[int, int]) -> str:
        c, r = sq
        return lines[2 * r + 1][left + 4 * c + 1:left + 4 * c + 4]

    for sq in reach:
        if not v.tokens.get(sq) and sq not in v.bushes:
            assert cell(sq) == f" {g['reach']} "
    assert cell((0, 0)) == f" {g['floor']} "  # too far to walk: the plain floor dot
    assert cell((4, 4)) == f"{g['target'][0]}2{g['target'][1]}"  # P2, a target
    assert cell((2, 2)) == " 1 "
    made = made_things().view()
    plain = render.render_board(made, None, {}, set(), ascii_only, header=False).plain
    lines = plain.split("\n")
    # c3's sides: north a (created) wall, east a wall of fire, west an illusion wall
    row, col = 2 * 2 + 1, left + 4 * 2
    assert lines[row][col] == g["v"]["illusion-wall"]
    assert lines[row][col + 4] == g["v"]["wall-of-fire"]
    assert lines[row - 1][col + 1:col + 4] == g["h"]["wall"]
    assert len({g["v"][k] for k in ("wall", "door", "wall-of-fire", "illusion-wall",
                                    "door-open")}) == 5
    assert cell((2, 4)).strip() == g["bush"] and cell((2, 3)) == g["stone"]


def test_cards_in_sight() -> None:
    """The i list: the hand, the things at a square and on its sides, the stack."""
    s = made_things()
    v = s.view()
    refs = render.cards_in_sight(v, (2, 2))
    at = {(slug, note) for grp, slug, note in refs if grp == "At c3"}
    assert at == {("wall-of-fire", "e side"), ("create-wall", "n side"),
                  ("illusion-wall", "w side")}
    assert [slug for grp, slug, _ in refs if grp == "Your hand"] == list(v.hand)
    assert ("At c5", "thornbush") in {(g, sl) for g, sl, _ in render.cards_in_sight(v, (2, 4))}
    assert ("At c4", "fill-square-with-stone") in {
        (g, sl) for g, sl, _ in render.cards_in_sight(v, (2, 3))}
    # printed walls are not cards
    assert not [r for r in render.cards_in_sight(v, (0, 0)) if r[0].startswith("At")]


# ---------------------------------------------------------------------------- stale keys
async def test_keys_pressed_while_bots_act_are_dropped() -> None:
    """A key pressed while a bot was thinking (the app busy) must not act in the human's
    next turn: here "e" (end the turn) is pressed during each bot action."""
    seed = seed_where(lambda st: st.turn.active == "P2")
    app = WizWarApp(players=2, seed=seed, bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = LocalSession.start(RULESET, {"players": 2}, seed)
        step = session.step_bot

        def slow_step():  # type: ignore[no-untyped-def]
            key = events.Key("e", "e")  # the human presses "e" meanwhile (as Pilot does)
            key.set_sender(app)
            app._driver.send_message(key)  # type: ignore[union-attr]
            return step()

        session.step_bot = slow_step  # type: ignore[method-assign]
        game = GameScreen(players=2, seed=seed, bot_delay=0, session=session)
        app.push_screen(game)
        for _ in range(10):
            await pilot.pause()
        v = session.view()
        assert v.active == "P1" and "P1" in v.to_move  # the bots acted; the human's turn
        assert not any(a.actor == "P1" for a in session.actions)  # no stale "e" ran
        assert app.dropped_keys > 0
        # a key pressed now counts
        await pilot.press("e")
        await pilot.pause()
        assert any(str(a) == "P1 end" for a in session.actions)


# ---------------------------------------------------------------------------- tmux
TMUX = shutil.which("tmux")


class Tmux:
    """The real ``wizwar`` command in a detached tmux session of a given size."""

    def __init__(self, tmp: Path, size: tuple[int, int], env: dict[str, str],
                 args: list[str]) -> None:
        self.name = f"wwtest-{uuid.uuid4().hex[:8]}"
        self.sock = str(tmp / "tmux.sock")
        environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp),
                   "XDG_DATA_HOME": str(tmp / "data"), "WIZWAR_BOT_DELAY": "0", **env}
        exports = " ".join(f"{k}={v!r}" for k, v in environ.items())
        cmd = f"env -i {exports} {sys.executable} -m wizwar_tui.cli {' '.join(args)}"
        subprocess.run([TMUX, "-S", self.sock, "-f", "/dev/null", "new-session", "-d",  # type: ignore[list-item]
                        "-s", self.name, "-x", str(size[0]), "-y", str(size[1]),
                        "-c", str(ROOT), cmd], check=True)

    def capture(self, escapes: bool = False) -> str:
        """The pane's text (with ``escapes``: its SGR colour codes too)."""
        args = [TMUX, "-S", self.sock, "capture-pane", "-p", "-t", self.name]
        if escapes:
            args.append("-e")
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout  # type: ignore[arg-type]

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names)."""
        subprocess.run([TMUX, "-S", self.sock, "send-keys", "-t", self.name, *keys],  # type: ignore[list-item]
                       check=True)

    def wait_for(self, *words: str, timeout: float = 60.0) -> str:
        """The pane's text once it shows every one of ``words`` (fails after ``timeout``)."""
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.capture()
            if all(w in text for w in words):
                return text
            time.sleep(0.2)
        raise AssertionError(f"never showed {words}:\n{text}")

    def close(self) -> None:
        """Kill the session (and its server)."""
        subprocess.run([TMUX, "-S", self.sock, "kill-server"], capture_output=True)  # type: ignore[list-item]


@pytest.fixture
def tmux_app(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Start ``wizwar`` in tmux: ``tmux_app(size, env, args)``; closed after the test."""
    if TMUX is None:
        pytest.skip("tmux is not installed")
    opened: list[Tmux] = []

    def start(size: tuple[int, int], env: dict[str, str], args: list[str]) -> Tmux:
        t = Tmux(tmp_path, size, env, args)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def board_and_hand(text: str) -> None:
    """The captured screen shows the board (column letters, rows, two wizards) and the
    hand (seven numbered cards)."""
    lines = text.splitlines()
    assert any(ln.split()[:5] == ["a", "b", "c", "d", "e"] for ln in lines), text
    assert any(ln.strip().startswith("1 ") and ln.count("|") + ln.count("│") >= 2
               for ln in lines), text
    assert "Hand" in text and "Players" in text
    for n in range(1, 8):
        assert any(f"{n} " in ln[46:] for ln in lines), (n, text)


@pytest.mark.parametrize("env", [
    {"TERM": "linux", "LANG": "C.UTF-8"},
    {"TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": "1"},
])
def test_tmux_80x24(tmux_app, env: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    """The real app at 80x24 with a 16-colour console TERM, or with NO_COLOR: the board and
    the hand are on the screen; NO_COLOR leaves no colour in the output (greys only)."""
    t = tmux_app((80, 24), env, ["play", "--seed", "3"])
    text = t.wait_for("Hand", "your turn")
    board_and_hand(text)
    assert "P1(you)" in text
    if env["TERM"] == "linux":
        assert console_ok(text), sorted({c for c in text if not console_ok(c)})
    if "NO_COLOR" in env:
        import re

        codes = re.findall(r"\x1b\[([0-9;]*)m", t.capture(escapes=True))
        for code in codes:
            parts = code.split(";")
            for i, p in enumerate(parts):
                if p in ("38", "48") and i + 2 < len(parts) and parts[i + 1] == "5":
                    n = int(parts[i + 2])
                    assert n >= 232 or n in (0, 7, 8, 15, 16), code  # greys only
                assert not (p in ("38", "48") and i + 1 < len(parts) and parts[i + 1] == "2")
            assert not any(p in {str(c) for c in (*range(31, 37), *range(41, 47),
                                                  *range(91, 97), *range(101, 107))}
                           for p in parts), code
    # the game answers a key: ending the turn draws two cards, nine: discard down to 7
    t.keys("e")
    t.wait_for("discard down to 7")
    t.keys("C-q")


def test_tmux_c_locale_is_ascii(tmux_app) -> None:  # type: ignore[no-untyped-def]
    """LANG=C (no UTF-8): the whole screen is ASCII, board and panels."""
    t = tmux_app((80, 24), {"TERM": "linux", "LANG": "C"}, ["play", "--seed", "3"])
    text = t.wait_for("Hand", "your turn")
    board_and_hand(text)
    assert text.isascii(), sorted({c for c in text if not c.isascii()})
    assert "+---" in text and "hp15" in text
    t.keys("C-q")


def test_tmux_40x12_too_small_then_resized(tmux_app) -> None:  # type: ignore[no-untyped-def]
    t = tmux_app((40, 12), {"TERM": "xterm-256color", "LANG": "C.UTF-8"},
                 ["play", "--seed", "3"])
    t.wait_for("too small")
    subprocess.run([TMUX, "-S", t.sock, "resize-window", "-t", t.name, "-x", "80", "-y",  # type: ignore[list-item]
                    "24"], check=True)
    board_and_hand(t.wait_for("Hand", "your turn"))
    t.keys("C-q")


async def test_short_window_board_keeps_the_cursor_in_sight() -> None:
    """At 60x20 a 4-player board is taller than its window: walking the cursor down and back
    up scrolls just enough to keep its square in sight (a trial saw it jump to the top)."""
    from tests.test_tui import game_app, game_of

    app = game_app(seed=777, players=4)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        game = game_of(app)
        board = game.board
        scroll = game.query_one("#board-scroll")
        board.cursor = (2, 0)
        await pilot.pause()
        for _ in range(9):
            board.move_cursor(0, 1)
            await pilot.pause()
        assert board.cursor == (2, 9)
        low = scroll.scroll_y
        assert low > 0
        for dx, dy in ((0, -1), (0, -1), (1, 0)):
            board.move_cursor(dx, dy)
            await pilot.pause()
        assert board.cursor == (3, 7)
        top, height = scroll.scroll_y, scroll.scrollable_content_region.height
        assert top > 0 and top <= 2 * 7 and 2 * 7 + 3 <= top + height + 1


_MENU_RUN = """
import asyncio, sys
from wizwar_tui.cli import main  # what the wizwar command imports
from wizwar_tui.app import WizWarApp

HEAVY = ('core.wizwar', 'core.wizwar.rules', 'core.wizwar.bot', 'wizwar_tui.wizwar.game',
         'wizwar_tui.wizwar.render', 'wizwar_tui.lobby',
         'wizwar_tui.replay', 'net.lan', 'net.cli')

async def menu():
    app = WizWarApp(save_games=False, discovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "up", "x")  # moving in the menu, a stray key
        await pilot.resize_terminal(100, 30)  # a resize
        await pilot.pause()
        assert type(app.screen).__name__ == "MenuScreen", app.screen

print(sorted(m for m in HEAVY if m in sys.modules))
asyncio.run(menu())
print(sorted(m for m in HEAVY if m in sys.modules))
"""


def test_the_menu_loads_no_rules_engine() -> None:
    """Start-up: the ``wizwar`` command's imports, and the menu running (keys, a resize),
    leave the rules engine, the bots, the LAN code and the game, lobby and replay screens
    unloaded (docs/performance.md, start-up)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _MENU_RUN], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.split("\n")[:2] == ["[]", "[]"], out.stdout + out.stderr


_BARE_COMMAND = """
import sys
import wizwar_tui.app
from wizwar_tui.cli import main

def run(**kw):  # the menu app itself, replaced: what the command loads before it starts
    print(sorted(m for m in sys.modules
                 if m.startswith(("core", "net", "importlib.metadata", "argparse"))))
    return 0

wizwar_tui.app.run = run
sys.exit(main([]))
"""


def test_the_bare_command_builds_no_parser_and_loads_no_engine() -> None:
    """Start-up: ``wizwar`` with no words opens the menu without building the parser,
    whose option flags load the default game's rules, and without ``importlib.metadata``
    (``--version`` looks the version up only when asked) or ``argparse``; ``core`` and the
    registry's list of names are all the menu takes from the engine (docs/performance.md,
    seventh round)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _BARE_COMMAND], capture_output=True,
                         text=True, check=True, timeout=120)
    assert out.stdout.strip() == "['core', 'core.registry']", out.stdout + out.stderr


async def test_a_narrow_footer_still_shows_help_and_menu() -> None:
    """At 60x20 the footer cannot hold every key: ? Help and q Menu come first, so they
    are the ones always seen (issue 12: the footer ended at "i Card")."""
    from textual.widgets._footer import FooterKey

    from wizwar_tui.app import WizWarApp
    app = WizWarApp(players=2, seed=48, start_game=True, bot_delay=0, discovery=False,
                    save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.pause()
        seen = [k.description for k in app.screen.query(FooterKey)
                if k.region.right <= 60 and k.region.width]
        assert "Help" in seen and "Menu" in seen
