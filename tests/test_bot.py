"""The bots: the apprentice plays whole games legally and sensibly from its own view, with
the whole deck; the archmage searches over imagined hidden cards and never reads the hidden
ones (issues 2 and 6)."""

from __future__ import annotations

from typing import Any

import pytest

from core import registry
from core.rng import Rng
from core.session import LocalSession
from core.wizwar import bot
from core.wizwar import determinize as D
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, legal_actions, to_move
from core.wizwar.scenario import build_state
from core.wizwar.view import view


def _state(players: list[dict[str, Any]], size: str = "7x7", **kw: Any):  # type: ignore[no-untyped-def]
    doc: dict[str, Any] = {"board": {"size": size, **kw.pop("board", {})}, "players": players,
                           "deck": kw.pop("deck", ["2", "3", "4", "5", "2", "3"])}
    doc.update(kw)
    return build_state(doc)


def _pick(st, seat: str = "P1", level: str = "apprentice", **kw: Any) -> str:  # type: ignore[no-untyped-def]
    return str(bot.choose(view(st, seat), seat, legal_actions(st, seat), level=level, **kw))


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 4), (4, 2)])
def test_bots_finish_a_game(players: int, seed: int) -> None:
    """Bots play a whole game to a result; every choice is one of the legal actions."""
    s = LocalSession.start(registry.get("wizwar"), {"players": players}, seed, human="")
    s.bots = tuple(w.seat for w in s.state.wizards)
    for _ in range(3000):
        if s.over:
            break
        seat = to_move(s.state)[0]
        legal = legal_actions(s.state, seat)
        choice = bot.choose(view(s.state, seat), seat, legal)
        assert choice in legal
        s.submit(choice)
    assert s.over, "the bots did not finish within 3000 actions"
    assert s.state.winner


def test_levels_and_errors() -> None:
    assert bot.LEVELS == ("apprentice", "archmage")
    st = new_game(GameConfig(players=2), 1)
    seat = to_move(st)[0]
    with pytest.raises(ValueError, match="unknown bot level"):
        bot.choose(view(st, seat), seat, legal_actions(st, seat), level="grandmaster")
    with pytest.raises(ValueError, match="no legal action"):
        bot.choose(view(st, seat), seat, [], level="archmage")


def test_bot_answers_with_a_counteraction() -> None:
    """Attacked while holding Full Shield, the bot plays it rather than passing."""
    st = _state([{"at": "a1", "hand": ["fireball", "5"]},
                 {"at": "a4", "hand": ["full-shield", "blunt"]}], size="5x5")
    apply(st, "P1 play fireball @P2 +5")
    assert _pick(st, "P2") == "P2 play full-shield"


def test_full_reflection_beats_full_shield_against_a_big_spell() -> None:
    """Full Reflection sends a big spell back, which beats stopping it."""
    st = _state([{"at": "a1", "hand": ["powerthrust", "6"]},
                 {"at": "a4", "hand": ["full-shield", "full-reflection"]}], size="5x5")
    apply(st, "P1 play powerthrust @P2 +6")
    assert _pick(st, "P2") == "P2 play full-reflection"


def test_a_small_attack_is_blunted_not_shielded() -> None:
    """Against a 3-point fireball the bot keeps its Full Shield and Blunts it."""
    st = _state([{"at": "a1", "hand": ["fireball", "3"]},
                 {"at": "a4", "hand": ["full-shield", "blunt"]}], size="5x5")
    apply(st, "P1 play fireball @P2 +3")
    assert _pick(st, "P2") == "P2 play blunt"


def test_the_attacker_voids_a_shield_with_anti_anti() -> None:
    st = _state([{"at": "a1", "hand": ["lightning-blast", "5", "anti-anti"]},
                 {"at": "a4", "hand": ["full-shield"]}], size="5x5")
    apply(st, "P1 play lightning-blast @P2 +5")
    apply(st, "P2 play full-shield")
    assert _pick(st, "P1") == "P1 play anti-anti"


def test_indirect_damage_is_absorbed() -> None:
    """A wall destroyed next to him: 2 damage, not an attack; Absorb answers it."""
    st = _state([{"at": "a1", "hand": ["destroy-wall"]},
                 {"at": "a4", "hand": ["absorb", "fireball"]}], size="5x5",
                board={"walls": ["a4:e"]})
    apply(st, "P1 play destroy-wall @a4:e")
    assert _pick(st, "P2") == "P2 play absorb"


def test_bot_goes_for_treasure() -> None:
    """Standing on an enemy treasure with nothing to attack, the bot picks it up."""
    st = _state([{"at": "b2", "home": "a1", "hand": ["2"]},
                 {"at": "e5", "home": "e4", "treasures": ["b2", "e1"]}], size="5x5",
                board={"walls": ["b3:e"]})
    assert _pick(st) == "P1 pickup P2.t1"


def test_team_play_leaves_a_team_mates_treasure_and_scores_on_his_base() -> None:
    """Team variant (P1+P3 against P2+P4): standing on P3's treasure P1 does not take it; with
    an enemy treasure on P3's home base P1 drops it there (three on the team's bases win)."""
    four = [{"at": "a1", "home": "a1", "hand": ["2"]},
            {"at": "g7", "home": "g7", "treasures": ["g6", "f7"]},
            {"at": "a7", "home": "a7", "treasures": ["c3", "b7"]},
            {"at": "g1", "home": "g1", "treasures": ["f1", "g2"]}]
    four[0]["treasures"] = ["a2", "b1"]
    four[0]["at"] = "c3"
    st = _state(four)
    st.options["team"] = 1
    v = view(st, "P1")
    assert v.options["team"] == 1
    assert bot.team_of(v, "P1") == ("P1", "P3")
    assert "P1 pickup P3.t1" in {str(a) for a in legal_actions(st, "P1")}
    assert _pick(st) != "P1 pickup P3.t1"
    st.wizard("P1").at = (0, 6)  # a7, P3's home base
    st.wizard("P3").at = (1, 5)
    st.wizard("P1").carrying = "P2.t1"
    st.treasures["P2.t1"] = None
    assert _pick(st) == "P1 drop P2.t1"


def test_magic_stones_are_displayed_first() -> None:
    st = _state([{"at": "a1", "hand": ["bloodstone", "fireball", "3"]},
                 {"at": "g7"}])
    assert _pick(st) == "P1 play bloodstone"


def test_speed_is_taken() -> None:
    st = _state([{"at": "a1", "home": "a1", "hand": ["speed", "3"]},
                 {"at": "g7", "home": "g7", "treasures": ["g6", "f7"]}])
    assert _pick(st) == "P1 play speed"


def test_a_locked_door_on_the_way_is_picked() -> None:
    """The only way to the treasure is through a door: Pick Lock opens it."""
    walls = [f"c{r}:e" for r in range(1, 8) if r != 4]
    st = _state([{"at": "c4", "home": "a4", "hand": ["pick-lock", "2"]},
                 {"at": "g1", "home": "g1", "treasures": ["f4", "g7"]}],
                board={"walls": walls, "doors": ["c4:e"]})
    assert _pick(st) == "P1 play pick-lock @c4:e"
    apply(st, "P1 play pick-lock @c4:e")
    assert _pick(st) == "P1 move d4"


def test_teleport_home_with_a_treasure() -> None:
    st = _state([{"at": "g7", "home": "a1", "carrying": "P2.t1", "hand": ["teleport"]},
                 {"at": "d4", "home": "d4", "treasures": ["", "e5"]}])
    assert _pick(st) == "P1 play teleport @a1"


def test_a_treasure_carrier_is_made_to_drop_it() -> None:
    st = _state([{"at": "a1", "home": "a7", "hand": ["drop-object", "2"]},
                 {"at": "a5", "home": "g1", "carrying": "P1.t1"}])
    assert _pick(st) == "P1 play drop-object @P2 drop=P1.t1"


def _own_turn(st, act) -> list[str]:  # type: ignore[no-untyped-def]
    """P1's actions until his turn ends, each chosen by ``act(st)``."""
    out: list[str] = []
    while to_move(st)[0] == "P1" and len(out) < 12:
        a = act(st)
        out.append(str(a))
        apply(st, a)
    return out


def test_a_far_treasure_carrier_is_walled_in_through_the_families() -> None:
    """A carrier heading home far off (beyond the squares round the caster that
    ``legal_actions`` lists): the bot given the families (``Ruleset.bot_act``: ``expand``
    bound to the game) builds a wall on his way, a target only ``far:create-wall`` lists;
    the same bot without them cannot (core/wizwar/families.py, issue 11)."""
    def board():  # type: ignore[no-untyped-def]
        return _state([{"at": "a1", "home": "a7", "hand": ["create-wall", "2"]},
                       {"at": "g5", "home": "g1", "carrying": "P1.t1"}])

    rs = registry.get("wizwar")
    seen: list[set[str]] = []

    def with_families(st):  # type: ignore[no-untyped-def]
        seen.append({str(a) for a in legal_actions(st, "P1")})
        return rs.bot_act(st, "P1")

    st = board()
    walls = [a for a in _own_turn(st, with_families) if "create-wall" in a]
    assert len(walls) == 1 and all(walls[0] not in listed for listed in seen), walls
    d_before = bot.distances(view(board(), "P1"), (6, 4), True)  # g5 -> g1 (x, y)
    d_after = bot.distances(view(st, "P1"), (6, 4), True)
    assert d_after[(6, 0)] > d_before[(6, 0)], "the wall does not lengthen his way home"
    plain = _own_turn(board(), lambda st: bot.choose(view(st, "P1"), "P1",
                                                     legal_actions(st, "P1")))
    assert not any("create-wall" in a for a in plain), plain


def test_a_stone_block_in_the_way_is_dispelled() -> None:
    """A stone block fills the only corridor to the treasure: Dispel Creation clears it."""
    st = _state([{"at": "a1", "home": "e5", "hand": ["dispel-creation", "2"]},
                 {"at": "e1", "home": "e1", "treasures": ["a5", ""]}], size="5x5",
                board={"walls": [f"a{r}:e" for r in range(1, 6)]})
    st.stones = [(0, 2)]
    assert _pick(st) == "P1 play dispel-creation @a3"


def test_amplify_comes_before_the_blast() -> None:
    st = _state([{"at": "a1", "hand": ["amplify", "lightning-blast", "5"]},
                 {"at": "a5"}])
    assert _pick(st) == "P1 play amplify"
    apply(st, "P1 play amplify")
    assert _pick(st) == "P1 play lightning-blast @P2 +5"


def test_a_kill_uses_the_smallest_number_that_kills() -> None:
    st = _state([{"at": "a1", "hand": ["fireball", "3", "6"]},
                 {"at": "a5", "life": 3}])
    assert _pick(st) == "P1 play fireball @P2 +3"


def test_discard_the_least_useful_card() -> None:
    st = _state([{"at": "a1", "hand": ["full-shield", "fireball", "2", "5", "speed", "teleport",
                                       "absorb", "6"]},
                 {"at": "g7"}])
    st.discarding = ["P1"]
    assert _pick(st) == "P1 discard 2"


def test_telepath_takes_the_best_card() -> None:
    st = _state([{"at": "a1", "hand": ["telepath"]},
                 {"at": "a5", "hand": ["2", "full-shield", "create-wall"]}])
    apply(st, "P1 play telepath @P2")
    apply(st, "P2 pass")
    assert st.choice
    assert _pick(st) == "P1 choose full-shield"


def test_the_choice_does_not_depend_on_the_order_of_the_actions() -> None:
    st = new_game(GameConfig(players=3), 8)
    for _ in range(25):
        seat = to_move(st)[0]
        legal = legal_actions(st, seat)
        v = view(st, seat)
        a = bot.choose(v, seat, legal)
        assert bot.choose(v, seat, legal[::-1]) == a
        apply(st, a)


# ---- the archmage -------------------------------------------------------------------------
def _hidden_shuffle(st, seat: str, seed: int):  # type: ignore[no-untyped-def]
    """A copy of ``st`` in which the faces ``seat`` cannot see (the others' undisplayed hands
    and the draw pile) are dealt again at random: the same game as far as ``seat`` knows."""
    other = D.clone(st)
    known = D.known_cards(other, seat)
    hidden = [c for c in range(len(other.faces)) if c not in known]
    faces = [other.faces[c] for c in hidden]
    Rng.from_seed(seed).shuffle(faces)
    # Trap! never sits in a hand: keep it where it was
    for c, f in zip(hidden, faces, strict=True):
        other.faces[c] = f
    for w in other.wizards:
        for c in w.hand:
            if other.faces[c] == "trap":
                swap = next(d for d in other.deck if other.faces[d] != "trap")
                other.faces[c], other.faces[swap] = other.faces[swap], other.faces[c]
    return other


def _midgame(players: int, seed: int, steps: int):  # type: ignore[no-untyped-def]
    st = new_game(GameConfig(players=players), seed)
    for _ in range(steps):
        seat = to_move(st)[0]
        apply(st, bot.choose(view(st, seat), seat, legal_actions(st, seat)))
    return st


@pytest.mark.parametrize("players,seed,steps", [(2, 3, 40), (4, 6, 60)])
def test_archmage_never_reads_hidden_faces(players: int, seed: int, steps: int) -> None:
    """Two games that differ only in faces the archmage cannot see give it the same view,
    the same imagined games and the same decisions, at every step of a stretch of play."""
    st = _midgame(players, seed, steps)
    for _ in range(8):
        seat = to_move(st)[0]
        other = _hidden_shuffle(st, seat, 99)
        assert other.faces != st.faces or players == 2
        v1, v2 = view(st, seat), view(other, seat)
        assert v1 == v2
        w1 = D.sample_state(v1, D.view_rng(v1, 5))
        w2 = D.sample_state(v2, D.view_rng(v2, 5))
        assert w1.to_wire() == w2.to_wire()
        a1 = bot.choose(v1, seat, legal_actions(st, seat), level="archmage", budget=4, seed=5)
        a2 = bot.choose(v2, seat, legal_actions(other, seat), level="archmage", budget=4,
                        seed=5)
        assert a1 == a2
        apply(st, a1)


def test_archmage_is_deterministic_and_legal() -> None:
    st = _midgame(2, 12, 30)
    seat = to_move(st)[0]
    legal = legal_actions(st, seat)
    v = view(st, seat)
    a = bot.choose(v, seat, legal, level="archmage", budget=6, seed=1)
    assert a in legal
    assert bot.choose(v, seat, legal, level="archmage", budget=6, seed=1) == a
    assert bot.choose(v, seat, legal[::-1], level="archmage", budget=6, seed=1) == a


def test_archmage_answers_from_its_imagined_games() -> None:
    """Attacked, the archmage weighs passing against each counteraction it holds and plays a
    legal answer, the same one for the same seed."""
    st = _state([{"at": "a1", "hand": ["lightning-blast", "5", "anti-anti", "3"]},
                 {"at": "a4", "hand": ["full-shield", "blunt", "absorb"]}], size="5x5")
    apply(st, "P1 play lightning-blast @P2 +5")
    legal = legal_actions(st, "P2")
    a = bot.choose(view(st, "P2"), "P2", legal, level="archmage", budget=12, seed=3)
    assert a in legal
    assert a.verb == "play"  # 5 damage and a lost turn: no archmage lets that through
    assert bot.choose(view(st, "P2"), "P2", legal, level="archmage", budget=12, seed=3) == a


def test_archmage_with_no_budget_is_the_apprentice() -> None:
    st = _midgame(2, 4, 20)
    seat = to_move(st)[0]
    assert _pick(st, seat, "archmage", budget=0) == _pick(st, seat)


def test_archmage_takes_the_winning_drop() -> None:
    """One treasure home already; standing on the home base with the second: it scores."""
    st = _state([{"at": "a1", "home": "a1", "carrying": "P2.t2", "hand": ["fireball", "3"]},
                 {"at": "g7", "home": "g7", "treasures": ["a1", ""]}])
    assert _pick(st, level="archmage", budget=8) == "P1 drop P2.t2"


def test_archmage_steps_out_of_a_deadly_line_of_sight() -> None:
    """At 1 life in the open in front of an enemy, the apprentice (with no goal and nothing
    to play) ends its turn there; the archmage, imagining the enemy's hand, steps behind the
    wall, where the slowed enemy cannot see him next turn."""
    from core.wizwar.rules import has_los

    st = _state([{"at": "c4", "home": "a1", "life": 1, "hand": ["2"]},
                 {"at": "g4", "home": "g1", "hand": ["fireball", "lightning-blast",
                                                    "powerthrust", "3", "4", "5", "2"],
                  "conditions": [{"slug": "slow", "caster": "P1", "duration": 3}]}],
                board={"walls": ["c5:e"]}, deck=["2", "3", "4", "5"] * 4)
    st.turn.moves_used = 2
    assert has_los(st, st.wizard("P2").at, st.wizard("P1").at)
    assert _pick(st) == "P1 end"
    choice = _pick(st, level="archmage", budget=12)
    assert choice == "P1 move c5"
    apply(st, choice)
    assert not has_los(st, st.wizard("P2").at, st.wizard("P1").at)


# ---- determinization -------------------------------------------------------------------
def test_sample_state_keeps_the_view_and_deals_the_unseen_cards() -> None:
    st = _midgame(4, 3, 80)
    for seat in st.seats:
        v = view(st, seat)
        if not v.players[st.seats.index(seat)].alive:
            continue
        w = D.sample_state(v, Rng.from_seed(7))
        v2 = view(w, seat)
        for f in ("edges", "open_doors", "bushes", "stones", "tokens", "players", "hand",
                  "displayed", "active", "round", "to_move", "stack", "discarding",
                  "deck_size", "discard", "moves_left", "attacked", "picked_up"):
            assert getattr(v2, f) == getattr(v, f), f
        # the hidden places hold exactly the unseen cards
        from collections import Counter

        hidden = [w.faces[c] for c in w.deck]
        for x in w.wizards:
            if x.seat != seat:
                hidden += [w.faces[c] for c in x.hand if c not in x.displayed]
                assert all(w.faces[c] != "trap" for c in x.hand)
        assert Counter(hidden) == Counter(D.unseen_faces(v))
        assert len(w.faces) == len(st.faces)


def test_sample_state_varies_with_the_rng_only_in_hidden_places() -> None:
    st = _midgame(2, 9, 25)
    seat = to_move(st)[0]
    v = view(st, seat)
    a, b = D.sample_state(v, Rng.from_seed(1)), D.sample_state(v, Rng.from_seed(2))
    assert view(a, seat) == view(b, seat) or view(a, seat).players == view(b, seat).players
    assert [a.faces[c] for c in a.deck] != [b.faces[c] for c in b.deck]


def test_a_spectator_view_cannot_be_determinized() -> None:
    st = new_game(GameConfig(players=2), 1)
    with pytest.raises(ValueError):
        D.sample_state(view(st, ""), Rng.from_seed(1))


def test_clone_is_a_deep_independent_copy() -> None:
    st = _midgame(3, 5, 30)
    c = D.clone(st)
    assert c.to_wire() == st.to_wire()
    seat = to_move(c)[0]
    apply(c, bot.choose(view(c, seat), seat, legal_actions(c, seat)))
    assert c.to_wire() != st.to_wire()
    assert c.layout is st.layout
