"""ArcoMage over SSH with a plain OpenSSH client (issue 17): a hosted game whose P2 is the
host's bot, a player logging in with ``ssh`` in tmux sees the field, casts by keys, the host
commits it; a watcher sees the field and the action."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable

import asyncssh
import pytest

from core import registry
from net import ssh as wssh
from net.lan import HostGame

NEED_CLIENT = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux; .ci/run installs both")
SSH_OPTS = ["-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "BatchMode=yes", "-o", "IdentityAgent=none", "-o", "ConnectTimeout=20"]


async def until(cond: Callable[[], bool], what: str, timeout: float = 60.0,
                screen: Callable[[], str] | None = None) -> None:
    """Wait until ``cond()`` holds (the deadline only turns a hang into a failure; the
    failure shows ``screen()``)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}"
                                 + (f":\n{screen()}" if screen else ""))
        await asyncio.sleep(0.05)


class Tmux:
    """A private tmux server (its own socket) for the test's terminals."""

    def __init__(self) -> None:
        self.sock = f"wizwar-arco-{os.getpid()}-{time.monotonic_ns()}"

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True,
                              text=True, check=False).stdout

    def open(self, name: str, command: str, width: int = 100, height: int = 32) -> None:
        self.run("-u", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                 command + "; echo SESSION-ENDED $?; sleep 600")

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-t", name, "-p")

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)


@pytest.fixture
def tmux():  # type: ignore[no-untyped-def]
    t = Tmux()
    yield t
    t.run("kill-server")


def ssh_command(port: int, user: str) -> str:
    return shlex.join(["ssh", "-tt", "-p", str(port), *SSH_OPTS, f"{user}@127.0.0.1"])


@NEED_CLIENT
async def test_openssh_player_sees_the_field_and_casts(tmux: Tmux) -> None:
    """ann logs in with ssh: the ArcoMage field (the Nexus, both wizards) and her spellbook;
    she casts Firebolt at P2 by keys (s, the spell, Enter, the target on the field, Enter);
    the host commits it; eve, watching, sees the field and the action."""
    rs = registry.get("arcomage")
    game = HostGame(players=2, local_seat=False, ruleset=rs, bots=1, seed=7)
    lan_port = await game.start()
    server = wssh.GameSSHServer("127.0.0.1", lan_port, bind="127.0.0.1", port=0,
                                host_key=asyncssh.generate_private_key("ssh-ed25519"),
                                game=game)
    port = await server.start()
    run = asyncio.create_task(game.run())
    try:
        tmux.open("ann", ssh_command(port, "ann"))
        await until(lambda: game.state is not None, "the deal")
        await until(lambda: "Nexus" in tmux.screen("ann") and "@P1" in tmux.screen("ann")
                    and "@P2" in tmux.screen("ann") and "Spellbook" in tmux.screen("ann"),
                    "ann's field")
        assert "┌" in tmux.screen("ann")
        tmux.open("eve", ssh_command(port, "eve"))
        await until(lambda: "watching" in tmux.screen("eve") and "Nexus" in tmux.screen("eve"),
                    "eve watching the field", screen=lambda: tmux.screen("eve"))
        before = len(game.actions)
        book = sorted(rs.view(game.state, "P1")["players"]["P1"]["book"],
                      key=lambda s: (rs_circle(s), rs_name(s)))
        tmux.keys("ann", "a")  # on this window one list shows at a time: a, then s
        await until(lambda: "Actions:" in tmux.screen("ann"), "the action list shown",
                    screen=lambda: tmux.screen("ann"))
        tmux.keys("ann", "s")
        await until(lambda: "Actions:" not in tmux.screen("ann"), "the spellbook shown",
                    screen=lambda: tmux.screen("ann"))
        tmux.keys("ann", "Home", *["Down"] * book.index("firebolt"), "Enter")
        await until(lambda: "Cast Firebolt" in tmux.screen("ann"), "choosing Firebolt's target",
                    screen=lambda: tmux.screen("ann"))
        for _ in range(5):
            tmux.keys("ann", "Right")
        tmux.keys("ann", "Enter")
        await until(lambda: len(game.actions) > before, "the host commits the cast")
        assert game.actions[before] == "P1 cast firebolt @P2"
        await until(lambda: "P1 cast firebolt @P2" in tmux.screen("eve"), "eve sees it")
        assert not game.desync
    finally:
        run.cancel()
        await game.close()
        await server.close()


def rs_circle(slug: str) -> int:
    from core.arcomage.data import SPELLS

    return SPELLS[slug].circle


def rs_name(slug: str) -> str:
    from core.arcomage.data import SPELLS

    return SPELLS[slug].name
