"""Dealing hidden cards on a LAN: the host commits to every face and reveals each one only to
whoever may see it (design.md, Hidden information; the LAN issue).

* :class:`HostDealer` holds every face and its salt. It assigns faces to card instances in
  secret before the game seed is known (the seed then orders the draw pile, so neither the
  host nor anyone else chooses which card comes when), re-deals reshuffled cards behind fresh
  commitments, and works out for each action what every peer must learn.
* :class:`PeerDealer` applies what the host sent, checking every reveal against its
  commitment, and audits the whole deal at the end.
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from core.wizwar.actions import Action
from core.wizwar.cards import deck_list
from core.wizwar.state import State, commitment

Reveal = list  # [cid, face, salt]


class DealError(ValueError):
    """A reveal or an audit that does not match the commitments: the host cheated or erred."""


@dataclass
class HostDealer:
    """The host's secret deal: ``faces[cid]`` and ``salts[cid]`` for the current epoch, and the
    history of every (cid, face, salt) ever committed, for the final audit."""

    faces: list[str]
    salts: list[str]
    history: list[list[Any]] = field(default_factory=list)
    _reblinds: list[dict[str, Any]] = field(default_factory=list)
    _old: dict[int, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def deal(cls, deck: str, players: int) -> HostDealer:
        """Assign the deck's faces to card instances at random (system randomness, outside the
        rules core) and salt each one."""
        faces = deck_list(deck, players)
        secrets.SystemRandom().shuffle(faces)
        salts = [secrets.token_hex(16) for _ in faces]
        d = cls(faces, salts)
        d.history = [[i, f, s, 0] for i, (f, s) in enumerate(zip(faces, salts, strict=True))]
        return d

    def commits(self) -> list[str]:
        """The public commitments of the current epoch."""
        return [commitment(f, s) for f, s in zip(self.faces, self.salts, strict=True)]

    def opening(self, cid: int) -> Reveal:
        """The reveal of ``cid`` in the current epoch."""
        return [cid, self.faces[cid], self.salts[cid]]

    # the core calls this during a reshuffle (State.dealer)
    def reblind(self, state: State, cids: list[int]) -> None:
        """Deal the reshuffled cards again: permute their faces in secret, salt them anew."""
        for c in cids:
            self._old.setdefault(c, (self.faces[c], self.salts[c]))
        faces = [self.faces[c] for c in cids]
        secrets.SystemRandom().shuffle(faces)
        epoch = 1 + max(h[3] for h in self.history)
        for c, f in zip(cids, faces, strict=True):
            self.faces[c] = f
            self.salts[c] = secrets.token_hex(16)
            state.faces[c] = f
            state.commits[c] = commitment(f, self.salts[c])
            self.history.append([c, f, self.salts[c], epoch])
        self._reblinds.append({"cids": list(cids),
                               "commits": [state.commits[c] for c in cids]})

    # ---- what an action reveals --------------------------------------------------------
    def begin(self, state: State, action: Action) -> dict[str, Any]:
        """Note what is known before ``action`` is applied on the host's full state."""
        self._reblinds = []
        self._old = {}
        state.exposed.clear()
        state.shown.clear()
        named: list[int] = []
        if action.verb == "choose" and state.choice:
            c = state.find_in_hand(state.choice[1], action.card)
            if c is not None:
                named.append(c)
        elif action.verb in ("play", "discard", "drop") and action.card:
            c = state.find_in_hand(action.actor, action.card)
            if c is not None:
                named.append(c)
        if action.verb == "drop" and action.targets:
            c = state.find_in_hand(action.actor, action.targets[0])
            if c is not None:
                named.append(c)
        if action.number is not None and action.verb in ("play", "boost"):
            c = state.find_in_hand(action.actor, str(action.number))
            if c is not None and c not in named:
                named.append(c)
        return {"public": state.public_cards(), "named": named,
                "hands": {w.seat: set(w.hand) for w in state.wizards}}

    def finish(self, state: State, before: dict[str, Any]) -> dict[str, Any]:
        """What peers must learn about the action just applied: ``pre`` reveals (checked
        before they apply it), ``reblind`` records (used during it) and ``private`` reveals
        per seat (checked after it)."""
        public1 = state.public_cards()
        again = {c for r in self._reblinds for c in r["cids"]}
        pre: list[Reveal] = []
        seen: set[int] = set()
        for c in before["named"]:
            f, s = self._old.get(c, (self.faces[c], self.salts[c]))
            pre.append([c, f, s])
            seen.add(c)
        for c in sorted(again):  # public for a moment before the reshuffle (e.g. a Trap!)
            if c not in before["public"] and c not in seen:
                f, s = self._old[c]
                pre.append([c, f, s])
                seen.add(c)
        for c in sorted((public1 | set(state.exposed)) - before["public"] - again - seen):
            pre.append(self.opening(c))
        state.exposed.clear()
        reblind = []
        for r in self._reblinds:
            reblind.append({"cids": r["cids"], "commits": r["commits"],
                            "public": [self.opening(c) for c in r["cids"] if c in public1]})
        private: dict[str, list[Reveal]] = {}
        shown = {seat: set(cids) for seat, cids in state.shown}  # Telepath: seen, not taken
        for w in state.wizards:
            new = set(w.hand) - before["hands"].get(w.seat, set()) - public1
            new |= shown.get(w.seat, set()) - public1
            private[w.seat] = [self.opening(c) for c in sorted(new)]
        state.shown.clear()
        self._reblinds = []
        self._old = {}
        return {"pre": pre, "reblind": reblind, "private": private}


@dataclass
class PeerDealer:
    """A peer's side: applies reveals and the host's reblinds, keeps every commitment seen."""

    seen: list[list[Any]] = field(default_factory=list)  # [cid, commit, epoch]
    pending: list[dict[str, Any]] = field(default_factory=list)
    epoch: int = 0

    def remember(self, commits: list[str]) -> None:
        """Record the first epoch's commitments."""
        self.seen = [[i, c, 0] for i, c in enumerate(commits)]

    @staticmethod
    def apply_reveals(state: State, reveals: list[Any]) -> None:
        """Learn faces; each must open its current commitment. Raises ``DealError``."""
        for r in reveals:
            if not (isinstance(r, list) and len(r) == 3 and isinstance(r[0], int)
                    and isinstance(r[1], str) and isinstance(r[2], str)):
                raise DealError(f"malformed reveal {r!r:.60}")
            try:
                state.reveal(r[0], r[1], r[2])
            except ValueError as exc:
                raise DealError(str(exc)) from exc

    def reblind(self, state: State, cids: list[int]) -> None:
        """The core reshuffled ``cids``: take the host's new commitments for them."""
        if not self.pending:
            raise DealError("the host sent no new commitments for a reshuffle")
        rec = self.pending.pop(0)
        if rec.get("cids") != cids or len(rec.get("commits", [])) != len(cids):
            raise DealError("the host's reshuffle does not match ours")
        self.epoch += 1
        for c, com in zip(cids, rec["commits"], strict=True):
            state.faces[c] = ""
            state.commits[c] = com
            self.seen.append([c, com, self.epoch])
        self.apply_reveals(state, rec.get("public", []))

    def audit(self, history: list[Any], deck: str, players: int) -> None:
        """Check the host's whole deal at the end: every commitment this peer saw opens with
        the revealed (face, salt), and the first epoch holds exactly the deck.
        Raises ``DealError`` naming the first problem."""
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
        if first != Counter(deck_list(deck, players)):
            raise DealError("the first deal is not the deck")
