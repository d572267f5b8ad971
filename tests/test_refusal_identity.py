"""A refused action leaves the state exactly as it was (issue 14, ninth round): along 16
seeded Wiz-War games, probed actions the rules refuse are applied, and each must raise
``IllegalAction`` with a reason while the state hash and the packed wire form stay the same.

This pins the contract an undo journal (or any one-dispatch ``apply``) must keep. Source:
core/engine.py, "Rules that raise IllegalAction leave the state exactly as it was
(byte-identical wire form)"."""

from __future__ import annotations

import pytest

from core import registry
from core.codec import pack
from core.engine import IllegalAction
from core.rng import Rng

RS = registry.get("wizwar")

#: (players, seed): 16 seeded games over 2, 3 and 4 players.
GAMES = [(2 + i % 3, 100 + i) for i in range(16)]
STEPS = 120
PROBE_EVERY = 15
TRIES = 6


def _bytes(state: object) -> bytes:
    return pack(RS.state_to_wire(state))


@pytest.mark.parametrize("players,seed", GAMES)
def test_refused_actions_leave_hash_and_wire_identical(players: int, seed: int) -> None:
    """Every refused probe action raises with a reason and moves neither the state hash
    nor the wire bytes; legal play goes on afterwards as if it had not been tried."""
    options = RS.validate_options({"players": players})
    state = RS.new_game(options, seed)
    pick = Rng.from_seed(f"refusal-identity {players} {seed}")
    refused = 0
    for step in range(STEPS):
        movers = RS.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if step % PROBE_EVERY == 0:
            probes = RS.probe_actions(state, seat)
            for _ in range(TRIES):
                a = probes[pick.below(len(probes))]
                if not RS.why_illegal(state, a):
                    continue
                h, b = RS.state_hash(state), _bytes(state)
                with pytest.raises(IllegalAction) as exc:
                    RS.apply(state, a)
                assert exc.value.reason, f"{a} refused without a reason"
                assert RS.state_hash(state) == h, f"step {step}: refused {a} moved the hash"
                assert _bytes(state) == b, f"step {step}: refused {a} moved the wire form"
                refused += 1
        legal = RS.legal_actions(state, seat)
        RS.apply(state, legal[pick.below(len(legal))])
    assert refused > 0, "no refused action was tried"
