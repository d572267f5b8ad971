"""Where games are saved, and the headless log tools: ``wizwar verify`` and ``wizwar export``.

Every game writes its log as it is played under the user data folder (platformdirs),
``games/`` inside it, one file per game, flushed after every record (docs/log-format.md).
"""

from __future__ import annotations

import datetime as _dt
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from core import log
from core.codec import unpack


def games_dir() -> str:
    """The folder of saved games (created on first use)."""
    from platformdirs import user_data_dir

    path = os.path.join(user_data_dir("wizwar"), "games")
    os.makedirs(path, exist_ok=True)
    return path


def now_text() -> str:
    """The start time for a log header (metadata only: never part of the replay)."""
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class LogFile:
    """An append-only log file, flushed after every record (so ``kill -9`` at any moment
    leaves a log that loads up to the last action applied).

    The file appears with its first record already in it: that record is written to
    ``PATH.part`` and renamed (atomic), so a game killed as it starts leaves no empty log
    (at most a ``.part`` file, which no listing reads)."""

    def __init__(self, path: str, append: bool = False) -> None:
        """``append``: ``path`` is a log already; records go after what it holds."""
        self.path = path
        self._f: BinaryIO | None = None  # created on the first record: no empty files
        if append:
            self._f = open(path, "ab")  # noqa: SIM115 - kept open for the whole game

    def write(self, data: bytes) -> None:
        """Append one record and flush it to the operating system. Raises ``OSError``."""
        if self._f is None:
            part = self.path + ".part"
            with open(part, "wb") as f:
                f.write(data)
            os.replace(part, self.path)
            self._f = open(self.path, "ab")  # noqa: SIM115 - kept open for the whole game
            return
        self._f.write(data)
        self._f.flush()

    def close(self) -> None:
        """Close the file (nothing was written: no file at all)."""
        if self._f is not None:
            self._f.close()


def new_log(kind: str, tag: str = "") -> LogFile:
    """A new log file in :func:`games_dir` named by time, kind and ``tag``."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(c for c in tag if c.isalnum() or c in "-_")[:30]
    name = f"{stamp}-{kind}{'-' + safe if safe else ''}-{secrets.token_hex(2)}.wwlog"
    return LogFile(os.path.join(games_dir(), name))


def _game_key(header: dict[str, Any]) -> str:
    """What tells one networked game (and seat) from another in a log header: the seed,
    the options, the seat that wrote it and the deal's commitments (never the start time)."""
    c = header.get("config") or {}
    return repr((header.get("seed"), sorted(c.items()) if isinstance(c, dict) else c,
                 header.get("viewer"), header.get("commits")))


class PeerLog:
    """A joined player's game log (``PeerGame.writer`` is its :meth:`write`) that a later
    join of the same game in this process continues instead of starting a second file.

    A joined player who leaves and joins again (same host, port and name: the seat token
    takes the same seat back) is sent the whole game again by the host: the header and
    every action. The first join writes them to a new file (:func:`new_log`); a rejoin of
    the same game (:func:`_game_key` of its header) appends only the actions after the
    last one the file holds, so the file stays one log that ``wizwar verify`` replays. A
    different game at the same address starts a new file.

    Attributes:
        path: the file written (a new file's path until a rejoin's header picks the old one).
    """

    joined: dict[tuple[str, int, str], PeerLog] = {}
    """The last log of each (host, port, name) in this process."""

    def __init__(self, host: str, port: int, name: str) -> None:
        self.slot = (host, port, name)
        self.file = new_log("peer", name)
        self.key = ""
        self.last = -1  # the last action written (-1: no header yet)
        self.ended = False

    @property
    def path(self) -> str:
        """The log file's path."""
        return self.file.path

    def write(self, data: bytes) -> None:
        """One encoded header or record; what the file already holds is skipped.
        Raises ``OSError``."""
        rec = unpack(data)
        if not isinstance(rec, dict):
            return
        if rec.get("format") == log.FORMAT:  # the header: a new game, or the same again
            self.key = _game_key(rec)
            prev = PeerLog.joined.get(self.slot)
            PeerLog.joined[self.slot] = self
            if prev is not None and prev is not self and prev.key == self.key \
                    and not prev.ended and prev.last >= 0 and os.path.exists(prev.path):
                self.file = LogFile(prev.path, append=True)
                self.last = prev.last
                return
            self.last = 0
        elif rec.get("end"):
            if self.ended:
                return
            self.ended = True
        else:
            seq = rec.get("seq")
            if not isinstance(seq, int) or seq <= self.last:
                return
            self.last = seq
        self.file.write(data)

    def close(self) -> None:
        """Close the file (the next join of the same game appends to it)."""
        self.file.close()


@dataclass
class SavedGame:
    """One entry of the saved-games list.

    ``players`` are the names by seat (P1 first); ``team`` is the team variant (P1+P3
    against P2+P4); ``partial`` counts the earlier logs of the same game that this one
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

    @property
    def players_text(self) -> str:
        """``ann vs bob``; the team variant by sides: ``P1+P3 vs P2+P4``."""
        return players_text(self.players, self.team)


def players_text(names: list[str], team: bool = False) -> str:
    """The players of a game for one line: ``P1 vs P2 vs P3``; with ``team`` (4 players)
    the sides: ``P1+P3 vs P2+P4`` (rulebook, Team Play Option: the 1st and 3rd against the
    2nd and 4th)."""
    if team and len(names) == 4:
        return f"{names[0]}+{names[2]} vs {names[1]}+{names[3]}"
    return " vs ".join(names)


def list_saved(folder: str | None = None) -> list[SavedGame]:
    """Saved games, newest first, with date, players and result.

    Left out: unreadable files; logs with no action (a game left before anyone acted:
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
        except (OSError, log.LogError):
            continue
        if not loaded.records and loaded.end is None:
            continue
        h = loaded.header
        c = h["config"]
        names = list(c.get("names") or [])
        names += [f"P{i + 1}" for i in range(len(names), int(c["players"]))]
        end = loaded.end
        result = (f"{end['winner']} won" if end and end.get("winner") not in ("", "-", None)
                  else "unfinished" if not end else "no winner")
        game = SavedGame(path, str(h.get("started", "")), names, str(h.get("kind", "")),
                         len(loaded.records), result, loaded.damage, team=bool(c.get("team")))
        if game.kind == "peer":
            key = repr((h.get("seed"), sorted(c.items()), h.get("viewer"), h.get("commits")))
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


def verify_files(paths: list[str], echo: Callable[[str], None] = print) -> int:
    """``wizwar verify``: replay each log headless, check every stored hash; a line per file
    and ``N passed, N failed``. Returns the exit status (1 on any failure)."""
    passed = failed = 0
    for p in paths:
        try:
            with open(p, "rb") as f:
                loaded = log.read(f.read())
            if loaded.damage:
                raise log.LogError(f"damaged: {loaded.damage} "
                                   f"({len(loaded.records)} good actions before it)")
            st = log.replay(loaded)
            fin = "" if loaded.end else " (unfinished)"
            echo(f"PASS {p}: {len(loaded.records)} actions, final hash "
                 f"{log.state_hash(st)}{fin}")
            passed += 1
        except (OSError, log.LogError) as exc:
            echo(f"FAIL {p}: {exc}")
            failed += 1
    echo(f"{passed} passed, {failed} failed")
    return 1 if failed or not paths else 0


def export_file(path: str, echo: Callable[[str], None] = print) -> int:
    """``wizwar export``: print the game as plain notation text. Returns the exit status."""
    try:
        with open(path, "rb") as f:
            loaded = log.read(f.read())
        text = log.export_text(loaded)
    except (OSError, log.LogError) as exc:
        echo(f"cannot export {path}: {exc}")
        return 1
    echo(text.rstrip("\n"))
    if loaded.damage:
        echo(f"# the log was damaged: {loaded.damage}")
    return 0
