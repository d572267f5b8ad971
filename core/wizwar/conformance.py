"""Wiz-War's test hooks for the engine's conformance suite (``tests/conformance``).

Two hooks of :class:`core.engine.Ruleset`, used only by tests:

* :func:`probe_actions`: a large superset of plausible actions of one player, built from the
  notation and the board alone, never from what the rules list: every card in the hand at
  every wizard, treasure, square, side and sector, with no number, each number card held and
  one not held, each argument value the card families take; single steps and two- and
  three-square walks; every verb's other forms. The suite checks that whatever the rules
  accept among them is listed by ``legal_actions`` (or a member of a listed family).
* :func:`redeal_hidden`: another world consistent with what one player may know: the faces
  of the cards he may not know (the other players' undisplayed hands, the draw pile) dealt
  anew among the same places, and a new generator for the game's dice. The suite checks that
  his view is the same in both worlds.

Source: design.md (Hidden information: a view holds only what its player may know); the
issue's deliverable 8 (a conformance suite of OpenSpiel's kind).
"""

from __future__ import annotations

from hashlib import blake2b

from core.rng import Rng
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import QUADRANTS, edge_name, square_name
from core.wizwar.state import State

#: The ``key=value`` arguments each card takes (rules: _player_spell, _weapon, _drag,
#: _rotate_sector, _relocate_sector, _reuse, _waterbolt; every object and stone may be thrown,
#: ``mode=throw``); every other card is probed with one argument it does not take.
_ARG_KEYS: dict[str, tuple[str, ...]] = {
    "teleport-opponent": ("to",), "card-erasure": ("name",), "drop-object": ("drop",),
    "relocate-sector": ("to",), "rotate-sector": ("turn",), "drag": ("path",),
    "dagger": ("mode",), "large-rock": ("mode",), "reuse-spell": ("spell",),
    "waterbolt": ("dir",),
}


def _objects() -> list[str]:
    """Every object and magic stone slug, sorted."""
    return sorted(s for s, cd in C.BY_SLUG.items() if cd.kind in (C.OBJECT, C.STONE))


def _walks(state: State, at: tuple[int, int], n: int) -> list[tuple[str, ...]]:
    """Every walk of 1..n squares from ``at`` along the board's joins (walls ignored)."""
    out: list[tuple[str, ...]] = []
    frontier: list[tuple[tuple[int, int], tuple[str, ...]]] = [(at, ())]
    for _ in range(n):
        nxt = []
        for sq, path in frontier:
            for side in "nesw":
                nb = state.layout.neighbor(sq, side)
                if nb is not None:
                    p = (*path, square_name(nb[0]))
                    out.append(p)
                    nxt.append((nb[0], p))
        frontier = nxt
    return out


def probe_actions(state: State, seat: str) -> list[Action]:
    """Many plausible actions of ``seat`` now (a superset of what the rules accept; see the
    module docstring), in a fixed order, without duplicates. Never raises for a known seat."""
    lay = state.layout
    squares = [square_name(s) for s in lay.squares()]
    all_edges = sorted({edge_name(e) for s in lay.squares() for _side, e in lay.edges_of(s)})
    seats = [w.seat for w in state.wizards]
    treasures = sorted(state.treasures)
    places = list(dict.fromkeys([*lay.placements, *QUADRANTS]))
    w = state.wizard(seat)
    hand = sorted(set(state.hand_slugs(seat)) - {""})
    held_numbers = sorted({int(s) for s in hand if C.is_number(s)})
    numbers: list[int | None] = [None, *held_numbers,
                                 next(n for n in range(2, 12) if n not in held_numbers)]
    objects = _objects()
    slugs = sorted(C.BY_SLUG)
    out: list[Action] = [Action(seat, "pass"), Action(seat, "end"),
                         Action(seat, "end", number=0), Action(seat, "end", number=1)]
    if w.at is not None:
        out += [Action(seat, "move", targets=p) for p in _walks(state, w.at, 3)]
        # a forced retreat walks up to three squares too; longer walks (Power Run, a boost)
        # are probed by their first three squares
    out += [Action(seat, "move", targets=(s,)) for s in squares]
    out += [Action(seat, "boost", number=n) for n in range(0, 12)]
    near_edges = sorted({edge_name(e) for _s, e in lay.edges_of(w.at)}) if w.at else []
    standing = sorted(edge_name(e) for e in state.edges)
    for t in [*seats, *dict.fromkeys([*near_edges, *standing]), *squares]:
        out.append(Action(seat, "punch", targets=(t,)))
    for t in [*treasures, *objects]:
        out.append(Action(seat, "pickup", targets=(t,)))
        out.append(Action(seat, "drop", targets=(t,)))
    for s in slugs:
        out.append(Action(seat, "discard", s))
        out.append(Action(seat, "choose", s))
    not_held = next((s for s in slugs if s not in hand and not C.is_number(s)), "")
    for s in [*hand, not_held]:
        if not s or C.is_number(s):
            continue
        plain: list[tuple[str, ...]] = [(), *[(x,) for x in seats], *[(t,) for t in treasures],
                                        *[(x,) for x in places], *[(q,) for q in squares]]
        for tg in plain:
            out += [Action(seat, "play", s, tg, n) for n in numbers]
        for e in all_edges:
            out += [Action(seat, "play", s, (e,), n) for n in numbers]
        keys = _ARG_KEYS.get(s, ("mode",) if C.BY_SLUG[s].kind in (C.OBJECT, C.STONE)
                             else ())
        heads: list[tuple[str, ...]] = [(), *[(x,) for x in seats], *[(x,) for x in places]]
        if not keys:
            out += [Action(seat, "play", s, tg, None, (("to", squares[0]),)) for tg in heads]
        for k in keys:
            values = _arg_values(state, seat, k, squares, places, slugs, objects, treasures)
            if k == "spell":
                heads = [*heads, *[(q,) for q in squares]]
            for tg in heads:
                out += [Action(seat, "play", s, tg, None, ((k, v),)) for v in values]
    return list(dict.fromkeys(out))


def _arg_values(state: State, seat: str, key: str, squares: list[str], places: list[str],
                slugs: list[str], objects: list[str], treasures: list[str]) -> list[str]:
    """The values probed for argument ``key``."""
    w = state.wizard(seat)
    if key == "to":
        return [*squares, *places]
    if key == "name":
        return slugs
    if key == "drop":
        carried = [x.carrying for x in state.wizards if x.carrying]
        one = [*treasures, *objects, *carried]
        # lists of several names (family drop-names:K): two and three of them, sorted
        # (accepted when the count allows), unsorted and repeated (always refused)
        two = sorted({*carried, *treasures[:2], *objects[:2]})
        many = [",".join(two[:2]), ",".join(two[:3]), ",".join(reversed(two[:2])),
                f"{two[0]},{two[0]}"] if len(two) >= 3 else []
        return [*one, *many]
    if key == "turn":
        return ["90", "180", "270", "360"]
    if key == "path":
        if w.at is None:
            return []
        return ["-".join(p) for p in _walks(state, w.at, 2)]
    if key == "mode":
        return ["throw", "melee"]
    if key == "spell":
        return slugs
    if key == "dir":
        return list("nesw")
    return []


def known_cards(state: State, seat: str) -> set[int]:
    """The card instances whose faces ``seat`` may know now: the public cards, his own
    hand, and while he must choose after Telepath the hand he was shown. (``""``: public
    cards only.)"""
    out = state.public_cards()
    if seat:
        out.update(state.wizard(seat).hand)
        if state.choice and state.choice[0] == seat:
            out.update(state.wizard(state.choice[1]).hand)
    return out


def redeal_hidden(state: State, seat: str, seed: int) -> State:
    """A copy of ``state`` in which the faces of every card ``seat`` may not know
    (:func:`known_cards`) are shuffled among those cards' places, and the dice come from a
    new generator: a world ``seat`` cannot tell from the true one. ``state`` is unchanged.
    A networked game's unknown faces (``""``) stay unknown."""
    back = State.from_wire(state.to_wire())
    known = known_cards(state, seat)
    hidden = [i for i in range(len(back.faces)) if i not in known and back.faces[i] != ""]
    faces = [back.faces[i] for i in hidden]
    rng = Rng.from_seed(blake2b(f"redeal {seat} {seed}".encode(), digest_size=16).digest())
    rng.shuffle(faces)
    for i, f in zip(hidden, faces, strict=True):
        back.faces[i] = f
    back.rng = Rng(Rng.from_seed(f"dice {seed}").seed, back.rng.counter)
    return back


__all__ = ["known_cards", "probe_actions", "redeal_hidden"]
