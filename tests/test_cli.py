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
