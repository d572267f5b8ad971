"""Game logs (the logs issue): format, damage tolerance, versions, replay, verify, export."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import log, registry
from core.session import LocalSession
from core.wizwar.rules import apply
from core.wizwar.state import state_hash
from net.lan import HostGame, PeerGame
from wizwar_tui.saves import export_file, list_saved, verify_files

ROOT = Path(__file__).resolve().parents[1]


def _logged_game(players: int = 2, seed: int = 5) -> tuple[bytes, LocalSession]:
    buf = io.BytesIO()
    s = LocalSession.start(registry.get("wizwar"), {"players": players}, seed, human="")
    s.bots = tuple(w.seat for w in s.state.wizards)
    s.record_to(buf.write, started="2026-11-29T12:00:00Z")
    s.run_bots()
    assert s.over
    return buf.getvalue(), s


def test_log_replays_to_the_same_hash() -> None:
    """Header, a record per action, hashes every 10 actions and at the end; the replay
    reaches the live game's final hash."""
    data, s = _logged_game()
    loaded = log.read(data)
    assert not loaded.damage and loaded.end is not None
    assert len(loaded.records) == len(s.actions)
    assert [r["seq"] for r in loaded.records] == list(range(1, len(s.actions) + 1))
    assert all("hash" in r for r in loaded.records[9::10])
    assert state_hash(log.replay(loaded)) == s.digest() == loaded.end["hash"]


def test_every_cut_in_the_last_records_loads_up_to_the_one_before() -> None:
    """A log cut at any byte of its last action record (or of the end record) loads every
    record before it and says where it stopped."""
    data, s = _logged_game()
    full = log.read(data)
    n = len(full.records)
    last_start = len(data) - len(log.encode(full.end)) - len(log.encode(full.records[-1]))
    for cut in range(last_start + 1, len(data)):
        got = log.read(data[:cut])
        assert got.end is None
        assert len(got.records) in (n - 1, n)
        if cut < len(data) - len(log.encode(full.end)):
            assert len(got.records) == n - 1 and "truncated record" in got.damage
        log.replay(got)  # what is there replays


def test_corrupt_record_is_named() -> None:
    """A corrupted record stops the load there, naming the record and the byte."""
    data, _ = _logged_game()
    full = log.read(data)
    pos = len(log.encode(full.header)) + sum(len(log.encode(r)) for r in full.records[:7])
    broken = data[:pos] + b"\xc1" + data[pos + 1:]
    got = log.read(broken)
    assert len(got.records) == 7 and "record 8" in got.damage and f"byte {pos}" in got.damage
    swapped = bytearray(data)
    rec = log.encode(full.records[7])
    bad = log.encode({**full.records[7], "seq": 99})  # 8 and 99 are both 1-byte ints
    assert len(bad) == len(rec)
    swapped[pos:pos + len(rec)] = bad
    got = log.read(bytes(swapped))
    assert len(got.records) == 7 and "expected action 8" in got.damage


def test_newer_format_and_other_rules_refused() -> None:
    """A newer format is refused with a clear message; a log of another rules version is
    refused rather than replayed wrong."""
    data, _ = _logged_game()
    h = log.read(data).header
    rest = data[len(log.encode(h)):]
    with pytest.raises(log.LogError, match="newer"):
        log.read(log.encode({**h, "version": log.FORMAT_VERSION + 1}) + rest)
    with pytest.raises(log.LogError, match="rules version"):
        log.read(log.encode({**h, "rules_version": 0}) + rest)
    with pytest.raises(log.LogError, match="not a wizwar log"):
        log.read(b"hello")



def test_a_flipped_bit_in_the_header_is_named_not_a_crash(tmp_path: Path) -> None:
    """A header whose seed turned into a float (one flipped type byte) or whose key lost a
    letter ("kind" -> "jind") is refused in words by read, verify and export; export's
    message goes to stderr, never into the exported text (found by a new user)."""
    data, _ = _logged_game()
    h = log.read(data).header
    rest = data[len(log.encode(h)):]
    import msgpack

    floated = msgpack.packb({**h, "seed": 1.5}, use_bin_type=True)  # the codec writes no float
    with pytest.raises(log.LogError, match="seed of the wrong type"):
        log.read(floated + rest)
    bad = {("jind" if k == "kind" else k): v for k, v in h.items()}
    with pytest.raises(log.LogError, match="unknown key"):
        log.read(log.encode(bad) + rest)
    path = tmp_path / "bad.wwlog"
    path.write_bytes(floated + rest)
    out: list[str] = []
    err: list[str] = []
    assert verify_files([str(path)], echo=out.append) == 1
    assert any("wrong type" in line for line in out)
    out.clear()
    assert export_file(str(path), echo=out.append, warn=err.append) == 1
    assert out == [] and "cannot export" in err[0]


def test_tampered_action_fails_verify(tmp_path: Path) -> None:
    """`wizwar verify` passes good logs and fails a damaged or altered one, naming it."""
    data, _ = _logged_game()
    good = tmp_path / "good.wwlog"
    good.write_bytes(data)
    cut = tmp_path / "cut.wwlog"
    cut.write_bytes(data[:-7])
    full = log.read(data)
    recs = list(full.records)
    recs[12] = {**recs[12], "hash": "0" * 16}
    altered = tmp_path / "altered.wwlog"
    altered.write_bytes(b"".join(log.encode(x) for x in [full.header, *recs, full.end]))
    lines: list[str] = []
    assert verify_files([str(good)], lines.append) == 0
    assert lines[-1] == "1 passed, 0 failed"
    lines.clear()
    assert verify_files([str(good), str(cut), str(altered)], lines.append) == 1
    assert lines[-1] == "1 passed, 2 failed"
    assert "FAIL" in lines[1] and "truncated" in lines[1]
    assert "FAIL" in lines[2] and "action 13" in lines[2]


def test_replay_in_fresh_processes_any_hashseed(tmp_path: Path) -> None:
    """A saved game verifies in fresh processes under different PYTHONHASHSEED values."""
    data, _ = _logged_game(players=3, seed=8)
    f = tmp_path / "g.wwlog"
    f.write_bytes(data)
    outs = set()
    for seed in ("0", "7", "4242"):
        r = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "verify", str(f)],
                           cwd=ROOT, env=dict(os.environ, PYTHONHASHSEED=seed),
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        outs.add(r.stdout.splitlines()[0])
    assert len(outs) == 1


def test_export_text_replays_alone(tmp_path: Path) -> None:
    """The exported text (header lines + actions in notation, turn markers as comments)
    replays to the identical final state."""
    data, s = _logged_game(players=3, seed=2)
    text = log.export_text(log.read(data))
    assert text.startswith("wizwar-export 2\nruleset wizwar ") and "# round 2" in text
    assert "option players 3\n" in text
    game = log.parse_text(text)
    st = game.start()
    for a in game.actions:
        apply(st, a)
    assert state_hash(st) == s.digest()
    f = tmp_path / "g.wwlog"
    f.write_bytes(data)
    lines: list[str] = []
    assert export_file(str(f), lines.append) == 0
    assert lines[0].splitlines()[0] == "wizwar-export 2"


def test_saved_games_list(tmp_path: Path) -> None:
    """The saved-games list shows date, players and result."""
    data, s = _logged_game()
    (tmp_path / "a.wwlog").write_bytes(data)
    (tmp_path / "junk.wwlog").write_bytes(b"junk")
    games = list_saved(str(tmp_path))
    assert len(games) == 2
    junk = games.pop(next(i for i, g in enumerate(games) if g.path.endswith("junk.wwlog")))
    # listed with the reason, never hidden (trial 11 item 11)
    assert junk.unreadable and junk.result == "unreadable" and junk.note.startswith(
        "unreadable: ") and "header" in junk.damage
    assert games[0].started == "2026-11-29T12:00:00Z"
    assert games[0].result == f"{s.state.winner} won" and games[0].actions == len(s.actions)


async def test_networked_logs_agree_and_replay() -> None:
    """Host and peers each write a log: the same actions and hashes on every peer; each
    replays to the final hash; the export of the finished game replays the same game."""
    bufs = [io.BytesIO() for _ in range(3)]
    host = HostGame(players=3, writer=bufs[0].write)
    port = await host.start()
    peers = [PeerGame("127.0.0.1", port, writer=b.write) for b in bufs[1:]]
    try:
        res = await asyncio.wait_for(asyncio.gather(host.run(), *[p.run() for p in peers]),
                                     240)
    finally:
        await host.close()
    logs = [log.read(b.getvalue()) for b in bufs]
    assert [x.header["kind"] for x in logs] == ["host", "peer", "peer"]
    # an action sealed to a peer (Telepath's choose) is opened by the end record
    acts = [[log.opened_action(x, r) for r in x.records] for x in logs]
    hashes = [[r.get("hash") for r in x.records] for x in logs]
    assert acts[0] == acts[1] == acts[2] and hashes[0] == hashes[1] == hashes[2]
    for x in logs:
        assert not x.damage and state_hash(log.replay(x)) == res[0]
    game = log.parse_text(log.export_text(logs[1]))
    st = game.start()
    for i in range(len(game.actions)):
        game.step(st, i)  # with the dice reveals of the actions that roll
    final = log.replay(logs[0])
    # the text carries the revealed deal, not the dealer's commitments
    assert st.to_wire()["wizards"] == final.to_wire()["wizards"]
    assert st.winner == final.winner


def test_a_log_file_never_exists_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game killed as it starts leaves no empty ``.wwlog`` (``wizwar verify`` would fail
    it): the file appears by a rename, with its first record already in it; later records
    are appended."""
    from wizwar_tui import saves

    path = tmp_path / "g.wwlog"
    seen: list[tuple[bool, bytes]] = []
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        seen.append((Path(dst).exists(), Path(src).read_bytes()))
        real_replace(src, dst)

    monkeypatch.setattr(saves.os, "replace", replace)
    f = saves.LogFile(str(path))
    assert not path.exists()
    f.write(b"first record")
    assert seen == [(False, b"first record")]  # did not exist until it held the record
    f.write(b" second")
    f.close()
    assert path.read_bytes() == b"first record second" and len(seen) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.wwlog"]  # no .part left


def _as_peer(data: bytes, records: int | None = None, end: bool = True) -> bytes:
    """A local log rewritten as P2's joined-player log, cut to its first ``records``
    actions (and without the end record unless ``end``)."""
    loaded = log.read(data)
    h = dict(loaded.header, kind="peer", viewer="P2")
    recs = loaded.records if records is None else loaded.records[:records]
    out = log.encode(h) + b"".join(log.encode(r) for r in recs)
    if end and loaded.end is not None and records is None:
        out += log.encode(loaded.end)
    return out


def test_saved_games_list_leaves_out_logs_with_no_action(tmp_path: Path) -> None:
    """A game left before anyone acted has nothing to replay: not listed."""
    buf = io.BytesIO()
    s = LocalSession.start(registry.get("wizwar"), {"players": 2}, 5, human="")
    s.record_to(buf.write, started="2026-11-29T12:00:00Z")
    (tmp_path / "empty.wwlog").write_bytes(buf.getvalue())
    assert log.read(buf.getvalue()).records == []
    data, _s = _logged_game()
    (tmp_path / "full.wwlog").write_bytes(data)
    assert [os.path.basename(g.path) for g in list_saved(str(tmp_path))] == ["full.wwlog"]


def test_saved_games_list_shows_a_rejoined_game_once(tmp_path: Path) -> None:
    """A joined player who came back in a new process has two logs of one game, the later
    holding the whole game: listed once, marked with the earlier log. Local games of the
    same seed (not one game) and a peer log that is not a prefix stay listed."""
    data, s = _logged_game()
    (tmp_path / "1-first.wwlog").write_bytes(_as_peer(data, records=7))
    (tmp_path / "2-rejoined.wwlog").write_bytes(_as_peer(data))
    games = list_saved(str(tmp_path))
    assert [(os.path.basename(g.path), g.partial, g.actions) for g in games] == [
        ("2-rejoined.wwlog", 1, len(s.actions))]
    (tmp_path / "3-local.wwlog").write_bytes(data)
    (tmp_path / "4-local.wwlog").write_bytes(data)
    assert len(list_saved(str(tmp_path))) == 3
    # not the same actions: another game (kept)
    loaded = log.read(data)
    other = dict(loaded.records[0], seq=1)
    other["action"] = loaded.records[1]["action"]
    h = dict(loaded.header, kind="peer", viewer="P2")
    (tmp_path / "5-other.wwlog").write_bytes(log.encode(h) + log.encode(other))
    assert len(list_saved(str(tmp_path))) == 4


def test_saved_games_list_names_the_teams(tmp_path: Path) -> None:
    """A team game (4 players) shows its sides: ``P1+P3 vs P2+P4``."""
    buf = io.BytesIO()
    s = LocalSession.start(registry.get("wizwar"), {"players": 4, "team": True}, 3, human="", names=("ann", "bob", "cy", "dee"))
    s.record_to(buf.write, started="2026-11-29T12:00:00Z")
    for _ in range(3):
        s.step_bot()
    (tmp_path / "team.wwlog").write_bytes(buf.getvalue())
    data, _s = _logged_game(players=3)
    (tmp_path / "three.wwlog").write_bytes(data)
    games = {os.path.basename(g.path): g for g in list_saved(str(tmp_path))}
    assert games["team.wwlog"].team and games["team.wwlog"].players_text == "ann+cy vs bob+dee"
    assert games["three.wwlog"].players_text == "P1 vs P2 vs P3"


def _v1(name: str, rules_version: int | None = None) -> bytes:
    """A format-1 test log's bytes, its header's rules version set to ``rules_version``."""
    import msgpack

    data = (ROOT / "tests" / "data" / "logs-v1" / name).read_bytes()
    if rules_version is None:
        return data
    up = msgpack.Unpacker(raw=False)
    up.feed(data)
    h = up.unpack()
    return log.encode({**h, "rules_version": rules_version}) + data[up.tell():]


def test_format_1_logs_are_refused_in_words_for_their_rules_version() -> None:
    """Logs written before the log knew no game were played with rules version 3; round three's
    fixes (rules version 4) would replay them differently, so they are refused in words, not
    misread (docs/log-format.md)."""
    import json

    want = json.loads((ROOT / "tests" / "data" / "logs-v1" / "final-hashes.json").read_text())
    assert len(want) == 4
    rs = registry.get("wizwar")
    for name in want:
        with pytest.raises(log.LogError, match=f"rules version 3; this wizwar has rules "
                                                f"version {rs.version}"):
            log.read(_v1(name))


def test_format_1_headers_and_records_still_read() -> None:
    """The format-1 form (header ``config``, top-level faces and commits, reveals at a record's
    top level) is still understood: the options (crossed exits, team, doors), the deal and the
    reveals come out as from a format-2 log (the header's rules version set to today's)."""
    v = registry.get("wizwar").version
    for name in ("local-2p-crossed-seed5.wwlog", "local-4p-team-seed3.wwlog", "host-2p.wwlog",
                 "peer-2p.wwlog"):
        if not (ROOT / "tests" / "data" / "logs-v1" / name).is_file():
            continue
        loaded = log.read(_v1(name, v))
        assert loaded.header["version"] == 1 and not loaded.damage
        assert loaded.ruleset.name == "wizwar" and loaded.records
    crossed = log.read(_v1("local-2p-crossed-seed5.wwlog", v))
    assert crossed.options == {"players": 2, "crossed": True, "doors": False, "team": False}
    team = log.read(_v1("local-4p-team-seed3.wwlog", v))
    assert team.options["team"] and team.options["doors"]
    peer = log.read(_v1("peer-2p.wwlog", v))
    assert peer.deal["commits"] and any(log.reveals_of(r) for r in peer.records)


def test_a_log_of_an_unknown_ruleset_or_bad_options_is_refused_in_words() -> None:
    data, _s = _logged_game()
    h = log.read(data).header
    rest = data[len(log.encode(h)):]
    with pytest.raises(log.LogError, match="ruleset 'chess', which this wizwar does not know"):
        log.read(log.encode({**h, "ruleset": "chess"}) + rest)
    with pytest.raises(log.LogError, match="crossed exits are a 2-player variant"):
        log.read(log.encode({**h, "options": {**h["options"], "players": 3, "crossed": 1}})
                 + rest)
    assert h["options"] == {"players": 2, "crossed": 0, "doors": 0, "team": 0}


def test_the_log_works_for_any_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of another ruleset (the test-only "pick a number" of tests/pick_ruleset.py)
    is logged, read back through the registry, replayed, seeked, verified, exported and
    read from the export text: nothing in the log knows Wiz-War."""
    import pick_ruleset

    from core.session import LocalSession as Session

    rs = pick_ruleset.register(monkeypatch)
    buf = io.BytesIO()
    s = Session.start(rs, {"rounds": 4}, 0, human="")
    s.record_to(buf.write, started="2026-12-01T10:00:00Z")
    s.run_bots()
    assert s.over and len(s.actions) == 12
    loaded = log.read(buf.getvalue())
    assert loaded.ruleset is rs and loaded.options == {"rounds": 4} and not loaded.damage
    assert loaded.header["options"] == {"rounds": 4}
    assert rs.state_hash(log.replay(loaded)) == s.digest() == loaded.end["hash"]
    assert loaded.result() == s.result() and loaded.end["winner"] == "+".join(
        s.result().winners)
    assert rs.state_to_wire(log.Checkpoints(loaded, every=5).at(7)) == rs.state_to_wire(
        log.replay(loaded, upto=7))
    text = log.export_text(loaded)
    assert text.startswith("wizwar-export 2\nruleset pick-a-number 1\noption rounds 4\n")
    assert "# round 2\n" in text and text.endswith("# most points\n")
    game = log.parse_text(text)
    st = game.start()
    for a in game.actions:
        rs.apply(st, a)
    assert rs.state_hash(st) == s.digest()
    f = tmp_path / "pick.wwlog"
    f.write_bytes(buf.getvalue())
    lines: list[str] = []
    assert verify_files([str(f)], lines.append) == 0 and lines[0].startswith("PASS")
    (g,) = list_saved(str(tmp_path))
    assert g.game == "Pick a number" and g.players == ["P1", "P2", "P3"]
    tampered = bytearray(buf.getvalue())
    loaded.records[5]["action"][1] = 9 if loaded.records[5]["action"][1] != 9 else 8
    bad = b"".join(log.encode(x) for x in [loaded.header, *loaded.records, loaded.end])
    assert bytes(tampered) != bad
    with pytest.raises(log.LogError, match="hash"):
        log.replay(log.read(bad))


def test_a_flipped_bit_in_any_record_key_fails_verify(tmp_path: Path) -> None:
    """One flipped bit in a key of a record (an action record or the end record), or a value
    of the wrong type, makes ``wizwar verify`` FAIL naming the record (issue 12: a flipped
    bit in ``hash`` or ``seat`` passed)."""
    data, _ = _logged_game()
    full = log.read(data)
    hashed = next(i for i, r in enumerate(full.records) if "hash" in r)
    recs = list(full.records)
    cases: list[tuple[str, list[Any], Any]] = []
    for key in ("hash", "seat", "seq", "action"):
        flipped = chr(ord(key[0]) ^ 1) + key[1:]
        r = {(flipped if k == key else k): v for k, v in recs[hashed].items()}
        cases.append((f"{key}->{flipped}", [*recs[:hashed], r, *recs[hashed + 1:]], full.end))
    for key in ("hash", "result", "winner"):
        flipped = chr(ord(key[0]) ^ 1) + key[1:]
        end = {(flipped if k == key else k): v for k, v in full.end.items()}
        cases.append((f"end {key}->{flipped}", recs, end))
    cases.append(("seat of the wrong type", [*recs[:hashed], {**recs[hashed], "seat": 1},
                                             *recs[hashed + 1:]], full.end))
    cases.append(("seat of another player", [*recs[:hashed], {**recs[hashed], "seat": "P9"},
                                             *recs[hashed + 1:]], full.end))
    for what, rs, end in cases:
        f = tmp_path / "bad.wwlog"
        f.write_bytes(b"".join(log.encode(x) for x in [full.header, *rs, end]))
        lines: list[str] = []
        assert verify_files([str(f)], lines.append) == 1, what
        assert lines[0].startswith("FAIL") and "damaged" in lines[0], (what, lines)
        want = "the end record" if what.startswith("end") else f"record {hashed + 1}"
        assert want in lines[0], (what, lines[0])


def test_undecodable_bytes_are_told_in_words() -> None:
    """Bytes that are not UTF-8 text (or not msgpack at all) are named with the record and
    the byte, never with Python's exception text (issue 12)."""
    data, _ = _logged_game()
    full = log.read(data)
    pos = len(log.encode(full.header)) + sum(len(log.encode(r)) for r in full.records[:7])
    at = data.index(b"seat", pos)
    broken = bytearray(data)
    broken[at] = 0xFF
    got = log.read(bytes(broken))
    assert len(got.records) == 7
    assert got.damage == (f"corrupt record 8 at byte {pos}: a text in it is not valid UTF-8 "
                          f"(byte 0xff at byte {at}): the file is damaged there")
    head = bytearray(data)
    head[data.index(b"ruleset")] = 0xFF
    with pytest.raises(log.LogError) as exc:
        log.read(bytes(head))
    assert "not valid UTF-8" in str(exc.value)
    for text in (got.damage, str(exc.value)):
        assert "codec" not in text and "Error" not in text and "position" not in text


def test_export_of_a_cut_log_says_where_on_stderr_and_fails(tmp_path: Path) -> None:
    """``wizwar export`` of a truncated log prints its good actions, says on stderr where the
    log breaks and exits 1 (README, Saved games); a whole log exports with 0 and no warning."""
    data, _ = _logged_game()
    f = tmp_path / "cut.wwlog"
    f.write_bytes(data[:-7])
    out: list[str] = []
    err: list[str] = []
    assert export_file(str(f), out.append, err.append) == 1
    assert out[0].startswith("wizwar-export 2")
    assert len(err) == 1 and "is damaged: " in err[0] and "at byte" in err[0]
    whole = tmp_path / "whole.wwlog"
    whole.write_bytes(data)
    err.clear()
    assert export_file(str(whole), out.append, err.append) == 0 and not err
    r = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "export", str(f)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1 and "is damaged" in r.stderr and "wizwar-export 2" in r.stdout


def test_a_byte_no_log_holds_is_told_as_damage_at_that_byte() -> None:
    """A record starting with a byte msgpack never uses (0xc1) reads "the file is damaged
    at byte N", not "not a msgpack value" (issue 12: internal words)."""
    data, _ = _logged_game()
    full = log.read(data)
    pos = len(log.encode(full.header)) + sum(len(log.encode(r)) for r in full.records[:3])
    broken = bytearray(data)
    broken[pos] = 0xC1
    got = log.read(bytes(broken))
    assert len(got.records) == 3
    assert got.damage.endswith(f"the file is damaged at byte {pos} (no log holds what is "
                               "there)"), got.damage
    assert "msgpack" not in got.damage


def test_held_header_writes_nothing_until_the_first_action() -> None:
    """Issue 12: a game killed before anyone acted left a header-only file. The header
    (and a LAN deal's records) wait for the first action and go out with it, in one call
    for a log file (created at once) or one call each for a joined player's log; an end
    record with no action before it is dropped."""
    from net.logfiles import HeldHeader

    s = LocalSession.start(registry.get("wizwar"), {"players": 2}, 5, human="")
    head = log.encode(log.header(s.ruleset, s.options, s.seed, kind="local"))
    s.step_bot()
    rec1 = log.encode(log.record(s.ruleset, 1, s.actions[0]))
    s.step_bot()
    rec2 = log.encode(log.record(s.ruleset, 2, s.actions[1]))
    calls: list[bytes] = []
    h = HeldHeader(calls.append)
    h.write(head)
    assert calls == []
    h.write(rec1)
    assert calls == [head + rec1]
    h.write(rec2)
    assert calls == [head + rec1, rec2]
    assert len(log.read(b"".join(calls)).records) == 2
    each: list[bytes] = []
    h2 = HeldHeader(each.append, joined=False)
    h2.write(head)
    h2.write(rec1)
    assert each == [head, rec1]
    none: list[bytes] = []
    h3 = HeldHeader(none.append)
    h3.write(head)
    h3.write(log.encode(log.end_record(s.ruleset, s.state)))
    assert none == []  # ended (or left) before any action: no file at all


def test_a_forged_result_fails_verify_and_is_not_shown(tmp_path: Path) -> None:
    """An end record whose result (or older readers' ``winner``) names another winner than
    the game replayed gives: ``wizwar verify`` FAILs it in words, the saved-games row shows
    the recomputed result and that the log does not verify (trial 11 item 6)."""
    data, s = _logged_game()
    full = log.read(data)
    real = s.state.winner
    other = next(p for p in ("P1", "P2") if p != real)
    forged_result = {**full.end["result"], "winners": [other]}
    for what, end in (("result", {**full.end, "result": forged_result, "winner": other}),
                      ("winner", {**full.end, "winner": other})):
        f = tmp_path / "forged.wwlog"
        f.write_bytes(b"".join(log.encode(x) for x in [full.header, *full.records, end]))
        lines: list[str] = []
        assert verify_files([str(f)], lines.append) == 1, what
        assert lines[0].startswith("FAIL") and f"says {other} won" in lines[0], lines
        assert f"ends with {real} won" in lines[0], lines
        (g,) = list_saved(str(tmp_path))
        assert g.result == f"{real} won" and f"says {other} won" in g.problem, (what, g)
        assert g.note == "does not verify"
    ok = tmp_path / "forged.wwlog"
    ok.write_bytes(data)
    assert verify_files([str(ok)], [].append) == 0


def test_export_of_a_log_with_a_wrong_hash_warns_and_fails(tmp_path: Path) -> None:
    """``wizwar export`` of a log whose stored hash is wrong still prints the text, but
    warns as ``wizwar verify`` fails it, and exits 1 (trial 11 item 12)."""
    data, _ = _logged_game()
    full = log.read(data)
    recs = [dict(r) for r in full.records]
    i = next(k for k, r in enumerate(recs) if "hash" in r)
    recs[i]["hash"] = "0" * len(recs[i]["hash"])
    f = tmp_path / "bad.wwlog"
    f.write_bytes(b"".join(log.encode(x) for x in [full.header, *recs, full.end]))
    out: list[str] = []
    warned: list[str] = []
    assert export_file(str(f), out.append, warned.append) == 1
    assert out and out[0].startswith("wizwar-export 2")
    assert len(warned) == 1 and "does not verify" in warned[0], warned
    assert f"action {i + 1}" in warned[0] and "hash" in warned[0]
    good = tmp_path / "good.wwlog"
    good.write_bytes(data)
    warned.clear()
    assert export_file(str(good), [].append, warned.append) == 0 and not warned


def test_verify_of_an_export_text_says_what_it_is(tmp_path: Path) -> None:
    """``wizwar verify`` of an export text: says it is one and replays its actions (PASS),
    or FAILs naming the line (trial 11 items 13, 14)."""
    data, s = _logged_game()
    text = log.export_text(log.read(data))
    f = tmp_path / "g.txt"
    f.write_text(text)
    lines: list[str] = []
    assert verify_files([str(f)], lines.append) == 0, lines
    assert lines[0].startswith(f"PASS {f}: export text, {len(s.actions)} actions replay")
    assert f"{s.state.winner} won" in lines[0] and "verify the .wwlog" in lines[0]
    body = text.splitlines()
    k = next(i for i, x in enumerate(body) if x.startswith("P") and i > 10)
    f.write_text("\n".join([*body[:k], "P1 fly north", *body[k + 1:]]) + "\n")
    lines.clear()
    assert verify_files([str(f)], lines.append) == 1
    assert lines[0].startswith(f"FAIL {f}: export text damaged at line {k + 1}:"), lines


def test_a_damaged_export_text_keeps_its_good_actions() -> None:
    """Export text whose action part breaks (a line no game writes, an action that does not
    parse) keeps the actions before it and says the line, as a damaged log does; a bad
    header line is still refused (trial 11 item 14)."""
    data, _ = _logged_game()
    body = log.export_text(log.read(data)).splitlines()
    acts = [i for i, x in enumerate(body) if x[:1] == "P" and x[1:2].isdigit()]
    k = acts[5]
    for bad in ("P1 fly north", "bogus line"):
        tg = log.parse_text("\n".join([*body[:k], bad, *body[k + 1:]]) + "\n")
        assert len(tg.actions) == 5 and tg.damage.startswith(f"line {k + 1}:"), tg.damage
    whole = log.parse_text("\n".join(body) + "\n")
    assert not whole.damage and len(whole.actions) == len(acts)
    with pytest.raises(log.LogError, match="line 3: unknown line 'bogus'"):
        log.parse_text("\n".join([*body[:2], "bogus line", *body[2:]]) + "\n")


def test_the_wordings(tmp_path: Path) -> None:
    """One action is "1 action", never "1 actions"; a header without a ruleset key says so
    rather than "ruleset None" (trial 11 item 22)."""
    data, _ = _logged_game()
    full = log.read(data)
    f = tmp_path / "one.wwlog"
    f.write_bytes(log.encode(full.header) + log.encode(full.records[0]))
    lines: list[str] = []
    assert verify_files([str(f)], lines.append) == 0
    assert ": 1 action, final hash" in lines[0], lines
    h = {k: v for k, v in full.header.items() if k != "ruleset"}
    with pytest.raises(log.LogError) as exc:
        log.read(log.encode(h) + log.encode(full.records[0]))
    assert "None" not in str(exc.value) and "names no ruleset" in str(exc.value)


def test_result_text_calls_a_draw_a_draw() -> None:
    """The saved-games list and the replay's header said ``no winner`` where the game said
    "A draw" (trialWK finding 14); an outcome the rules call a draw is ``a draw``."""
    from core.engine import Outcome

    assert log.result_text(Outcome(True, (), True, "turn-limit", "")) == "a draw"
    assert log.result_text(Outcome(True, (), False, "", "")) == "no winner"
    assert log.result_text(Outcome(True, ("P1", "P3"), False, "", "")) == "P1+P3 won"
    assert log.result_text(Outcome()) == "unfinished"


def test_the_headless_winner_line_says_a_draw_in_words() -> None:
    """``wizwar host --headless`` ended a drawn game with a bare ``winner -``; the line now
    gives the game's words for why no one won, and a winner as before."""
    from core.engine import Outcome
    from net.cli import _winner_line

    assert _winner_line(Outcome(True, (), True, "turn-limit", "")) == "winner - (a draw)"
    assert _winner_line(Outcome(True, (), False, "", "")) == "winner - (no winner)"
    assert _winner_line(Outcome(True, ("P1", "P3"), False, "", "")) == "winner P1+P3"
