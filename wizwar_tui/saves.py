"""Where games are saved, and the headless log tools: ``wizwar verify`` and ``wizwar export``.

Every game writes its log as it is played under the user data folder (platformdirs),
``games/`` inside it, one file per game, flushed after every record (docs/log-format.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import log
from core.engine import IllegalAction
from net.logfiles import HeldHeader, LogFile, PeerLog, game_key, games_dir, new_log, now_text

__all__ = ["HeldHeader", "LogFile", "PeerLog", "SavedGame", "export_file", "games_dir",
           "list_saved", "new_log", "now_text", "players_text", "verify_files"]


@dataclass
class SavedGame:
    """One entry of the saved-games list.

    ``players`` are the names by seat (P1 first); ``sides`` the seat numbers (0-based)
    grouped by side, from the game's UI part (``GameUI.sides``: a team game's partners
    together), ``team`` True when a side has several seats; ``seed`` the game's seed in
    words (a LAN game's is dealt by every player together: ``LAN``); ``partial`` counts the earlier logs of the same game that this one
    contains and that the list leaves out (a joined player who came back with a new
    ``wizwar join`` gets a second log holding the whole game again)."""

    path: str
    started: str
    players: list[str]
    kind: str
    actions: int
    result: str
    damage: str
    team: bool = False
    partial: int = 0
    game: str = ""  # the ruleset's title ("Wiz-War")
    sides: list[list[int]] | None = None
    seed: str = ""
    unreadable: bool = False  # not a log this wizwar reads: ``damage`` says why
    problem: str = ""  # why a finished log does not verify ("" when it does)

    @property
    def note(self) -> str:
        """What is wrong with the log, short, for its row ("" for a whole log):
        ``unreadable: REASON``, ``damaged at action N`` (the first action not read),
        ``does not verify``."""
        if self.unreadable:
            return f"unreadable: {self.damage}"
        if self.damage:
            return f"damaged at action {self.actions + 1}"
        if self.problem:
            return "does not verify"
        return ""

    @property
    def players_text(self) -> str:
        """``ann vs bob``; a team game by sides: ``ann+cy vs bob+dee``."""
        return players_text(self.players, self.sides)


def actions_text(n: int) -> str:
    """``1 action``, ``2 actions`` (``0 actions``)."""
    return f"{n} action{'' if n == 1 else 's'}"


def good_text(n: int) -> str:
    """``1 good action``, ``2 good actions``."""
    return f"{n} good action{'' if n == 1 else 's'}"


def players_text(names: list[str], sides: list[list[int]] | bool | None = None) -> str:
    """The players of a game for one line: ``P1 vs P2 vs P3``; with ``sides`` (seat numbers
    grouped by side, :func:`sides_of`) partners joined: ``P1+P3 vs P2+P4``. ``True`` stands
    for Wiz-War's team sides (the 1st and 3rd against the 2nd and 4th), for old callers."""
    if sides is True:
        sides = [[0, 2], [1, 3]] if len(names) == 4 else None
    if not sides or not all(0 <= i < len(names) for side in sides for i in side):
        return " vs ".join(names)
    return " vs ".join("+".join(names[i] for i in side) for side in sides)


def sides_of(ruleset: Any, options: dict[str, Any]) -> list[list[int]]:
    """The sides of a game (seat numbers, 0-based), asked of the game's UI part
    (``GameUI.sides``); every seat alone when there is none or it fails."""
    seats = list(ruleset.seats(options))
    try:
        from wizwar_tui import games

        got = games.ui(ruleset.name).sides(options)
    except (LookupError, ValueError, KeyError):
        return [[i] for i in range(len(seats))]
    return [[seats.index(s) for s in side if s in seats] for side in got]


def seed_text(seed: Any) -> str:
    """A saved game's seed for the list: the number of a local game (``wizwar play --seed``
    plays it again); ``LAN`` for a seed all the players dealt together (bytes)."""
    return str(seed) if isinstance(seed, int) else "LAN"


#: finished logs' recomputed results by (path, size, modification time): a list shown
#: again does not replay every game again
_RESULTS: dict[tuple[str, int, int], tuple[str, str]] = {}


def _result_of(path: str, loaded: log.Loaded) -> tuple[str, str]:
    """The result of a saved game in words and why it does not verify ("" when it does).
    An end record's result is never trusted: the game is replayed and the rules give the
    result (``log.replay`` checks the end record's against it: a forged one is shown as
    the rules' result, with the reason); a log that does not replay is ``unverified``. An unfinished log is ``unfinished`` (nothing to trust)."""
    if loaded.end is None:
        return "unfinished", ""
    try:
        st = os.stat(path)
        key: tuple[str, int, int] | None = (path, st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _RESULTS:
        return _RESULTS[key]
    try:
        got = (log.result_text(loaded.ruleset.result(log.replay(loaded))), "")
    except log.ResultMismatch as exc:  # the rules' result, and the forgery said
        got = (log.result_text(exc.outcome), f"does not verify: {exc}")
    except log.LogError as exc:
        got = ("unverified", f"does not verify: {exc}")
    if key is not None:
        if len(_RESULTS) > 4096:
            _RESULTS.clear()
        _RESULTS[key] = got
    return got


def list_saved(folder: str | None = None) -> list[SavedGame]:
    """Saved games, newest first, with date, players and result (recomputed by replaying
    the game: :func:`_result_of`; ``problem`` says why a finished log does not verify).
    An unreadable file is listed as ``unreadable`` with the reason in ``damage``.

    Left out: empty files; logs with no action (a game left before anyone acted:
    nothing to replay); a joined player's log whose actions are all in a later log of the
    same game from the same seat (a rejoin in a new process writes the whole game again:
    the list shows the longer log once, its ``partial`` counting the ones left out)."""
    folder = folder or games_dir()
    out: list[SavedGame] = []
    peers: dict[str, list[tuple[SavedGame, list[Any]]]] = {}
    for name in sorted(os.listdir(folder), reverse=True):
        if not name.endswith(".wwlog") or os.path.getsize(os.path.join(folder, name)) == 0:
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                loaded = log.read(f.read())
        except (OSError, log.LogError) as exc:
            why = exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
            out.append(SavedGame(path, "", [], "?", 0, "unreadable", why, unreadable=True))
            continue
        if not loaded.records and loaded.end is None:
            continue
        h = loaded.header
        seats = loaded.ruleset.seats(loaded.options)
        names = list(loaded.names)[:len(seats)]
        names += seats[len(names):]
        levels = (h.get("extra") or {}).get("levels") or {}  # a local game's bot levels
        if isinstance(levels, dict):
            names = [f"{n} ({levels[s]})" if isinstance(levels.get(s), str) else n
                     for n, s in zip(names, seats, strict=True)]
        result, problem = _result_of(path, loaded)
        sides = sides_of(loaded.ruleset, loaded.options)
        game = SavedGame(path, str(h.get("started", "")), names, str(h.get("kind", "")),
                         len(loaded.records), result, loaded.damage,
                         team=any(len(side) > 1 for side in sides),
                         game=loaded.ruleset.title, sides=sides,
                         seed=seed_text(h.get("seed")), problem=problem)
        if game.kind == "peer":
            key = game_key(h)
            peers.setdefault(key, []).append((game, [r["action"] for r in loaded.records]))
        out.append(game)
    for logs in peers.values():
        logs.sort(key=lambda g: -len(g[1]))  # the longest first
        for i, (game, acts) in enumerate(logs):
            keep = next((k for k, _a in logs[:i] if k in out and _a[:len(acts)] == acts),
                        None)
            if keep is not None:
                out.remove(game)
                keep.partial += 1
    return out


def _verify_text(data: bytes) -> str:
    """Verify an export text (``wizwar export``'s): every action line parses and is legal
    where it stands. Returns the PASS line's words; raises ``log.LogError`` in words (an
    export holds no hashes: the binary log is the one whose hashes verify)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise log.LogError(f"export text that is not UTF-8 (byte {exc.start})") from None
    tg = log.parse_text(text)
    if tg.damage:
        raise log.LogError(f"export text damaged at {tg.damage} "
                           f"({good_text(len(tg.actions))} before it)")
    try:
        st = tg.start()
        for i in range(len(tg.actions)):
            tg.step(st, i)
    except IllegalAction as exc:
        raise log.LogError(f"export text: action {i + 1} ({tg.actions[i]}) is illegal "
                           f"here: {exc.reason}") from None
    except ValueError as exc:  # (LogError among them: dice missing)
        raise log.LogError(f"export text: {exc}") from None
    res = tg.ruleset.result(st)
    return (f"export text, {actions_text(len(tg.actions))} replay, "
            f"{log.result_text(res)} (an export holds no hashes: verify the .wwlog for "
            "those)")


def verify_files(paths: list[str], echo: Callable[[str], None] = print) -> int:
    """``wizwar verify``: replay each log headless, check every stored hash and the end
    record's result (recomputed); an export text (``wizwar export``'s) is said as such and
    its actions replayed; a line per file and ``N passed, N failed``. Returns the exit
    status (1 on any failure)."""
    passed = failed = 0
    for p in paths:
        try:
            with open(p, "rb") as f:
                data = f.read()
            if data.lstrip().startswith(f"{log.EXPORT} ".encode()):
                echo(f"PASS {p}: {_verify_text(data)}")
                passed += 1
                continue
            loaded = log.read(data)
            if loaded.damage:
                raise log.LogError(f"damaged: {loaded.damage} "
                                   f"({good_text(len(loaded.records))} before it)")
            st = log.replay(loaded)
            fin = "" if loaded.end else " (unfinished)"
            echo(f"PASS {p}: {actions_text(len(loaded.records))}, final hash "
                 f"{loaded.ruleset.state_hash(st)}{fin}")
            passed += 1
        except (OSError, log.LogError) as exc:
            echo(f"FAIL {p}: {exc}")
            failed += 1
    echo(f"{passed} passed, {failed} failed")
    return 1 if failed or not paths else 0


def export_file(path: str, echo: Callable[[str], None] = print,
                warn: Callable[[str], None] | None = None, show_all: bool = False) -> int:
    """``wizwar export``: print the game as plain notation text. Returns the exit status:
    0 for a whole log; 1 when it cannot be read; 1 for a damaged log, whose good actions
    are still printed while ``warn`` (stderr) says where the log breaks; 1 for a log that
    does not verify (a stored hash or the end record's result other than the replay's:
    ``warn`` says which, as ``wizwar verify`` does). A game not over yet (no end record) is
    written as the log's player saw it (``viewer``; a bots-only log as a watcher): what he
    did not know is hidden (:func:`core.log.export_text`'s ``seen_as``), unless
    ``show_all`` (``--all``); a finished game shows all."""
    if warn is None:
        def warn(text: str) -> None:
            print(text, file=sys.stderr)
    try:
        with open(path, "rb") as f:
            loaded = log.read(f.read())
        seen_as = None if show_all or loaded.end is not None else str(
            loaded.header.get("viewer", ""))
        text = log.export_text(loaded, seen_as)
    except (OSError, log.LogError) as exc:
        warn(f"cannot export {path}: {exc}")  # on stderr: never mixed into the text
        return 1
    echo(text.rstrip("\n"))
    try:  # the text is the rules' replay; a stored hash or result that disagrees is said
        log.replay(loaded)
    except log.LogError as exc:
        warn(f"wizwar export: {path} does not verify: {exc} (`wizwar verify` fails it); "
             "the text is the game as the rules replay it")
        return 1
    if loaded.damage:
        echo(f"# the log was damaged: {loaded.damage}")
        warn(f"wizwar export: {path} is damaged: {loaded.damage}; only the "
             f"{actions_text(len(loaded.records))} before it "
             f"{'was' if len(loaded.records) == 1 else 'were'} exported")
        return 1
    return 0
