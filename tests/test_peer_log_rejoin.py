"""A joined player's log across a rejoin from a new process (issue 17, found with ArcoMage;
shared by every game, ``net.logfiles.PeerLog``): the new process continues the file the
old one left instead of writing a second, complete one."""

from __future__ import annotations

import os

import pytest

from core import log, registry
from core.session import LocalSession
from net.logfiles import PeerLog, games_dir


def game_records(game: str, turn_limit: int | None = None) -> list[bytes]:
    """A bot game's encoded log records as a host would send them: header, actions, end."""
    rs = registry.get(game)
    out: list[bytes] = []
    opts = {"turn_limit": turn_limit} if turn_limit else {}
    s = LocalSession.start(rs, rs.validate_options(opts), 3, human="")
    s.record_to(out.append)
    s.run_bots()
    assert s.over
    return out


def peer_logs() -> list[str]:
    return sorted(f for f in os.listdir(games_dir()) if f.endswith(".wwlog"))


@pytest.mark.parametrize("game", ["arcomage", "wizwar"])
def test_a_rejoin_from_a_new_process_continues_the_log(game: str) -> None:
    """The first process writes the header and ten actions, then quits (its file closed);
    a new process (no PeerLog of this process knows the file) joins the same seat and is
    sent the whole game again, then plays on to the end: one file, every action once, it
    replays to the end without damage."""
    recs = game_records(game, 40 if game == "arcomage" else None)
    slot = ("127.0.0.1", 7654, "J")
    first = PeerLog(*slot)
    for data in recs[:11]:  # the header and actions 1..10
        first.write(data)
    first.close()
    assert len(peer_logs()) == 1
    PeerLog.joined.clear()  # a new process
    again = PeerLog(*slot)
    for data in recs:  # the catch-up (everything again), then the rest of the game
        again.write(data)
    again.close()
    assert peer_logs() == [os.path.basename(first.path)] and again.path == first.path
    with open(again.path, "rb") as f:
        loaded = log.read(f.read())
    assert not loaded.damage and loaded.end is not None
    assert len(loaded.records) == len(recs) - 2
    assert [r["seq"] for r in loaded.records] == list(range(1, len(recs) - 1))


def test_another_game_or_a_finished_one_gets_a_new_file() -> None:
    """A new process's join of another game (other seed), or of a game whose log has its
    end, writes a new file; so does one whose old file has a damaged tail."""
    recs = game_records("arcomage", 40)
    slot = ("127.0.0.1", 7654, "J")
    done = PeerLog(*slot)
    for data in recs:
        done.write(data)
    done.close()
    PeerLog.joined.clear()
    other = PeerLog(*slot)
    for data in recs[:5]:
        other.write(data)
    other.close()
    assert other.path != done.path and len(peer_logs()) == 2
    with open(other.path, "ab") as f:  # a record cut short (kill -9 while writing)
        f.write(recs[5][:3])
    PeerLog.joined.clear()
    third = PeerLog(*slot)
    for data in recs[:8]:
        third.write(data)
    third.close()
    assert third.path not in (done.path, other.path) and len(peer_logs()) == 3
