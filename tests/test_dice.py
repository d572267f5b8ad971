"""Dice no peer can foresee (core/beacon.py, core/rng.py; design.md; wizard-kings R117).

The chains, the per-roll value, the beaconed generator and the rules drawing from it, without
a network. The LAN half is in test_dice_lan.py.
"""

from __future__ import annotations

from hashlib import blake2b

import pytest

from core import beacon as B
from core import registry
from core.rng import ChanceNeeded, Rng

RS = registry.get("wizwar")


# ---- chains ----------------------------------------------------------------------------
def test_chain_reveals_walk_back_to_the_secret_and_each_opens_the_one_before() -> None:
    secret = bytes(range(32))
    c = B.Chain(secret, length=600)
    x = secret
    for _ in range(600):
        x = blake2b(x, digest_size=32).digest()
    assert c.tip == x
    last = c.tip
    for k in range(600):
        v = c.reveal(k)
        assert B.step_ok(last, v)
        last = v
    assert last == secret
    with pytest.raises(B.BeaconError):
        c.reveal(600)


def test_tracker_refuses_a_tampered_a_replayed_and_a_skipped_reveal() -> None:
    a, b = B.Chain(b"a" * 32, 50), B.Chain(b"b" * 32, 50)
    t = B.Tracker.from_tips({"P1": a.tip.hex(), "P2": b.tip.hex()})
    t.accept_all([["P1", a.reveal(0).hex()], ["P2", b.reveal(0).hex()]])
    tampered = bytearray(a.reveal(1))
    tampered[0] ^= 1
    for bad in (bytes(tampered).hex(), a.reveal(0).hex(), a.reveal(2).hex(), "zz", ""):
        with pytest.raises(B.BeaconError, match="P1"):
            t.accept("P1", bad)
    # all or nothing: P2's good reveal is not taken when P1's is bad
    with pytest.raises(B.BeaconError):
        t.accept_all([["P1", a.reveal(2).hex()], ["P2", b.reveal(1).hex()]])
    assert t.used == {"P1": 1, "P2": 1}
    with pytest.raises(B.BeaconError, match="two reveals"):
        t.accept_all([["P1", a.reveal(1).hex()], ["P1", a.reveal(1).hex()]])
    t.accept_all([["P1", a.reveal(1).hex()], ["P2", b.reveal(1).hex()]])
    assert t.used == {"P1": 2, "P2": 2}
    with pytest.raises(B.BeaconError, match="P3"):
        t.accept("P3", a.reveal(2).hex())


def test_combine_depends_on_seed_index_every_reveal_and_seat_order() -> None:
    r = [["P1", "11" * 32], ["P2", "22" * 32]]
    v = B.combine(b"s" * 32, 3, r)
    assert v == B.combine(b"s" * 32, 3, [["P1", bytes.fromhex("11" * 32)],
                                         ["P2", bytes.fromhex("22" * 32)]])
    others = {B.combine(b"t" * 32, 3, r), B.combine(b"s" * 32, 4, r),
              B.combine(b"s" * 32, 3, [["P1", "11" * 32], ["P2", "23" * 32]]),
              B.combine(b"s" * 32, 3, list(reversed(r)))}
    assert v not in others and len(others) == 4


# ---- the generator ---------------------------------------------------------------------
def test_a_local_generator_keeps_its_wire_form_and_stream() -> None:
    """Local games are not beaconed: the same blocks and the same [seed, counter] as ever
    (the golden games rest on it)."""
    r = Rng.from_seed(7)
    first = blake2b((0).to_bytes(8, "big"), key=r.seed, digest_size=8).digest()
    x = int.from_bytes(first, "big")
    assert x < (1 << 64) - ((1 << 64) % 4)  # not rejected, so the first d4 is this block's
    assert r.d4() == x % 4 + 1
    assert r.to_wire() == [r.seed, 1]
    assert Rng.from_wire(r.to_wire()) == r
    with pytest.raises(ValueError):
        r.absorb(b"x" * 32)


def test_a_beaconed_generator_refuses_to_draw_without_this_actions_value() -> None:
    r = Rng.from_seed(7)
    r.beaconed = True
    with pytest.raises(ChanceNeeded):
        r.d4()
    v = B.combine(r.seed, 0, [["P1", "ab" * 32]])
    r.absorb(v)
    digest = blake2b(v, digest_size=32).digest()
    key = blake2b(digest, key=r.seed, digest_size=32).digest()
    block = int.from_bytes(blake2b((0).to_bytes(8, "big"), key=key, digest_size=8).digest(),
                           "big")
    assert r.below(1 << 32) == block % (1 << 32)  # the roll is the beacon value's block
    r.d4()  # one value serves every draw of its action
    r.spend()
    with pytest.raises(ChanceNeeded):
        r.d4()
    assert r.to_wire() == [r.seed, 2, digest, 1]
    back = Rng.from_wire(r.to_wire())
    assert back == r and back.beaconed and not back.fresh


# ---- the rules drawing from it ---------------------------------------------------------
def _beaconed_game(seed: int, players: int = 2):
    opts = RS.validate_options({"players": players})
    st = RS.new_game(opts, seed)
    B.beaconize(RS, st)
    return st, B.LocalBeacon(st.rng.seed, RS.seats(opts))


def _play(seed: int, players: int = 2, limit: int = 300):
    """A game of random legal actions (the test's own generator), one that rolls whenever
    there is one, on the beaconed path; yields (state before, action, rolls?, beacon)."""
    st, lb = _beaconed_game(seed, players)
    pick = Rng.from_seed(f"test-dice-{seed}")
    while not RS.result(st).over and RS.seq(st) < limit:
        p = RS.to_move(st)[0]
        legal = RS.legal_actions(st, p)
        rolling = [a for a in legal if B.needs_chance(RS, st, a)]
        pool = rolling or legal
        a = pool[pick.below(len(pool))]
        rolls = bool(rolling)
        yield st, a, rolls, lb
        B.apply_with(RS, st, a, lb.reveals(st.rng) if rolls else None)


def test_needs_chance_is_exact_and_a_roll_draws_on_its_reveals() -> None:
    """Over two games: an action the probe calls rolling cannot be applied without its
    reveals and its outcome depends on them; every other action applies without any; the
    state hash covers each value absorbed. What a peer knew before the action (seed,
    counter, every earlier message) computes the old stream, and that is not the roll."""
    rolled = differ = depends = 0
    for seed in (1, 4):
        for st, a, rolls, lb in _play(seed, players=3):
            if not rolls:
                probe = RS.clone(st)
                B.apply_with(RS, probe, a, None)  # no draw: no ChanceNeeded
                continue
            rolled += 1
            with pytest.raises(ChanceNeeded):
                RS.apply(RS.clone(st), a)
            real, other, old = RS.clone(st), RS.clone(st), RS.clone(st)
            B.apply_with(RS, real, a, lb.reveals(st.rng))
            B.apply_with(RS, other, a, [[s, "00" * 32] for s, _ in lb.reveals(st.rng)])
            old.rng.beaconed = False  # the old way: the seed's stream, known to everyone
            RS.apply(old, a)
            assert real.rng.rolls == st.rng.rolls + 1 and not real.rng.fresh
            assert RS.state_hash(real) != RS.state_hash(other)  # the hash covers the value
            others = B.LocalBeacon(b"other", [s for s, _ in lb.reveals(st.rng)])
            depends += int(_events(st, a, others) != _events(st, a, lb))
            # the draws of the action: equal blocks iff equal dice; the old stream is not it
            assert real.rng.counter > st.rng.counter
            n = st.rng.counter
            old_block = blake2b(n.to_bytes(8, "big"), key=st.rng.seed, digest_size=8).digest()
            key = blake2b(real.rng.beacon, key=st.rng.seed, digest_size=32).digest()
            new_block = blake2b(n.to_bytes(8, "big"), key=key, digest_size=8).digest()
            assert old_block != new_block
            differ += int(_events(st, a, lb) != _events(st, a, None))
    assert rolled >= 5, "these games roll (to-hit, reshuffle, random picks)"
    assert differ >= 2, "the old-way prediction gave the rolls right"
    assert depends >= 2, "the rolls' outcomes hardly depend on the reveals"


def _events(before, a, lb):
    """What ``a`` does on a copy of ``before`` (the beacon path when ``lb``): its events'
    text and the state after it, its generator left out."""
    c = RS.clone(before)
    if lb is None:
        c.rng.beaconed = False
        ev = RS.apply(c, a)
    else:
        ev = B.apply_with(RS, c, a, lb.reveals(before.rng))
    wire = dict(RS.state_to_wire(c))
    wire.pop("rng")
    return [e.text for e in ev], wire

def test_an_illegal_action_takes_no_beacon_value() -> None:
    st, lb = _beaconed_game(2)
    before = RS.state_to_wire(st)
    from core.engine import IllegalAction

    with pytest.raises(IllegalAction):
        B.apply_with(RS, st, "P2 move a1", lb.reveals(st.rng))
    assert RS.state_to_wire(st) == before and not st.rng.fresh


def test_local_games_are_not_beaconed() -> None:
    st = RS.new_game(RS.validate_options({}), 5)
    assert not B.is_beaconed(RS, st)
    assert st.rng.to_wire() == [st.rng.seed, st.rng.counter]
    assert not B.needs_chance(RS, st, RS.legal_actions(st, RS.to_move(st)[0])[0])
