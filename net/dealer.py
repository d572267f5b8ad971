"""Dealing hidden values on a LAN: the host commits to every secret slot and reveals each one
only to whoever may see it (design.md, Hidden information; the LAN issue).

Generic over rulesets: the slots, their values, salts and commitments, the epochs (a re-deal
gives slots fresh salts and commitments), the openings and the final audit live here; what a
slot means (Wiz-War: a card instance, its value the face), which are public and which a seat
holds come from the ruleset's :class:`~core.engine.Dealing` hooks; what the rules show as
they apply an action they request themselves (``dealer.show(state, slots, to)``), and the
host's dealer serves those requests.

* :class:`HostDealer` holds every value and its salt. It assigns values to slots in secret
  before the game seed is known (the seed then orders them, so neither the host nor anyone
  else chooses which card comes when), re-deals slots behind fresh commitments, and works out
  for each action what every peer must learn: the requests the rules made, and the slots
  that became public or entered a hand.
* :class:`PeerDealer` applies what the host sent, checking every reveal against its
  commitment, and audits the whole deal at the end.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.engine import Dealing, commitment

Reveal = list  # [slot, value, salt]

#: the reveal lists a ``commit`` message carries (and a peer's log keeps as the record's
#: ``reveals``): before the action, the re-deals during it, this seat's after it
REVEAL_KEYS = ("pre", "reblind", "private")


def _salt(rand: Any) -> str:
    """16 random bytes as hex."""
    return bytes(rand.getrandbits(8) for _ in range(16)).hex()


class DealError(ValueError):
    """A reveal or an audit that does not match the commitments: the host cheated or erred."""


@dataclass
class HostDealer:
    """The host's secret deal: ``values[slot]`` and ``salts[slot]`` for the current epoch,
    and the history ``[slot, value, salt, epoch]`` of everything ever committed, for the
    final audit. ``hooks`` are the ruleset's :class:`~core.engine.Dealing`."""

    hooks: Dealing
    values: list[str]
    salts: list[str]
    history: list[list[Any]] = field(default_factory=list)
    rand: Any = field(default_factory=secrets.SystemRandom)
    _reblinds: list[dict[str, Any]] = field(default_factory=list)
    _old: dict[int, tuple[str, str]] = field(default_factory=dict)
    _to_all: list[int] = field(default_factory=list)  # the rules' requests in this action
    _to_seat: dict[str, set[int]] = field(default_factory=dict)

    @classmethod
    def deal(cls, hooks: Dealing, options: Mapping[str, Any],
             seed: int | None = None) -> HostDealer:
        """Assign the ruleset's values to slots at random (system randomness, outside the
        rules core) and salt each one. With ``seed`` (``wizwar host --seed``: tests and
        demonstrations) the shuffles and salts come from a generator seeded with it, so
        whoever knows the seed knows every value: never for a game with secrets to keep."""
        rand: Any = secrets.SystemRandom() if seed is None else \
            random.Random(f"wizwar-deal:{seed}")  # noqa: S311 - a seeded host, on purpose
        values = hooks.values(options)
        rand.shuffle(values)
        salts = [_salt(rand) for _ in values]
        d = cls(hooks, values, salts, rand=rand)
        d.history = [[i, f, s, 0] for i, (f, s) in enumerate(zip(values, salts, strict=True))]
        return d

    @property
    def faces(self) -> list[str]:
        """The values (Wiz-War's word: faces)."""
        return self.values

    def commits(self) -> list[str]:
        """The public commitments of the current epoch."""
        return [commitment(f, s) for f, s in zip(self.values, self.salts, strict=True)]

    def opening(self, slot: int) -> Reveal:
        """The reveal of ``slot`` in the current epoch."""
        return [slot, self.values[slot], self.salts[slot]]

    def game_deal(self) -> Any:
        """The ``deal`` for the host's ``ruleset.new_game`` (every value known)."""
        return self.hooks.deal(list(self.values), self.commits())

    def attach(self, state: Any) -> None:
        """Let the rules of ``state`` call :meth:`reblind`."""
        self.hooks.attach(state, self)

    def start_reveals(self, state: Any) -> tuple[list[Reveal], dict[str, list[Reveal]]]:
        """At the start: the openings of the public slots, and per seat those it holds."""
        pre = [self.opening(c) for c in sorted(self.hooks.public(state))]
        private = {seat: [self.opening(c) for c in sorted(held)]
                   for seat, held in self.hooks.holders(state).items()}
        return pre, private

    # the rules call this during a re-deal (a reshuffle)
    def reblind(self, state: Any, slots: list[int]) -> None:
        """Deal ``slots`` again: permute their values in secret, salt them anew."""
        for c in slots:
            self._old.setdefault(c, (self.values[c], self.salts[c]))
        values = [self.values[c] for c in slots]
        self.rand.shuffle(values)
        epoch = 1 + max(h[3] for h in self.history)
        for c, f in zip(slots, values, strict=True):
            self.values[c] = f
            self.salts[c] = _salt(self.rand)
            com = commitment(f, self.salts[c])
            self.hooks.set_slot(state, c, f, com)
            self.history.append([c, f, self.salts[c], epoch])
        self._reblinds.append({"cids": list(slots),
                               "commits": [commitment(self.values[c], self.salts[c])
                                           for c in slots]})

    # ---- what an action reveals --------------------------------------------------------
    def show(self, state: Any, slots: list[int], to: str = "") -> None:
        """The rules show ``slots`` to seat ``to`` (``""``: to everyone) as they apply the
        action being sequenced (core/engine.py ``Dealing``: reveals requested by the rules);
        :meth:`finish` opens them to whoever may now see them."""
        if to:
            self._to_seat.setdefault(to, set()).update(slots)
        else:
            self._to_all.extend(c for c in slots if c not in self._to_all)

    def begin(self, state: Any, action: Any) -> dict[str, Any]:
        """Note what is known before ``action`` is applied on the host's full state."""
        self._reblinds = []
        self._old = {}
        self._to_all, self._to_seat = [], {}
        return {"public": self.hooks.public(state), "hands": self.hooks.holders(state)}

    def finish(self, state: Any, before: dict[str, Any]) -> dict[str, Any]:
        """What peers must learn about the action just applied: ``pre`` reveals (checked
        before they apply it), ``reblind`` records (used during it) and ``private`` reveals
        per seat (checked after it)."""
        public1 = self.hooks.public(state)
        everyone, one = set(self._to_all), self._to_seat
        again = {c for r in self._reblinds for c in r["cids"]}
        pre: list[Reveal] = []
        seen: set[int] = set()
        for c in self._to_all:  # in the order the rules showed them
            f, s = self._old.get(c, (self.values[c], self.salts[c]))
            pre.append([c, f, s])
            seen.add(c)
        for c in sorted(again):  # public for a moment before the re-deal (e.g. a Trap!)
            if c not in before["public"] and c not in seen:
                f, s = self._old[c]
                pre.append([c, f, s])
                seen.add(c)
        for c in sorted((public1 | everyone) - before["public"] - again - seen):
            pre.append(self.opening(c))
        reblind = []
        for r in self._reblinds:
            reblind.append({"cids": r["cids"], "commits": r["commits"],
                            "public": [self.opening(c) for c in r["cids"] if c in public1]})
        private: dict[str, list[Reveal]] = {}
        for seat, held in self.hooks.holders(state).items():
            new = held - before["hands"].get(seat, set()) - public1
            new |= one.get(seat, set()) - public1
            private[seat] = [self.opening(c) for c in sorted(new)]
        self._reblinds = []
        self._old = {}
        self._to_all, self._to_seat = [], {}
        return {"pre": pre, "reblind": reblind, "private": private}

    def log_reveals(self, rev: dict[str, Any]) -> dict[str, Any]:
        """What the host's own log keeps of an action's reveals: the re-deals, with their
        new values (the host knows them all)."""
        return {"reblind": [dict(r, faces=[self.values[c] for c in r["cids"]])
                            for r in rev["reblind"]]}


@dataclass
class PeerDealer:
    """A peer's side: applies reveals and the host's re-deals, keeps every commitment seen."""

    hooks: Dealing = field(default_factory=Dealing)
    seen: list[list[Any]] = field(default_factory=list)  # [slot, commit, epoch]
    pending: list[dict[str, Any]] = field(default_factory=list)
    epoch: int = 0

    def remember(self, commits: list[str]) -> None:
        """Record the first epoch's commitments."""
        self.seen = [[i, c, 0] for i, c in enumerate(commits)]

    def start_deal(self, commits: list[str], reveals: list[Any]) -> Any:
        """The ``deal`` for this peer's ``ruleset.new_game``: the values revealed to it at the
        start (each checked against its commitment), ``""`` for the others. Raises
        ``DealError``."""
        values = [""] * len(commits)
        for r in reveals:
            if not (isinstance(r, list) and len(r) == 3 and isinstance(r[0], int)
                    and isinstance(r[1], str) and isinstance(r[2], str)):
                raise DealError(f"malformed reveal {r!r:.60}")
            cid, value, salt = r
            if not 0 <= cid < len(values) or commitment(value, salt) != commits[cid]:
                raise DealError(f"a reveal of card {cid} does not match its commitment")
            values[cid] = value
        self.remember(commits)
        return self.hooks.deal(values, list(commits))

    def attach(self, state: Any) -> None:
        """Let the rules of ``state`` call :meth:`reblind`."""
        self.hooks.attach(state, self)

    def show(self, state: Any, slots: list[int], to: str = "") -> None:
        """Nothing: a peer learns what the rules show from the host's reveals."""

    def apply_reveals(self, state: Any, reveals: list[Any]) -> None:
        """Learn values; each must open its current commitment. Raises ``DealError``."""
        for r in reveals:
            if not (isinstance(r, list) and len(r) == 3 and isinstance(r[0], int)
                    and isinstance(r[1], str) and isinstance(r[2], str)):
                raise DealError(f"malformed reveal {r!r:.60}")
            try:
                self.hooks.reveal(state, r[0], r[1], r[2])
            except ValueError as exc:
                raise DealError(str(exc)) from exc

    def before(self, state: Any, msg: Mapping[str, Any]) -> None:
        """Before a committed action: its ``pre`` reveals and ``reblind`` records."""
        self.apply_reveals(state, list(msg.get("pre", [])))
        self.pending = list(msg.get("reblind", []))

    def after(self, state: Any, msg: Mapping[str, Any]) -> None:
        """After it: this seat's ``private`` reveals."""
        self.apply_reveals(state, list(msg.get("private", [])))

    def reblind(self, state: Any, slots: list[int]) -> None:
        """The rules re-dealt ``slots``: take the host's new commitments for them."""
        if not self.pending:
            raise DealError("the host sent no new commitments for a reshuffle")
        rec = self.pending.pop(0)
        if rec.get("cids") != slots or len(rec.get("commits", [])) != len(slots):
            raise DealError("the host's reshuffle does not match ours")
        self.epoch += 1
        for c, com in zip(slots, rec["commits"], strict=True):
            self.hooks.set_slot(state, c, "", com)
            self.seen.append([c, com, self.epoch])
        self.apply_reveals(state, rec.get("public", []))

    def audit(self, history: list[Any], options: Mapping[str, Any]) -> None:
        """Check the host's whole deal at the end: every commitment this peer saw opens with
        the revealed (value, salt), and the first epoch holds exactly the ruleset's values
        for ``options`` (the deck). Raises ``DealError`` naming the first problem."""
        by_key: dict[tuple[int, int], tuple[str, str]] = {}
        for h in history:
            if not (isinstance(h, list) and len(h) == 4):
                raise DealError("malformed audit entry")
            by_key[(h[0], h[3])] = (h[1], h[2])
        for cid, com, epoch in self.seen:
            if (cid, epoch) not in by_key:
                raise DealError(f"no opening for card {cid} of deal {epoch}")
            f, s = by_key[(cid, epoch)]
            if commitment(f, s) != com:
                raise DealError(f"card {cid} of deal {epoch} does not open its commitment")
        first = Counter(f for (_c, e), (f, _s) in by_key.items() if e == 0)
        if first != Counter(self.hooks.values(options)):
            raise DealError("the first deal is not the deck")
