"""Wiz-War's hidden cards for the shared dealer machinery (design.md, Hidden information).

The generic dealer of a networked game (``net/dealer.py``) and the log's replay
(``core/log.py``) know slots, values, salts and commitments, never a card. This module says
what they mean in Wiz-War: a slot is a card instance, its value the card's face; the public
zones are the discard pile, loose objects, displayed cards and the open stack; a seat holds its
hand; a reshuffle deals the pile's cards again behind fresh commitments. What a rule shows as
it applies (the card played, the stones Stone Dead counts, the hand Telepath shows the caster)
the rules request themselves (``State.show``, core/engine.py ``Dealing``); Telepath's choice is
sealed for all but the thief and the victim (:func:`seal`).

Sources: rulebook, Playing Cards and Reshuffling; the LAN issue (reveals and the audit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.engine import Dealing, Sealed
from core.wizwar.actions import Action
from core.wizwar.cards import deck_list
from core.wizwar.state import State, commitment


class CardDealing(Dealing):
    """The card faces as dealer-held slots (see the module docstring)."""

    def values(self, options: Mapping[str, Any]) -> list[str]:
        """The full deck for the table (cards.deck_list; Relocate Sector left out with 2)."""
        return deck_list("full", int(options.get("players", 2)))

    def deal(self, values: list[str], commits: list[str]) -> dict[str, list[str]]:
        """``{"faces": ..., "commits": ...}`` for ``new_game``."""
        return {"faces": list(values), "commits": list(commits)}

    def attach(self, state: State, dealer: Any) -> None:
        """``state.dealer``: the rules' reshuffle calls its ``reblind``."""
        state.dealer = dealer

    def set_slot(self, state: State, slot: int, value: str, commit: str) -> None:
        """A re-dealt card: its face (``""`` unknown) and new commitment."""
        state.faces[slot] = value
        state.commits[slot] = commit

    def reveal(self, state: State, slot: int, value: str, salt: str) -> None:
        """state.reveal (checked against the commitment; raises ``ValueError``)."""
        state.reveal(slot, value, salt)

    def public(self, state: State) -> set[int]:
        """state.public_cards."""
        return state.public_cards()

    def holders(self, state: State) -> dict[str, set[int]]:
        """Each wizard's hand, seat order."""
        return {w.seat: set(w.hand) for w in state.wizards}

    def draw_order(self, state: State, start: bool = False) -> list[int]:
        """The draw pile, top first; ``start``: the hands in seat order first (the set-up
        deals each wizard its hand from the top of the shuffled deck). Source: rulebook,
        Setup."""
        dealt = [c for w in state.wizards for c in w.hand] if start else []
        return dealt + list(state.deck)


def seal(state: State, action: Action) -> Sealed | None:
    """Telepath's choice is secret to all but the thief and the victim: the thief saw the
    hand, the victim held it, nobody else may learn which card changed hands. The public form
    names the card instance taken (``P3 choose +31``), whose face every other peer lacks.
    ``None`` for every other action (and for a ``choose`` that names no card in the hand: the
    rules refuse it). Source: cards.md telepath."""
    if action.verb != "choose" or not state.choice or not action.card:
        return None
    thief, victim = state.choice
    cid = state.find_in_hand(victim, action.card)
    if cid is None:
        return None
    return Sealed((thief, victim), Action(action.actor, "choose", number=cid))


DEALING = CardDealing()


def content_digest() -> str:
    """A digest of the card data and the implemented set: two builds that deal different
    decks must not play together (the deal would not even have the same size)."""
    from hashlib import blake2b

    from core.wizwar.cards import CARDS, IMPLEMENTED

    text = ";".join(f"{c.slug}:{c.count}:{c.kind}" for c in CARDS) + "|" + ",".join(IMPLEMENTED)
    return blake2b(text.encode(), digest_size=8).hexdigest()


# ---- replay ----------------------------------------------------------------------------
def reveal_all(state: State, reveals: list[Any]) -> None:
    """Apply ``[cid, face, salt]`` reveals (checked against the commitments). Raises
    ``ValueError``."""
    for cid, face, salt in reveals:
        if state.commits and commitment(face, salt) != state.commits[cid]:
            raise ValueError(f"a recorded reveal of card {cid} does not open its commitment")
        state.faces[cid] = face


class ReplayDealer:
    """Replays a networked log: the recorded reveals around each action, and reshuffled cards
    re-blinded with the recorded commitments."""

    def __init__(self) -> None:
        self.pending: list[dict[str, Any]] = []

    def attach(self, state: State) -> None:
        """Become ``state.dealer``."""
        state.dealer = self

    def show(self, state: State, cids: list[int], to: str = "") -> None:
        """Nothing: a log records what was revealed (its ``pre``/``private`` lists)."""

    def before(self, state: State, reveals: Mapping[str, Any]) -> None:
        """The ``pre`` reveals, and the reshuffle records the action will use."""
        reveal_all(state, list(reveals.get("pre", [])))
        for cid, face in reveals.get("known", []):
            # a mental-poker log as the game went: faces its writer learnt (no salt opens
            # them; a public one is checked by the record's state hash)
            state.faces[int(cid)] = str(face)
        self.pending = list(reveals.get("reblind", []))

    def after(self, state: State, reveals: Mapping[str, Any]) -> None:
        """The ``private`` reveals of the log's viewer."""
        reveal_all(state, list(reveals.get("private", [])))

    def reblind(self, state: State, cids: list[int]) -> None:
        """Take the recorded new commitments (and any faces revealed with them). Raises
        ``ValueError`` when the record does not match."""
        if not self.pending or self.pending[0].get("cids") != cids:
            raise ValueError("the log's reshuffle record does not match the replay")
        rec = self.pending.pop(0)
        for c, com in zip(cids, rec["commits"], strict=True):
            state.faces[c] = ""
            state.commits[c] = com
        for c, f in zip(cids, rec.get("faces", []), strict=False):
            if f:
                state.faces[c] = f
        reveal_all(state, rec.get("public", []))


class TextDealer:
    """Replays a revealed deal's reshuffles (an export text): the faces each reshuffled card
    was dealt."""

    def __init__(self, reblinds: list[dict[int, str]]) -> None:
        self.reblinds = [dict(r) for r in reblinds]

    def attach(self, state: State) -> None:
        """Become ``state.dealer``."""
        state.dealer = self

    def show(self, state: State, cids: list[int], to: str = "") -> None:
        """Nothing: a log records what was revealed (its ``pre``/``private`` lists)."""

    def before(self, state: State, reveals: Mapping[str, Any]) -> None:
        """Nothing: the text's deal is all revealed."""

    def after(self, state: State, reveals: Mapping[str, Any]) -> None:
        """Nothing (see :meth:`before`)."""

    def reblind(self, state: State, cids: list[int]) -> None:
        """The faces the text gives the reshuffled cards. Raises ``ValueError``."""
        if not self.reblinds:
            raise ValueError("the text has fewer reshuffles than the game")
        faces = self.reblinds.pop(0)
        if sorted(faces) != sorted(cids):
            raise ValueError("a reshuffle in the text does not match the game")
        for c in cids:
            state.faces[c] = faces[c]


def replay_dealer(deal: Any) -> ReplayDealer | TextDealer | None:
    """The replay dealer for a log header's deal (``commits``: a networked log) or an export
    text's (``reblinds``); None for a local game's."""
    if not isinstance(deal, dict):
        return None
    if deal.get("commits"):
        return ReplayDealer()
    if deal.get("reblinds"):
        return TextDealer(deal["reblinds"])
    return None


# ---- export text -----------------------------------------------------------------------
def _deal_faces(deal: dict[str, Any], end: dict[str, Any] | None) -> list[str] | None:
    """Every instance's face at the deal: the header's (the host, who knows them all), else
    the audit history of a finished networked game; None if unknown."""
    faces = deal.get("faces")
    if not deal.get("commits") or (faces and all(faces)):
        return faces
    hist = (end or {}).get("history") or []
    if not hist:
        return None
    first = sorted((x for x in hist if x[3] == 0), key=lambda x: x[0])
    return [x[1] for x in first]


def _reblinds_from(records: list[dict[str, Any]],
                   end: dict[str, Any] | None) -> list[dict[int, str]]:
    hist = (end or {}).get("history") or []
    out = []
    for r in records:
        for rb in (r.get("reveals") or {}).get("reblind", []):
            if rb.get("faces"):  # the host's log carries them
                out.append(dict(zip(rb["cids"], rb["faces"], strict=False)))
                continue
            faces = {x[0]: x[1] for x in hist
                     if x[0] in rb["cids"] and commitment(x[1], x[2]) in rb["commits"]}
            out.append(faces)
    return out


def export_deal(deal: Any, records: list[dict[str, Any]],
                end: dict[str, Any] | None) -> tuple[list[str], Any]:
    """The ``deal`` line (every face at the deal) and a ``reblind SEQ cid=face...`` line per
    reshuffle of a networked log, and the revealed deal to replay with; no line for a local
    game. Raises ``ValueError`` for a joined game before its end (its deal is not revealed).
    Records carry their reveals under ``reveals`` (core/log.py)."""
    if not isinstance(deal, dict) or not deal.get("commits"):
        return [], deal
    faces = _deal_faces(deal, end)
    if faces is None:
        raise ValueError("a joined game's deal is revealed only at its end (the host's own "
                         "log can be exported at any time)")
    lines = ["deal " + " ".join(faces)]
    reblinds = _reblinds_from(records, end)
    k = 0
    for r in records:
        for rb in (r.get("reveals") or {}).get("reblind", []):
            got = reblinds[k]
            k += 1
            lines.append(f"reblind {r['seq']} " + " ".join(
                f"{cid}={got.get(cid, '?')}" for cid in rb["cids"]))
    return lines, {"faces": list(faces), "reblinds": reblinds}


def parse_deal(lines: list[tuple[int, str, str]]) -> dict[str, Any] | None:
    """The deal of an export text from its ``deal`` and ``reblind`` lines. Raises
    ``ValueError`` naming the line."""
    faces: list[str] | None = None
    reblinds: list[dict[int, str]] = []
    for n, word, rest in lines:
        try:
            if word == "deal":
                faces = rest.split()
            elif word == "reblind":
                parts = rest.split()
                reblinds.append({int(p.split("=")[0]): p.split("=")[1] for p in parts[1:]})
            else:
                raise ValueError(f"unknown line {word!r}")
        except (IndexError, ValueError) as exc:
            raise ValueError(f"line {n}: {exc}") from None
    if faces is None and not reblinds:
        return None
    return {"faces": faces, "reblinds": reblinds}
