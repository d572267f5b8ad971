"""Magic Trap's target as a secret held by the trapper (rules.md R125, R126, R128, R129):
the cast carries only a commitment (``Ruleset.seal``), the trapper's own process answers
each cast that might hit a trap (``Ruleset.answer`` in a ``reveal`` stage), every peer
checks, and the end-of-game audit catches a trapper who lied.

Locally (``LocalSession``: the process is the dealer of every trap, no reveal stage) and on
the LAN over 127.0.0.1 (a headless host and a joiner, both played by bots). The joiner
plays the Pale Tower (which holds Magic Trap) as P2, so the host is the victim."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

from core import log, registry
from core.arcomage.actions import Action
from core.arcomage.ruleset import RULESET as R
from core.engine import IllegalAction
from core.session import LocalSession
from net.lan import HostGame, PeerGame

OPTS = {"p1_book": "iron-dojo", "p2_book": "pale-tower", "turn_limit": 40}
NET = {"traps": "owner"}


def _pair() -> tuple[Any, Any]:
    """The trapper's (P1) and the victim's (P2) states of one networked game."""
    o = R.validate_options({})
    return R.new_game(o, 5, deal=NET), R.new_game(o, 5, deal=NET)


def _both(a: Any, b: Any, text: str) -> None:
    """Apply ``text`` on the trapper's state and its sealed public form on the victim's."""
    sealed = R.seal(a, R.parse_action(text))
    R.apply(a, text)
    R.apply(b, sealed.public if sealed else text)
    assert R.state_hash(a) == R.state_hash(b), text


def _to_p2_main(a: Any, b: Any) -> None:
    """P1 sets a trap on Lightning; then on to P2's MAIN of turn 2."""
    _both(a, b, "P1 cast magic-trap @P2:lightning")
    _both(a, b, "P2 pass")
    _both(a, b, "P1 end")
    while R.stage(a).kind != "act" or a.d["active"] != "P2" or a.d["step"] != "main":
        p = R.to_move(a)[0]
        acts = [str(x) for x in R.legal_actions(a, p)]
        _both(a, b, next((x for x in acts if x.endswith((" pass", " end"))), acts[0]))


def test_sealed_cast_answer_and_spring_on_two_cores() -> None:
    """The public form hides the slug and keeps one hash on both cores; a cast by the
    victim pauses in a reveal stage the trapper's state answers ("no trap here" for Study,
    the opening for Lightning) and the victim's cannot; the trap springs on both cores."""
    a, b = _pair()
    sealed = R.seal(a, R.parse_action("P1 cast magic-trap @P2:lightning"))
    assert sealed is not None and sealed.by == "owner" and sealed.knows == ("P1",)
    assert str(sealed.public) == "P1 cast magic-trap @P2:?"
    _to_p2_main(a, b)
    assert [t.get("slug") for t in b.d["traps"]] == [None]
    assert a.d["traps"][0]["slug"] == "lightning"
    _both(a, b, "P2 cast study")
    st = R.stage(b)
    assert (st.kind, st.players, st.holder) == ("reveal", (), "P1")
    assert R.legal_actions(b, "P2") == [] and "awaited" in R.why_illegal(b, "P2 pass")
    with pytest.raises(ValueError, match="does not hold P1's trap targets"):
        R.answer(b, "P1")
    assert str(R.answer(a, "P1")) == "P1 reveal"
    _both(a, b, "P1 reveal")
    _both(a, b, "P1 pass")
    life = b.d["players"]["P2"]["life"]
    _both(a, b, "P2 cast lightning @P1")
    ans = R.answer(a, "P1")
    assert str(ans) == "P1 reveal lightning n=1"
    assert "not study" in R.why_illegal(b, "P1 reveal study n=1")
    assert "no trap number 7" in R.why_illegal(b, "P1 reveal lightning n=7")
    assert "P2's to give" not in R.why_illegal(b, str(ans))
    _both(a, b, str(ans))
    for s in (a, b):
        t = s.d["traps"][0]
        assert (t["status"], t["slug"]) == ("sprung", "lightning")
        assert R.view(s, "P2")["traps"][0]["slug"] == "lightning"
    assert b.d["players"]["P2"]["life"] <= life  # 6 damage went through the soak layers


def test_a_local_game_has_no_reveal_stage_and_refuses_the_public_form() -> None:
    """In a local game the process is the dealer: no reveal stage, the redacted form is
    refused in words, and a LocalSession of bots plays a game with traps to its end."""
    st = R.new_game(R.validate_options({}), 5)
    with pytest.raises(IllegalAction, match="full form"):
        R.apply(st, "P1 cast magic-trap @P2:?")
    s = LocalSession.start(R, OPTS, seed=3, human="")
    s.run_bots()
    assert s.over
    acts = [str(a) for a in s.actions]
    assert any(" cast magic-trap @P1:" in a and not a.endswith(":?") for a in acts)
    assert not any(a.split()[1] == "reveal" for a in acts)


def _apply_public(loaded: Any) -> list[Any]:
    """Every state the host's log passes through (public forms as the host received them)."""
    rp = log.begin(loaded)
    out = [R.clone(rp.state)]
    for r in loaded.records:
        rp.step(r)
        out.append(R.clone(rp.state))
    return out


class LyingTrapper(PeerGame):
    """A modified client: whenever its trap lies on the spell being cast, it answers
    "no trap here"."""

    def answer_for(self, st: Any) -> Any:
        honest = self.ruleset.answer(st, self.seat)
        return Action(honest.actor, "reveal") if honest.slug else honest


async def _lan(peer_cls: type[PeerGame] = PeerGame) -> tuple[HostGame, PeerGame, list[Any]]:
    rs = registry.get("arcomage")
    bufs = [io.BytesIO(), io.BytesIO()]
    host = HostGame(ruleset=rs, options=dict(OPTS), writer=bufs[0].write)
    port = await host.start()
    peer = peer_cls("127.0.0.1", port, ruleset=rs, name="joiner", writer=bufs[1].write)
    frames: list[dict[str, Any]] = []
    real = peer._handle

    async def spy(msg: dict[str, Any]) -> Any:
        frames.append(msg)
        return await real(msg)

    peer._handle = spy  # type: ignore[method-assign]
    try:
        res = await asyncio.wait_for(asyncio.gather(host.run(), peer.run(),
                                                    return_exceptions=True), 240)
    finally:
        await host.close()
    return host, peer, [res, frames, [log.read(b.getvalue()) for b in bufs]]


async def test_lan_honest_trapper_keeps_the_target_from_the_host() -> None:
    """Host (P1, the victim) and joiner (P2, the trapper), both bots: every Magic Trap cast
    reaches the host as ``P2:?``; no state the host held names a trap's spell before the
    rules reveal it (sprung) or the end opens it; P2's process gave every trap answer; both
    end on one hash, both audits pass and both logs replay."""
    host, peer, (res, _frames, logs) = await _lan()
    assert res[0] and res[0] == res[1], res
    assert host.audit == "" and peer.audit == ""
    hl, pl = logs
    casts = [r for r in hl.records if r["action"][1:3] == ["cast", "magic-trap"]]
    assert casts, "the bots set no trap: the test proves nothing"
    assert all(r["action"][3] == ["P1:?"] and len(r["sealed"]) == 1 for r in casts)
    mine = [r for r in pl.records if r["action"][1:3] == ["cast", "magic-trap"]]
    assert all(r["action"][3][0] != "P1:?" and len(r["sealed"]) == 2 for r in mine)
    answers = [r for r in hl.records if r["action"][1] == "reveal"]
    assert answers and all(r["seat"] == "P2" for r in answers)
    for st in _apply_public(hl):
        for t in st.d["traps"]:
            assert "slug" not in t or t["status"] == "sprung", t
    sprung = [t for t in host.state.d["traps"] if t["status"] == "sprung"]
    assert sprung and any(r["action"][2] for r in answers)  # an opening, not only "no trap"
    assert all(t["slug"] in host.state.d["players"]["P1"]["book"] for t in sprung)
    for x in logs:
        assert not x.damage and R.state_hash(log.replay(x)) == res[0]


async def test_lan_lying_trapper_is_caught_and_named() -> None:
    """A joiner that answers "no trap here" when its trap lies on the spell being cast:
    the game plays on, the end's audit (every cast opened) names P2 and the action, and
    the host's log fails its replay in the same words."""
    host, peer, (_res, _frames, logs) = await _lan(LyingTrapper)
    assert host.audit.startswith("P2 lied at action "), host.audit
    assert "its secret, opened at the end, gives 'P2 reveal " in host.audit
    with pytest.raises(log.LogError, match="P2 lied at action"):
        log.replay(logs[0])


class _Tap:
    """A TCP relay on 127.0.0.1 between one joiner and the host that keeps every byte each
    way (``up``: what the host receives from that joiner; ``down``: what the joiner
    receives), so a test reads the very frames on the wire."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.up = bytearray()
        self.down = bytearray()
        self.server: asyncio.Server | None = None
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._conn, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _conn(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        hr, hw = await asyncio.open_connection("127.0.0.1", self.target)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                       keep: bytearray) -> None:
            try:
                while data := await src.read(65536):
                    keep.extend(data)
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        self.tasks += [asyncio.create_task(pump(r, hw, self.up)),
                       asyncio.create_task(pump(hr, w, self.down))]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def _frames(raw: bytes) -> list[dict[str, Any]]:
    import msgpack

    return list(msgpack.Unpacker(io.BytesIO(bytes(raw)), raw=False, strict_map_key=False))


def pack_of(frame: dict[str, Any]) -> bytes:
    """A frame's bytes again (canonical msgpack), to look for a text anywhere in it."""
    from core.codec import pack

    return pack(frame)


def _trap_wires(x: Any) -> list[list[Any]]:
    """Every action wire ``[actor, "cast", "magic-trap", targets, args]`` anywhere in ``x``."""
    if isinstance(x, dict):
        return [w for v in x.values() for w in _trap_wires(v)]
    if isinstance(x, list):
        if len(x) >= 4 and x[1:3] == ["cast", "magic-trap"]:
            return [x]
        return [w for v in x for w in _trap_wires(v)]
    return []


async def test_the_trap_target_is_in_no_frame_the_host_or_the_victim_receives() -> None:
    """An SSH-style host that plays no seat (``local_seat=False``), the trapper P1 (the
    Pale Tower) and the victim P2 both joiners through relays that keep every byte: before
    the game's end no frame the host receives from the trapper, and no frame the victim
    receives, carries a Magic Trap target other than ``P2:?`` or the salt of one; the
    trapper's own frames down carry his whole casts (he sealed them), and the end opens
    them. Both end on one hash."""
    rs = registry.get("arcomage")
    opts = {"p1_book": "pale-tower", "p2_book": "iron-dojo", "turn_limit": 40}
    host = HostGame(ruleset=rs, options=opts, players=2, local_seat=False, seed=4)
    port = await host.start()
    taps = [_Tap(port), _Tap(port)]
    ports = [await t.start() for t in taps]
    trapper = PeerGame("127.0.0.1", ports[0], ruleset=rs, name="trapper")
    try:
        run = asyncio.gather(host.run(), trapper.run(), return_exceptions=True)
        # the victim joins second, so it takes P2
        while not any(s.kind == "remote" and s.connected for s in host.seats):
            await asyncio.sleep(0.01)
        victim = PeerGame("127.0.0.1", ports[1], ruleset=rs, name="victim")
        async with asyncio.timeout(240):
            res = await asyncio.gather(run, victim.run(), return_exceptions=True)
    finally:
        await host.close()
        for t in taps:
            await t.close()
    (h, t_hash), v_hash = res
    assert (trapper.seat, victim.seat) == ("P1", "P2")
    assert h and h == t_hash == v_hash, res
    assert host.audit == "" and trapper.audit == "" and victim.audit == ""
    seen = {"host from the trapper": _frames(taps[0].up),
            "the victim": _frames(taps[1].down)}
    slugs = [t.get("slug") for t in trapper.state.d["traps"]]
    assert slugs and all(slugs), "the bots set no trap: the test proves nothing"
    for who, frames in seen.items():
        end = next((i for i, f in enumerate(frames) if f["type"] in ("end", "openings")),
                   len(frames))
        casts = [w for f in frames[:end] for w in _trap_wires(f)]
        assert len(casts) >= len(slugs), (who, casts)
        assert all(w[3] == ["P2:?"] for w in casts), (who, casts)
        assert not any(s.encode() in pack_of(f) for f in frames[:end]
                       if _trap_wires(f) for s in slugs), who
        for f in frames[:end]:
            if f["type"] == "propose" and _trap_wires(f["action"]):  # a commitment alone
                assert "salt" not in f and len(f["sealed"]) == 32, (who, f)
            if f["type"] == "commit" and _trap_wires(f["action"]):  # no salt to open it
                assert len(f["sealed"]) == 1, (who, f)
        # the end opens them: whole casts appear only from the end on
        opened = {w[3][0] for f in frames[end:] for w in _trap_wires(f)}
        assert {f"P2:{s}" for s in slugs} <= opened, (who, opened)
