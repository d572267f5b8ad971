"""Mental-poker dealing: no process, the host's included, knows a card it may not see
(issue 15; docs/protocol.md, "Mental-poker dealing").

Commutative masking on a prime-order group: the prime-order subgroup of Edwards25519
(libsodium through PyNaCl's bindings: ``crypto_scalarmult_ed25519_noclamp`` and the
``crypto_core_ed25519_*`` scalar arithmetic; PyNaCl 1.6 binds no Ristretto255, so every
point taken from the network is checked to lie in the subgroup before it is multiplied,
``crypto_core_ed25519_is_valid_point``). The ``copy``-th card of face ``f`` in a deal is the
public point ``M(f, copy)`` (Elligator 2 over a BLAKE2b digest, cofactor cleared:
``crypto_core_ed25519_from_uniform``), so nobody knows its discrete logarithm. A deal
(an *epoch*: the whole deck at the start, a reshuffled discard pile later) runs in two
passes, every seat in seat order, each step published to everyone:

1. **Shuffle.** Seat ``i`` multiplies every point by its secret shuffle key ``g_i`` and
   permutes the list in secret.
2. **Lock.** Seat ``i`` strips ``g_i`` again from every position ``j`` and puts its secret
   per-card key ``k_ij`` on instead; it publishes the new points and, for every position,
   ``K_ij = k_ij * B`` (``B`` the group's base point), its commitment to that key.

Position ``j`` of the result (slot ``slots[j]`` of the epoch) is ``(prod_i k_ij) * M(f)`` for
a face ``f`` nobody can tell: every seat's permutation is secret, and under the decisional
Diffie-Hellman assumption the points say nothing of the faces. To **open** a slot to a seat,
every other seat sends it its key ``k_ij`` (its *partial unmasking*), boxed from its process's
box key to the receiver's (``nacl.public.Box``: encrypted and authenticated), so a host
relaying the frames learns nothing and cannot forge a share in another seat's name; the
receiver checks each key against its commitment at once (a wrong one names its sender), strips
them all and its own, and finds the face. A slot opened to everyone has its keys sent in the
clear. At the end every seat reveals every key it used (``reveal``); every process then
**audits** the whole deal (:meth:`Ledger.audit`): each shuffle step is its input masked and
permuted, each lock step strips and locks as committed, every share sent during the game was
the committed key, and each epoch holds exactly its declared faces. A cheat is named in words
with its seat (:class:`MentalError`). Every message a process sends is signed by it (Ed25519),
so nobody can put a step or a share in another seat's name.

* :class:`Ledger`: the public record every process keeps identically (the epochs, every
  published step, the shares each process took), and the audit.
* :class:`Hand`: one seat's secrets (its keys), held in the process that plays the seat
  (a bot's in the process that runs the bot).
* :class:`MentalDealer`: one process's side: its ledger, the seats it plays, its box key,
  what it knows; it makes and takes the protocol's messages (msgpack-able maps of strings,
  ints and lists).
* :func:`trial` and :func:`next_steps`: what an action opens when no process holds the full
  state: every process tries the action on a copy of its own partial state, and the round's
  openings are decided from their claims (docs/protocol.md, "What an action opens").

This module is generic: slots are numbers and faces are text, as in ``net/dealer.py``.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from nacl import bindings as nb
from nacl.exceptions import CryptoError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.signing import SigningKey, VerifyKey

from core.codec import pack
from net.dealer import DealError

#: the two kinds of step of a deal, in the order they run
SHUFFLE, LOCK = "shuffle", "lock"


class MentalError(DealError):
    """A step, a share or a revealed key of the mental-poker deal does not check out.
    ``seat`` names the seat found cheating ("" when the check cannot tell who yet: the
    end's audit, :meth:`Ledger.audit`, names it)."""

    def __init__(self, message: str, seat: str = "") -> None:
        super().__init__(message)
        self.seat = seat


# ---- the group ---------------------------------------------------------------------
def face_point(face: str, copy: int = 0) -> bytes:
    """``M(face, copy)``: the public point of the ``copy``-th card of that face in a deal
    (every card of a deal has its own point: were two copies one point, the steps would
    show which slots hold the same face), in the prime-order subgroup (Elligator 2 over
    BLAKE2b-256 of a domain tag, the copy and the face, cofactor cleared)."""
    h = blake2b(f"wizwar-mental-card|{copy}|{face}".encode(), digest_size=32).digest()
    return bytes(nb.crypto_core_ed25519_from_uniform(h))


def random_scalar(rand: Any) -> bytes:
    """A uniform non-zero scalar from 64 bytes of ``rand`` (``getrandbits``), reduced."""
    while True:
        s = bytes(nb.crypto_core_ed25519_scalar_reduce(
            rand.getrandbits(512).to_bytes(64, "little")))
        if any(s):
            return s


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point``. Raises :class:`MentalError` for a point off the group."""
    try:
        return bytes(nb.crypto_scalarmult_ed25519_noclamp(scalar, point))
    except (CryptoError, ValueError, TypeError) as exc:
        raise MentalError(f"not a point of the group ({exc})") from None


def base(scalar: bytes) -> bytes:
    """``scalar * B``: a key's public commitment."""
    return bytes(nb.crypto_scalarmult_ed25519_base_noclamp(scalar))


def invert(scalar: bytes) -> bytes:
    """The scalar's inverse modulo the group order."""
    return bytes(nb.crypto_core_ed25519_scalar_invert(scalar))


def times(a: bytes, b: bytes) -> bytes:
    """The product of two scalars modulo the group order."""
    return bytes(nb.crypto_core_ed25519_scalar_mul(a, b))


def _point(text: Any, what: str, seat: str, check: bool = False) -> bytes:
    """A point from its hex form; a malformed one is ``seat``'s cheat. ``check``: also
    that it lies in the prime-order subgroup (costly; otherwise the next multiplication
    checks it, :func:`mul`, and the step's author is named there)."""
    try:
        p = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        p = b""
    if len(p) != 32 or (check and not nb.crypto_core_ed25519_is_valid_point(p)):
        raise MentalError(f"{seat} sent {what} that is not a point of the group", seat)
    return p


def _scalar(text: Any, what: str, seat: str) -> bytes:
    try:
        s = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        s = b""
    if len(s) != 32 or not any(s):
        raise MentalError(f"{seat} sent {what} that is not a key", seat)
    return s


# ---- the public record -------------------------------------------------------------
@dataclass
class Epoch:
    """One deal: ``slots`` (in position order) hold ``faces`` (public, in the order the
    deal was declared: the deck list, or the reshuffled pile's faces); ``steps`` are the
    published steps ``(seat, kind, points, keys)`` so far."""

    number: int
    slots: list[int]
    faces: list[str]
    steps: list[tuple[str, str, list[bytes], list[bytes]]] = field(default_factory=list)
    _table: dict[bytes, str] = field(default_factory=dict, repr=False)

    def points(self) -> list[bytes]:
        """The current points (the input, before any step: every face's point)."""
        return list(self.steps[-1][2]) if self.steps else list(self.table())

    def table(self) -> dict[bytes, str]:
        """Every card's input point -> its face, in declaration order (copies numbered)."""
        if not self._table:
            seen: Counter[str] = Counter()
            for f in self.faces:
                self._table[face_point(f, seen[f])] = f
                seen[f] += 1
        return self._table

    def checked(self, points: list[bytes]) -> list[bytes]:
        """``points`` (the current ones), refusing one off the prime-order subgroup: the
        last step's author is named (its points are checked by the next to use them)."""
        for p in points:
            if not nb.crypto_core_ed25519_is_valid_point(p):
                seat = self.steps[-1][0] if self.steps else ""
                raise MentalError(f"{seat} sent a card that is not a point of the group",
                                  seat)
        return points

    def commitment(self, seat: str, j: int) -> bytes:
        """``seat``'s committed key for position ``j`` (its lock step)."""
        return next(k for s, kind, _p, k in self.steps if s == seat and kind == LOCK)[j]


@dataclass
class Ledger:
    """What every process knows alike: the seats (seat order), every epoch and its steps,
    where each slot is (its epoch and position), and the shares each process took during
    the game (``shares``: ``(epoch, position, seat) -> key``, checked again by the audit)."""

    seats: list[str]
    epochs: list[Epoch] = field(default_factory=list)
    where: dict[int, tuple[int, int]] = field(default_factory=dict)
    shares: dict[tuple[int, int, str], bytes] = field(default_factory=dict)

    def begin(self, slots: list[int], faces: list[str]) -> Epoch:
        """Open a new epoch over ``slots`` holding ``faces`` (same length)."""
        if len(slots) != len(faces) or len(set(slots)) != len(slots):
            raise ValueError("a deal needs one face per slot, each slot once")
        if self.epochs and not self.done(self.epochs[-1]):
            raise ValueError("a deal is still under way")
        e = Epoch(len(self.epochs), list(slots), list(faces))
        self.epochs.append(e)
        return e

    def next_step(self) -> tuple[str, str] | None:
        """``(seat, kind)`` of the step the current epoch awaits; None when it is done."""
        if not self.epochs:
            return None
        e = self.epochs[-1]
        n = len(e.steps)
        if n >= 2 * len(self.seats):
            return None
        return self.seats[n % len(self.seats)], SHUFFLE if n < len(self.seats) else LOCK

    def done(self, e: Epoch) -> bool:
        """True once every seat shuffled and locked epoch ``e``."""
        return len(e.steps) == 2 * len(self.seats)

    def add_step(self, msg: Mapping[str, Any]) -> None:
        """Take a published step (``{"epoch", "seat", "kind", "points", "keys"}``). Raises
        :class:`MentalError` naming the seat for a step out of turn or malformed."""
        seat = str(msg.get("seat", ""))[:8]
        want = self.next_step()
        if want is None or msg.get("epoch") != len(self.epochs) - 1 or \
                (seat, msg.get("kind")) != want:
            raise MentalError(f"{seat or 'a seat'} sent a deal step out of turn", seat)
        e = self.epochs[-1]
        raw, keys = msg.get("points"), msg.get("keys", [])
        if not isinstance(raw, list) or len(raw) != len(e.slots) or not isinstance(keys, list):
            raise MentalError(f"{seat}'s {want[1]} step of deal {e.number} has not "
                              f"{len(e.slots)} cards", seat)
        points = [_point(p, "a card", seat) for p in raw]
        commits: list[bytes] = []
        if want[1] == LOCK:
            if len(keys) != len(e.slots):
                raise MentalError(f"{seat}'s lock step of deal {e.number} commits to "
                                  "another number of keys", seat)
            commits = [_point(k, "a key commitment", seat) for k in keys]
        if len(set(points)) != len(points):
            raise MentalError(f"{seat}'s {want[1]} step of deal {e.number} repeats a card",
                              seat)
        e.steps.append((seat, want[1], points, commits))
        if self.done(e):
            for j, c in enumerate(e.slots):
                self.where[c] = (e.number, j)

    def digest(self) -> str:
        """BLAKE2b-128 over every epoch's slots, faces and published steps (hex): equal in
        every process that took the same deal, so the lockstep can compare it like a state
        hash (a process fed another step, or other faces for a reshuffle, differs)."""
        h = blake2b(digest_size=16)
        for e in self.epochs:
            h.update(f"epoch {e.number}|{e.slots}|{e.faces}|".encode())
            for seat, kind, points, keys in e.steps:
                h.update(f"{seat}|{kind}|".encode() + b"".join(points) + b"|" + b"".join(keys))
        return h.hexdigest()

    def check_share(self, slot: int, seat: str, key: bytes) -> None:
        """``key`` is ``seat``'s committed key for ``slot`` now. Raises
        :class:`MentalError` naming ``seat`` (a wrong partial unmasking)."""
        n, j = self.where[slot]
        if base(key) != self.epochs[n].commitment(seat, j):
            raise MentalError(f"{seat} sent a wrong partial unmasking of card {slot} (deal "
                              f"{n}): its key is not the one it committed to", seat)
        self.shares[(n, j, seat)] = key

    def unmask(self, slot: int, keys: Mapping[str, bytes]) -> str:
        """The face of ``slot`` from every seat's key for it (each already checked). Raises
        :class:`MentalError` when it opens to no face of its deal (a tampered step: the
        audit names who)."""
        n, j = self.where[slot]
        e = self.epochs[n]
        total = b""
        for s in self.seats:
            total = keys[s] if not total else times(total, keys[s])
        m = mul(invert(total), e.checked([e.points()[j]])[0])
        face = e.table().get(m)
        if face is not None:
            return face
        raise MentalError(f"card {slot} of deal {n} opens to no card of that deal: a "
                          "shuffle or a lock was tampered with")

    def audit(self, revealed: Mapping[str, Mapping[str, Any]]) -> dict[int, str]:
        """Check the whole deal with every seat's revealed keys (``seat -> {"shuffle":
        [hex per epoch], "cards": [[hex per position] per epoch]}``): every step, every
        commitment, every share taken, and that each epoch holds its declared faces.
        Returns every slot's face in its latest epoch. Raises :class:`MentalError` naming
        the first cheat found, seat order within each epoch. Source: the issue, "every
        step is checkable"."""
        keys: dict[str, tuple[list[bytes], list[list[bytes]]]] = {}
        for s in self.seats:
            got = revealed.get(s)
            if not isinstance(got, Mapping) or not isinstance(got.get("shuffle"), list) or \
                    not isinstance(got.get("cards"), list) or \
                    len(got["shuffle"]) != len(self.epochs) or \
                    len(got["cards"]) != len(self.epochs):
                raise MentalError(f"{s} did not reveal its keys for every deal", s)
            shuffle_keys = [_scalar(x, "a shuffle key", s) for x in got["shuffle"]]
            ks: list[list[bytes]] = []
            for e, row in zip(self.epochs, got["cards"], strict=True):
                if not isinstance(row, list) or len(row) != len(e.slots):
                    raise MentalError(f"{s} did not reveal a key per card of deal {e.number}",
                                      s)
                ks.append([_scalar(x, "a card key", s) for x in row])
            keys[s] = (shuffle_keys, ks)
        faces: dict[int, str] = {}
        for e in self.epochs:
            if not self.done(e):
                raise MentalError(f"deal {e.number} was never finished")
            table = e.table()
            pts = list(table)
            for s, kind, out, commits in e.steps:
                g, row_keys = keys[s][0][e.number], keys[s][1][e.number]
                if kind == SHUFFLE:
                    if sorted(mul(g, p) for p in pts) != sorted(out):
                        raise MentalError(f"{s} tampered with its shuffle of deal {e.number}: "
                                          "its cards are not the ones it was given, masked "
                                          "with its revealed key", s)
                else:
                    gi = invert(g)
                    for j, (p, o, k, com) in enumerate(zip(pts, out, row_keys, commits,
                                                           strict=True)):
                        if base(k) != com:
                            raise MentalError(f"{s}'s revealed key for position {j} of deal "
                                              f"{e.number} is not the one it committed to", s)
                        if mul(times(k, gi), p) != o:
                            raise MentalError(f"{s} tampered with its lock of deal {e.number}"
                                              f" (position {j})", s)
                pts = out
            for (n, j, s), share in self.shares.items():
                if n == e.number and keys[s][1][n][j] != share:
                    raise MentalError(f"{s} sent a partial unmasking of card {e.slots[j]} "
                                      f"(deal {n}) that is not its revealed key", s)
            opened = []
            for j in range(len(e.slots)):
                total = b""
                for s in self.seats:
                    card_key = keys[s][1][e.number][j]
                    total = card_key if not total else times(total, card_key)
                opened.append(mul(invert(total), pts[j]))
            got_faces = [table.get(m, "") for m in opened]
            if sorted(opened) != sorted(table):
                raise MentalError(f"deal {e.number} does not hold the faces it was declared "
                                  "with")
            for c, f in zip(e.slots, got_faces, strict=True):
                faces[c] = f
        return faces


# ---- one seat's secrets ------------------------------------------------------------
@dataclass
class Hand:
    """One seat's keys, held only by the process that plays the seat: per epoch its
    shuffle key and its per-position card keys. ``rand`` draws keys and permutations
    (system randomness; a seeded ``random.Random`` only for tests and demonstrations)."""

    seat: str
    rand: Any = field(default_factory=secrets.SystemRandom)
    shuffle_keys: list[bytes] = field(default_factory=list)
    card_keys: list[list[bytes]] = field(default_factory=list)

    def shuffle(self, e: Epoch) -> dict[str, Any]:
        """This seat's shuffle step of ``e``: every point masked with a fresh key, then
        permuted in secret. A key kept for this deal (a restarted process, :meth:`MentalDealer.restore`)
        is used again, not drawn anew (the step it made may be on the wire already)."""
        if len(self.shuffle_keys) > e.number:
            g = self.shuffle_keys[e.number]
        else:
            g = random_scalar(self.rand)
            self.shuffle_keys.append(g)
        out = [mul(g, p) for p in e.checked(e.points())]
        self.rand.shuffle(out)
        return {"type": "mask", "epoch": e.number, "seat": self.seat, "kind": SHUFFLE,
                "points": [p.hex() for p in out], "keys": []}

    def lock(self, e: Epoch) -> dict[str, Any]:
        """This seat's lock step of ``e``: its shuffle key stripped, a fresh key per
        position put on, and their commitments."""
        gi = invert(self.shuffle_keys[e.number])
        if len(self.card_keys) > e.number:  # kept (see :meth:`shuffle`)
            ks = self.card_keys[e.number]
        else:
            ks = [random_scalar(self.rand) for _ in e.slots]
            self.card_keys.append(ks)
        out = [mul(times(k, gi), p) for k, p in zip(ks, e.checked(e.points()), strict=True)]
        return {"type": "mask", "epoch": e.number, "seat": self.seat, "kind": LOCK,
                "points": [p.hex() for p in out], "keys": [base(k).hex() for k in ks]}

    def key(self, ledger: Ledger, slot: int) -> bytes:
        """This seat's key for ``slot`` in its current epoch."""
        n, j = ledger.where[slot]
        return self.card_keys[n][j]

    def reveal(self) -> dict[str, Any]:
        """Every key this seat used, for the end's audit."""
        return {"shuffle": [g.hex() for g in self.shuffle_keys],
                "cards": [[k.hex() for k in row] for row in self.card_keys]}


# ---- one process -------------------------------------------------------------------
@dataclass
class MentalDealer:
    """One process's side of the mental-poker deal.

    ``seats``: every seat, seat order; ``mine``: the seats this process plays (a peer's
    player, the host's player and its bots); ``boxes`` and ``verifies``: every seat's public
    box key and signature key (:meth:`box_key` of the process that plays it): the partial
    unmaskings sent to a seat are boxed for it, and every message a process sends is signed
    (``sig``), so a relaying host can put nothing in another seat's name.
    ``known``: slot -> face, what this process has learnt (its seats' cards, public ones).
    ``seed`` (tests and demonstrations): keys and permutations from a generator seeded with
    it; whoever knows it knows this process's keys."""

    seats: list[str]
    mine: list[str]
    seed: str | None = None
    ledger: Ledger = field(init=False)
    hands: dict[str, Hand] = field(init=False)
    box: PrivateKey = field(init=False)
    signer: SigningKey = field(init=False)
    boxes: dict[str, bytes] = field(default_factory=dict)
    verifies: dict[str, bytes] = field(default_factory=dict)
    known: dict[int, str] = field(default_factory=dict)
    _got: dict[int, dict[str, bytes]] = field(default_factory=dict)  # slot -> seat -> key

    def __post_init__(self) -> None:
        if any(s not in self.seats for s in self.mine):
            raise ValueError("a process plays only seats of the game")
        self.ledger = Ledger(list(self.seats))
        self.hands = {}
        for s in self.mine:
            rand: Any = secrets.SystemRandom() if self.seed is None else \
                random.Random(f"wizwar-mental:{self.seed}:{s}")  # noqa: S311 - tests only
            self.hands[s] = Hand(s, rand)
        if self.seed is None:
            self.box, self.signer = PrivateKey.generate(), SigningKey.generate()
        else:
            self.box = PrivateKey(blake2b(f"wizwar-mental-box:{self.seed}".encode(),
                                          digest_size=32).digest())
            self.signer = SigningKey(blake2b(f"wizwar-mental-sign:{self.seed}".encode(),
                                             digest_size=32).digest())
        for s in self.mine:
            self.boxes[s] = bytes(self.box.public_key)
            self.verifies[s] = bytes(self.signer.verify_key)

    def adopt(self, box: PrivateKey, signer: SigningKey) -> None:
        """Use ``box`` and ``signer`` as this process's keys (made before the table was
        known, so its ``hello`` could announce them)."""
        self.box, self.signer = box, signer
        for s in self.mine:
            self.boxes[s] = bytes(box.public_key)
            self.verifies[s] = bytes(signer.verify_key)

    def box_key(self) -> str:
        """This process's public keys (hex: its box key, then its signature key), announced
        for every seat it plays."""
        return (bytes(self.box.public_key) + bytes(self.signer.verify_key)).hex()

    def learn_boxes(self, boxes: Mapping[str, str]) -> None:
        """Every seat's public keys (seat -> :meth:`box_key` of its process), from the
        lobby. Raises :class:`MentalError` for a missing or malformed one."""
        for s in self.seats:
            try:
                raw = bytes.fromhex(boxes[s])
            except (KeyError, ValueError, TypeError):
                raw = b""
            if len(raw) != 64:
                raise MentalError(f"no public keys for {s}", s)
            self.boxes[s], self.verifies[s] = raw[:32], raw[32:]

    def sign(self, msg: Mapping[str, Any]) -> dict[str, Any]:
        """``msg`` signed by this process (``sig``: an Ed25519 signature, hex, over the
        canonical msgpack of the rest)."""
        body = {k: v for k, v in msg.items() if k != "sig"}
        return {**body, "sig": bytes(self.signer.sign(pack(body)).signature).hex()}

    def _check_signed(self, msg: Mapping[str, Any], seat: str, what: str) -> None:
        """``msg`` is signed by the process that plays ``seat``; else :class:`MentalError`
        blaming nobody (a message forged or damaged on the way is not that seat's)."""
        body = {k: v for k, v in msg.items() if k != "sig"}
        try:
            VerifyKey(self.verifies[seat]).verify(pack(body), bytes.fromhex(msg["sig"]))
        except (KeyError, ValueError, TypeError, CryptoError):
            raise MentalError(f"{what} said to be {seat}'s is not signed by {seat}'s process: "
                              "forged or damaged on the way") from None

    # -- a deal -----------------------------------------------------------------------
    def begin(self, slots: list[int], faces: list[str]) -> None:
        """Every process opens the same epoch: ``slots`` holding ``faces`` (the deck list
        at the start; a reshuffle's pile and its public faces)."""
        self.ledger.begin(slots, faces)
        for c in slots:
            self.known.pop(c, None)
            self._got.pop(c, None)

    def step(self) -> dict[str, Any] | None:
        """This process's next step of the deal under way (a ``mask`` message to publish),
        or None when the next step is another process's or the deal is done."""
        want = self.ledger.next_step()
        if want is None or want[0] not in self.hands:
            return None
        hand, e = self.hands[want[0]], self.ledger.epochs[-1]
        return self.sign(hand.shuffle(e) if want[1] == SHUFFLE else hand.lock(e))

    def take_step(self, msg: Mapping[str, Any]) -> None:
        """A published step (this process's own too), signed by its seat's process. Raises
        :class:`MentalError`."""
        seat = str(msg.get("seat", ""))[:8]
        if seat not in self.seats:
            raise MentalError(f"a deal step of no seat of the game ({seat!r})")
        self._check_signed(msg, seat, "a deal step")
        self.ledger.add_step(msg)

    # -- opening ----------------------------------------------------------------------
    def shares(self, slots: Iterable[int], to: str = "") -> dict[str, Any]:
        """The partial unmaskings of ``slots`` for seat ``to`` (``""``: everyone) from every
        seat this process plays: an ``unmask`` message. To one seat each key is boxed from
        this process's box key for that seat's (``nacl.public.Box``: only its process can
        read it, and it knows who sent it); to everyone they go in the clear. A process sends nothing for a seat it plays itself (it holds those keys)."""
        out: list[list[Any]] = []
        if to not in self.hands:
            for c in slots:
                for s, hand in self.hands.items():
                    k = hand.key(self.ledger, c)
                    if to:
                        ct = Box(self.box, PublicKey(self.boxes[to])).encrypt(
                            c.to_bytes(2, "big") + k)
                        out.append([c, s, bytes(ct).hex()])
                    else:
                        out.append([c, s, k.hex()])
        return self.sign({"type": "unmask", "to": to, "shares": out})

    def _try(self, c: int) -> bool:
        """Learn slot ``c``'s face if every seat's key for it is here (the others' shares
        and this process's own keys)."""
        if c in self.known:
            return False
        got = {**{s: h.key(self.ledger, c) for s, h in self.hands.items()},
               **self._got.get(c, {})}
        if not all(s in got for s in self.seats):
            return False
        self.known[c] = self.ledger.unmask(c, got)
        return True

    def open_own(self, slots: Iterable[int]) -> list[int]:
        """Slots opened to a seat this process plays whose other seats are all its own too
        (no share to wait for): learn them now. Returns those learnt."""
        return [c for c in slots if self._try(c)]

    def take_shares(self, msg: Mapping[str, Any]) -> list[int]:
        """Partial unmaskings sent to everyone or to a seat this process plays: each key is
        checked against its commitment at once (a wrong one is its sender's cheat, named);
        returns the slots whose face this process learnt now (once every seat's key is
        in). Shares boxed for a seat of another process are not for it: ignored (it could
        not read them). Raises :class:`MentalError`."""
        to = str(msg.get("to", ""))
        if to and to not in self.hands:
            return []
        items = msg.get("shares")
        if not isinstance(items, list):
            raise MentalError("a malformed partial unmasking")
        if not items:
            return []
        senders = {str(x[1]) if isinstance(x, list) and len(x) == 3 else "" for x in items}
        first = min(senders)
        if first not in self.seats or \
                len({self.verifies.get(s, b"") for s in senders}) != 1:
            raise MentalError("one unmask message holds the shares of several processes")
        self._check_signed(msg, first, "a partial unmasking")
        touched: list[int] = []
        for item in items:
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)
                    and isinstance(item[1], str) and isinstance(item[2], str)):
                raise MentalError("a malformed partial unmasking")
            c, s, text = item
            if s not in self.seats or c not in self.ledger.where:
                raise MentalError(f"a partial unmasking of an unknown card {c} or seat {s}")
            if to:
                try:
                    plain = Box(self.box, PublicKey(self.boxes[s])).decrypt(
                        bytes.fromhex(text))
                except (CryptoError, ValueError):
                    raise MentalError(f"a partial unmasking of card {c} said to be {s}'s was "
                                      f"not boxed by {s}'s process for this one: forged or "
                                      "damaged on the way") from None
                if len(plain) != 34 or int.from_bytes(plain[:2], "big") != c:
                    raise MentalError(f"{s} sent a partial unmasking for another card than "
                                      f"{c}", s)
                key = plain[2:]
            else:
                key = _scalar(text, f"a partial unmasking of card {c}", s)
            self.ledger.check_share(c, s, key)
            self._got.setdefault(c, {})[s] = key
            if c not in touched:
                touched.append(c)
        return [c for c in touched if self._try(c)]

    # -- keeping the keys -------------------------------------------------------------
    def secrets_wire(self) -> dict[str, Any]:
        """This process's secrets (its box and signature keys, every key of every seat it
        plays), as hex, for its data folder: a restarted process that reads them back
        (:meth:`restore`) can open its cards and answer the end's key reveal. Whoever reads
        them knows those seats' cards: keep them like the seat token, in the user's data
        folder only."""
        return {"box": bytes(self.box).hex(), "sign": bytes(self.signer).hex(),
                "hands": {s: h.reveal() for s, h in self.hands.items()}}

    def restore(self, wire: Mapping[str, Any]) -> None:
        """Take back :meth:`secrets_wire` (the public ledger is rebuilt from the game's
        record, as a rejoining peer catches up). Raises :class:`MentalError` for secrets
        of other seats or malformed ones."""
        try:
            box, sign = PrivateKey(bytes.fromhex(wire["box"])), \
                SigningKey(bytes.fromhex(wire["sign"]))
            hands = wire["hands"]
            if sorted(hands) != sorted(self.hands):
                raise MentalError("the kept keys are another process's seats")
            for s, got in hands.items():
                h = self.hands[s]
                h.shuffle_keys = [_scalar(x, "a kept shuffle key", s) for x in got["shuffle"]]
                h.card_keys = [[_scalar(x, "a kept card key", s) for x in row]
                               for row in got["cards"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MentalError(f"the kept keys are unreadable ({exc!r:.60})") from None
        self.box, self.signer = box, sign
        for s in self.mine:
            self.boxes[s] = bytes(box.public_key)
            self.verifies[s] = bytes(sign.verify_key)

    # -- the end ----------------------------------------------------------------------
    def reveal(self) -> dict[str, Any]:
        """Every key of every seat this process plays: a ``keys`` message for the end."""
        return {"type": "keys", "keys": {s: h.reveal() for s, h in self.hands.items()}}

    def audit(self, revealed: Mapping[str, Mapping[str, Any]]) -> dict[int, str]:
        """The end's audit (:meth:`Ledger.audit`) with every seat's revealed keys (seat ->
        its ``reveal``). Returns every slot's face in its latest epoch. Raises
        :class:`MentalError` naming the cheat."""
        return self.ledger.audit(revealed)


# ---- what an action must open, found without a full state ---------------------------
class NeedReshuffle(Exception):  # noqa: N818 - a signal, like core.rng.ChanceNeeded
    """A trial reached a re-deal of ``slots`` (a reshuffle) that is not dealt yet."""

    def __init__(self, slots: list[int]) -> None:
        super().__init__(f"a reshuffle of {len(slots)} cards")
        self.slots = list(slots)


@dataclass
class Prepared:
    """A re-deal dealt by mental poker ahead of the action that makes it: its ``slots``
    (in the rules' order), the faces this process knows of them (``""`` unknown) and their
    new public commitments."""

    slots: list[int]
    faces: list[str]
    commits: list[str]


@dataclass
class TrialDealer:
    """The dealer a process attaches to its own partial state (or a copy of it) while an
    action is applied: it records what the rules show (``show``) and serves the re-deals
    from those already dealt by mental poker (``prepared``, in order); one not dealt yet
    stops the trial (:class:`NeedReshuffle`)."""

    hooks: Any
    prepared: list[Prepared]
    to_all: list[int] = field(default_factory=list)
    to_seat: dict[str, list[int]] = field(default_factory=dict)
    used: int = 0

    def show(self, state: Any, slots: list[int], to: str = "") -> None:
        """The rules show ``slots`` to ``to`` (``""``: everyone): noted."""
        if to:
            self.to_seat.setdefault(to, []).extend(slots)
        else:
            self.to_all.extend(c for c in slots if c not in self.to_all)

    def reblind(self, state: Any, slots: list[int]) -> None:
        """The rules deal ``slots`` again: the next prepared re-deal, which must be of
        these very slots; none left raises :class:`NeedReshuffle`."""
        if self.used >= len(self.prepared):
            raise NeedReshuffle(slots)
        p = self.prepared[self.used]
        if p.slots != list(slots):
            raise MentalError("the re-deal dealt ahead is not the one the rules make")
        self.used += 1
        for c, f, com in zip(p.slots, p.faces, p.commits, strict=True):
            self.hooks.set_slot(state, c, f, com)


@dataclass
class Trial:
    """What one process's trial of an action found (on a copy of its partial state):
    ``ok`` (False: the rules refused the action there, its faces too few to play it);
    ``to_all``: the slots the rules showed to everyone or that became public; ``to_seat``:
    per seat, the slots shown to it; ``entering``: per seat, the slots that entered its
    hand and stayed private; ``reshuffle``: the slots of a re-deal the trial reached that
    is not dealt yet (None: none); ``rolls``: the trial reached a roll of beaconed dice
    and no dice were given (core/beacon.py); ``state``: the copy after it (None when
    refused or stopped)."""

    ok: bool
    to_all: list[int] = field(default_factory=list)
    to_seat: dict[str, list[int]] = field(default_factory=dict)
    entering: dict[str, list[int]] = field(default_factory=dict)
    reshuffle: list[int] | None = None
    state: Any = None
    rolls: bool = False


def trial(ruleset: Any, state: Any, action: Any, prepared: list[Prepared],
          dice: list[list[str]] | None = None) -> Trial:
    """Apply ``action`` to a copy of this process's partial ``state`` with a
    :class:`TrialDealer`: what the rules show and deal, as far as this process's faces let
    them. The caller trusts a claim about a slot only from a process that knows that slot
    (a trial reads ``""`` for the rest, "not that card"). ``IllegalAction`` from the rules
    is a refused trial, not an error. ``dice``: the action's beacon reveals (a beaconed
    game, core/beacon.py ``apply_with``); a roll reached without them stops the trial
    (``rolls``)."""
    from core.beacon import apply_with
    from core.engine import IllegalAction
    from core.rng import ChanceNeeded

    hooks = ruleset.dealing()
    st = ruleset.clone(state)
    rec = TrialDealer(hooks, prepared)
    hooks.attach(st, rec)
    pub0, hands0 = hooks.public(st), hooks.holders(st)
    reshuffle = None
    rolls = False
    try:
        apply_with(ruleset, st, action, dice or None)
    except IllegalAction:
        return Trial(False)
    except NeedReshuffle as need:
        reshuffle = need.slots
    except ChanceNeeded:
        rolls = True
    pub1 = hooks.public(st)
    entering = {}
    if reshuffle is None and not rolls:
        for seat, held in hooks.holders(st).items():
            new = sorted(held - hands0.get(seat, set()) - pub1)
            if new:
                entering[seat] = new
    to_all = list(rec.to_all) + sorted(pub1 - pub0 - set(rec.to_all))
    return Trial(True, to_all, {s: sorted(set(v)) for s, v in rec.to_seat.items()}, entering,
                 reshuffle, st if reshuffle is None and not rolls else None, rolls)


@dataclass(frozen=True)
class Next:
    """One step of settling an action's openings (:func:`next_steps`): ``open`` (``slots``
    to seat ``to``, ``""`` everyone), ``redeal`` (deal ``slots`` again now, their faces
    public), ``dice`` (every seat reveals its next dice-chain value for the action's roll)
    or ``apply`` (nothing more opens: every process applies the action)."""

    kind: str
    slots: tuple[int, ...] = ()
    to: str = ""


def next_steps(trials: Mapping[int, Trial], plays: Mapping[int, Iterable[str]],
               knows: Mapping[int, Iterable[int]], held: Mapping[int, str],
               order: Callable[[int], Any]) -> list[Next]:
    """What this round of an action's settling opens, from every process's trial
    (``trials``: process -> :class:`Trial`; ``plays``: process -> the seats it plays;
    ``knows``: process -> the slots it knows now; ``held``: slot -> the seat holding it
    before the action; ``order``: a slot's place in the draw order). In order of priority:

    1. claims that a slot is shown to everyone or to a seat, each taken only from the
       process that plays the slot's holder (it knows its whole hand, so which of its cards
       the rules pick), or for a slot in no hand from a process that knows it;
    2. a re-deal the trials reached (every trial that reached one must name the same
       slots): ``redeal``, after opening to everyone the slots of it not yet public;
    3. a roll a trial reached without dice (a beaconed game): ``dice`` (its value is fixed
       by the seats' committed chains, so a needless one changes nothing but the chain);
    4. the first slot in draw order that enters a hand unknown to its holder, opened to the
       holder (one at a time: a Trap! before it may change who draws what);
    5. else ``apply``.

    Raises :class:`MentalError` when the trials disagree on a re-deal. Source: the issue
    ("a card is unmasked for the peers who may see it ... and for no one else");
    docs/protocol.md, What an action opens."""
    plays = {p: set(s) for p, s in plays.items()}
    knows = {p: set(k) for p, k in knows.items()}
    seat_at = {s: p for p, ss in plays.items() for s in ss}

    def public(c: int) -> bool:
        return all(c in k for k in knows.values())

    to_all: list[int] = []
    to_seat: dict[str, list[int]] = {}
    for p, t in sorted(trials.items()):
        if not t.ok:
            continue

        def may_claim(c: int, p: int = p) -> bool:
            return held[c] in plays[p] if c in held else c in knows[p]

        to_all += [c for c in t.to_all if may_claim(c) and not public(c) and c not in to_all]
        for s, cs in sorted(t.to_seat.items()):
            got = to_seat.setdefault(s, [])
            got += [c for c in cs if may_claim(c) and c not in knows[seat_at[s]]
                    and c not in got and c not in to_all]
    claims = [Next("open", tuple(to_all))] if to_all else []
    claims += [Next("open", tuple(cs), s) for s, cs in to_seat.items() if cs]
    if claims:
        return claims
    needs = [t.reshuffle for _p, t in sorted(trials.items())
             if t.ok and t.reshuffle is not None]
    if needs:
        if any(n != needs[0] for n in needs):
            raise MentalError("the processes' trials reach different reshuffles")
        pile = needs[0]
        hidden = tuple(c for c in pile if not public(c))
        return ([Next("open", hidden)] if hidden else []) + [Next("redeal", tuple(pile))]
    if any(t.ok and t.rolls for t in trials.values()):
        return [Next("dice")]
    cands = sorted((order(c), c, s) for _p, t in sorted(trials.items()) if t.ok
                   for s, cs in t.entering.items() for c in cs
                   if c not in knows[seat_at[s]])
    if cands:
        _key, c, s = cands[0]
        return [Next("open", (c,), s)]
    return [Next("apply")]
