"""A local Wizard Kings game's log holds the bot's deploy and build orders whole; its export
and replay "seen as" a player must show them in their public form only (trialWK 1: the
export printed ``P2 build new=goblin@2h2:4,troll@2g6:2``). Source: rules.md R112, R116."""

from __future__ import annotations

import re

from core import log
from core.wizardkings.ruleset import RULESET as R


def _local_log(seed: int, actions: int) -> bytes:
    """A local 2-player game played by the captain bot on both seats, as a saved log, up to
    the movement after P2's first build with a new block or step."""
    opts = R.validate_options({})
    st = R.new_game(opts, seed)
    data = log.encode(log.header(R, opts, seed))
    built = False
    for i in range(1, actions + 1):
        if R.result(st).over:
            break
        seat = R.to_move(st)[0]
        a = R.bot_act(st, seat, "captain")
        R.apply(st, a)
        built |= str(a).startswith("P2 build ") and ("new=" in str(a) or "step=" in str(a))
        data += log.encode(log.record(R, i, a, st))
        if built and str(R.describe_turn(st)).endswith("movement"):
            break
    assert built, "the game reached no build by P2 with a new block or step"
    return data


def test_export_seen_as_p1_hides_the_bots_orders() -> None:
    loaded = log.read(_local_log(3, 4000))
    whole = log.export_text(loaded)
    seen = log.export_text(loaded, seen_as="P1")
    assert re.search(r"^P2 build .*(new|step)=\S*:\d", whole, re.M), whole[-2000:]
    for line in seen.splitlines():
        if line.startswith("P2 build") or line.startswith("P2 deploy"):
            assert not re.search(r"[a-z]+@\w+:\d|=\d+:\d", line), line
    assert "# hidden from P1" in seen
    # P1's own orders stay whole: he knew them
    assert [x for x in seen.splitlines() if x.startswith("P1 build")] == \
        [x for x in whole.splitlines() if x.startswith("P1 build")]


def test_replay_last_and_next_lines_seen_as_p1_hide_the_bots_orders() -> None:
    """The replay's bottom line ("last N." / "next N.") shows P2's build order in its
    sealed form to P1, as the log panel does (trial finding 5); P2 and everyone see it whole."""
    from wizwar_tui import replay
    from wizwar_tui.wizardkings.replay import WizardKingsReplayScreen

    rp = replay.from_log("game.wwlog", _local_log(3, 4000))
    n = next(i + 1 for i, a in enumerate(rp.actions)
             if str(a).startswith("P2 build ") and re.search(r"[a-z]+@\w+:\d|=\d+:\d", str(a)))
    scr = WizardKingsReplayScreen(rp, seat="P1")
    for at in (n, n - 1):  # "last n." and "next n."
        scr.n = at
        text = scr.info_text().plain
        line = next(x for x in text.splitlines() if f"{n}. " in x)
        assert "P2 build" in line and not re.search(r"[a-z]+@\w+:\d|=\d+:\d", line), line
        assert scr.action_line(n).plain.endswith(line.split(f"{n}. ", 1)[1])
    scr.seat = "P2"
    assert str(rp.actions[n - 1]) in scr.info_text().plain
    scr.seat = replay.EVERYONE
    assert str(rp.actions[n - 1]) in scr.info_text().plain
