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
from net.dealer import DealError
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


async def test_lan_owner_secret_kept_from_host_and_peer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Host (P1) and a joiner (P2) over 127.0.0.1: P2's number never reaches the host or any
    frame before the end; the host's state never holds it; P2's process answers the rules'
    questions on its own; at the end both open, both audits pass and every log replays."""
    rs = secret_ruleset.register(monkeypatch)
    host, peer, (res, frames, logs) = await _lan(rs)
    assert res[0] and res[0] == res[1], res
    assert host.audit == "" and peer.audit == "" and peer.audited
    hidden = [r for r in logs[1].records if r["action"][1] == "hide" and r["seat"] == "P2"]
    mine = hidden[0]["action"][2]  # P2's log keeps its number and salt
    assert isinstance(mine, int) and len(hidden[0]["sealed"]) == 2
    hosts = [r for r in logs[0].records if r["seat"] == "P2" and r["action"][1] == "hide"]
    assert hosts[0]["action"] == ["P2", "hide", None] and len(hosts[0]["sealed"]) == 1
    # the host's own state holds P1's number only, never P2's
    assert set(host.state["number"]) == {"P1"} and set(peer.state["number"]) == {"P2"}
    # P1's number reached P2 only in the end's openings
    p1 = [r for r in logs[0].records if r["seat"] == "P1" and r["action"][1] == "hide"][0]
    for f in frames:
        if f["type"] == "commit":
            assert f["action"][1] != "hide" or f["action"][2] is None, f
    end = [f for f in frames if f["type"] == "end"][0]
    assert [o[1] for o in end["openings"]] == [p1["action"], hidden[0]["action"]]
    answers = [r["action"] for r in logs[0].records if r["action"][1] == "answer"]
    assert len(answers) == 4 and all(a[2] in ("yes", "no") for a in answers)
    for x in logs:
        assert not x.damage and rs.state_hash(log.replay(x)) == res[0]


async def test_lan_cheating_owner_is_caught_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A joiner whose answers contradict its committed number: the game ends, the end's
    audit (which opens every secret) catches the lie and names P2 and the action, on the
    host and on the cheater's own side; the host's log fails its replay in the same words."""
    rs = secret_ruleset.register(monkeypatch)
    host, peer, (res, _frames, logs) = await _lan(rs, Liar)
    assert host.audit.startswith("P2 lied at action 4: it answered 'P2 answer"), host.audit
    assert isinstance(res[1], DealError) and "P2 lied at action 4" in str(res[1])
    with pytest.raises(log.LogError, match="P2 lied at action 4"):
        log.replay(logs[0])


class FalseOpener(PeerGame):
    """A modified client: at the end it opens its hidden number as another one."""

    async def _open_own(self) -> None:
        if self.state is None or not self.ruleset.result(self.state).over or \
                self._opened_own:
            return
        for com, (whole, salt) in list(self._own.items()):
            self._own[com] = ([whole[0], whole[1], whole[2] % 9 + 1], salt)
        for rec in self.sealed_seen:
            if rec[2] == self.seat and rec[3] is not None:
                rec[3] = [rec[3][0], rec[3][1], rec[3][2] % 9 + 1]
        await super()._open_own()


async def test_lan_false_opening_is_caught_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A joiner that opens its commitment with another number: the host refuses the
    opening and its audit names the action left unopened; the game does not pass."""
    rs = secret_ruleset.register(monkeypatch)
    host, peer, (res, _frames, logs) = await _lan(rs, FalseOpener)
    assert host.audit == "action 2 was sealed and the end record does not open it", host.audit
    assert isinstance(res[1], DealError) and "did not open sealed action 2" in str(res[1])
    with pytest.raises(log.LogError, match="action 2 was sealed"):
        log.replay(logs[0])
