"""ArcoMage's low findings of the fresh-user trials (task lowfix): the footer at 60x20, the
joiner's footer once the host has gone, the log naming a creature (Textual pilot)."""

from __future__ import annotations

import asyncio
import contextlib

from textual.widgets._footer import FooterKey

from tests.readable import screen_text
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage.game import FOOTER_PRIORITY, ArcoMageGameScreen


def footer_line(app: WizWarApp) -> str:
    """The screen's last row, as the terminal shows it."""
    return screen_text(app).rstrip("\n").splitlines()[-1]


async def test_the_footer_drops_whole_hints_at_60x20() -> None:
    """At 60x20 the footer shows only whole hints (it was cut mid-word: ``a Act``), the
    most wanted kept (Enter on the field, end the turn, pass, help, menu); a wider window
    shows the ones dropped again."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=3)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        keys = list(screen.query(FooterKey).results(FooterKey))
        shown = [k for k in keys if k.display]
        hidden = [k for k in keys if not k.display]
        assert hidden, line  # not all of them fit at 60 columns
        for k in shown:
            assert f"{k.key_display} {k.description}" in line, line
        words = line.split()
        for k in hidden:  # no piece of a dropped hint either
            assert k.description.split()[0] not in words, line
        assert {k.action for k in shown} >= {"choose", "end", "pass", "help", "menu"}
        ranks = {a: i for i, a in enumerate(FOOTER_PRIORITY)}
        assert max(ranks[k.action] for k in shown) < min(ranks[k.action] for k in hidden)
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        assert "a Actions" in line and "o Rival book" in line, line


async def test_the_joiners_footer_offers_no_game_keys_once_the_host_closed() -> None:
    """The app joins an ArcoMage host (its bot plays P1) on 127.0.0.1; the host closes the
    game: the joiner's footer no longer offers Enter on a hex, the action list, End turn,
    Pass or the notation line (it did), only what can be done then: leave (the menu), the
    help, looking at the books; ``e`` then ends nothing."""
    from core.arcomage.ruleset import RULESET as R
    from net.lan import HostGame
    from tests.test_net_notices import until

    host = HostGame(ruleset=R, local_bot=True, bind="127.0.0.1", port=0)
    port = await host.start()
    task = asyncio.create_task(host.run())
    app = WizWarApp(discovery=False, save_games=False)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            app.join_lan("127.0.0.1", port, "alice", retries=0)
            await until(pilot, lambda: isinstance(app.screen, ArcoMageGameScreen)
                        and app.screen.session.started, what="the game")
            screen = app.screen
            assert isinstance(screen, ArcoMageGameScreen)
            await until(pilot, screen.my_turn, what="the joiner's turn")
            await pilot.pause()
            assert {"end", "pass", "actions"} <= shown_actions(screen), footer_line(app)
            n = len(screen.session.actions)
            await host.close()
            await until(pilot, screen.lan_down, what="the host gone")
            await pilot.pause()
            await pilot.pause()
            line = footer_line(app)
            assert not shown_actions(screen) & {"choose", "end", "pass", "actions",
                                                "command"}, line
            assert {"menu", "help", "book"} <= shown_actions(screen), line
            assert "End turn" not in line and "Pass" not in line and "q Menu" in line
            await pilot.press("e")
            await pilot.pause()
            assert len(screen.session.actions) == n
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await host.close()


def shown_actions(screen: ArcoMageGameScreen) -> set[str]:
    """The actions of the keys the footer shows now."""
    return {k.action for k in screen.query(FooterKey).results(FooterKey) if k.display}


def test_the_log_names_the_creature_that_takes_damage() -> None:
    """A Firebolt on P2's Skeleton: the log says "P2's skeleton on b2 takes 2" (it said
    "b2 takes 2": the hex, not the creature), then that the Skeleton dies, with its owner;
    damage to an archmage still names him."""
    from core.arcomage import scenario
    from core.arcomage.ruleset import RULESET as R

    st = scenario.load({"creatures": [{"kind": "skeleton", "owner": "P2", "at": "b2"}]})
    texts: list[str] = []
    for a in ("P1 cast firebolt @b2", "P2 pass"):
        texts += [e.text for e in R.apply(st, R.parse_action(a))]
    assert "P2's skeleton on b2 takes 2" in texts, texts
    assert "P2's skeleton on b2 dies" in texts, texts
    assert "b2 takes 2" not in texts
    st = scenario.load({})
    texts = []
    for a in ("P1 cast firebolt @P2", "P2 pass"):
        texts += [e.text for e in R.apply(st, R.parse_action(a))]
    assert any(t.startswith("P2 takes ") for t in texts), texts
