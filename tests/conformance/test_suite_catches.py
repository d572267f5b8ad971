"""The conformance suite's checks can fail: each is run on a ruleset broken on purpose (a
wrapper round Wiz-War) and must report the fault."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import conformance_suite as suite
import pytest

from core import registry
from core.engine import IllegalAction

WIZWAR = type(registry.get("wizwar"))


class ListsTooLittle(WIZWAR):  # type: ignore[misc, valid-type]
    """Leaves ending the turn out of the listing."""

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        return [a for a in super().legal_actions(state, player) if a.verb != "end"]


class ListsTooMuch(WIZWAR):  # type: ignore[misc, valid-type]
    """Lists a punch at nobody."""

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        got = super().legal_actions(state, player)
        return [*got, self.parse_action(f"{player} punch P6")] if got else got


class ShowsHands(WIZWAR):  # type: ignore[misc, valid-type]
    """Every view shows the other wizards' hands (in the displayed cards)."""

    def view(self, state: Any, player: str) -> Any:
        v = super().view(state, player)
        players = tuple(replace(p, displayed=tuple(state.hand_slugs(p.seat)))
                        for p in v.players)
        return replace(v, players=players)


class RefusesLate(WIZWAR):  # type: ignore[misc, valid-type]
    """Changes the state before refusing an action."""

    def apply(self, state: Any, action: Any) -> list[Any]:
        if self.why_illegal(state, action):
            state.round += 1
            raise IllegalAction("refused, but too late")
        return super().apply(state, action)


def _start(rs: Any) -> Any:
    return rs.new_game(rs.validate_options({}), 5)


def test_an_action_left_out_is_found() -> None:
    rs = ListsTooLittle()
    st = _start(rs)
    seat = rs.to_move(st)[0]
    found = suite.check_exact(rs, st, seat, "here")
    assert any(f"{seat} end is accepted but not listed" in f for f in found)


def test_a_listed_action_refused_is_found() -> None:
    rs = ListsTooMuch()
    st = _start(rs)
    seat = rs.to_move(st)[0]
    assert any("punch P6 is refused" in f for f in suite.check_exact(rs, st, seat, "here"))


def test_a_view_showing_a_hidden_hand_is_found() -> None:
    rs = ShowsHands()
    st = _start(rs)
    with pytest.raises(AssertionError, match="shows a hidden value"):
        suite.check_views(rs, st, rs.seats(rs.validate_options({})), 1, "here")


def test_a_refusal_that_changes_the_state_is_found() -> None:
    rs = RefusesLate()
    st = _start(rs)
    seat = rs.to_move(st)[0]
    other = next(s for s in rs.seats(rs.validate_options({})) if s != seat)
    with pytest.raises(AssertionError, match="changed the state"):
        suite.check_refused(rs, st, rs.parse_action(f"{other} end"), "here")


def test_the_real_ruleset_passes_the_same_checks() -> None:
    rs = registry.get("wizwar")
    st = _start(rs)
    seats = rs.seats(rs.validate_options({}))
    assert all(suite.check_exact(rs, st, s, "here") == [] for s in seats)
    suite.check_views(rs, st, seats, 1, "here")
    other = next(s for s in seats if s not in rs.to_move(st))
    suite.check_refused(rs, st, rs.parse_action(f"{other} end"), "here")
