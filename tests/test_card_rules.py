"""Each card's record (core/wizwar/rules/hooks.py, declared in core/wizwar/rules/cards/): every
card the engine carries out brings the hooks its family needs, and the registry refuses a
card registered twice. Source: cards.md §2 (the deck by family); the issue's deliverable 7."""

from __future__ import annotations

import pytest

from core.wizwar import cards as C
from core.wizwar.rules import hooks


def test_every_card_played_in_its_owners_turn_has_its_effect() -> None:
    playable = [cd.slug for cd in C.CARDS if cd.kind not in (C.COUNTER, C.NUMBER, C.TRAP)]
    assert playable
    assert [s for s in playable if hooks.card_rules(s).play is None] == []


def test_every_attack_card_has_a_hit_effect() -> None:
    attacks = [cd.slug for cd in C.CARDS if cd.kind == C.ATTACK]
    assert attacks
    assert [s for s in attacks if hooks.card_rules(s).hit is None] == []
    assert hooks.hit_effect("punch").damage


def test_every_counteraction_does_something_on_the_stack() -> None:
    for cd in C.CARDS:
        if cd.kind not in (C.COUNTER, C.DUAL):
            continue
        r = hooks.card_rules(cd.slug)
        assert r.stops or r.voids or r.turns or r.reduce is not None, cd.slug


def test_the_escapes_and_blocks_are_exactly_the_dual_cards() -> None:
    duals = sorted(cd.slug for cd in C.CARDS if cd.kind == C.DUAL)
    escapes = sorted(s for s in hooks.registered() if hooks.card_rules(s).escape)
    assert escapes == duals == ["invisible", "teleport", "wall-of-fire", "waterwall"]
    assert all(hooks.card_rules(s).on_stop is not None for s in escapes)


def test_edge_creations_are_found_by_kind() -> None:
    fire = hooks.edge_rules("wall-of-fire")
    illusion = hooks.edge_rules("illusion-wall")
    assert fire is not None and fire.cross_damage == 4 and fire.quenched
    assert illusion is not None and illusion.illusory and illusion.settle is not None
    assert hooks.edge_rules("wall") is None and hooks.edge_rules("door") is None
    assert [e.kind for e in hooks.settling_edges()] == ["illusion-wall"]


def test_an_unknown_slug_has_no_hooks() -> None:
    assert hooks.card_rules("no-such-card") is hooks.NO_RULES
    with pytest.raises(KeyError):
        hooks.hit_effect("teleport")


def test_a_card_registered_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        hooks.register(hooks.CardRules("fireball"))
    with pytest.raises(ValueError, match="registered twice"):
        hooks.register(hooks.CardRules("not-a-card-a", edge=hooks.EdgeRules("wall-of-fire")))
    assert hooks.card_rules("not-a-card-a") is hooks.NO_RULES
