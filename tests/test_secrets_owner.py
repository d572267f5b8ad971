"""Owner-held secrets (issue 11, deliverable 3): a ruleset declares ``Secret(holder="owner")``;
the owner's process commits to its hidden value, answers the rules' questions about it on its
own, and opens it at the end, where one audit checks every commitment and every answer.

Proved with the test ruleset ``tests/secret_ruleset.py`` ("Hidden number"), locally (the
local process is every owner) and on the LAN over 127.0.0.1 (host + a joiner), including an
owner whose answer contradicts its commitment: caught at the end, reported in words, named.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
import secret_ruleset  # tests/secret_ruleset.py (pytest puts tests/ on the path)

from core import log
from core.session import LocalSession
from net.lan import HostGame, PeerGame


def _local_log(rs: Any) -> tuple[LocalSession, bytes]:
    buf = io.BytesIO()
    s = LocalSession.start(rs, {"rounds": 2}, seed=1, human="")
    s.record_to(buf.write)
    s.run_bots()
    return s, buf.getvalue()


def test_local_game_answers_from_the_owners_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """Locally the process is every owner: the reveal stages are answered by the rules from
    the secret, the game ends, and its log replays and passes the audit."""
    rs = secret_ruleset.register(monkeypatch)
    s, data = _local_log(rs)
    assert s.over
    acts = [str(a) for a in s.actions]
    assert acts[:2] == ["P1 hide 4", "P2 hide 7"] and len(acts) == 10
    numbers = {"P1": 4, "P2": 7}
    for ask, ans in zip(acts[2::2], acts[3::2], strict=True):
        asker, _verb, n = ask.split()
        owner = "P2" if asker == "P1" else "P1"
        assert ans == f"{owner} answer {'yes' if numbers[owner] >= int(n) else 'no'}"
    loaded = log.read(data)
    assert rs.state_hash(log.replay(loaded)) == s.digest()


def test_a_lie_in_a_log_is_caught_by_the_audit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log whose answer contradicts the owner's number fails its replay at the end's
    audit, naming the seat and the action."""
    rs = secret_ruleset.register(monkeypatch)
    s, data = _local_log(rs)
    loaded = log.read(data)
    r = loaded.records[3]  # P2's first answer
    assert r["action"][1] == "answer"
    r["action"] = [r["action"][0], "answer", "no" if r["action"][2] == "yes" else "yes"]
    with pytest.raises(log.LogError, match=r"P2 lied at action 4: it answered 'P2 answer"):
        log.audit_answers(loaded)
    with pytest.raises(log.LogError):
        log.replay(loaded)


class Liar(PeerGame):
    """A modified client: it answers the opposite of what its secret says."""

    def answer_for(self, st: Any) -> Any:
        honest = self.ruleset.answer(st, self.seat)
        return type(honest)(honest.actor, "answer", "no" if honest.arg == "yes" else "yes")


async def _lan(rs: Any, peer_cls: type[PeerGame] = PeerGame) -> tuple[HostGame, PeerGame,
                                                                       list[Any]]:
    bufs = [io.BytesIO(), io.BytesIO()]
    host = HostGame(ruleset=rs, options={"rounds": 2}, writer=bufs[0].write)
    port = await host.start()
    peer = peer_cls("127.0.0.1", port, ruleset=rs, name="joiner", writer=bufs[1].write)
    frames: list[dict[str, Any]] = []
    real = peer._handle

    async def spy(msg: dict[str, Any]) -> Any:
        frames.append(msg)
        return await real(msg)

    peer._handle = spy  # type: ignore[method-assign]
    try:
        res = await asyncio.wait_for(asyncio.gather(host.run(), peer.run(),
                                                    return_exceptions=True), 60)
    finally:
        await host.close()
    return host, peer, [res, frames, [log.read(b.getvalue()) for b in bufs]]
