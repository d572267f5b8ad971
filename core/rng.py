"""The game's own deterministic random generator.

blake2b in counter mode over the game seed. Its whole state is two integers (seed bytes and a
counter), so it lives inside the game state, hashes with it and round-trips through msgpack.
Never use Python's ``random`` in the rules: its shuffle and randrange are not stable across
versions (design.md, "Python traps").
"""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import blake2b
from typing import TypeVar

T = TypeVar("T")


@dataclass
class Rng:
    """A counter-mode blake2b generator.

    Attributes:
        seed: the game seed, any bytes (an int seed is encoded as 16 bytes big-endian).
        counter: how many 64-bit blocks have been drawn so far.
    """

    seed: bytes
    counter: int = 0

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

    def _next64(self) -> int:
        block = blake2b(
            self.counter.to_bytes(8, "big"), key=self.seed[:64], digest_size=8
        ).digest()
        self.counter += 1
        return int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling. Raises ``ValueError`` if n < 1."""
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
