"""R111-R112 on the LAN: with ArcoMage's clock on, the host keeps each player's **turn
budget** across his decisions of the turn and gives a fresh **response budget** to each
answer (``Ruleset.budget``); an empty budget becomes a logged action (``P2 timeout``, or the
default answer: a pass), never a guess of the peer's; a peer's own ``timeout`` is refused.

The budgets are cut to a second or two for the test (``RULESET.budget`` wrapped); the state
still says 60 seconds, so the rules accept the timeout as they would."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from typing import Any

import pytest

from core import log
from core.arcomage.ruleset import RULESET as R
from core.arcomage.ruleset import ArcoMage
from core.engine import IllegalAction
from net.lan import HostGame, PeerGame
from net.session import NetSession

OPTS = {"clock": 60, "p1_book": "iron-dojo", "p2_book": "pale-tower", "turn_limit": 40}
TURN, RESPONSE = 2.0, 0.3


@pytest.fixture(autouse=True)
def _short_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ArcoMage.budget

    def short(self: Any, state: Any, player: str) -> Any:
        b = real(self, state, player)
        if b is None:
            return None
        return replace(b, seconds=TURN if b.key.startswith("turn") else RESPONSE)  # type: ignore[arg-type]

    monkeypatch.setattr(ArcoMage, "budget", short)


def test_budgets_follow_r111() -> None:
    """The active player's decisions with no enemy spell on top share ``turn N P1``; an
    answer to an enemy spell has its own key and runs out into a pass; no clock, no
    budget."""
    st = R.new_game(R.validate_options({"clock": 60}), 3)
    b = R.budget(st, "P1")
    assert b is not None and b.key == "turn 1 P1" and str(b.runs_out) == "P1 timeout"
    assert R.budget(st, "P2") is None  # not to move
    R.apply(st, "P1 cast protection")
    b2 = R.budget(st, "P2")
    assert b2 is not None and b2.key == f"response {st.d['seq']}" and str(b2.runs_out) == \
        "P2 pass"
    assert R.budget(R.new_game(R.validate_options({}), 3), "P1") is None
    assert "never proposed" in R.keeper_only(R.parse_action("P2 timeout"))
    assert "never proposed" in R.keeper_only("P2 timeout")
    assert R.keeper_only(R.parse_action("P2 pass")) == ""


class SlowPlayer(PeerGame):
    """P2: in its own first MAIN it makes one decision after a while (a ``move`` or a cast,
    never ``end``), then proposes its own ``timeout`` (refused), then nothing: its turn
    budget must run out at the host. It answers nothing else (its responses run out)."""

    acted_left: float | None = None
    refused: str = ""

    def _commit(self, msg: dict[str, Any]) -> None:
        super()._commit(msg)
        st = self.state
        assert st is not None
        g = st.d
        if g["active"] == "P2" and g["step"] == "main" and not g["stack"] and \
                self.acted_left is None and "P2" in R.to_move(st):
            acts = [str(a) for a in R.legal_actions(st, "P2")]
            pick = next(a for a in acts if not a.endswith((" end", " pass")))
            self.acted_left = -1.0
            asyncio.get_running_loop().call_later(0.5, self._play, pick)

    def _play(self, text: str) -> None:
        NetSession(self).submit(text)
        self.stamp(R.parse_action("P2 timeout"))
        assert self.local_actions is not None
        self.local_actions.put_nowait(R.parse_action("P2 timeout"))


async def test_the_host_enters_the_timeout_when_the_turn_budget_runs_out() -> None:
    """P1 is the host's bot; P2 never ends its turn: after P2's one decision the rest of
    its turn budget runs out and the host enters ``P2 timeout`` (logged, applied by both
    cores), P2's unanswered responses became passes, P2's own ``timeout`` proposal was
    refused, and both sides keep one hash."""
    bufs = [io.BytesIO(), io.BytesIO()]
    host = HostGame(ruleset=R, options=dict(OPTS), local_bot=True, writer=bufs[0].write)
    port = await host.start()
    peer = SlowPlayer("127.0.0.1", port, ruleset=R, name="slow", bot_play=False,
                      writer=bufs[1].write)
    rejects: list[str] = []
    real = peer._handle

    async def spy(msg: dict[str, Any]) -> Any:
        if msg.get("type") == "reject":
            rejects.append(msg["reason"])
        return await real(msg)

    peer._handle = spy  # type: ignore[method-assign]
    spent: list[tuple[str, float]] = []
    real_spend = host._spend

    def spend(budget: Any, since: float) -> float:
        spent.append((budget.key, real_spend(budget, since)))
        return spent[-1][1]

    host._spend = spend  # type: ignore[method-assign]
    run = asyncio.gather(host.run(), peer.run(), return_exceptions=True)
    try:
        async with asyncio.timeout(120):
            while "P2 timeout" not in host.actions:
                await asyncio.sleep(0.05)
            seq = len(host.actions)
            while len(peer.actions) < seq:
                await asyncio.sleep(0.05)
    finally:
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        await host.close()
    acts = host.actions
    i = acts.index("P2 timeout")
    turn2 = acts[:i]
    mine = [a for a in turn2 if a.startswith("P2 ") and a != "P2 pass"]
    assert len(mine) == 1, turn2  # one decision, then the rest of the budget ran out
    assert peer.actions[: i + 1] == acts[: i + 1]
    assert peer.state is not None
    assert R.state_hash(peer.state) == host.hashes[len(peer.actions)]
    assert any("never proposed" in r for r in rejects), rejects
    # one budget for the turn: P2's decision took some of it, the rest ran out later
    turn = [left for key, left in spent if key == "turn 2 P2"]
    assert len(turn) >= 2 and 0 < turn[0] < TURN and turn[-1] == 0.0, spent
    assert host.budget_left["turn 2 P2"] == 0.0, host.budget_left
    # each answer of P2's had a fresh response budget of its own
    responses = [key for key, _ in spent if key.startswith("response ")]
    assert responses and len(set(responses)) == len(responses), spent
    # through the Session protocol a player's own timeout is refused before it is sent
    with pytest.raises(IllegalAction, match="never proposed"):
        NetSession(peer).submit("P2 timeout")
    rec = log.read(bufs[0].getvalue())
    assert any(r["action"][:2] == ["P2", "timeout"] for r in rec.records)
