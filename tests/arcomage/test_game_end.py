"""Once the game ends nothing else happens (rules.md R63, R118; issue 17 item 8): a Fireball
that takes the rival's last Life does not then set him burning."""

from __future__ import annotations

from core.arcomage.ruleset import RULESET as R


def test_a_killing_fireball_burns_nobody_after_the_win() -> None:
    st = R.new_game(R.validate_options({}), 3)
    p2 = st.d["players"]["P2"]
    for k in ("moat", "wall", "tower"):
        p2[k] = 0
    p2["life"] = 2
    p2["conditions"].append({"slug": "burning", "left": 1, "ts": 0, "by": "P1"})
    R.apply(st, "P1 cast fireball @P2")
    events = R.apply(st, "P2 pass")
    texts = [e.text for e in events]
    won = next(i for i, e in enumerate(events) if "wins" in e.text)
    assert R.result(st).winners == ("P1",), texts
    assert not any("burning" in t for t in texts[won:]), texts
