"""Self-play: bots play headless games and every check runs after every action (issue 6)."""

from __future__ import annotations

from collections import Counter

import pytest

from core import log
from core.rng import Rng
from core.wizwar import bot, selfplay
from core.wizwar.actions import Action, parse
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import legal_actions
from core.wizwar.scenario import build_state
from core.wizwar.view import view


def test_a_short_run_is_clean_and_reports_everything() -> None:
    """Two 2-player games: no crash, no failed check; the report has wins, length and the
    per-card play counts."""
    rep = selfplay.run(2, players=2, seed=0)
    assert len(rep.games) == 2
    assert rep.crashes == 0 and rep.invariant_failures == 0
    assert all(g.winner for g in rep.games)
    assert sum(rep.plays.values()) > 0
    text = selfplay.format_report(rep)
    assert "games played: 2" in text
    assert "crashes: 0, invariant failures: 0" in text
    assert "wins per seat: P1 " in text and "mean length:" in text
    for kind in selfplay.card_kinds(2):
        assert f"{kind} {rep.plays[kind]}" in text
    assert "relocate-sector" not in selfplay.card_kinds(2)  # out of 2-player games (FAQ)
    assert "relocate-sector" in selfplay.card_kinds(4)


def test_capped_game_is_a_draw() -> None:
    """A game stopped at the length cap counts as a draw and is reported as one."""
    rep = selfplay.run(1, players=2, seed=0, max_actions=12)
    g = rep.games[0]
    assert g.capped and g.winner == "" and g.actions == 12 and not g.failure
    assert "draws (capped games): 1" in selfplay.format_report(rep)
    assert rep.wins() == {"P1": 0, "P2": 0}


def test_check_state_finds_a_card_in_two_places() -> None:
    st = new_game(GameConfig(players=2), 3)
    n = len(st.faces)
    assert selfplay.check_state(st, n) == ""
    st.discard.append(st.wizards[0].hand[0])
    assert "in two places" in selfplay.check_state(st, n) or \
        "cards in play" in selfplay.check_state(st, n)


def test_check_state_finds_a_lost_card_and_bad_positions() -> None:
    st = new_game(GameConfig(players=2), 3)
    n = len(st.faces)
    st.deck.pop()
    assert "cards in play" in selfplay.check_state(st, n)
    st = new_game(GameConfig(players=2), 3)
    st.wizards[1].at = (999, 999)
    assert "not on a square" in selfplay.check_state(st, n)
    st = new_game(GameConfig(players=2), 3)
    st.wizards[0].life = 0
    assert "life" in selfplay.check_state(st, n)
    st = new_game(GameConfig(players=2), 3)
    st.treasures["P1.t1"] = None
    assert "nowhere" in selfplay.check_state(st, n)
    st = new_game(GameConfig(players=2), 3)
    st.wizards[0].displayed.append(st.deck[0])
    assert "not in his hand" in selfplay.check_state(st, n)


def test_check_views_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that shows another player's hand is caught."""
    import dataclasses

    st = new_game(GameConfig(players=2), 5)
    assert selfplay.check_views(st) == ""
    real = selfplay.view

    def leaky(state, seat):  # type: ignore[no-untyped-def]
        v = real(state, seat)
        if seat != "P1":
            return v
        other = tuple(state.face(c) for c in state.wizard("P2").hand)
        return dataclasses.replace(v, discard=v.discard + other)

    monkeypatch.setattr(selfplay, "view", leaky)
    assert "P1's view shows a face" in selfplay.check_views(st)


def test_check_actions_catches_a_refused_or_misspelt_action() -> None:
    st = new_game(GameConfig(players=2), 5)
    seat = st.turn.active
    legal = legal_actions(st, seat)
    rng = Rng.from_seed(1)
    assert selfplay.check_actions(st, legal, rng, sample=0) == ""
    bad = Action(seat, "move", targets=("a1", "z9"))
    assert "listed legal but refused" in selfplay.check_actions(st, [bad], rng, sample=0)
    odd = Action(seat, "end", number=2)  # "end" prints without the default draw of 2
    assert "parse(str(a)) != a" in selfplay.check_actions(st, [odd], rng, sample=0)


def test_check_round_trip_holds_and_catches_a_break() -> None:
    st = new_game(GameConfig(players=3), 2)
    assert selfplay.check_round_trip(st) == ""
    st.options["odd"] = 1.5  # a float has no canonical msgpack form
    with pytest.raises(ValueError):
        selfplay.check_round_trip(st)


def test_a_failure_keeps_the_log_and_names_the_first_bad_action(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that answers with an illegal action: the game stops, the log reads back with the
    actions so far, and the failure names the action and its number."""
    real = bot.choose
    calls = {"n": 0}

    def broken(v, seat, legal, level="apprentice", **kw):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 7:
            return Action(seat, "move", targets=("a1", "a2", "a3", "a4", "a5"))
        return real(v, seat, legal, level, **kw)

    monkeypatch.setattr(selfplay.bot, "choose", broken)
    g = selfplay.play_game(2, 0, ("apprentice", "apprentice"))
    assert g.failure.startswith("invariant: the bot chose")
    assert g.bad_action.startswith("#7 ") and "move a1-a2" in g.bad_action
    loaded = log.read(g.log)
    assert len(loaded.records) == 6
    assert loaded.header["extra"]["selfplay"]["bad_action"] == g.bad_action
    log.replay(loaded)  # the actions before it replay


def test_a_crash_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise RuntimeError("kaboom")

    monkeypatch.setattr(selfplay.bot, "choose", boom)
    rep = selfplay.run(1, players=2)
    assert rep.crashes == 1
    assert "crash: RuntimeError: kaboom" in selfplay.format_report(rep)


def test_count_plays_counts_cards_numbers_and_traps() -> None:
    from core.engine import Event

    c: Counter = Counter()
    selfplay.count_plays(parse("P1 play fireball @P2 +4"), [], c)
    selfplay.count_plays(parse("P1 boost 3"), [], c)
    selfplay.count_plays(parse("P2 play full-shield"), [], c)
    selfplay.count_plays(parse("P1 end"), [Event("trap", "P1 draws Trap!")], c)
    selfplay.count_plays(parse("P1 move b2"), [], c)
    assert c == Counter({"fireball": 1, "4": 1, "3": 1, "full-shield": 1, "trap": 1})


def test_reflection_against_a_slow_death_tick_is_refused_not_a_crash() -> None:
    """Found by self-play (4 players, seed 3, action 425): listing the answers to a Slow Death
    tick with Reflection in hand raised KeyError. Reflection is refused (Slow Death has no
    number), Full Shield is not."""
    st = build_state({
        "board": {"size": "5x5"},
        "players": [{"at": "a1", "hand": ["2"]},
                    {"at": "e5", "hand": ["reflection", "full-shield"],
                     "conditions": [{"slug": "slow-death", "caster": "P1"}]}],
        "deck": ["3", "4", "5"],
        "turn": {"active": "P2"},
    })
    from core.wizwar.rules import apply

    apply(st, "P2 end")
    assert st.windows and st.windows[0].source == "slow-death-tick"
    answers = {str(a) for a in legal_actions(st, "P2")}
    assert "P2 play full-shield" in answers
    assert "P2 play reflection" not in answers


def test_cli_selfplay_prints_the_report(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from wizwar_tui.cli import main

    code = main(["selfplay", "--games", "1", "--players", "2", "--seed", "1",
                 "--logs", str(tmp_path), "--save-all"])
    out = capsys.readouterr().out
    assert code == 0
    assert "games played: 1" in out and "crashes: 0, invariant failures: 0" in out
    saved = list(tmp_path.iterdir())
    assert [p.name for p in saved] == ["selfplay-2p-seed1.wwlog"]
    loaded = log.read(saved[0].read_bytes())
    assert loaded.end is not None and loaded.end["winner"]
    log.replay(loaded)


def test_cli_selfplay_refuses_an_unknown_level(capsys) -> None:  # type: ignore[no-untyped-def]
    from wizwar_tui.cli import main

    assert main(["selfplay", "--games", "1", "--bots", "grandmaster"]) == 2
    assert "unknown bot level" in capsys.readouterr().err


def test_views_in_selfplay_games_never_differ_from_blind_views() -> None:
    """Spot check of the no-leak check on a game in progress, every seat."""
    st = new_game(GameConfig(players=3), 11)
    from core.wizwar.rules import apply, to_move

    for _ in range(40):
        seat = to_move(st)[0]
        apply(st, bot.choose(view(st, seat), seat, legal_actions(st, seat)))
        assert selfplay.check_views(st) == ""
