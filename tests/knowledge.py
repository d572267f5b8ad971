"""What a peer may know of the cards, for the tests that watch a LAN peer's state for leaks.

A face is legitimately known to a peer when it is public now (``State.public_cards``), in
its own hand, was *shown to everyone* when an action took it from a hand (the card played,
discarded or dropped and a Number card with it: ``turn._shown_as_played``; Source: rulebook,
Playing Cards), was counted by a Stone Dead (cards.md stone-dead: the stones become known to
all), or was in the hand a Telepath showed this peer. The shown cards outlive the moment: an
object that attacks from a hand and goes back to it, or a displayed stone a Telepath takes
out of the display, stays known to everyone who saw it; a watcher that looked only at the
public cards after each action cried leak for those (the Wizardblade, Speedstone and
Visionstone flakes of stop 20).
"""

from __future__ import annotations

from typing import Any

from core.wizwar import cards as C
from core.wizwar.rules.turn import _shown_as_played
from core.wizwar.state import State
from net.lan import PeerGame


def record_shown(peer: PeerGame, into: set[int]) -> None:
    """Add to ``into`` every card instance an action shows to all as it leaves a hand, for
    each commit ``peer`` applies (after its public reveals, before the action)."""
    commit = peer._commit

    def wrapped(msg: dict[str, Any]) -> None:
        dealer = peer.dealer
        before = dealer.before

        def shown_before(state: Any, m: Any) -> None:
            before(state, m)
            into.update(_shown_as_played(state, peer.ruleset.action_from_wire(m["action"])))

        dealer.before = shown_before  # type: ignore[method-assign]
        try:
            commit(msg)
        finally:
            del dealer.before  # back to the class's method

    peer._commit = wrapped  # type: ignore[method-assign]


class Entitled:
    """The card instances a peer may know the faces of, kept up after every change.

    ``seat``: the peer's seat ("" for a watcher, who holds no hand and reads no mind)."""

    def __init__(self, peer: PeerGame) -> None:
        self.known: set[int] = set()
        self.shown: set[int] = set()
        record_shown(peer, self.shown)
        self._stone_dead_open = False

    def update(self, st: State, seat: str = "") -> None:
        """Take in what ``st`` (the peer's state just after a change) entitles it to."""
        self.known |= st.public_cards() | self.shown
        if seat:
            self.known |= set(st.wizard(seat).hand)
            if st.choice and st.choice[0] == seat:  # Telepath showed us that hand
                self.known |= set(st.wizard(st.choice[1]).hand)
        if self._stone_dead_open:  # a Stone Dead resolved: the stones it counted are shown
            self.known |= {c for w in st.wizards for c in w.hand
                           if (cd := C.BY_SLUG.get(st.face(c))) and cd.kind == C.STONE}
        self._stone_dead_open = any(w.cid is not None and st.face(w.cid) == "stone-dead"
                                    for w in st.windows)

    def leaks(self, st: State) -> list[int]:
        """The instances ``st`` knows a face of that the peer was never entitled to."""
        return [cid for cid, face in enumerate(st.faces) if face and cid not in self.known]
