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
from typing import BinaryIO

from core import log


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

    def __init__(self, path: str) -> None:
        self.path = path
        self._f: BinaryIO | None = None  # created on the first record: no empty files

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


@dataclass
class SavedGame:
    """One entry of the saved-games list."""

    path: str
    started: str
    players: list[str]
    kind: str
    actions: int
    result: str
    damage: str


def list_saved(folder: str | None = None) -> list[SavedGame]:
    """Saved games, newest first, with date, players and result (unreadable files skipped)."""
    folder = folder or games_dir()
    out = []
    for name in sorted(os.listdir(folder), reverse=True):
        if not name.endswith(".wwlog") or os.path.getsize(os.path.join(folder, name)) == 0:
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                loaded = log.read(f.read())
        except (OSError, log.LogError):
            continue
        c = loaded.header["config"]
        names = list(c.get("names") or [f"P{i + 1}" for i in range(int(c["players"]))])
        end = loaded.end
        result = (f"{end['winner']} won" if end and end.get("winner") not in ("", "-", None)
                  else "unfinished" if not end else "no winner")
        out.append(SavedGame(path, str(loaded.header.get("started", "")), names,
                             str(loaded.header.get("kind", "")), len(loaded.records), result,
                             loaded.damage))
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
