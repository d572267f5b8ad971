"""The game's own deterministic random generator.

blake2b in counter mode over the game seed. Its whole state is a few plain values (seed bytes,
a counter and, in a networked game, the dice beacon's running digest), so it lives inside the
game state, hashes with it and round-trips through msgpack. Never use Python's ``random`` in
the rules: its shuffle and randrange are not stable across versions (design.md, "Python
traps").

Dice no peer can foresee (design.md; ``wizard-kings/rules.md`` R117; :mod:`core.beacon`): in
a networked game the generator is *beaconed*. Every draw then needs fresh entropy supplied for
the action being applied (:meth:`Rng.absorb`, one beacon value per action that draws); a draw
without it raises :class:`ChanceNeeded` instead of using a stream every peer could compute
from the seed. The blocks of an action are keyed by the seed and the running digest of every
beacon value absorbed so far, so the state hash covers each value consumed and a log replays
them. A local game is not beaconed: its stream is the seed's, exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any, TypeVar

T = TypeVar("T")


class ChanceNeeded(RuntimeError):
    """A beaconed generator was asked for a draw before this action's beacon value was
    supplied (:meth:`Rng.absorb`). The host's probe (:func:`core.beacon.needs_chance`) reads
    it as "this action rolls"; anywhere else it means a peer or a log left a roll out."""


@dataclass
class Rng:
    """A counter-mode blake2b generator.

    Attributes:
        seed: the game seed, any bytes (an int seed is encoded as 16 bytes big-endian).
        counter: how many 64-bit blocks have been drawn so far.
        beaconed: a networked game's generator: every draw needs a beacon value supplied for
            the current action (:meth:`absorb`).
        beacon: the running digest (32 bytes) of every beacon value absorbed, ``b""`` before
            the first; it keys the blocks together with the seed.
        rolls: how many beacon values were absorbed (the next roll's index).
        fresh: a beacon value was absorbed for the action being applied (transient: never
            serialised; :meth:`spend` clears it after the action).
    """

    seed: bytes
    counter: int = 0
    beaconed: bool = False
    beacon: bytes = b""
    rolls: int = 0
    fresh: bool = field(default=False, compare=False)

    @classmethod
    def from_seed(cls, seed: int | bytes | str) -> Rng:
        """Build a generator from an int, str or bytes seed. Raises ``TypeError`` otherwise."""
        if isinstance(seed, bool):
            raise TypeError("seed must be int, str or bytes")
        if isinstance(seed, int):
            data = seed.to_bytes(16, "big", signed=True)
        elif isinstance(seed, str):
            data = seed.encode("utf-8")
        elif isinstance(seed, bytes):
            data = seed
        else:
            raise TypeError("seed must be int, str or bytes")
        return cls(blake2b(data, digest_size=32).digest())

    # ---- wire form ----------------------------------------------------------------------
    def to_wire(self) -> list[Any]:
        """``[seed, counter]`` (a local game: the form logs and hashes always had), or
        ``[seed, counter, beacon, rolls]`` for a beaconed generator."""
        if not self.beaconed:
            return [self.seed, self.counter]
        return [self.seed, self.counter, self.beacon, self.rolls]

    @classmethod
    def from_wire(cls, d: Any) -> Rng:
        """Rebuild from :meth:`to_wire`. Raises ``ValueError`` for another shape."""
        if not isinstance(d, (list, tuple)) or len(d) not in (2, 4):
            raise ValueError("a generator is [seed, counter] or [seed, counter, beacon, rolls]")
        if len(d) == 2:
            return cls(bytes(d[0]), int(d[1]))
        return cls(bytes(d[0]), int(d[1]), True, bytes(d[2]), int(d[3]))

    def copy(self) -> Rng:
        """An independent copy (``fresh`` included)."""
        return Rng(self.seed, self.counter, self.beaconed, self.beacon, self.rolls, self.fresh)

    # ---- the beacon ---------------------------------------------------------------------
    def absorb(self, value: bytes) -> None:
        """Take one beacon value (:func:`core.beacon.combine`) for the action about to be
        applied: the running digest takes it in, ``rolls`` counts it and the action's draws
        may proceed. Raises ``ValueError`` on a generator that is not beaconed."""
        if not self.beaconed:
            raise ValueError("this game's dice are not beaconed (a local game)")
        self.beacon = blake2b(self.beacon + bytes(value), digest_size=32).digest()
        self.rolls += 1
        self.fresh = True

    def spend(self) -> None:
        """The action is over: its beacon value may not serve the next one."""
        self.fresh = False

    def _key(self) -> bytes:
        if not self.beacon:
            return self.seed[:64]
        return blake2b(self.beacon, key=self.seed[:64], digest_size=32).digest()

    def _next64(self) -> int:
        if self.beaconed and not self.fresh:
            raise ChanceNeeded("a roll needs this action's beacon value first")
        block = blake2b(
            self.counter.to_bytes(8, "big"), key=self._key(), digest_size=8
        ).digest()
        self.counter += 1
        return int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling. Raises ``ValueError`` if n < 1
        (and :class:`ChanceNeeded` on a beaconed generator without this action's value)."""
        if n < 1:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def d4(self) -> int:
        """Roll the game's die, numbered 1-4 (rulebook, Equipment)."""
        return self.below(4) + 1

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place, drawing from this generator."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
