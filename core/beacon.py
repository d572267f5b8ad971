"""Dice no peer can foresee: per-roll beacon values from hash chains (design.md; the rule is
``wizard-kings/rules.md`` R117). Game-agnostic, pure and deterministic.

The problem: in a networked game every peer learns the joint seed at the start, so with the
seed alone a modified client could compute every future roll and choose its actions knowing
them. The cure: every roll also draws on entropy that nobody knew when the action that rolls
was chosen.

* **Chains.** Before the game each seat's peer picks a secret 32-byte ``s`` and commits the
  chain's tip ``x_N = h^N(s)`` (``h`` = BLAKE2b-256, ``N`` = :data:`CHAIN_LENGTH`) in the
  lobby, with its seed nonce. Its k-th reveal (k = 0, 1, ...) is ``x_(N-1-k)``; anyone checks
  it by hashing once: ``h(x_(N-1-k)) == x_(N-k)``, the value before it (:class:`Chain`,
  :class:`Tracker`). Nobody can produce the next value of another seat's chain, and a seat
  cannot choose its own: the tip fixes it.
* **Granularity: one beacon value per action that rolls.** The host, on its full state, can
  tell whether an action will draw (:func:`needs_chance`: it applies the action to a copy
  whose generator refuses every draw). When it will, the action is fixed first (announced),
  then every seat reveals its next chain value; the draws of that one action (several d4s, a
  reshuffle, a random pick) all come from that one value. Actions that do not roll cost
  nothing.
* **The value.** :func:`combine` hashes the game seed, the roll's index and every seat's
  reveal in seat order. It is the *input* the state takes (:meth:`core.rng.Rng.absorb`, via
  :func:`apply_with`); the generator keeps a running digest of every value absorbed, so the
  state hash covers them, and a log that records the reveals replays exactly.
* **Locally** nobody needs hiding from: a local game is not beaconed and its dice are the
  seed's stream, exactly as before this module existed (the golden games replay unchanged).
  :class:`LocalBeacon` derives chain values from the seed, so the very same beaconed path runs
  without a network (tests, a local game played "as if networked").

The game's own generator is reached through :meth:`core.engine.Ruleset.chance`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from core.codec import pack
from core.engine import Event, IllegalAction, Ruleset
from core.rng import ChanceNeeded, Rng

CHAIN_LENGTH = 65_536  #: reveals one chain allows (a long Wiz-War game rolls a few hundred)
_CHECKPOINT = 256  #: a chain keeps every 256th element, so a reveal costs <= 256 hashes


class BeaconError(ValueError):
    """A reveal that does not open its chain (tampered, replayed or out of order), or a
    chain used up. The message names the seat."""


def h(value: bytes) -> bytes:
    """One step of a chain: BLAKE2b-256 of ``value``."""
    return blake2b(value, digest_size=32).digest()


def step_ok(previous: bytes, value: bytes) -> bool:
    """True when ``value`` is the chain element just before ``previous`` (hashes to it)."""
    return len(value) == 32 and h(value) == previous


class Chain:
    """A seat's own secret hash chain (held only by the process that plays the seat).

    ``Chain(secret)`` builds ``x_0 = secret`` .. ``x_N``; :attr:`tip` is ``x_N`` (what the seat
    commits in the lobby); :meth:`reveal` gives its ``k``-th reveal ``x_(N-1-k)``. Memory:
    one element in :data:`_CHECKPOINT`. Raises ``ValueError`` for a secret that is not 32 bytes.
    """

    def __init__(self, secret: bytes, length: int = CHAIN_LENGTH) -> None:
        if len(secret) != 32:
            raise ValueError("a chain's secret is 32 bytes")
        if length < 1:
            raise ValueError("a chain has at least one reveal")
        self.length = length
        self._marks: list[bytes] = []
        x = secret
        for i in range(length + 1):
            if i % _CHECKPOINT == 0:
                self._marks.append(x)
            if i < length:
                x = h(x)
        self.tip = x

    def element(self, i: int) -> bytes:
        """``x_i = h^i(secret)``, ``0 <= i <= length``."""
        if not 0 <= i <= self.length:
            raise IndexError(i)
        x = self._marks[i // _CHECKPOINT]
        for _ in range(i % _CHECKPOINT):
            x = h(x)
        return x

    def reveal(self, k: int) -> bytes:
        """The ``k``-th reveal (k = 0 first): ``x_(N-1-k)``. Raises :class:`BeaconError`
        once the chain is used up."""
        if not 0 <= k < self.length:
            raise BeaconError(f"this chain has {self.length} reveals; reveal {k} is past it")
        return self.element(self.length - 1 - k)


@dataclass
class Tracker:
    """What every peer checks: per seat, the last value seen of its chain (the tip first) and
    how many reveals it made. :meth:`accept` takes one reveal, or raises
    :class:`BeaconError` (the state of the tracker unchanged)."""

    last: dict[str, bytes] = field(default_factory=dict)
    used: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_tips(cls, tips: dict[str, str]) -> Tracker:
        """From the lobby's commitments, ``{seat: tip hex}``. Raises :class:`BeaconError`
        for a tip that is not 32 bytes of hex."""
        t = cls()
        for seat, tip in tips.items():
            t.recommit(seat, tip)
        return t

    def recommit(self, seat: str, tip: str) -> None:
        """A new chain for ``seat`` (a rejoin from a new process; a chain used up)."""
        try:
            b = bytes.fromhex(tip)
        except (TypeError, ValueError):
            b = b""
        if len(b) != 32:
            raise BeaconError(f"{seat}'s dice chain tip is not 32 bytes of hex")
        self.last[seat] = b
        self.used[seat] = 0

    def check(self, seat: str, value: str) -> bytes:
        """The bytes of ``seat``'s next reveal ``value`` (hex) if it opens the chain; raises
        :class:`BeaconError` naming the seat otherwise. No side effect."""
        if seat not in self.last:
            raise BeaconError(f"{seat} committed no dice chain")
        try:
            b = bytes.fromhex(value)
        except (TypeError, ValueError):
            raise BeaconError(f"{seat}'s dice reveal is not hex") from None
        if not step_ok(self.last[seat], b):
            raise BeaconError(f"{seat}'s dice reveal does not open its committed chain")
        return b

    def accept(self, seat: str, value: str) -> bytes:
        """:meth:`check`, then remember ``value`` as ``seat``'s last."""
        b = self.check(seat, value)
        self.last[seat] = b
        self.used[seat] = self.used.get(seat, 0) + 1
        return b

    def accept_all(self, reveals: Sequence[Sequence[str]]) -> list[bytes]:
        """Accept ``[[seat, hex], ...]`` (one roll's reveals) all or nothing."""
        checked = [(str(s), self.check(str(s), str(v))) for s, v in reveals]
        seats = [s for s, _ in checked]
        if len(set(seats)) != len(seats):
            raise BeaconError("a roll holds two reveals of one seat")
        for s, b in checked:
            self.last[s] = b
            self.used[s] = self.used.get(s, 0) + 1
        return [b for _, b in checked]

    def to_wire(self) -> dict[str, Any]:
        """``{seat: [last hex, used]}``."""
        return {s: [self.last[s].hex(), self.used.get(s, 0)] for s in sorted(self.last)}


def combine(seed: bytes, index: int, reveals: Sequence[Sequence[Any]]) -> bytes:
    """The beacon value of roll ``index``: BLAKE2b-256 over the canonical msgpack of
    ``["wizwar-roll", seed, index, [[seat, reveal bytes], ...]]``, the reveals in seat order
    (``reveals`` as ``[[seat, hex or bytes], ...]``)."""
    items = [[str(s), v if isinstance(v, bytes) else bytes.fromhex(str(v))] for s, v in reveals]
    return blake2b(pack(["wizwar-roll", bytes(seed), int(index), items]),
                   digest_size=32).digest()


def local_reveal(seed: bytes, seat: str, index: int) -> bytes:
    """A local game's chain element of ``seat`` for roll ``index`` (no network: derived from
    the seed, R117 "Locally"): BLAKE2b-256 over ``["wizwar-chain", seed, seat, index]``."""
    return blake2b(pack(["wizwar-chain", bytes(seed), seat, int(index)]),
                   digest_size=32).digest()


@dataclass
class LocalBeacon:
    """The beacon of a game without a network: every seat's reveal comes from the seed
    (:func:`local_reveal`). ``reveals(rng)`` gives the next roll's ``[[seat, hex], ...]``."""

    seed: bytes
    seats: list[str]

    def reveals(self, rng: Rng) -> list[list[str]]:
        """The reveals of roll ``rng.rolls``, seat order."""
        return [[s, local_reveal(self.seed, s, rng.rolls).hex()] for s in self.seats]


# ---- the generic step -------------------------------------------------------------------
def generator(ruleset: Ruleset, state: Any) -> Rng | None:
    """The game's generator (``ruleset.chance(state)``), or None for a game without chance."""
    return ruleset.chance(state)


def beaconize(ruleset: Ruleset, state: Any) -> None:
    """Make a new networked game's dice beaconed (right after ``new_game``, on every peer
    and in the replay of its log). The deal and whatever the start rolled stay on the
    joint seed (fixed before anyone acted)."""
    rng = ruleset.chance(state)
    if rng is not None:
        rng.beaconed = True


def is_beaconed(ruleset: Ruleset, state: Any) -> bool:
    """True when the game's draws need beacon values."""
    rng = ruleset.chance(state)
    return rng is not None and rng.beaconed


def needs_chance(ruleset: Ruleset, state: Any, action: Any, probe: Any = None) -> bool:
    """Will ``action`` draw from the generator? Only meaningful on a state that knows every
    fact the draw could depend on (the host's full state). Applies it to a copy whose
    generator refuses every draw; the state itself is untouched. An illegal action draws
    nothing (False). ``probe``: a copy of ``state`` made beforehand (``ruleset.clone``, e.g.
    while the host waited for the action), which this spends; None: one is made here."""
    rng = ruleset.chance(state)
    if rng is None or not rng.beaconed:
        return False
    try:
        return apply_unless_rolling(ruleset, ruleset.clone(state) if probe is None else probe,
                                    action) is None
    except IllegalAction:
        return False


def apply_unless_rolling(ruleset: Ruleset, probe: Any, action: Any) -> list[Event] | None:
    """Apply ``action`` to ``probe`` (a copy of a beaconed game's full state, which this
    spends) on a generator that refuses every draw: the events when the action drew
    nothing (``probe`` is then the state after it, exactly as an apply of the original
    would leave it: the LAN host commits it, docs/performance.md, LAN latency), None when
    it rolls (``probe`` is then spoiled: the first draw stopped it half-way). Raises
    :class:`~core.engine.IllegalAction` for an illegal action and ``ValueError`` for a
    state whose dice are not beaconed (a local game draws from the seed's stream)."""
    prng = ruleset.chance(probe)
    if prng is None or not prng.beaconed:
        raise ValueError(f"{ruleset.title}: this state's dice are not beaconed")
    prng.fresh = False
    try:
        return ruleset.apply(probe, action)
    except ChanceNeeded:
        return None
    finally:
        prng.spend()


#: The stand-in beacon value :func:`why_illegal` feeds a copy: legality never reads the dice.
_STAND_IN = bytes(32)


def why_illegal(ruleset: Ruleset, state: Any, action: Any) -> str:
    """``ruleset.why_illegal(state, action)`` on a state whose dice may be beaconed (a
    networked game): ``""`` when legal, else the reason. A ruleset that judges an action by
    trying it (Wizard Kings) meets the action's roll, and no beacon value is there yet (it
    comes once the action is fixed, :func:`needs_chance`): such an action is then judged by
    ``apply`` on a copy whose generator took a stand-in value (the dice decide what an
    action does, never whether it may be taken). ``state`` is untouched. Raises nothing
    :meth:`~core.engine.Ruleset.why_illegal` would not."""
    try:
        return ruleset.why_illegal(state, action)
    except ChanceNeeded:
        pass
    trial = ruleset.clone(state)
    rng = ruleset.chance(trial)
    if rng is None or not rng.beaconed:  # pragma: no cover - ChanceNeeded needs a beacon
        raise RuntimeError(f"{ruleset.title}: a roll wanted a beacon in a game without one")
    rng.absorb(_STAND_IN)
    try:
        ruleset.apply(trial, action)
    except IllegalAction as exc:
        return exc.reason
    except ChanceNeeded:  # the ruleset's own copy lost the value: it got as far as rolling
        return ""
    return ""


def roll_index(ruleset: Ruleset, state: Any) -> int:
    """The index of the next roll (how many beacon values the state absorbed)."""
    rng = ruleset.chance(state)
    return 0 if rng is None else rng.rolls


def value_for(ruleset: Ruleset, state: Any, reveals: Sequence[Sequence[Any]]) -> bytes:
    """The beacon value the next roll of ``state`` takes from ``reveals`` (:func:`combine`
    with the generator's seed and the roll index)."""
    rng = ruleset.chance(state)
    if rng is None:
        raise ValueError(f"{ruleset.title} has no dice")
    return combine(rng.seed, rng.rolls, reveals)


def apply_with(ruleset: Ruleset, state: Any, action: Any,
               reveals: Sequence[Sequence[Any]] | None = None) -> list[Event]:
    """Apply ``action``, first feeding the generator the beacon value of ``reveals`` (one
    roll's ``[[seat, hex], ...]``, seat order) when given. The value serves this action only.
    Raises :class:`~core.engine.IllegalAction` (the state untouched, the value not taken) and
    :class:`~core.rng.ChanceNeeded` when the action rolls on a beaconed generator and no
    reveals came with it (the state may then be spoiled: the caller's peer or log lied)."""
    rng = ruleset.chance(state)
    saved = rng.copy() if rng is not None else None
    if reveals:
        if rng is None:
            raise ValueError(f"{ruleset.title} has no dice, yet reveals came with {action}")
        rng.absorb(combine(rng.seed, rng.rolls, reveals))
    try:
        return ruleset.apply(state, action)
    except IllegalAction:
        if rng is not None and saved is not None:
            rng.counter, rng.beacon, rng.rolls = saved.counter, saved.beacon, saved.rolls
        raise
    finally:
        if rng is not None:
            rng.spend()


__all__ = ["CHAIN_LENGTH", "BeaconError", "Chain", "ChanceNeeded", "LocalBeacon", "Tracker",
           "apply_unless_rolling", "apply_with", "beaconize", "combine", "generator", "h", "is_beaconed",
           "local_reveal", "needs_chance", "roll_index", "step_ok", "value_for", "why_illegal"]
