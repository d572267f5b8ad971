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
