"""The apprentice bot plays whole games legally from its own view (issue 2, part 3)."""

from __future__ import annotations

import pytest

from core.wizwar import bot
from core.wizwar.rules import legal_actions, to_move
from core.wizwar.session import LocalSession
from core.wizwar.view import view


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 4), (4, 2)])
def test_bots_finish_a_game(players: int, seed: int) -> None:
    """Bots play a whole game to a result; every choice is one of the legal actions."""
    s = LocalSession.start(players=players, seed=seed, human="")
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


def test_bot_answers_with_a_counteraction() -> None:
    """Attacked while holding Full Shield, the bot plays it rather than passing."""
    from core.wizwar.scenario import build_state

    st = build_state({
        "board": {"size": "5x5"},
        "players": [{"at": "a1", "hand": ["fireball", "5"]},
                    {"at": "a4", "hand": ["full-shield", "blunt"]}],
        "steps": [],
    })
    from core.wizwar.rules import apply

    apply(st, "P1 play fireball @P2 +5")
    a = bot.choose(view(st, "P2"), "P2", legal_actions(st, "P2"))
    assert str(a) == "P2 play full-shield"


def test_bot_goes_for_treasure() -> None:
    """Standing on an enemy treasure with nothing to attack, the bot picks it up."""
    from core.wizwar.scenario import build_state

    st = build_state({
        "board": {"size": "5x5", "walls": ["b3:e"]},
        "players": [{"at": "b2", "home": "a1", "hand": ["2"]},
                    {"at": "e5", "home": "e4", "treasures": ["b2", "e1"]}],
        "steps": [],
    })
    a = bot.choose(view(st, "P1"), "P1", legal_actions(st, "P1"))
    assert str(a) == "P1 pickup P2.t1"
