"""ArcoMage's bots against a person's plain plan (issue 17, item 2): one Ghost, then
Fireball and Firebolt at the rival's wizard, answering every enemy spell with its cheapest
damage. Neither level may lose to it by turn 25, whoever moves first and whichever seat the
burner holds; a buff of the bots' goes on their own pieces only."""

from __future__ import annotations

from typing import Any

import pytest

from core.arcomage import bot
from core.arcomage.actions import Action
from core.arcomage.ruleset import RULESET as R
from core.arcomage.state import other


def burner(st: Any, p: str) -> Action:
    """The scripted player: a Ghost when it has no creature; Fireball, else Firebolt, at
    the rival's wizard; Firebolt in answer to each enemy spell; the Ghost walks and attacks."""
    g = st.d
    legal = R.legal_actions(st, p)
    by_text = {str(a): a for a in legal}
    o = other(p)
    if g["stack"]:
        if g["stack"][-1]["caster"] != p and f"{p} cast firebolt @{o}" in by_text:
            return by_text[f"{p} cast firebolt @{o}"]
    else:
        if not any(c["controller"] == p for c in g["creatures"]):
            ghost = [a for a in legal if a.verb == "cast" and a.slug == "summon-ghost"]
            if ghost:
                return ghost[0]
        for s in ("fireball", "firebolt"):
            if f"{p} cast {s} @{o}" in by_text:
                return by_text[f"{p} cast {s} @{o}"]
    for verb in ("attack", "move"):
        got = [a for a in legal if a.verb == verb]
        if got:
            best = max(got, key=lambda a: bot.score(g, p, a))
            if verb == "attack" or bot.score(g, p, best) > 2:
                return best
    return next((a for a in legal if a.verb in ("end", "pass")), legal[0])


def _game(level: str, burner_seat: str, first: str, seed: int) -> tuple[str, int, list[str]]:
    """The game to its end (or turn 25): the winner (``""`` none yet), the turn, and the
    bot's buffs that landed on the burner's pieces."""
    books = {} if burner_seat == "P1" else {"p1_book": "iron-dojo", "p2_book": "pale-tower"}
    st = R.new_game(R.validate_options({"first": first, **books}), seed)
    wrong: list[str] = []
    for _ in range(4000):
        if R.result(st).over or int(st.d["turn"]) > 25:
            break
        p = R.to_move(st)[0]
        if p == burner_seat:
            a = burner(st, p)
        else:
            a = R.bot_act(st, p, level)
            if bot.wrong_side(st.d, p, a):
                wrong.append(str(a))
        R.apply(st, a)
    out = R.result(st)
    return (out.winners[0] if out.over and out.winners else ""), int(st.d["turn"]), wrong


@pytest.mark.parametrize("level", ["apprentice", "archmage"])
@pytest.mark.parametrize(("burner_seat", "first", "seed"),
                         [("P1", "p1", 1), ("P1", "p2", 7), ("P2", "p1", 11)])
def test_one_ghost_and_burn_does_not_beat_the_bots(level: str, burner_seat: str,
                                                   first: str, seed: int) -> None:
    """The burner has not won by turn 25, and the bot never buffed its pieces."""
    winner, turn, wrong = _game(level, burner_seat, first, seed)
    assert winner != burner_seat, f"the burner beat the {level} on turn {turn}"
    assert not wrong, wrong


def test_a_buff_is_never_aimed_at_the_rival() -> None:
    """With a Ghost of the rival's on the field and none of its own, neither level casts
    Swiftness (or any help) on the Ghost; the apprentice's score refuses it outright."""
    st = R.new_game(R.validate_options({"p1_book": "pale-tower", "p2_book": "iron-dojo"}), 7)
    R.apply(st, "P1 cast summon-ghost @a1")
    R.apply(st, "P2 pass")
    R.apply(st, "P1 end")
    while st.d["active"] != "P2" or st.d["step"] != "main" or st.d["stack"]:
        p = R.to_move(st)[0]
        acts = [str(a) for a in R.legal_actions(st, p)]
        R.apply(st, next((x for x in acts if x.endswith((" pass", " end"))), acts[0]))
    legal = R.legal_actions(st, "P2")
    buff = [a for a in legal if a.slug == "swiftness" and a.targets == ("a1",)]
    assert buff, [str(a) for a in legal]
    assert bot.wrong_side(st.d, "P2", buff[0])
    assert bot.score(R.view(st, "P2"), "P2", buff[0]) < 0
    for level in ("apprentice", "archmage"):
        assert not bot.wrong_side(st.d, "P2", R.bot_act(st, "P2", level))
