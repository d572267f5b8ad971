"""Saved game logs on disk: the folder, append-only log files, a joined player's log that a
rejoin continues (docs/log-format.md). Shared by ``net/`` (``wizwar host``/``join``, SSH) and
the app; it knows no game.
"""

from __future__ import annotations

import datetime as _dt
import os
import secrets
from collections.abc import Callable
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

    def discard(self) -> None:
        """Close the file and remove it: a game left before anyone acted is not kept (its
        log would hold only a header; the saved-games list and ``wizwar verify`` would
        show it as a game of 0 actions). A file already gone is no error; another
        ``OSError`` is raised."""
        self.close()
        self._f = None
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass


class HeldHeader:
    """A log writer that holds the records before the first action (the header; a LAN
    game's header comes at the deal) in memory and writes them with that action, so a game
    left or killed before anyone acted leaves no file (issue 12). Records after the first
    action go straight through; an end record with no action before it is dropped.

    ``joined``: the held records and the action go out in one call (a :class:`LogFile`
    then creates the file with all of them at once); else one call each (a
    :class:`PeerLog`, which reads one record per call). ``write`` raises what the target
    raises (``OSError``); the held records are kept until they are written."""

    def __init__(self, target: Callable[[bytes], None], joined: bool = True) -> None:
        self.target = target
        self.joined = joined
        self.held: list[bytes] = []
        self.acted = False

    def write(self, data: bytes) -> None:
        """One encoded record (see the class)."""
        if self.acted:
            self.target(data)
            return
        rec = unpack(data)
        if not (isinstance(rec, dict) and "action" in rec):
            if not (isinstance(rec, dict) and rec.get("end") is True):
                self.held.append(data)
            return
        out = [*self.held, data]
        if self.joined:
            self.target(b"".join(out))
        else:
            for d in out:
                self.target(d)
        self.held = []
        self.acted = True


def _safe_tag(tag: str) -> str:
    """``tag`` as it stands in a log's file name."""
    return "".join(c for c in tag if c.isalnum() or c in "-_")[:30]


def log_name(kind: str, tag: str = "", unique: str = "") -> str:
    """The file name of a saved game: ``DATE-TIME-KIND[-TAG]-UNIQUE.wwlog``, for every
    kind of game (local, host, peer, poker), so that the saved games sort by time and read
    alike (issue 12: a mental-poker game was ``poker-<id>-P1.wwlog``). ``unique``: what
    tells two games of one second apart (default: 4 random hex digits)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = _safe_tag(tag)
    return f"{stamp}-{kind}{'-' + safe if safe else ''}-{unique or secrets.token_hex(2)}.wwlog"


def new_log(kind: str, tag: str = "") -> LogFile:
    """A new log file in :func:`games_dir` named by time, kind and ``tag``
    (:func:`log_name`)."""
    return LogFile(os.path.join(games_dir(), log_name(kind, tag)))


#: how many of a name's newest peer logs a rejoin from a new process looks through
REJOIN_LOOKBACK = 20


def unfinished_peer_log(key: str, name: str) -> tuple[str, int] | None:
    """A joined player's log on disk that a rejoin from a new process continues: the
    newest of ``name``'s peer logs (of the last :data:`REJOIN_LOOKBACK`) whose header is of
    the game ``key`` (:func:`game_key`), read whole without damage, with no end record and
    at least one action; with the number of actions it holds. None when there is none (a
    damaged one is never continued: the rejoin writes a new, complete file)."""
    safe = _safe_tag(name)
    mark = f"-peer-{safe}-" if safe else "-peer-"
    try:
        folder = games_dir()
        names = sorted((n for n in os.listdir(folder)
                        if n.endswith(".wwlog") and mark in n), reverse=True)
    except OSError:
        return None
    for n in names[:REJOIN_LOOKBACK]:
        path = os.path.join(folder, n)
        try:
            with open(path, "rb") as f:
                loaded = log.read(f.read())
        except (OSError, log.LogError):
            continue
        if loaded.damage or loaded.end is not None or not loaded.records:
            continue
        if game_key(loaded.header) == key:
            return path, len(loaded.records)
    return None


def game_key(header: dict[str, Any]) -> str:
    """What tells one networked game (and seat) from another in a log header: the ruleset,
    the seed, the options, the seat that wrote it and the deal (never the start time)."""
    c = header.get("options", header.get("config")) or {}
    deal = header.get("deal")
    if deal is None:
        deal = header.get("commits")  # format 1
    elif isinstance(deal, dict):
        deal = deal.get("commits", deal)
    return repr((header.get("ruleset"), header.get("seed"),
                 sorted(c.items()) if isinstance(c, dict) else c,
                 header.get("viewer"), deal))


class PeerLog:
    """A joined player's game log (``PeerGame.writer`` is its :meth:`write`) that a later
    join of the same game continues instead of starting a second file: in this process,
    or in a new one (the app quit and ``wizwar join`` again).

    A joined player who leaves and joins again (same host, port and name: the seat token
    takes the same seat back) is sent the whole game again by the host: the header and
    every action. The first join writes them to a new file (:func:`new_log`); a rejoin of
    the same game (:func:`game_key` of its header) appends only the actions after the
    last one the file holds, so the file stays one log that ``wizwar verify`` replays. A
    different game at the same address starts a new file. A new process finds the file on
    disk (:func:`unfinished_peer_log`: the name's newest unfinished, undamaged log of that
    game).

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
            self.key = game_key(rec)
            prev = PeerLog.joined.get(self.slot)
            PeerLog.joined[self.slot] = self
            if prev is not None and prev is not self and prev.key == self.key \
                    and not prev.ended and prev.last >= 0 and os.path.exists(prev.path):
                self.file = LogFile(prev.path, append=True)
                self.last = prev.last
                return
            if prev is None:  # a new process: the log an earlier one left, if any
                found = unfinished_peer_log(self.key, self.slot[2])
                if found is not None:
                    self.file = LogFile(found[0], append=True)
                    self.last = found[1]
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
