"""The ``wizwar`` command's argument checks (issue 12: a seed outside 64 bits crashed)."""

from __future__ import annotations

import pytest

from wizwar_tui.cli import main


@pytest.mark.parametrize("cmd", [["play"], ["host"], ["selfplay"]])
@pytest.mark.parametrize("seed", [str(2**64), "-1", "x"])
def test_a_seed_out_of_range_is_a_usage_error(cmd: list[str], seed: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*cmd, "--seed", seed])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "Traceback" not in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("wizwar ")


def test_selfplay_takes_the_games_options(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar selfplay`` has the option flags of the game (generated from its schema, as
    ``play`` and ``host`` do; ``--team`` was refused), and the logs it keeps hold them."""
    from core import log

    code = main(["selfplay", "--games", "1", "--players", "4", "--team", "--save-all",
                 "--logs", str(tmp_path), "--max-actions", "60"])
    assert code == 0
    files = list(tmp_path.glob("*.wwlog"))
    assert len(files) == 1
    assert log.read(files[0].read_bytes()).options["team"] is True
    assert main(["selfplay", "--games", "1", "--crossed", "--max-actions", "30",
                 "--logs", str(tmp_path / "b")]) == 0  # two players: crossed needs them
    with pytest.raises(SystemExit):
        main(["selfplay", "--players", "3", "--team"])
    assert "team play needs four players" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "usage"), [
    (["play", "--bogus"], "wizwar play"), (["join", "a", "b"], "wizwar join"),
    (["play", "--players", "7"], "wizwar play")])
def test_a_commands_usage_errors_show_its_own_usage(argv: list[str], usage: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown word after a command is said with that command's usage, not the top
    level's (issue 12: option errors of play printed the top-level usage)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {usage} ") and f"{usage}: error:" in err


def test_join_help_describes_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar join --help`` says what TARGET and each flag are (issue 12)."""
    with pytest.raises(SystemExit):
        main(["join", "--help"])
    out = capsys.readouterr().out
    assert "TARGET" in out and "HOST:PORT" in out and "--name NAME" in out
    assert "your player name" in out and "rejoins after a lost connection" in out


def test_a_game_still_being_built_is_refused_in_words(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar play GAME`` of a game still in ``registry.BUILDING`` (none today: the test-only
    "pick a number" stands in): a usage error saying so, never its unfinished screens;
    never hosted or joined; ``play --help`` and ``host --help`` name the games offered and
    those being built (trial 11 item 4)."""
    from core import registry
    from tests import pick_ruleset

    game = pick_ruleset.RULESET.name
    monkeypatch.setitem(registry.BUILDING, game, "tests.pick_ruleset:RULESET")
    monkeypatch.setitem(registry._loaded, game, pick_ruleset.RULESET)
    assert game not in registry.names()
    with pytest.raises(SystemExit) as exc:
        main(["play", game, "--seed", "3"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "is still being built and cannot be played yet" in err and "Traceback" not in err
    # never hosted or joined: its secrets are not yet kept on the LAN
    for argv in (["host", game, "--headless", "--bind", "127.0.0.1", "--port", "0"],
                 ["join", "--game", game, "127.0.0.1:9"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "cannot be hosted or joined yet" in err and "Traceback" not in err
    for cmd in ("play", "host"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert f"the game: {', '.join(registry.names())}" in out
        assert game in out.split("not offered yet:", 1)[1].replace("- ", "-")  # (wrapped)


def test_every_game_with_screens_is_offered() -> None:
    """Wiz-War, ArcoMage and Wizard Kings are all offered (issue 18: Wizard Kings left
    ``BUILDING``): ``wizwar play --help`` and the menu list each of them."""
    from core import registry
    from wizwar_tui import games

    assert registry.names() == ["wizwar", "arcomage", "wizard-kings"]
    assert registry.BUILDING == {}
    assert games.names()[:3] == ["wizwar", "arcomage", "wizard-kings"]


def test_selfplay_help_says_the_players_it_plays(capsys: pytest.CaptureFixture[str]) -> None:
    """``selfplay --help``'s ``--players`` default is the one self-play uses (its table of
    4 for Wiz-War), not the schema's 2 (trial 11 item 10)."""
    from core.wizwar.selfplay import DEFAULT_PLAYERS

    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"default {DEFAULT_PLAYERS})" in out.rsplit("--players N", 1)[1].split("--", 1)[0]


def test_bench_help_lists_every_part(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench --help`` lists every part ``--only`` takes (trial 11 item 20)."""
    from wizwar_tui.wizwar.bench import PARTS

    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"comma-separate): {', '.join(PARTS)}" in out


@pytest.mark.parametrize("delay", ["nan", "inf", "-1", "0", "x", "1e9"])
def test_replay_delay_out_of_range_is_refused(delay: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --delay`` refuses nan, inf, negatives, 0 and non-numbers in words
    (trial 11 item 15)."""
    with pytest.raises(SystemExit) as exc:
        main(["replay", "some.wwlog", "--delay", delay])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--delay" in err and "seconds" in err and "Traceback" not in err


def test_a_scenario_failure_names_its_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """``wizwar scenario``: a FAIL line names the file as well as the title (files may share
    a title; trial 11 item 9)."""
    bad = tmp_path / "broken-one.toml"
    bad.write_text('title = "Army of the Dead wins"\nruleset = "chess"\n')
    assert main(["scenario", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"FAIL Army of the Dead wins ({bad}): "), out


def test_scenario_without_the_shared_folder_says_so_in_words(
        tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
        capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar scenario`` on a fresh clone without the shared folder: a missing path is
    "no such file or folder" (not an OSError's text) with a note naming WIZWAR_SHARED and
    the project's own folders; no path at all is a usage error that says what to name."""
    gone = tmp_path / "no-shared"
    monkeypatch.setenv("WIZWAR_SHARED", str(gone))
    assert main(["scenario", str(gone / "scenarios")]) == 1
    cap = capsys.readouterr()
    assert cap.out.splitlines()[0] == f"FAIL {gone / 'scenarios'}: no such file or folder"
    assert "Errno" not in cap.out
    assert f"the shared folder {gone} is absent: set WIZWAR_SHARED" in cap.err
    assert "tests/scenarios" in cap.err
    assert "tests/arcomage/scenarios, tests/wizardkings/scenarios" in cap.err  # found, sorted
    with pytest.raises(SystemExit) as exc:
        main(["scenario"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "name scenario files or folders, e.g. tests/scenarios" in err
    assert f"the shared folder {gone} is absent" in err
    monkeypatch.setenv("WIZWAR_SHARED", str(tmp_path))
    (tmp_path / "scenarios").mkdir()
    assert main(["scenario", str(tmp_path / "missing.toml")]) == 1
    assert "WIZWAR_SHARED" not in capsys.readouterr().err  # the folder is there: no note


@pytest.mark.parametrize("argv,said", [
    (["host", "--players", "2", "--seats", "3"], "--seats 3 conflicts with --players 2"),
    (["play", "--players", "2", "--players", "4"], "--players 4 conflicts with --players 2"),
    (["play", "--crossed", "--no-crossed"], "--no-crossed conflicts with --crossed"),
])
def test_an_option_given_twice_with_two_values_is_refused(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``host --players 2 --seats 3`` was accepted silently, the last value winning (issue
    12): the two flags set one option, so two values are a usage error in words."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "give it once" in err


def test_an_option_given_twice_with_one_value_is_accepted() -> None:
    """The same value twice (a script's default and the user's) is not a conflict."""
    from core import registry
    from net.cli import options_from_args
    from wizwar_tui.cli import build_parser

    rs = registry.get("wizwar")
    p = build_parser(dict.fromkeys(("play", "host", "selfplay"), rs))
    args = p.parse_args(["host", "--players", "3", "--seats", "3"])
    assert options_from_args(p, rs, args)["players"] == 3
