"""Games dealt by mental poker over real sockets (127.0.0.1): the host relays and routes,
every process holds only its own keys and its partial state (net/poker.py; issue 15)."""

from __future__ import annotations

import asyncio
import os
import random
import re
from typing import Any

import pytest
from nacl.public import Box, PublicKey

import net.poker
from core import log, registry
from core.wizwar.rules.turn import _shown_as_played
from net.mental import MentalDealer, mul, random_scalar
from net.poker import Player, PokerHost, Stopped, join, loopback_game
from tests.knowledge import Entitled


def scripted(st: Any, seat: str) -> Any:
    """A scripted person: the bot's choice on the player's own partial state."""
    return registry.get("wizwar").bot_act(st, seat)


def _player(rs: Any, seed: str, tmp: Any, bots: int = 0) -> Player:
    async def nothing(_m: Any) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    return Player(rs, nothing, none, choose=scripted, bots=bots, keys_dir=str(tmp / "keys"),
                  log_dir=str(tmp / "logs"), seed=seed)


async def _game(players: int, bots: int, joiners: list[Player], tmp: Any,
                seed: str) -> tuple[PokerHost, list[Any]]:
    rs = registry.get("wizwar")
    host = PokerHost(rs, players=players, bots=bots, choose=scripted, keys_dir=str(tmp / "hkeys"),
                     log_dir=str(tmp / "logs"), report_dir=str(tmp / "reports"), seed=seed)
    port = await host.start()
    async with asyncio.timeout(500):
        hosting = asyncio.ensure_future(host.run())
        results: list[Any] = []
        for i, p in enumerate(joiners):
            results.append(asyncio.ensure_future(join(p, "127.0.0.1", port, f"guest{i}")))
            await asyncio.sleep(0)  # seat them in order
            while len(host.procs) < 2 + i:
                await asyncio.sleep(0.01)
        got = await asyncio.gather(hosting, *results, return_exceptions=True)
    await host.close()
    return host, got


@pytest.fixture(autouse=True)
def _short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.poker, "WAIT", 60.0)
    monkeypatch.setattr(net.poker, "THINK", 60.0)


def test_two_seat_game_dealt_by_poker_plays_to_its_end(tmp_path: Any) -> None:
    rs = registry.get("wizwar")
    guest = _player(rs, "two-seat:1", tmp_path)
    host, got = asyncio.run(_game(2, 0, [guest], tmp_path, "two-seat"))
    assert host.stopped == "", host.stopped
    assert got[0] and got[0] == got[1], got
    for path in (host.player.log_path, guest.log_path):
        loaded = log.read(open(path, "rb").read())
        st = log.replay(loaded)
        assert rs.state_hash(st) == got[0]
        # named as every saved game: DATE-TIME-poker-SEAT-GAME.wwlog (issue 12)
        assert re.fullmatch(r"\d{8}-\d{6}-poker-P[12]-[0-9a-f]{12}\.wwlog",
                            os.path.basename(path)), path


def _decoded(frames: list[dict[str, Any]], real: MentalDealer) -> set[tuple[int, int]]:
    """Every (deal, card) whose face these frames open with only ``real``'s keys: a fresh
    dealer with those keys takes every frame; a share boxed for another process must not
    open with them."""
    d = MentalDealer(real.seats, list(real.mine))
    d.restore(real.secrets_wire())
    d.learn_boxes({s: (real.boxes[s] + real.verifies[s]).hex() for s in real.seats})
    learnt: set[tuple[int, int]] = set()
    for m in frames:
        if m.get("type") == "mask":
            if m["epoch"] == len(d.ledger.epochs):
                e = real.ledger.epochs[m["epoch"]]
                d.begin(list(e.slots), list(e.faces))
            d.take_step(m)
        elif m.get("type") == "unmask":
            if m["to"] and m["to"] not in d.hands:  # boxed for another process
                for _c, s, text in m["shares"]:
                    with pytest.raises(Exception):  # noqa: B017 - any failure to open
                        Box(d.box, PublicKey(d.boxes[s])).decrypt(bytes.fromhex(text))
                continue
            for c in d.take_shares(m):
                learnt.add((d.ledger.where[c][0], c))
            if m["to"] in d.hands:
                for c in d.open_own([c for c, _s, _t in m["shares"]]):
                    learnt.add((d.ledger.where[c][0], c))
    # the cards of seats this process plays that no other process had to open
    return learnt


def _entitled(path: str, seats: list[str]) -> set[tuple[int, int]]:
    """Every (deal, card) the seats may know (tests/knowledge.py's model), over the whole
    game replayed from a log that holds every face."""
    loaded = log.read(open(path, "rb").read())
    rp = log.begin(loaded)
    epoch = {c: 0 for c in range(len(rp.state.faces))}
    redeals = [0]
    real_reblind = rp.dealer.reblind

    def reblind(state: Any, cids: list[int]) -> None:
        real_reblind(state, cids)
        redeals[0] += 1
        for c in cids:
            epoch[c] = redeals[0]

    rp.dealer.reblind = reblind
    ent = Entitled.__new__(Entitled)
    ent.known, ent.shown, ent._stone_dead_open = set(), set(), False
    out: set[tuple[int, int]] = set()

    def take(st: Any) -> None:
        for s in seats:
            ent.update(st, s)
        out.update((epoch[c], c) for c in ent.known)
        ent.known, ent.shown = set(), set()

    take(rp.state)
    for r in loaded.records:
        action = rp.ruleset.action_from_wire(r["action"])
        ent.shown |= set(_shown_as_played(rp.state, action))
        rp.step(r)
        take(rp.state)
    return out


def test_four_seats_three_people_and_a_bot_every_hand_read_only_by_its_owner(
        tmp_path: Any) -> None:
    """The issue's game: the host's player, two joiners (the second seats the bot, whose
    cards its machine holds), dealt by mental poker, plays to its end on one hash; every
    log verifies; and every frame each process received (the host: every frame it relayed),
    decoded with only that process's keys, opens no face its seats may not know."""
    rs = registry.get("wizwar")
    guests = [_player(rs, "four:1", tmp_path), _player(rs, "four:2", tmp_path, bots=1)]
    host, got = asyncio.run(_game(4, 0, guests, tmp_path, "four"))
    assert host.stopped == "", host.stopped
    assert got[0] and got == [got[0]] * 3, got
    assert [p.seats for p in host.procs] == [["P1"], ["P2"], ["P3", "P4"]]
    assert "P4 (bot) on P3's machine" in host.lobby_line()
    procs = [host.player, *guests]
    for p in procs:
        st = log.replay(log.read(open(p.log_path, "rb").read()))
        assert rs.state_hash(st) == got[0]
        assert not p.verdict
    _frames_check(host, procs)


class WrongShare(Player):
    """A joiner whose process sends another seat a wrong partial unmasking (once)."""

    cheated: bool = False

    async def _do(self, step: Any, pending: list[int]) -> None:
        if step.kind == "open" and step.to and step.to not in self.mine and not self.cheated:
            self.cheated = True
            assert self.dealer is not None
            hand = next(iter(self.dealer.hands.values()))
            hand.key = lambda _ledger, _slot: random_scalar(  # type: ignore[method-assign]
                random.Random(5))
            try:
                return await super()._do(step, pending)
            finally:
                del hand.key
        return await super()._do(step, pending)


def test_a_wrong_partial_unmasking_is_caught_and_its_sender_named(tmp_path: Any) -> None:
    """P2's process boxes a wrong key for another seat's card: the receiver checks it
    against P2's commitment at once, names P2 over the wire; the host writes the report
    naming P2, tells everyone and drops P2's process."""
    rs = registry.get("wizwar")
    cheat = WrongShare(rs, _player(rs, "x", tmp_path).send, _player(rs, "x", tmp_path).recv,
                       choose=scripted, seed="cheat:1")
    honest = _player(rs, "cheat:2", tmp_path)
    host, got = asyncio.run(_game(3, 0, [cheat, honest], tmp_path, "cheat"))
    assert cheat.cheated
    assert host.cheater == "P2", host.stopped
    assert "P2 sent a wrong partial unmasking" in host.stopped
    report = open(host.report).read()
    assert "P2 cheated" in report and "wrong partial unmasking" in report
    stops = [g for g in got if isinstance(g, Stopped)]
    assert got[0] == "" and stops and all(s.seat == "P2" for s in stops), got
    assert host.procs[1].gone


class TamperedShuffle(Player):
    """A joiner whose process swaps one card of its shuffle of the first deal for another
    point of the group (not a card of the deal masked)."""

    async def _run_deal(self) -> None:
        assert self.dealer is not None
        hand = next(iter(self.dealer.hands.values()))
        if not hand.shuffle_keys:
            real = hand.shuffle

            def shuffle(e: Any) -> dict[str, Any]:
                msg = real(e)
                p = bytes.fromhex(msg["points"][0])
                msg["points"][0] = mul(random_scalar(random.Random(9)), p).hex()
                return msg

            hand.shuffle = shuffle  # type: ignore[method-assign]
        await super()._run_deal()


def test_a_tampered_shuffle_is_caught_and_its_author_named(tmp_path: Any) -> None:
    """P3's process tampers with its shuffle: the card opens to no face of the deal (when
    it is opened, or at the latest in the end's audit), every process reveals its keys and
    the audit names P3; the host's report names it."""
    rs = registry.get("wizwar")
    honest = _player(rs, "tamper:1", tmp_path)
    cheat = TamperedShuffle(rs, honest.send, honest.recv, choose=scripted, seed="tamper:2")
    host, got = asyncio.run(_game(3, 0, [honest, cheat], tmp_path, "tamper"))
    assert host.cheater == "P3", (host.stopped, host.verdicts)
    assert "P3 tampered with its shuffle" in open(host.report).read()
    assert got[0] == ""
    assert all(isinstance(g, Stopped) and g.seat == "P3" for g in got[1:]), got


def _frames_check(host: PokerHost, procs: list[Player]) -> None:
    """Every frame each process received (the host: every frame any process sent it),
    decoded with only that process's keys, opens no face its seats may not know; each
    opens some."""
    relayed = [m for _by, m in host.inbound if m is not None]
    for i, p in enumerate(procs):
        assert p.dealer is not None
        opened = _decoded(relayed if i == 0 else p.received, p.dealer)
        may = _entitled(p.log_path, p.mine)
        assert opened, p.mine
        assert opened <= may, (p.mine, sorted(opened - may)[:5])


def test_reshuffles_of_the_discard_dealt_by_poker_open_only_what_they_may(
        tmp_path: Any) -> None:
    """A 2-seat game whose discard pile is dealt again twice (each a new deal: every seat
    shuffles and locks it, its faces public, their new order hidden): one hash, the logs
    verify, and the frames open no face they may not (the new pile's order included)."""
    rs = registry.get("wizwar")
    host, procs = asyncio.run(loopback_game(rs, 2, "tp:6", log_dir=str(tmp_path)))
    assert len(procs[0].timings.get("reshuffle", [])) == 2
    assert len(host.player.dealer.ledger.epochs) == 3
    assert any(m["type"] == "mp_rolled" for _to, m in host.frames)  # beaconed dice too
    for p in procs:
        st = log.replay(log.read(open(p.log_path, "rb").read()))
        assert rs.state_hash(st) == rs.state_hash(p.state)
    _frames_check(host, procs)


def test_a_sealed_action_goes_whole_only_to_whom_may_know_it(tmp_path: Any) -> None:
    """Telepath's choice over the wire: the actor's process boxes the whole action for
    the processes whose seats may know it; the host passes every other process the public
    form only (and could not read the box). One hash, and the frames test holds."""
    rs = registry.get("wizwar")
    host, procs = asyncio.run(loopback_game(rs, 3, "tp:2", log_dir=str(tmp_path)))
    sealed = [(m, by) for by, m in host.inbound
              if m is not None and m.get("type") == "mp_propose" and m["whole"]]
    assert len(sealed) == 1
    prop, by = sealed[0]
    knowers = {int(p) for p in prop["whole"]}
    assert by not in knowers and knowers
    sent = [(to, m) for to, m in host.frames
            if m["type"] == "mp_action" and m["action"] == prop["action"] and m["from"] == by]
    assert {to for to, m in sent if m["whole"]} == knowers
    assert all(not m["whole"] for to, m in sent if to not in knowers)
    for p in procs:
        st = log.replay(log.read(open(p.log_path, "rb").read()))
        assert rs.state_hash(st) == rs.state_hash(p.state)
    _frames_check(host, procs)


def test_a_peer_that_drops_mid_game_rejoins_with_its_kept_keys(tmp_path: Any) -> None:
    """P2's process is gone mid-game (its link closed, the process state lost); the game
    waits for it; a new process starts from the keys the old one kept in its data folder,
    proves them (a signature over the game id), is sent every frame the seat was sent and
    catches up, sending nothing its former process had sent. The game ends on one hash,
    every log verifies, and the audit passes."""
    rs = registry.get("wizwar")
    said: list[str] = []

    async def go() -> tuple[PokerHost, list[Any], Player, Player]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="rejoin", log=said.append)
        port = await host.start()
        first = _player(rs, "rejoin:1", tmp_path)
        first.choose = None  # the bot plays: the new process replays the same choices
        other = _player(rs, "rejoin:2", tmp_path)
        other.choose = None
        async with asyncio.timeout(400):
            hosting = asyncio.ensure_future(host.run())
            a = asyncio.ensure_future(join(first, "127.0.0.1", port, "ann"))
            while len(host.procs) < 2:
                await asyncio.sleep(0.01)
            b = asyncio.ensure_future(join(other, "127.0.0.1", port, "bob"))
            while first.seq < 40:
                await asyncio.sleep(0.01)
            a.cancel()  # the process is gone: its link closes, its memory is lost
            with pytest.raises(asyncio.CancelledError):
                await a
            while not host.procs[1].gone:
                await asyncio.sleep(0.01)
            assert first.keys_path is not None
            again = Player(rs, first.send, first.recv, keys_dir=str(tmp_path / "keys"),
                           log_dir=str(tmp_path / "logs"), rejoin_from=first.keys_path)
            c = asyncio.ensure_future(join(again, "127.0.0.1", port, "ann"))
            got = await asyncio.gather(hosting, c, b, return_exceptions=True)
        await host.close()
        return host, got, first, again

    host, got, first, again = asyncio.run(go())
    assert host.stopped == "", host.stopped
    assert got[0] and got == [got[0]] * 3, got
    assert again.mine == ["P2"] and again.seq > first.seq
    assert again._suppress == 0
    assert any("P2 is away: the game waits for it" in x for x in said), said
    assert any("P2 rejoined" in x for x in said), said
    assert os.stat(first.keys_path or "").st_mode & 0o077 == 0  # the user's only
    for p in (host.player, again):
        st = log.replay(log.read(open(p.log_path, "rb").read()))
        assert rs.state_hash(st) == got[0] and not p.verdict


class Silent(Player):
    """A joiner whose process stops sending (its link stays open) after a few actions."""

    async def _send(self, msg: dict[str, Any]) -> None:
        if self.seq < 5:
            await super()._send(msg)


def test_a_silent_peer_stalls_the_game_and_is_named(tmp_path: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that stops answering holds the game (its keys are needed); after the
    bounded wait the host stops it and says whom it waited for."""
    monkeypatch.setattr(net.poker, "WAIT", 8.0)
    monkeypatch.setattr(net.poker, "THINK", 8.0)
    rs = registry.get("wizwar")
    quiet = _player(rs, "silent:2", tmp_path)
    mute = Silent(rs, quiet.send, quiet.recv, seed="silent:1")
    host, got = asyncio.run(_game(3, 0, [mute, quiet], tmp_path, "silent"))
    assert "for P2" in host.stopped and "without its keys" in host.stopped, host.stopped
    assert got[0] == ""


def test_the_dealer_choice_and_the_lobby_line() -> None:
    """``wizwar host``: poker whenever two or more people play, unless ``--dealer`` says
    otherwise; the lobby line says which dealer, and whose machine holds each bot."""
    import argparse

    from net.cli import dealer_choice, dealer_line

    rs = registry.get("wizwar")

    def args(seats: int, bots: int, bot: bool, dealer: str | None = None,
             clock: float | None = None) -> Any:
        return argparse.Namespace(ruleset=rs, options=rs.validate_options({"players": seats}),
                                  seats=seats, bots=bots, bot=bot, dealer=dealer, clock=clock)

    assert dealer_choice(args(4, 1, False)) == "poker"  # the host's player and two joiners
    assert dealer_choice(args(3, 0, True)) == "poker"  # two joiners
    assert dealer_choice(args(3, 1, True)) == "host"  # one person
    assert dealer_choice(args(2, 0, False)) == "poker"
    assert dealer_choice(args(4, 0, False, "host")) == "host"
    assert dealer_choice(args(3, 1, True, "poker")) == "poker"
    assert dealer_choice(args(3, 0, False, clock=20.0)) == "host"  # the clock is the host's
    line = dealer_line("poker", 1, ["P1", "P2", "P3", "P4"])
    assert line.startswith("dealer: mental poker") and "P4 (bot) on the host's machine" in line
    assert "can read every hand" in dealer_line("host", 0, ["P1", "P2"])


def test_headless_host_and_joins_play_a_poker_game(tmp_path: Any,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar host --headless --bot`` with two joiners deals by poker (the default); a
    headless ``wizwar join`` is refused by the poker host as a host-dealer peer and joins it
    as a poker process; all three end on one hash with the audit passed."""
    import argparse
    import socket

    from net.cli import host_headless, join_headless

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rs = registry.get("wizwar")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host_args = argparse.Namespace(ruleset=rs, options=rs.validate_options({"players": 3}),
                                   seats=3, bots=0, bot=True, dealer=None, bind="127.0.0.1",
                                   port=port, seed=None, name="poker test")

    def join_args(name: str) -> Any:
        return argparse.Namespace(target=f"127.0.0.1:{port}", timeout=1.0, game=None,
                                  name=name, retries=0)

    async def go() -> list[Any]:
        async with asyncio.timeout(400):
            h = asyncio.ensure_future(host_headless(host_args))
            while True:  # until the host listens (a probe that says nothing is let go)
                try:
                    _r, w = await asyncio.open_connection("127.0.0.1", port)
                except OSError:
                    await asyncio.sleep(0.05)
                    continue
                w.close()
                break
            a = asyncio.ensure_future(join_headless(join_args("ann")))
            b = asyncio.ensure_future(join_headless(join_args("bob")))
            return list(await asyncio.gather(h, a, b))

    assert asyncio.run(go()) == [0, 0, 0]
    out = capsys.readouterr().out
    assert "dealer: mental poker" in out
    assert out.count("audit passed") == 3
    finals = {line for line in out.splitlines() if line.startswith("final hash")}
    assert len(finals) == 1


class Impostor(Player):
    """A joiner whose process sends a deal step in another seat's name."""

    async def _send(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "mask":
            msg = {**msg, "seat": "P3"}
        await super()._send(msg)


def test_a_step_in_another_seats_name_is_named_by_the_host(tmp_path: Any) -> None:
    """P2's process sends its shuffle as P3's: the host, which knows who plays which seat,
    names P2, reports it and drops it before any other process takes the step."""
    rs = registry.get("wizwar")
    honest = _player(rs, "impostor:2", tmp_path)
    cheat = Impostor(rs, honest.send, honest.recv, seed="impostor:1")
    host, got = asyncio.run(_game(3, 0, [cheat, honest], tmp_path, "impostor"))
    assert host.cheater == "P2", host.stopped
    assert "in the name of P3" in host.stopped
    assert "P2 cheated" in open(host.report).read()
    assert host.procs[1].gone and got[0] == ""


class WrongDice(Player):
    """A joiner whose process reveals a dice value that is not its chain's next."""

    async def _send(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "mp_dice":
            msg = {**msg, "values": [[s, "00" * 32] for s, _v in msg["values"]]}
        await super()._send(msg)


def test_a_dice_reveal_off_its_chain_is_named(tmp_path: Any) -> None:
    """Poker games roll beaconed dice: every seat reveals its chain's next value for each
    roll; P2's process sends one that does not open its committed chain: named, reported,
    dropped."""
    rs = registry.get("wizwar")
    honest = _player(rs, "dice:2", tmp_path)
    cheat = WrongDice(rs, honest.send, honest.recv, seed="dice:1")
    host, got = asyncio.run(_game(3, 0, [cheat, honest], tmp_path, "dice"))
    assert host.cheater == "P2", host.stopped
    assert "P2's dice reveal does not open its committed chain" in host.stopped
    assert "P2 cheated" in open(host.report).read()
    assert host.procs[1].gone and got[0] == ""
