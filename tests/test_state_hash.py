"""The fast state hash digests exactly the bytes of the canonical packing (issue 6).

``state_hash`` used to be blake2b over ``pack(state.to_wire(public=True))``; logs store those
hashes, so the dedicated writer (``public_wire_bytes``) must give the very same bytes for
every state. Checked along seeded random games of 2, 3 and 4 players (and the team, crossed
and doors variants), bot games, every step of every conformance scenario (illusion walls,
created walls, thornbushes, stone blocks, conditions, open windows, forced dice), networked
states with commitments and unknown faces, and after edits made in place between two hashes
(the writer reuses the packed edges while they are unchanged).
Source: design.md (State hash); docs/log-format.md.
"""

from __future__ import annotations

from hashlib import blake2b
from pathlib import Path

import pytest
import shared

from core.codec import CodecError, pack
from core.rng import Rng
from core.wizwar import bot
from core.wizwar.actions import parse
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, legal_actions, sample_legal_action, to_move
from core.wizwar.scenario import build_state, collect
from core.wizwar.state import State, commitment, public_wire_bytes, state_hash
from core.wizwar.view import view

ROOT = Path(__file__).resolve().parents[1]


def reference_hash(state: State) -> str:
    """The definition of the state hash before issue 6's second round."""
    return blake2b(pack(state.to_wire(public=True)), digest_size=8).hexdigest()


def _same(state: State) -> None:
    assert public_wire_bytes(state) == pack(state.to_wire(public=True)), state.seq
    assert state_hash(state) == reference_hash(state)


@pytest.mark.parametrize("cfg,seed", [
    (GameConfig(players=2), 11), (GameConfig(players=3), 12), (GameConfig(players=4), 13),
    (GameConfig(players=4, team=True), 14), (GameConfig(players=2, crossed=True), 15),
    (GameConfig(players=4, doors=True), 16),
])
def test_random_games_hash_as_before(cfg: GameConfig, seed: int) -> None:
    """Every position of a random game (walls punched, created and destroyed, sectors
    turned, illusion walls, windows) hashes as the canonical packing does."""
    n = 0
    game = 0
    while n <= 100:  # at least a hundred positions, over as many games as that takes
        st = new_game(cfg, seed + 1000 * game)
        rng = Rng.from_seed(f"hash-test-{seed}-{game}" if game else f"hash-test-{seed}")
        _same(st)
        steps = 0
        while not st.winner and steps < 3000:
            seat = to_move(st)[0]
            a = sample_legal_action(st, seat, rng.below)
            assert a is not None
            apply(st, a)
            _same(st)
            steps += 1
        n += steps
        game += 1
        assert game < 20, "random games keep ending at once"


def test_bot_games_hash_as_before() -> None:
    """Positions of bot games (the kind of game a saved log holds)."""
    for players, seed in ((2, 21), (4, 22)):
        st = new_game(GameConfig(players=players), seed)
        for _ in range(120):
            if st.winner:
                break
            seat = to_move(st)[0]
            apply(st, bot.choose(view(st, seat), seat, legal_actions(st, seat)))
            _same(st)


def test_scenario_states_hash_as_before() -> None:
    """Every step of every conformance scenario: boards with illusion walls, created walls,
    thornbushes, stone blocks, conditions, open answer windows, scripted dice and picks."""
    import tomllib

    files = collect([*shared.existing("scenarios"), str(ROOT / "tests" / "scenarios")])
    assert len(files) > 40
    states = 0
    for path in files:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        st = build_state(doc)
        _same(st)
        for raw in doc.get("steps", []):
            text = str(raw).strip().lstrip("!").strip()
            try:
                apply(st, parse(text))
            except Exception:  # noqa: BLE001 - refused steps leave the state as it was
                pass
            _same(st)
            states += 1
    assert states > 200


def test_networked_state_hash_as_before() -> None:
    """Commitments in, unknown faces blank, hidden faces left out of the hash."""
    st = new_game(GameConfig(players=3), 31)
    st.commits = [commitment(f, f"{i:032x}") for i, f in enumerate(st.faces)]
    rng = Rng.from_seed("net")
    for _ in range(40):
        # what P1's peer holds: the other hands and the draw pile unknown, but for the
        # public cards among them (a displayed stone stays in its holder's hand)
        peer = State.from_wire(st.to_wire())
        public = peer.public_cards()
        for c in [*peer.deck, *peer.wizards[1].hand, *peer.wizards[2].hand]:
            if c not in public:
                peer.faces[c] = ""
        _same(peer)
        assert state_hash(peer) == state_hash(st)  # hidden faces are not in the hash
        seat = to_move(st)[0]
        a = sample_legal_action(st, seat, rng.below)
        assert a is not None
        apply(st, a)


def test_edits_in_place_between_hashes_are_seen() -> None:
    """The packed edges are reused only while every edge row is the same: damage, a roll or a
    belief added in place, a wall taken away or put back all change the hash as they should."""
    st = new_game(GameConfig(players=2), 41)
    first = state_hash(st)
    assert state_hash(st) == first  # (the reuse path)
    e, es = next(iter(st.edges.items()))
    es.hp -= 1
    _same(st)
    assert state_hash(st) != first
    es.hp += 1
    assert state_hash(st) == first
    es.kind, es.caster = "illusion-wall", "P1"
    _same(st)
    es.rolled.append("P2")
    _same(st)
    with_roll = state_hash(st)
    es.believe.append("P2")
    _same(st)
    assert state_hash(st) != with_roll
    del st.edges[e]
    _same(st)
    st.bushes[(3, 3)] = 5
    st.stones.append((4, 4))
    st.turn.open_doors.append(next(iter(st.edges)))
    st.turn.modifiers.append(["add", 2])
    st.script.dice = [1, 2]
    _same(st)


def test_only_changed_edges_are_packed_again_and_the_bytes_stay_the_same() -> None:
    """The packed edges map is spliced from one packed entry per edge (seventh round): a
    row changed since the last hash is packed again, the others kept; when the walls
    standing change the entries are kept by edge while their rows are the same. Every
    such path gives the bytes of ``pack`` (edits in place of the lists included)."""
    from core.wizwar.state import EdgeState

    st = new_game(GameConfig(players=4), 43)
    _same(st)
    es = list(st.edges.values())
    es[3].hp -= 1  # one row changed
    _same(st)
    es[5].hp -= 1
    es[9].kind, es[9].caster = "illusion-wall", "P2"  # two rows
    _same(st)
    es[9].rolled.append("P1")  # a list edited in place after its entry was made
    _same(st)
    es[9].rolled.append("P3")
    es[9].believe.append("P3")
    _same(st)
    e3 = next(e for e, x in st.edges.items() if x is es[3])
    del st.edges[e3]  # the walls standing change: the other edges' entries are kept
    _same(st)
    es[9].believe.clear()  # edited in place, with its entry kept by edge
    _same(st)
    st.edges[e3] = EdgeState("wall", 4)  # put back (at the dict's end: other keys order)
    _same(st)
    st.edges[e3].hp = 2
    _same(st)
    st.edges[e3] = EdgeState("wall", 2)  # another object, the same row
    _same(st)


def test_float_in_the_free_form_parts_is_refused() -> None:
    """Like ``pack``, the writer refuses a float in the options or the board spec."""
    st = new_game(GameConfig(players=2), 51)
    st.options["x"] = 1.5
    with pytest.raises(CodecError):
        public_wire_bytes(st)
    with pytest.raises(CodecError):
        pack(st.to_wire(public=True))


def test_faces_changed_in_place_between_hashes_are_seen() -> None:
    """The packed public faces are reused only while the faces and the public cards are the
    same: a public face changed in place, a card made public and a hidden face changed give
    the reference bytes each time (a hidden face changes nothing)."""
    st = new_game(GameConfig(players=2), 43)
    first = state_hash(st)
    assert state_hash(st) == first  # (the reuse path)
    hidden = st.deck[0]
    st.faces[hidden] = "fireball" if st.faces[hidden] != "fireball" else "dagger"
    _same(st)
    assert state_hash(st) == first  # not public: not in the hash
    st.discard.append(st.deck.pop(0))  # now public
    _same(st)
    shown = state_hash(st)
    st.faces[hidden] = "teleport"
    _same(st)
    assert state_hash(st) != shown
