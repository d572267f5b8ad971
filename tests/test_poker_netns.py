"""``wizwar bench --only poker-lan`` (net/poker_netns.py): a poker game between two network
namespaces over a veth pair, one process per seat, measures its deal, draws and reshuffles
(issue 15: the costs on a LAN-like link). Root only (it makes the namespaces)."""

from __future__ import annotations

import os
import shutil

import pytest


def test_a_game_between_namespaces_measures_deal_draw_and_reshuffle() -> None:
    """The 2-seat game of seed ``tp:6`` (which deals its discard pile again twice), host in
    one namespace and joiner in the other: it ends on one hash (else ``costs`` raises) and
    every figure is measured; the namespaces are gone afterwards."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2 to make network namespaces")
    import subprocess

    from net.poker_netns import costs

    got = costs(players=2, seed="tp:6")
    assert got["reshuffles"] == 2, got
    assert got["deal"] > 0 and got["draw"] > 0 and got["show"] > 0 and got["reshuffle"] > 0
    assert bool(got["netem"]) != bool(got["netem_error"]), got  # either the delay, or why not
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert f"wzpkA{os.getpid()}" not in left and f"wzpkB{os.getpid()}" not in left
