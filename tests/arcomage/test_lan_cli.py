"""ArcoMage on the LAN through the command line (issue 17, done-when): ``wizwar host arcomage
--headless --bot`` and ``wizwar join --headless --bot`` as two processes on 127.0.0.1 play a
whole game, print one final hash, and both saved logs pass ``wizwar verify``.

Bounded: a turn limit of 40, a fixed host seed, every wait with a timeout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _wizwar(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_headless_host_and_joiner_end_on_one_hash_and_both_logs_verify(tmp_path: Path) -> None:
    """Host (P1, the Pale Tower, which holds Magic Trap) and joiner (P2) are both bots; each
    prints ``final hash H`` with the same H, and ``wizwar verify`` passes both logs with
    that hash."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    host = _wizwar("host", "arcomage", "--headless", "--bot", "--bind", "127.0.0.1",
                   "--port", "0", "--no-advertise", "--seed", "11", "--turn-limit", "40",
                   env=env)
    procs = [host]
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", first)
        assert m, (first, host.stderr.read() if host.poll() is not None and host.stderr
                   else "")
        joiner = _wizwar("join", "--headless", "--bot", "--name", "ann", "--game", "arcomage",
                         f"127.0.0.1:{m.group(1)}", env=env)
        procs.append(joiner)
        results = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
    outs = [first + results[0][0], results[1][0]]
    assert [p.returncode for p in procs] == [0, 0], results
    hashes = [line.split()[-1] for o in outs for line in o.splitlines()
              if line.startswith("final hash")]
    assert len(hashes) == 2 and hashes[0] == hashes[1] and len(hashes[0]) >= 16, outs
    assert "seat P2" in outs[1]
    logs = sorted((tmp_path / "wizwar" / "games").glob("*.wwlog"))
    assert len(logs) == 2, logs
    assert any("-peer-ann-" in p.name for p in logs)
    r = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "verify", *map(str, logs)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("2 passed, 0 failed"), r.stdout
    assert "unfinished" not in r.stdout
    assert r.stdout.count(hashes[0]) == 2, r.stdout
