"""The text export of a networked ArcoMage game with a Magic Trap (rules.md R125, R126,
R128, R129; docs/log-format.md): the trapper's log (full casts and their salts) and the
victim's (redacted casts), finished (the end opens every sealed cast) or not, export to a
text that replays and verifies as the log does, and keeps the commitments and salts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core import log
from core.arcomage.ruleset import RULESET as R
from core.codec import pack
from core.engine import commitment
from wizwar_tui.saves import verify_files

NET = {"traps": "owner"}
SALT = "ab" * 16
SCRIPT = ["P1 cast magic-trap @P2:lightning", "P2 pass", "P1 cast firebolt @P2",
          "P2 cast lightning @P1", "P1 reveal lightning n=1"]


def _logs(finish: bool) -> tuple[bytes, bytes, str]:
    """The trapper's (host, P1) and the victim's (peer, P2) logs of the trial's game, as
    net/lan.py writes them, and the commitment of the sealed cast."""
    o = R.validate_options({})
    a, b = R.new_game(o, 9, deal=NET), R.new_game(o, 9, deal=NET)
    heads = [log.header(R, o, 9, kind=k, viewer=v, deal=NET) for k, v in
             (("host", "P1"), ("peer", "P2"))]
    recs: list[list[dict[str, Any]]] = [[], []]
    openings = []
    com = ""
    for i, text in enumerate(SCRIPT, 1):
        act = R.parse_action(text)
        sealed = R.seal(a, act)
        R.apply(a, act)
        if sealed is None:
            R.apply(b, act)
            recs[0].append(log.record(R, i, act, a, force_hash=True))
            recs[1].append(log.record(R, i, act, b, force_hash=True))
            continue
        com = commitment(pack(act.to_wire()).hex(), SALT)
        R.apply(b, sealed.public)
        recs[0].append(log.record(R, i, act, a, force_hash=True, sealed=[com, SALT]))
        recs[1].append(log.record(R, i, sealed.public, b, force_hash=True, sealed=[com]))
        openings.append([i, act.to_wire(), SALT])
    assert R.state_hash(a) == R.state_hash(b)
    out = []
    for h, rs, st in zip(heads, recs, (a, b), strict=True):
        data = log.encode(h) + b"".join(log.encode(r) for r in rs)
        if finish:
            R.apply(st, "P2 concede")
            data += log.encode(log.record(R, len(SCRIPT) + 1, R.parse_action("P2 concede"),
                                          st, force_hash=True))
            data += log.encode(log.end_record(R, st, openings=openings))
        out.append(data)
    return out[0], out[1], com


@pytest.mark.parametrize("finish", [False, True])
def test_both_logs_export_to_text_that_verifies(tmp_path: Path, finish: bool) -> None:
    """Each log verifies; its export verifies too (not refused as a local game's actions),
    and the text keeps the cast's commitment, and its salt where the writer knew it."""
    host, peer, com = _logs(finish)
    for who, data in (("host", host), ("peer", peer)):
        p = tmp_path / f"{who}.wwlog"
        p.write_bytes(data)
        loaded = log.read(data)
        log.replay(loaded)
        text = log.export_text(loaded)
        assert com in text, text
        if who == "host" or finish:
            assert SALT in text, text
        t = tmp_path / f"{who}.txt"
        t.write_text(text)
        said: list[str] = []
        assert verify_files([str(p), str(t)], said.append) == 0, said
        tg = log.parse_text(text)
        st = tg.start()
        for i in range(len(tg.actions)):
            tg.step(st, i)
        assert R.state_hash(st) == R.state_hash(log.replay(loaded))


def test_a_text_whose_salt_does_not_open_the_commitment_fails(tmp_path: Path) -> None:
    """A forged export (another trapped spell under the same commitment) fails in words."""
    host, _peer, _com = _logs(True)
    text = log.export_text(log.read(host))
    assert "@P2:lightning" in text
    bad = text.replace("@P2:lightning", "@P2:fireball", 1)
    t = tmp_path / "bad.txt"
    t.write_text(bad)
    said: list[str] = []
    assert verify_files([str(t)], said.append) == 1
    assert "does not open" in said[0], said
