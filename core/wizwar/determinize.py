"""Determinization: a whole game state guessed from one player's view.

The archmage bot searches over imagined games. It never sees the true state: it gets
``view(state, seat)`` only, so the faces it cannot see (the other players' hands, the draw
pile's order) are *sampled*: the cards it has not seen anywhere are shuffled with an RNG of its
own (core.rng, never the game's) and dealt into the hidden places, as many as each place
holds. Everything else is rebuilt from the view's public facts. Public facts the view does not
carry (who cast a condition and for how long, the turn's boost and modifiers, who began the
round, the number card under an attack on the stack) are guessed with plain defaults; an
imagined game is a plausible game, not the true one.

Also here: :func:`clone`, a fast copy of a state for trying actions out, and
:func:`view_rng`, the RNG a bot derives from its view and a seed.

Source: design.md (Hidden information: a view holds only what its player may know).
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter as Multiset
from hashlib import blake2b
from typing import Any

from core.codec import pack
from core.rng import Rng
from core.wizwar import cards as C
from core.wizwar.board import Edge, Layout, Square, square_name
from core.wizwar.state import (
    Condition,
    Counter,
    EdgeState,
    State,
    Turn,
    Window,
    Wizard,
    build_layout,
)
from core.wizwar.view import PlayerInfo, View

#: Attack-window sources that are not card slugs (their damage is physical or not).
_INDIRECT_PHYSICAL = {"thornbush": True, "destroy-wall": True, "trap": True,
                      "wall-of-fire": False, "waterwall": False}
#: Conditions a wizard casts on himself (their caster is the wizard).
_SELF_CAST = ("invisible", "shrink", "mist-body")


# ---- copying ---------------------------------------------------------------------------
def _copy_wizard(w: Wizard) -> Wizard:
    return dataclasses.replace(
        w, hand=list(w.hand), displayed=list(w.displayed),
        conditions=[dataclasses.replace(c) for c in w.conditions])


def _copy_window(w: Window) -> Window:
    return dataclasses.replace(w, counters=[dataclasses.replace(c) for c in w.counters])


def _copy_turn(t: Turn) -> Turn:
    return dataclasses.replace(t, open_doors=list(t.open_doors),
                               modifiers=[list(m) for m in t.modifiers], played=list(t.played))


#: The fields of EdgeState that :func:`_copy_edges` copies by name.
_EDGE_FIELDS = ("kind", "hp", "created", "caster", "rolled", "believe")


def _copy_edges(edges: dict[Edge, EdgeState]) -> dict[Edge, EdgeState]:
    """A copy of every edge's state with its own ``rolled`` and ``believe`` lists, made by
    calling ``EdgeState`` with its fields (three times faster than ``dataclasses.replace``,
    issue 14). Should ``EdgeState`` gain a field, every field is copied from the instance
    dict instead, so nothing is ever left out."""
    if tuple(f.name for f in dataclasses.fields(EdgeState)) != _EDGE_FIELDS:
        out: dict[Edge, EdgeState] = {}
        for e, s in edges.items():
            c = object.__new__(EdgeState)
            c.__dict__.update(s.__dict__)
            c.rolled, c.believe = list(s.rolled), list(s.believe)
            out[e] = c
        return out
    return {e: EdgeState(s.kind, s.hp, s.created, s.caster, list(s.rolled), list(s.believe))
            for e, s in edges.items()}


_FAST: dict[str, Any] = {
    "layout": lambda v: v,  # immutable geometry, shared
    "layout_spec": lambda v: copy.deepcopy(v),
    "wizards": lambda v: [_copy_wizard(w) for w in v],
    "faces": list, "deck": list, "discard": list,
    "edges": lambda v: _copy_edges(v),
    "bushes": dict, "stones": list, "floor": list,
    "treasures": dict,
    "turn": _copy_turn,
    "rng": lambda v: v.copy(),
    "windows": lambda v: [_copy_window(w) for w in v],
    "discarding": list, "eliminated": list,
    "script": lambda v: copy.deepcopy(v),
    "options": dict,
    "commits": list, "choice": list,
    "retreats": lambda v: [list(r) for r in v],
    "dealer": lambda v: v,
}


def clone(state: State) -> State:
    """An independent copy of ``state`` (the layout, which never changes in place, and a
    networked game's dealer are shared). Fields this module does not know are deep-copied,
    so a field added to :class:`State` later is still copied safely."""
    kw = {}
    for f in dataclasses.fields(State):
        v = getattr(state, f.name)
        fast = _FAST.get(f.name)
        kw[f.name] = fast(v) if fast is not None else copy.deepcopy(v)
    return State(**kw)


# ---- what the viewer knows --------------------------------------------------------------
def view_rng(v: View, seed: int | str = 0) -> Rng:
    """An RNG derived from the view's public facts and ``seed``: the same view and seed always
    give the same generator (so a bot's choice is reproducible), and it holds nothing but what
    the view shows."""
    summary = [v.viewer, v.round, v.active, list(v.hand), v.deck_size, list(v.discard),
               [[p.seat, p.life, "" if p.at is None else square_name(p.at), p.hand_size,
                 p.carrying] for p in v.players],
               v.moves_left, int(v.attacked), len(v.stack), str(seed)]
    return Rng.from_seed(blake2b(pack(summary), digest_size=16).digest())


def deck_faces(v: View) -> list[str]:
    """Every card face of this game's deck (the full deck for its player count; a scenario's
    deck is unknown and treated as the full deck)."""
    return C.deck_list("full", len(v.players))


def seen_faces(v: View) -> list[str]:
    """The faces the viewer can see, one entry per card: his hand (displayed cards included),
    the others' displayed cards, the discard pile, objects lying on the board and the cards on
    the open stack (with the number cards the stack shows)."""
    out = list(v.hand)
    for p in v.players:
        if p.seat != v.viewer:
            out.extend(p.displayed)
    out.extend(v.discard)
    for toks in v.tokens.values():
        out.extend(t for t in toks if _is_object(t))
    for win in v.stack:
        if win.source in C.BY_SLUG:
            out.append(win.source)
        for c in win.counters:
            out.append(c.card)
            if c.number is not None and C.is_number(str(c.number)):
                out.append(str(c.number))
    return out


def unseen_faces(v: View) -> list[str]:
    """The deck's faces minus every face the viewer sees (a multiset, in deck order): what the
    hidden hands and the draw pile hold between them."""
    left = Multiset(deck_faces(v))
    for f in seen_faces(v):
        if left[f] > 0:
            left[f] -= 1
    return [f for f in C.deck_list("full", len(v.players)) if _take(left, f)]


def _take(left: Multiset, f: str) -> bool:
    if left[f] > 0:
        left[f] -= 1
        return True
    return False


def _is_object(token: str) -> bool:
    cd = C.BY_SLUG.get(token)
    return cd is not None and cd.kind in (C.OBJECT, C.STONE)


# ---- building a state from a view -------------------------------------------------------
_SPECS: dict[tuple, dict[str, Any]] = {}


def _layout_spec(layout: Layout, players: int, crossed: int = 0) -> dict[str, Any]:
    """The spec that rebuilds ``layout`` (needed only if an imagined game reshapes the
    board): its sectors, their turns and places, with or without the 3-player AUTO WARP as
    its links show. A test board cannot be rebuilt from its geometry; it gets a bare spec."""
    if not layout.placements:
        return {"kind": "open", "size": f"{layout.width}x{layout.height}"}
    key = (layout.sector_ids, layout.rotations, layout.placements, layout.width,
           layout.height, players, crossed)
    if key not in _SPECS:
        spec: dict[str, Any] = {"kind": "sectors", "players": players,
                                "sectors": list(layout.sector_ids), "crossed": crossed}
        if any(layout.rotations):
            spec["rotations"] = list(layout.rotations)
        if players == 3 and tuple(layout.placements) != ("nw", "ne", "sw"):
            spec["places"] = list(layout.placements)
        options = [spec]
        if players == 3:
            options.append(dict(spec, warp=0))
        _SPECS[key] = spec
        for option in options:
            try:
                if dict(build_layout(option).links) == dict(layout.links):
                    _SPECS[key] = option
                    break
            except (ValueError, KeyError):  # pragma: no cover - keep the plain guess
                continue
    return dict(_SPECS[key])


def _conditions(v: View, p: PlayerInfo) -> list[Condition]:
    """The conditions on ``p`` as the view shows them: each with its caster and the turns it
    has left (``PlayerInfo.durations``: -1 permanent, 0 ending at the caster's next turn);
    a view without them (older) gets the casters guessed and two turns each."""
    if len(p.durations) == len(p.conditions):
        out = []
        for slug, caster, left in p.durations:
            if left < 0:
                out.append(Condition(slug, caster, 0))
            elif left == 0:
                out.append(Condition(slug, caster, 1, 1))
            else:
                out.append(Condition(slug, caster, left))
        return out
    return [Condition(s, _caster(v, p.seat, s), 0 if s in ("buddy", "slow-death") else 2)
            for s in p.conditions]


def sample_state(v: View, rng: Rng) -> State:
    """A whole game state consistent with the view ``v``, hidden faces sampled with ``rng``.

    Public facts come from the view. The cards the viewer has not seen
    (:func:`unseen_faces`) are shuffled and dealt: first into each other player's hidden hand
    (his hand size less his displayed cards; Trap! is never dealt to a hand, since it goes
    off when drawn), the rest make the draw pile. The imagined game's dice come from a
    generator drawn from ``rng`` too. Nothing of the true state is read: only ``v``.

    Raises ``ValueError`` for a spectator's view (no viewer).
    """
    if not v.viewer:
        raise ValueError("a spectator's view has no hand to build a game around")
    faces: list[str] = []

    def new(face: str) -> int:
        faces.append(face)
        return len(faces) - 1

    pool = unseen_faces(v)
    rng.shuffle(pool)
    hidden_hand = {p.seat: max(0, p.hand_size - len(p.displayed)) for p in v.players
                   if p.seat != v.viewer}
    need = sum(hidden_hand.values()) + v.deck_size
    while len(pool) < need:  # a scenario's deck, or cards out of sight: pad with 2s
        pool.append("2")
    # Trap! goes off when drawn: never in a hand
    traps = [f for f in pool if f == "trap"]
    rest = [f for f in pool if f != "trap"]
    hands: dict[str, list[str]] = {}
    for s in sorted(hidden_hand):
        hands[s], rest = rest[:hidden_hand[s]], rest[hidden_hand[s]:]
    deck_faces_ = rest + traps
    deck_faces_ = deck_faces_[:max(v.deck_size, 0)] if len(deck_faces_) >= v.deck_size else \
        deck_faces_ + ["2"] * (v.deck_size - len(deck_faces_))
    rng.shuffle(deck_faces_)

    wizards = []
    for p in v.players:
        if p.seat == v.viewer:
            hand_faces = list(v.hand)
            shown = list(v.displayed)
        else:
            hand_faces = list(p.displayed) + hands.get(p.seat, [])
            shown = list(p.displayed)
        hand = [new(f) for f in hand_faces]
        displayed = []
        for f in shown:
            cid = next((c for c in hand if faces[c] == f and c not in displayed), None)
            if cid is not None:
                displayed.append(cid)
        conds = _conditions(v, p)
        wizards.append(Wizard(p.seat, p.name, p.at, p.home, p.life, hand, displayed,
                              p.carrying, p.lost_turns, p.alive, p.out, conds))
    deck = [new(f) for f in deck_faces_]
    discard = [new(f) for f in v.discard]
    floor: list[tuple[Square, int]] = []
    treasures: dict[str, Square | None] = {}
    for sq in sorted(v.tokens):
        for t in v.tokens[sq]:
            if _is_object(t):
                floor.append((sq, new(t)))
            elif "." in t:
                treasures[t] = sq
    for p in v.players:
        if p.carrying:
            treasures[p.carrying] = None
    edges = {}
    for e, (kind, hp) in sorted(v.edges.items()):  # in a fixed order, whatever the view's
        created = v.layout.printed.get(e) is None or kind in ("wall-of-fire", "illusion-wall")
        illusion = kind == "illusion-wall"
        edges[e] = EdgeState(kind, hp, created=created,
                             caster=_caster(v, "", kind) if illusion else "",
                             rolled=[p.seat for p in v.players] if illusion else [])
    windows = [_window(v, win, wizards, new) for win in v.stack]
    spec = _layout_spec(v.layout, len(v.players), int(v.options.get("crossed", 0)))
    in_game = [p.seat for p in v.players if p.alive and not p.out]
    st = State(
        layout=v.layout, layout_spec=spec, wizards=wizards, faces=faces, deck=deck,
        discard=discard, edges=edges, bushes=dict(sorted(v.bushes.items())),
        stones=sorted(v.stones),
        floor=floor, treasures=dict(sorted(treasures.items())),
        turn=Turn(v.active, attacked=v.attacked, picked_up=v.picked_up,
                  open_doors=list(v.open_doors)),
        round=v.round, first=in_game[0] if in_game else v.active,
        rng=Rng.from_seed(rng.below(1 << 62)), windows=windows,
        discarding=list(v.discarding), winner=v.winner, eliminated=list(v.eliminated),
        options=dict(v.options), deck_kind="full")
    _set_moves(st, v)
    mover = v.to_move[0] if v.to_move else ""
    if mover and mover != v.active and not v.stack and not v.discarding:
        # someone acts out of turn with nothing on the stack: a forced retreat (Ugly, Go Away),
        # guessed as 3 squares from the active wizard
        src = st.wizard(v.active).at
        if src is not None:
            st.retreats = [[mover, square_name(src), 3]]
    return st


def _caster(v: View, seat: str, slug: str) -> str:
    """A guess at who cast ``slug`` on ``seat`` (the view shows only the condition): himself
    for a self-cast spell, the viewer for another's Buddy, else the first other wizard still
    in the game (exact in a 2-player game)."""
    if slug in _SELF_CAST:
        return seat
    if slug == "buddy" and seat != v.viewer:
        return v.viewer
    for p in v.players:
        if p.seat != seat and p.alive and not p.out:
            return p.seat
    return v.viewer


def _set_moves(st: State, v: View) -> None:
    """The turn's movement: the view shows what is left; a boost shows as more left than the
    base allowance."""
    from core.wizwar.rules import allowance

    active = st.wizard(v.active)
    base = allowance(st, active)
    if v.moves_left > base:
        st.turn.boost = v.moves_left - base
    else:
        st.turn.moves_used = base - v.moves_left


def _window(v: View, win: Any, wizards: list[Wizard], new: Any) -> Window:
    """An answer window rebuilt from the stack the view shows."""
    src = win.source
    cid = None
    physical = _INDIRECT_PHYSICAL.get(src, False)
    if src in C.BY_SLUG:
        cd = C.BY_SLUG[src]
        physical = cd.physical
        # a striking Dagger or Wizardblade also stays in its owner's (hidden) hand: the
        # imagined hand holds some other card in its place, which changes nothing here
        cid = new(src)
    elif src == "punch":
        physical = True
    counters: list[Any] = []
    for k in win.counters:
        side = "attacker" if k.player == win.attacker else "defender"
        ncid = new(str(k.number)) if k.number is not None and C.is_number(str(k.number)) \
            else None
        answers = -1
        if k.card in ("anti-anti",) or (k.card == "absorb-spell" and side == "attacker"):
            other = "defender" if side == "attacker" else "attacker"
            answers = max((i for i, c in enumerate(counters) if c.side == other), default=-1)
        counters.append(Counter(k.player, new(k.card), k.card, side, answers, ncid,
                                k.number or 0, k.note))
    passes = 1 if not counters or counters[-1].player == win.to_answer else 0
    push = ""
    if src == "waterbolt":
        a = next((w.at for w in wizards if w.seat == win.attacker), None)
        d = next((w.at for w in wizards if w.seat == win.defender), None)
        push = "n"
        if a is not None and d is not None:
            dx, dy = d[0] - a[0], d[1] - a[1]
            push = ("e" if dx > 0 else "w") if abs(dx) > abs(dy) else ("s" if dy > 0 else "n")
    arg = ""
    if src == "teleport-opponent":
        d = next((w.at for w in wizards if w.seat == win.defender), None)
        arg = square_name(d) if d is not None else "a1"
    elif src == "card-erasure":
        arg = "full-shield"
    elif src == "drop-object":
        arg = next((w.carrying for w in wizards if w.seat == win.defender), "") or "dagger"
    return Window(kind=win.kind, attacker=win.attacker, defender=win.defender, source=src,
                  value=win.value, to_answer=win.to_answer, cid=cid, target=win.defender,
                  physical=physical, counters=counters, passes=passes, push_dir=push, arg=arg)


def known_cards(state: State, seat: str) -> set[int]:
    """The card instances whose faces ``seat`` may know: the public cards and his own hand.
    (Used by checks that a view shows nothing more; see :func:`blind_view`.)"""
    out = state.public_cards()
    if seat:
        out.update(state.wizard(seat).hand)
    return out


def blind_view(state: State, seat: str) -> View:
    """``view(state, seat)`` computed with every face ``seat`` may not know blanked out.
    A view that shows no hidden face equals the ordinary view."""
    from core.wizwar.view import view

    known = known_cards(state, seat)
    saved = state.faces
    state.faces = [f if i in known else "" for i, f in enumerate(saved)]
    try:
        return view(state, seat)
    finally:
        state.faces = saved


__all__ = ["blind_view", "clone", "deck_faces", "known_cards", "sample_state", "seen_faces",
           "unseen_faces", "view_rng"]
