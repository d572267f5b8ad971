"""The rules core's contracts: determinism, canonical forms, refusals that change nothing,
and the game setup. Sources are cited per test."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import registry
from core.codec import CodecError, pack, unpack
from core.engine import IllegalAction
from core.rng import Rng
from core.session import LocalSession
from core.wizwar import GameConfig, apply, legal_actions, new_game, state_hash, to_move, view
from core.wizwar import cards as C
from core.wizwar.actions import Action, NotationError, parse
from core.wizwar.state import State

ROOT = Path(__file__).resolve().parents[1]
PINNED = [2, 3, 2, 1, 2, 2, 2, 1]


def _bot_game(players: int, seed: int, limit: int) -> LocalSession:
    s = LocalSession.start(registry.get("wizwar"), {"players": players}, seed, human="")
    s.bots = tuple(w.seat for w in s.state.wizards)
    for _ in range(limit):
        if s.over or not s.step_bot():
            break
    return s


def test_deck_counts() -> None:
    """125 cards in 74 names; Relocate Sector removed with 2 players (cards.md §2.9; FAQ)."""
    assert len(C.CARDS) == 74
    assert sum(c.count for c in C.CARDS) == 125
    assert len(C.deck_list("full", 4)) == 125
    assert len(C.deck_list("full", 2)) == 124
    two = Counter(C.deck_list("full", 2))
    assert set(two) == set(C.IMPLEMENTED) - {"relocate-sector"}
    assert two["2"] == 12 and two["pick-lock"] == 4
    assert Counter(C.deck_list("full", 4))["relocate-sector"] == 1
    with pytest.raises(ValueError, match="only deck"):
        C.deck_list("starter", 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_setup(players: int) -> None:
    """RB Starting the Game: wizard on his home base (sector centre), treasures on the two
    circles, seven cards with no Trap!, 15 life, round 1, first player by the d4."""
    s = new_game(GameConfig(players=players), 11)
    assert len(s.wizards) == players
    for i, w in enumerate(s.wizards):
        assert w.at == w.home == s.layout.homes[i]
        assert w.life == 15 and len(w.hand) == 7
        assert "trap" not in s.hand_slugs(w.seat)
        a, b = s.layout.treasure_spots[i]
        assert s.treasures[f"{w.seat}.t1"] == a and s.treasures[f"{w.seat}.t2"] == b
    assert s.round == 1 and s.turn.active == s.first
    total = len(s.deck) + len(s.discard) + sum(len(w.hand) for w in s.wizards)
    assert total == len(C.deck_list("full", players))


def test_same_seed_same_game() -> None:
    """Determinism: same seed, same actions, same hash after every action."""
    a = _bot_game(3, 5, 150)
    b = _bot_game(3, 5, 150)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions]
    assert a.digest() == b.digest()
    c = _bot_game(3, 6, 150)
    assert c.digest() != a.digest()


_REPLAY = """
import sys
from core.session import LocalSession
from core import registry
s = LocalSession.start(registry.get("wizwar"), {"players": 4}, 21, human="")
s.bots = ("P1", "P2", "P3", "P4")
hashes = []
for _ in range(120):
    if s.over or not s.step_bot():
        break
    hashes.append(s.digest())
print(",".join(hashes))
"""


def test_hash_independent_of_pythonhashseed() -> None:
    """The state hash is the same in any process under any PYTHONHASHSEED (design.md)."""
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-c", _REPLAY], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
        outs.add(r.stdout.strip())
    assert len(outs) == 1
    assert len(outs.pop().split(",")) > 50


def test_state_round_trips_through_msgpack() -> None:
    """The whole state round-trips through its canonical msgpack form, hash included."""
    s = _bot_game(2, 3, 80)
    data = pack(s.state.to_wire())
    back = State.from_wire(unpack(data))
    assert state_hash(back) == s.digest()
    assert pack(back.to_wire()) == data


def test_illegal_action_changes_nothing() -> None:
    """An illegal action is refused with a reason and the state is untouched (design.md)."""
    s = new_game(GameConfig(players=2), 4)
    seat = s.turn.active
    other = "P2" if seat == "P1" else "P1"
    before = state_hash(s)
    absent = next(c.slug for c in C.CARDS if c.slug not in s.hand_slugs(seat))
    for text in (f"{other} end", f"{seat} move a1-a2-a3-a4-a5-a6", f"{seat} punch {other}",
                 f"{seat} play fireball @{other} +9", f"{seat} boost 9", f"{seat} fly",
                 f"{seat} pickup P9.t1", f"{seat} discard {absent}"):
        with pytest.raises(IllegalAction) as exc:
            apply(s, text)
        assert exc.value.reason
        assert state_hash(s) == before


def test_every_listed_action_applies_and_round_trips() -> None:
    """Every action legal_actions lists applies; parse(str(a)) == a; the wire form too."""
    s = _bot_game(4, 9, 0)
    for step in range(200):
        if s.over:
            break
        seat = to_move(s.state)[0]
        legal = legal_actions(s.state, seat)
        assert legal, f"no legal action for {seat} at step {step}"
        for a in legal:
            assert parse(str(a)) == a
            assert Action.from_wire(unpack(pack(a.to_wire()))) == a
        # every listed action applies on a copy
        for a in legal[:: max(1, len(legal) // 8)]:
            copy = State.from_wire(s.state.to_wire())
            apply(copy, a)
        s.step_bot()


def test_view_hides_other_hands() -> None:
    """view(state, P) shows P's own hand and only counts of the others (design.md)."""
    s = new_game(GameConfig(players=3), 2)
    v = view(s, "P2")
    assert list(v.hand) == s.hand_slugs("P2")
    assert all(p.hand_size == 7 for p in v.players)
    assert not hasattr(v, "deck") and v.deck_size == len(s.deck)
    assert view(s, "").hand == ()


def test_rng_is_stable() -> None:
    """The game RNG's output is fixed forever (logs must replay): pinned values."""
    r = Rng.from_seed(0)
    assert [r.d4() for _ in range(8)] == PINNED
    with pytest.raises(ValueError):
        r.below(0)


def test_codec_refuses_non_canonical() -> None:
    """Floats, sets and non-str keys are refused; bad bytes raise CodecError."""
    for bad in (1.5, {1: 2}, {1, 2}):
        with pytest.raises(CodecError):
            pack(bad)
    with pytest.raises(CodecError):
        unpack(b"\xc1")
    assert pack({"b": 1, "a": 2}) == pack({"a": 2, "b": 1})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_parse_never_crashes(text: str) -> None:
    """Any text either parses to an action that round-trips, or raises NotationError."""
    try:
        a = parse(text)
    except NotationError:
        return
    assert parse(str(a)) == a


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["P1", "P2", "P3"]), st.sampled_from(sorted(C.BY_SLUG)),
       st.lists(st.sampled_from(["P2", "c3", "c3:e", "b2:n", "a1:w", "P2.t1"]), max_size=2),
       st.one_of(st.none(), st.integers(2, 6)))
def test_play_round_trip(actor: str, slug: str, targets: list[str], number: int | None) -> None:
    """parse(str(a)) == a for play actions; sides are canonical (b2:n prints as b1:s)."""
    if slug.isdigit():
        return
    text = f"{actor} play {slug}" + (f" @{','.join(targets)}" if targets else "") + \
        (f" +{number}" if number else "")
    a = parse(text)
    assert parse(str(a)) == a
    assert "b2:n" not in str(a)


def test_cards_doc_generated_and_current() -> None:
    """docs/cards.md is generated from the card data and is up to date."""
    r = subprocess.run([sys.executable, "scripts/gen_cards_doc.py", "--check"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_doors_variant_opens_own_sector_doors() -> None:
    """The doors variant: a wizard walks through the doors of his own sector without a key;
    without the variant the same door is locked (DG §11 official variants; RB The Board)."""
    from core.wizwar.board import square_name

    for seed in range(200):
        st = new_game(GameConfig(players=2, doors=True), seed)
        w = st.wizard(st.turn.active)
        assert w.at is not None
        for side in "nesw":
            nb = st.layout.neighbor(w.at, side)
            if nb is None or nb[1] not in st.edges or st.edges[nb[1]].kind != "door":
                continue
            step = f"{w.seat} move {square_name(nb[0])}"
            plain = new_game(GameConfig(players=2), seed)
            with pytest.raises(IllegalAction, match="locked door"):
                apply(plain, step)
            apply(st, step)
            assert st.wizard(w.seat).at == nb[0]
            return
    pytest.fail("no game starts with a door beside the first wizard")


def test_rotate_sector_turns_everything_on_it() -> None:
    """Rotate Sector turns the sector with everything on it: treasures, a created wall inside
    it; the home base (its centre) stays; the game still round-trips and replays.
    Source: RB The Board (rotation); cards.md rotate-sector."""
    from core.wizwar.board import rotate_local
    from core.wizwar.state import EdgeState

    st = new_game(GameConfig(players=4), 3)
    seat = st.turn.active
    cid = next(i for i, f in enumerate(st.faces) if f == "rotate-sector")
    for w in st.wizards:
        if cid in w.hand:
            w.hand.remove(cid)
    if cid in st.deck:
        st.deck.remove(cid)
    st.wizard(seat).hand.append(cid)
    w = st.wizard(seat)
    assert w.at is not None
    p = st.layout.sector_of(w.at)
    assert p is not None
    ox, oy = st.layout.sector_origin[p]
    # a created wall on an interior edge of the sector: local (1,1) east side
    inner = None
    for lx, ly in ((1, 1), (2, 1), (1, 2), (3, 1), (1, 3)):
        e = st.layout.edge_key((ox + lx, oy + ly), "s")
        if e not in st.edges:
            inner = (lx, ly)
            st.edges[e] = EdgeState("wall", 20, created=True)
            break
    assert inner is not None
    before = {t: sq for t, sq in st.treasures.items() if sq and st.layout.sector_of(sq) == p}
    home = w.home
    apply(st, f"{seat} play rotate-sector @{st.layout.placements[p]} turn=90")
    for t, sq in before.items():
        (x, y), _ = rotate_local((sq[0] - ox, sq[1] - oy), None, 1)
        assert st.treasures[t] == (ox + x, oy + y)
    assert w.home == home == w.at
    (x, y), side = rotate_local(inner, "s", 1)
    moved = st.layout.edge_key((ox + x, oy + y), str(side))
    assert st.edges[moved].created
    back = State.from_wire(unpack(pack(st.to_wire())))
    assert state_hash(back) == state_hash(st)
    assert st.layout_spec["rotations"][p] == 1


def _give(st: State, seat: str, slug: str) -> None:
    cid = next(i for i, f in enumerate(st.faces) if f == slug)
    for w in st.wizards:
        if cid in w.hand:
            w.hand.remove(cid)
    if cid in st.deck:
        st.deck.remove(cid)
    if cid in st.discard:
        st.discard.remove(cid)
    st.wizard(seat).hand.append(cid)


def test_relocate_sector_swaps_two_sectors_with_their_contents() -> None:
    """Relocate Sector: two sectors trade places with everything on them, orientation kept.
    Source: RB The Board."""
    st = new_game(GameConfig(players=4), 5)
    seat = st.turn.active
    _give(st, seat, "relocate-sector")
    lay = st.layout
    sectors = list(st.layout_spec["sectors"])
    homes = {w.seat: w.home for w in st.wizards}
    (ax, ay), (bx, by) = lay.sector_origin[0], lay.sector_origin[2]
    t_before = dict(st.treasures)
    apply(st, f"{seat} play relocate-sector @nw to=se")
    assert st.layout_spec["sectors"][0] == sectors[2]
    assert st.layout_spec["sectors"][2] == sectors[0]
    p1, p3 = st.wizard("P1"), st.wizard("P3")
    assert p1.home == (homes["P1"][0] - ax + bx, homes["P1"][1] - ay + by)
    assert p3.home == (homes["P3"][0] - bx + ax, homes["P3"][1] - by + ay)
    assert st.wizard("P2").home == homes["P2"]
    t = t_before["P1.t1"]
    assert st.treasures["P1.t1"] == (t[0] - ax + bx, t[1] - ay + by)
    assert state_hash(State.from_wire(unpack(pack(st.to_wire())))) == state_hash(st)



def test_relocate_sector_into_the_empty_place_ends_the_auto_warp() -> None:
    """3 players: a sector moves into the empty place with everything on it; the AUTO WARP
    is discarded and only opposite board edges connect (each row and column wraps onto its
    own ends). Source: RB The Board; cards.md relocate-sector."""
    from core.wizwar.rules import legal_actions

    st = new_game(GameConfig(players=3), 5)
    seat = st.turn.active
    _give(st, seat, "relocate-sector")
    st.round = 2
    assert st.layout.neighbor((7, 4), "s")[0] == (4, 7)  # the AUTO WARP before
    mine = [a for a in legal_actions(st, seat) if a.card == "relocate-sector"]
    assert any(a.arg("to") == "se" for a in mine)
    homes = {w.seat: w.home for w in st.wizards}
    t = st.treasures["P1.t1"]
    apply(st, f"{seat} play relocate-sector @nw to=se")
    lay = st.layout
    assert lay.placements == ("se", "ne", "sw")
    assert not lay.has_square((2, 2)) and lay.has_square((7, 7))
    assert st.wizard("P1").home == (homes["P1"][0] + 5, homes["P1"][1] + 5)
    assert st.wizard("P2").home == homes["P2"]
    assert st.treasures["P1.t1"] == (t[0] + 5, t[1] + 5)
    assert lay.neighbor((7, 4), "s")[0] == (7, 5)  # ne and se now share a seam
    assert lay.neighbor((9, 2), "e")[0] == (5, 2)  # row 2 wraps onto its own ends
    assert lay.neighbor((7, 0), "n")[0] == (7, 9)
    assert lay.neighbor((2, 9), "s")[0] == (2, 5)
    assert st.layout_spec["warp"] == 0
    assert state_hash(State.from_wire(unpack(pack(st.to_wire())))) == state_hash(st)
    for w in st.wizards:
        assert w.at is not None and lay.has_square(w.at)

    swap = new_game(GameConfig(players=3), 5)
    _give(swap, swap.turn.active, "relocate-sector")
    swap.round = 2
    apply(swap, f"{swap.turn.active} play relocate-sector @nw to=ne")
    assert swap.layout.placements == ("nw", "ne", "sw") and swap.layout_spec["warp"] == 0
    assert swap.layout.neighbor((7, 4), "s")[0] == (7, 0)  # no AUTO WARP after a swap


def test_team_option_needs_four_players() -> None:
    """Team play is for four players; crossed exits for two (rulebook, optional rules)."""
    with pytest.raises(ValueError, match="four players"):
        new_game(GameConfig(players=2, team=True), 1)
    with pytest.raises(ValueError, match="2-player"):
        new_game(GameConfig(players=4, crossed=True), 1)
    s = new_game(GameConfig(players=4, team=True), 1)
    assert s.team_of("P1") == ("P1", "P3") and s.team_of("P4") == ("P2", "P4")
    assert s.allies("P2", "P4") and not s.allies("P1", "P2")
    assert new_game(GameConfig(players=4), 1).team_of("P3") == ("P3",)


def test_team_game_never_offers_attacks_on_a_team_mate() -> None:
    """In a team game bots play on, and no legal action targets a team-mate with an attack
    (rulebook, Team play option)."""
    from core.session import LocalSession

    ses = LocalSession.start(registry.get("wizwar"), {"players": 4, "team": True}, 5, human="")
    for _ in range(400):
        if ses.over:
            break
        seat = ses.bot_to_act()
        for a in ses.legal_actions(seat):
            if a.verb in ("punch", "play") and a.targets and a.targets[0] in ses.state.seats:
                if a.verb == "punch" or C.card(a.card).kind == "attack":
                    assert not ses.state.allies(seat, a.targets[0]) or a.targets[0] == seat
        ses.step_bot()
    assert ses.state.winner in ("", "P1+P3", "P2+P4")


def _containers(obj: object, seen: dict[int, object]) -> None:
    """Every list and dict reachable from ``obj`` (through dataclass fields), by id."""
    import dataclasses

    if isinstance(obj, (list, dict)):
        if id(obj) in seen:
            return
        seen[id(obj)] = obj
        for x in (obj.values() if isinstance(obj, dict) else obj):
            _containers(x, seen)
    elif isinstance(obj, tuple):
        for x in obj:
            _containers(x, seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name not in ("layout", "dealer"):  # immutable geometry; not wire data
                _containers(getattr(obj, f.name), seen)


def test_from_wire_shares_nothing_with_its_input() -> None:
    """A state rebuilt from its wire form owns every list and dict it holds, so playing on
    from it leaves the wire form (a replay's checkpoint, restored again and again) as it
    was. Found by a replay whose illusion-wall roll was appended to the checkpoint itself."""
    import copy

    from core.wizwar import bot
    from core.wizwar.scenario import build_state

    states = []
    for players in (2, 3, 4):
        s = LocalSession.start(registry.get("wizwar"), {"players": players}, players, human="")
        for _ in range(40):
            s.step_bot()
        states.append((s.state, True))
    doc = tomllib_load(Path(__file__).parent / "scenarios" / "faq-illusion-wall-destroyed.toml")
    states.append((build_state(doc), False))  # scripted dice: not played on
    for state, play_on in states:
        wire = state.to_wire()
        kept = copy.deepcopy(wire)
        back = State.from_wire(wire)
        assert back.to_wire() == kept
        ours: dict[int, object] = {}
        theirs: dict[int, object] = {}
        _containers(back, ours)
        _containers(wire, theirs)
        shared = set(ours) & set(theirs)
        assert not shared, [ours[i] for i in list(shared)[:3]]
        for _ in range(30 if play_on else 0):  # play on: the wire form does not move
            seat = to_move(back)
            if not seat:
                break
            legal = legal_actions(back, seat[0])
            apply(back, bot.choose(view(back, seat[0]), seat[0], legal))
        assert wire == kept


def tomllib_load(path: Path) -> dict:  # type: ignore[type-arg]
    """A scenario file's TOML."""
    import tomllib

    return tomllib.loads(path.read_text())


def test_answering_with_a_number_card_is_refused_in_words() -> None:
    """An answer with a number card names it as a player reads it: "the Number 2 card is
    not a counteraction" (issue 12: it said "2 is not a counteraction")."""
    from core.wizwar.scenario import build_state
    s = build_state({"board": {"size": "5x5"},
                     "players": [{"at": "a1", "hand": ["lightning-blast", "3"]},
                                 {"at": "a5", "hand": ["2"]}]})
    apply(s, "P1 play lightning-blast @P2 +3")
    before = state_hash(s)
    with pytest.raises(IllegalAction) as exc:
        apply(s, Action("P2", "play", "2"))
    assert str(exc.value).startswith("the Number 2 card is not a counteraction")
    assert state_hash(s) == before


@pytest.mark.parametrize("typed, canonical", [
    ("P1 MOVE C4-D4", "P1 move c4-d4"),
    ("p1 Move c4", "P1 move c4"),
    ("P1 PLAY FIREBALL @P2 +5", "P1 play fireball @P2 +5"),
    ("P1 Play Drag @P2 PATH=C4-C5", "P1 play drag @P2 path=c4-c5"),
    ("P1 END DRAW 1", "P1 end draw 1"),
    ("P1 PICKUP p2.T1", "P1 pickup P2.t1"),
    ("P1 PUNCH C3:W", "P1 punch b3:e"),
    ("P1 Discard Lightning-Blast", "P1 discard lightning-blast"),
    ("P2 PASS", "P2 pass"),
    ("P1 play card-erasure @P2 NAME=Absorb-Spell", "P1 play card-erasure @P2 name=absorb-spell"),
    ("P1 play drop-object @P2 DROP=P3.T1,DAGGER", "P1 play drop-object @P2 drop=P3.t1,dagger"),
])
def test_parse_reads_any_case(typed: str, canonical: str) -> None:
    """Verbs, cards, squares, sides and seats are read in any case and give the canonical
    action, whose text stays the lower-case notation (issue 12: ``MOVE C4`` was "unknown
    verb")."""
    a = parse(typed)
    assert str(a) == canonical
    assert a == parse(canonical)


def test_parse_case_tells_a_seat_from_a_square() -> None:
    """``P2`` is the player, ``p2`` the square of column p: lower-casing never turns one into
    the other."""
    assert parse("P1 punch P2").targets == ("P2",)
    assert parse("P1 punch p2").targets == ("p2",)


def test_edge_kinds_are_worded_for_event_texts() -> None:
    """Edge kinds in event texts are words, not slugs (issue 12)."""
    from core.wizwar.board import edge_word
    assert edge_word("door-jammed") == "jammed door"
    assert edge_word("wall-of-fire") == "Wall of Fire"
    assert edge_word("illusion-wall") == "Illusion Wall"
    assert edge_word("wall") == "wall"
