"""Wizard Kings' hidden blocks over the LAN (issue 18, Part M: rules.md R110-R118).

A networked state holds only its own seats' blocks (others ``type ""``, ``strength 0`` until
revealed); the state hash covers the public part only (R118). Deploy and build orders are
sealed by their owner (R116): every other peer gets their public part and a commitment,
opened at the end; a battle starts with every owner revealing his blocks of the hex (R114),
answered by his own process; the final audit replays the game with every order opened and
asks every reveal again (``core.log.audit_sealed``, ``audit_answers``).

Proved on one machine with three networked states fed what each peer would be sent, and on
real sockets (127.0.0.1): a headless host and two joiners with bots, every frame recorded.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
from typing import Any

import pytest

import net.lan as lan
from core import registry
from core.engine import IllegalAction
from core.wizardkings.actions import parse
from core.wizardkings.units import all_slugs
from net.lan import HostGame, PeerGame

RS = registry.get("wizard-kings")
SLUG = re.compile(r"(?:^|[=,])(" + "|".join(sorted(all_slugs(), key=len, reverse=True))
                  + r")[@:]")


def _peers(seed: int) -> dict[str, Any]:
    """The states of a headless host (``""``) and both seats, each knowing its own blocks."""
    deal = RS.dealing().deal([], [])
    opts = RS.validate_options({})
    out = {"": RS.new_game(opts, seed, deal=deal)}
    for s in RS.seats(opts):
        out[s] = RS.new_game(opts, seed, deal=deal)
        RS.keep_private(out[s], s, bytes([int(s[1:])]) * 16)
    return out


#: the movement-phase spells (units.md §4), which reveal their caster on a LAN (R81)
MOVE_SPELLS = ("heal", "forced-march", "elven-gate")
_BOT_ACT = type(RS).bot_act


def spell_bot(self: Any, state: Any, player: str, level: str = "") -> Any:
    """The captain, except that it casts a movement-phase spell whenever it may (the one of
    its army due this turn first: heal, elven-gate by turns for the Elves) and answers
    every Movement Phase Dispel window with a Dispel when it may: so that a short game casts
    every such spell on a LAN. Decides from the seat's own state only."""
    g = state.d
    if g["phase"] == "movement" and not g.get("settle") and player in self.stage(state).players:
        legal = self.legal_actions(state, player)
        if g.get("mspell"):
            dispels = [a for a in legal if a.verb == "dispel"]
            if dispels:
                return dispels[0]
        else:
            casts = [a for a in legal if a.verb == "cast" and a.words[0] in MOVE_SPELLS]
            if g["armies"][player] == "elves":
                casts += self.expand(state, player, "cast:elven-gate")
            if casts:
                want = MOVE_SPELLS[g["turn"] % 3]
                return next((a for a in casts if a.words[0] == want), casts[0])
    return _BOT_ACT(self, state, player, level)


@functools.lru_cache(maxsize=3)
def _play(seed: int, level: str = "captain", spells: bool = False
          ) -> tuple[dict[str, Any], list[Any]]:
    """A whole bot game on three networked states: each seat's action decided on its own
    state, its sealed orders sent to the others as their public part; every step checked
    to give one public hash and one stage everywhere. Returns the states and the whole
    actions (what the end's openings give); kept for the tests that read it (read only)."""
    peers = _peers(seed)
    whole: list[Any] = []
    act = functools.partial(spell_bot, RS) if spells else RS.bot_act
    while not RS.result(peers[""]).over:
        _step(peers, whole, functools.partial(act, level=level))
    return peers, whole


def _step(peers: dict[str, Any], whole: list[Any], act: Any, chosen: Any = None) -> None:
    """One stage of a game on networked states: each seat's action decided on its own
    state (``act(state, seat)``, or the one ``chosen``), a reveal answered by its holder's
    state, sealed orders sent to the others as their public part; every peer then on one
    public hash and one stage."""
    st = RS.stage(peers[""])
    assert all(RS.stage(x) == st for x in peers.values())
    if chosen is not None:
        chosen = [(chosen.actor, chosen)]
    elif st.kind == "sealed":
        chosen = [(p, act(peers[p], p)) for p in st.players]
    elif st.kind == "reveal":
        chosen = [(st.holder, RS.answer(peers[st.holder], st.holder))]
    else:
        chosen = [(st.players[0], act(peers[st.players[0]], st.players[0]))]
    for p, a in chosen:
        sealed = RS.seal(peers[p], a)
        if st.kind != "sealed":  # an owner's first commitment: its key is his (R113)
            assert sealed is None or (a.verb == "commit" and sealed.by == "owner"), a
        public = sealed.public if sealed is not None else a
        if sealed is not None:
            assert RS.seal(peers[""], public) is None
            assert not SLUG.search(" ".join(public.words)), public
        for q, x in peers.items():
            RS.apply(x, a if q == p else public)
        whole.append(a)
        hashes = {RS.state_hash(x) for x in peers.values()}
        assert len(hashes) == 1, (len(whole), a)


def test_three_networked_states_stay_on_one_public_hash_and_the_audit_replays() -> None:
    """A whole game: every peer on one hash and one stage after every action; the host's
    state never learns a block's type except by a reveal; replaying every whole action on a
    fresh networked state (the final audit) gives the same hash, and every reveal there is
    the one the rules give from the opened orders."""
    peers, whole = _play(1)
    assert RS.result(peers[""]).over
    verbs = [a.verb for a in whole]
    assert verbs.count("reveal") >= 4 and verbs.count("build") >= 4
    host = peers[""].d
    known = {b for b, x in host["blocks"].items() if x["type"]}
    shown_ever = {b for a in whole if a.verb == "reveal"
                  for b in (f"{a.actor}.{i.split('=')[0]}" for i in a.words[0].split(","))}
    assert known <= shown_ever  # the host knows only what was revealed
    audit = _peers(1)[""]
    for a in whole:
        st = RS.stage(audit)
        if st.kind == "reveal":
            assert RS.audit_answer(audit, st.holder, a.to_wire()) == a
        RS.apply(audit, a)
    assert RS.state_hash(audit) == RS.state_hash(peers[""])



def _audit_replay(seed: int, whole: list[Any], edit: Any = None, watch: Any = None) -> Any:
    """The final audit's replay (``core.log.audit_answers``): every whole action on a fresh
    networked state, each reveal asked again from the opened orders. ``edit``: (index,
    function) applied to the state before that action, as the test did to the peers;
    ``watch(state, spell)``: called when a movement-phase spell is over."""
    audit = _peers(seed)[""]
    for i, a in enumerate(whole):
        if edit is not None and i == edit[0]:
            edit[1](audit)
        st = RS.stage(audit)
        if st.kind == "reveal":
            assert RS.audit_answer(audit, st.holder, a.to_wire()) == a
        sp = audit.d.get("mspell")
        RS.apply(audit, a)
        if sp and not audit.d.get("mspell") and watch is not None:
            watch(audit, sp)
    return audit


def test_movement_phase_spells_on_networked_states_reveal_only_the_caster() -> None:
    """Heal, forced-march and elven-gate in a whole game on three networked states (R79,
    units.md §4): each declaration is followed by its caster's reveal only (R81 step 2,
    answered by the owner's state), the peers stay on one hash, the host learns no block but
    the revealed ones, each caster stands up again once its spell is over, and the audit's
    replay gives every reveal again."""
    peers, whole = _play(1, "captain", True)
    assert RS.result(peers[""]).over
    casts = [i for i, a in enumerate(whole) if a.verb == "cast" and a.words[0] in MOVE_SPELLS]
    assert {whole[i].words[0] for i in casts} == set(MOVE_SPELLS)
    for i in casts:
        a, rv = whole[i], whole[i + 1]
        assert rv.verb == "reveal" and rv.actor == a.actor
        [item] = rv.words[0].split(",")  # the caster alone
        assert item.split("=")[0] == a.words[1]
        assert re.fullmatch(r"\d+=(wicana|shakla):\d:\d+:[0-9a-f]{32}", item)
    host = peers[""].d
    known = {b for b, x in host["blocks"].items() if x["type"]}
    shown_ever = {b for a in whole if a.verb == "reveal"
                  for b in (f"{a.actor}.{i.split('=')[0]}" for i in a.words[0].split(","))}
    assert known <= shown_ever
    stood_up: list[str] = []
    audit = _audit_replay(1, whole, watch=lambda st, sp: stood_up.append(sp["caster"])
                          if not st.d["blocks"][sp["caster"]].get("shown") else None)
    assert len(stood_up) == len(casts)  # each caster stands up again once its spell is over
    assert RS.state_hash(audit) == RS.state_hash(peers[""])


def test_a_caster_that_is_no_wizard_is_refused_at_its_reveal() -> None:
    """The caster's reveal is checked by every peer against its owner's commitment (R113,
    R114): a reveal naming another type or strength with the right epoch and salt, or one
    that opens no commitment, is refused by a peer that never held the block (the headless
    host), so a lie stops at once."""
    peers, whole = _play(1, "captain", True)
    i = next(i for i, a in enumerate(whole) if a.verb == "cast" and a.words[0] in MOVE_SPELLS)
    host = _peers(1)[""]
    for a in whole[:i + 1]:
        RS.apply(host, RS.seal(host, a).public if RS.seal(host, a) else a)
    assert RS.stage(host).kind == "reveal" and RS.stage(host).holder == whole[i].actor
    lab = whole[i].words[1]
    army = host.d["armies"][whole[i].actor]
    other = "glader" if army == "elves" else "orc"
    opening = ":".join(whole[i + 1].words[0].split(":")[2:])  # epoch:salt (R114)
    for lie in (f"{whole[i].actor} reveal {lab}={other}:2:{opening}",
                f"{whole[i].actor} reveal {lab}={'wicana' if army == 'elves' else 'shakla'}:1"
                f":{opening}"):
        with pytest.raises(IllegalAction, match=f"does not open its commitment.*"
                                                f"{whole[i].actor} lied"):
            RS.apply(host, parse(lie))
    with pytest.raises(IllegalAction, match="opens epoch -1, not its latest commitment"):
        RS.apply(host, parse(f"{whole[i].actor} reveal {lab}={other}:2"))
    with pytest.raises(IllegalAction, match="exactly his blocks named"):
        RS.apply(host, parse(f"{whole[i].actor} reveal {int(lab) + 1}=glader:2"))
    RS.apply(host, whole[i + 1])


def test_a_movement_phase_dispel_reveals_the_dispeller_and_rolls_alike_everywhere() -> None:
    """R86 on a LAN: an Elf wizard next to the Orc caster dispels a forced-march; the
    dispeller is revealed by its owner's state before it pays and rolls, every peer rolls the
    same die, the caster and the dispeller stand up again with their values ``seen``; the
    audit replays it. (The position is made by moving the Elf wizard next to the Orc one on
    every state alike: bots seldom meet so.)"""
    peers = _peers(4)
    whole: list[Any] = []
    act = functools.partial(RS.bot_act, level="captain")

    def ready(g: Any) -> bool:
        return bool(g["phase"] == "movement" and g["active"] == "P2"
                    and not g.get("mspell") and not g.get("settle"))
    while not ready(peers[""].d):
        _step(peers, whole, act)
    mine = peers["P2"].d
    caster = next(b for b, x in mine["blocks"].items() if x["owner"] == "P2" and
                  x["state"] == "map" and x["type"] == "shakla")
    at = mine["blocks"][caster]["at"]
    elf = next(b for b, x in peers["P1"].d["blocks"].items() if x["owner"] == "P1" and
               x["state"] == "map" and x["type"] == "wicana")
    from core.wizardkings import game as G
    near = next(h for h in G.bd(mine).neighbours(at) if not G.bd(mine).hexes[h].water
                and not G.on_map(mine, h) and G.bd(mine).hexes[h].land in ("clear", "forest"))

    def edit(st: Any) -> None:
        st.d["blocks"][elf]["at"] = near
        st.d["blocks"][elf]["moved"] = True
    index = len(whole)
    for x in peers.values():
        edit(x)
    legal = RS.legal_actions(peers["P2"], "P2")
    cast = next(a for a in legal if a.verb == "cast" and a.words[0] == "forced-march")
    _step(peers, whole, act, cast)
    assert RS.stage(peers[""]).kind == "reveal"
    _step(peers, whole, act)  # the caster's reveal
    assert peers[""].d["blocks"][caster]["type"] == "shakla"
    assert RS.view(peers["P1"], "P1")["blocks"][caster]["type"] == "shakla"  # shown (R111)
    dispel = next(a for a in RS.legal_actions(peers["P1"], "P1") if a.verb == "dispel")
    assert dispel.words[0] == elf.split(".")[1]
    assert not RS.legal_actions(peers[""], "P2")
    _step(peers, whole, act, dispel)
    st = RS.stage(peers[""])
    assert st.kind == "reveal" and st.holder == "P1"
    _step(peers, whole, act)  # the dispeller's reveal: it pays 1 and rolls
    for x in peers.values():
        g = x.d
        assert not g.get("mspell") and not g.get("reveal")
        assert g["blocks"][elf]["type"] == "wicana" and not g["blocks"][elf].get("shown")
        assert g["blocks"][elf]["seen"] == ["wicana", g["blocks"][elf]["strength"]]
        assert g["blocks"][caster]["seen"][0] == "shakla"
    assert {x.d["blocks"][elf]["strength"] for x in peers.values()} == \
        {peers["P1"].d["blocks"][elf]["strength"]}
    while not RS.result(peers[""]).over:
        _step(peers, whole, act)
    assert RS.state_hash(_audit_replay(4, whole, (index, edit))) == RS.state_hash(peers[""])

def test_public_parts_of_orders_and_their_checks() -> None:
    """The public part of a deploy names labels and hexes only, of build orders the new
    blocks' hexes and the removed labels (``sealed`` even when empty); other peers apply
    them as hidden blocks; a public part a local game refuses; ``deploy standard`` on a LAN
    is refused in words (its labels would come from the public seed)."""
    peers = _peers(3)
    p1 = peers["P1"]
    [dep] = RS.legal_actions(p1, "P1")
    assert dep.verb == "deploy" and "=" in dep.words[0]
    sealed = RS.seal(p1, dep)
    assert sealed is not None and sealed.by == "owner" and sealed.knows == ("P1",)
    assert re.fullmatch(r"(\d+@[1-4][a-h][1-9],?)+", sealed.public.words[0])
    with pytest.raises(IllegalAction, match="on a LAN the standard army"):
        RS.apply(p1, parse("P1 deploy standard"))
    RS.apply(peers[""], sealed.public)
    blocks = peers[""].d["blocks"]
    assert blocks and all(x["type"] == "" and x["strength"] == 0 for x in blocks.values())
    local = RS.new_game(RS.validate_options({}), 3)
    with pytest.raises(IllegalAction, match="networked game"):
        RS.apply(local, sealed.public)
    with pytest.raises(IllegalAction, match="exactly his blocks|no reveal"):
        RS.apply(peers[""], parse("P1 reveal 1=glader:4"))
    # private randomness, not the seed, labels the standard army
    other = _peers(3)["P1"]
    RS.keep_private(other, "P1", b"\x07" * 16)
    assert RS.legal_actions(other, "P1") != [dep]


def test_a_lying_reveal_is_refused_by_a_peer_that_knows_and_caught_by_the_audit() -> None:
    """A reveal that contradicts the owner's own blocks is refused on his peer; the audit
    (answers asked again from the opened orders) names the lie."""
    peers, whole = _play(1)
    i = next(i for i, a in enumerate(whole) if a.verb == "reveal")
    a = whole[i]
    lab, _, rest = a.words[0].split(",")[0].partition("=")
    t, _, k = rest.partition(":")
    lie = parse(str(a).replace(f"{lab}={t}:{k}", f"{lab}={t}:{1 if k != '1' else 2}", 1))
    audit = _peers(1)[""]
    for b in whole[:i]:
        RS.apply(audit, b)
    assert RS.answer(audit, a.actor) == a != lie
    with pytest.raises(IllegalAction, match="contradicts"):
        RS.apply(audit, lie)


# ---- on real sockets ------------------------------------------------------------------


class _Secrets:
    """A deterministic stand-in for the ``secrets`` module inside net/lan.py."""

    def __init__(self, seed: int) -> None:
        self.rand = random.Random(f"wk-frames:{seed}")  # noqa: S311 - a test, on purpose

    def token_hex(self, n: int = 32) -> str:
        return self.rand.randbytes(n).hex()

    def token_bytes(self, n: int = 32) -> bytes:
        return self.rand.randbytes(n)


def _faces(msg: Any) -> list[str]:
    """Every text in a frame that names a unit type as a block's face (``3=troll:3``,
    ``new=troll@1c2:1``), outside reveal actions (R114: the rules show those)."""
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, list) and len(x) == 3 and x[1:2] == ["reveal"]:
            return  # an owner's reveal at a battle's start
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and SLUG.search(x):
            out.append(x)

    walk(msg)
    return out


class Recorder(PeerGame):
    """A joiner that keeps every frame the host sent it."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.frames: list[dict[str, Any]] = []

    async def _handle(self, msg: dict[str, Any]) -> str | None:
        self.frames.append(msg)
        return await super()._handle(msg)


@pytest.mark.parametrize("bots,seed,spells", [(0, 1, False), (1, 2, False), (0, 1, True)])
async def test_lan_game_keeps_every_block_hidden_until_the_rules_reveal_it(
        monkeypatch: pytest.MonkeyPatch, bots: int, seed: int, spells: bool) -> None:
    """A headless host and two joiners with bots (or one joiner and the host's bot seat)
    play a whole game over 127.0.0.1: one final hash everywhere, every audit passes, and no
    frame a peer received (the host's included) holds another seat's block face before the
    game is over, except the owners' reveals. ``spells``: the bots cast every
    movement-phase spell they may (:func:`spell_bot`), each caster revealed by its owner's
    process (R81)."""
    monkeypatch.setattr(lan, "secrets", _Secrets(seed))
    if spells:
        monkeypatch.setattr(type(RS), "bot_act", spell_bot)
    got: list[tuple[str, dict[str, Any]]] = []
    handle = HostGame._handle

    async def recording(self: HostGame, seat: Any, msg: dict[str, Any]) -> None:
        got.append((seat.seat, msg))
        await handle(self, seat, msg)

    monkeypatch.setattr(HostGame, "_handle", recording)
    host = HostGame(players=2, local_seat=False, ruleset=RS, seed=seed, bots=bots)
    port = await host.start()
    peers = [Recorder("127.0.0.1", port, name=f"peer {i}", ruleset=RS)
             for i in range(2 - bots)]
    try:
        async with asyncio.timeout(500):
            res = await asyncio.gather(host.run(), *[p.run() for p in peers])
    finally:
        await host.close()
    assert res[0] and len(set(res)) == 1, "the game did not end on one hash everywhere"
    assert RS.result(host.state).over and not host.audit
    assert all(p.audited and not p.audit for p in peers)
    verbs = [a.split()[1] for a in host.actions]
    assert verbs.count("reveal") >= 2 and verbs.count("deploy") == 2
    if spells:
        cast = {a.split()[2] for a in host.actions if a.split()[1] == "cast"}
        assert set(MOVE_SPELLS) <= cast, cast
    for p in peers:
        before_end = p.frames[:next(i for i, f in enumerate(p.frames) if f["type"] == "end")]
        leaks = [(f["type"], x) for f in before_end for x in _faces(f)]
        assert not leaks, (p.seat, leaks[:5])
        assert any(f["type"] == "commit" and f.get("sealed") for f in before_end)
    over = next(i for i, (_s, m) in enumerate(got) if m["type"] == "openings")
    leaks = [(s, m["type"], x) for s, m in got[:over] for x in _faces(m)]
    assert not leaks, leaks[:5]
    # the host's own state never held a face but the revealed ones
    shown = {f"{a.split()[0]}.{i.split('=')[0]}" for a in host.actions if a.split()[1] == "reveal"
             for i in a.split()[2].split(",")}
    mine = {s.seat for s in host.seats if s.kind != "remote"}
    assert {b for b, x in host.state.d["blocks"].items() if x["type"] and
            x["owner"] not in mine} <= shown
    for p in peers:  # and each joiner's state only its own and the revealed
        assert {b for b, x in p.state.d["blocks"].items() if x["type"] and
                x["owner"] != p.seat} <= shown
    # R113, R114: no frame holds an owner's key before the end, nor a block's salt before
    # the reveal that opens it
    keys = [x.state.d["private"][x.seat] for x in peers]
    first: dict[str, int] = {}  # each salt -> the first reveal that opens it
    for i, a in enumerate(host.actions):
        if a.split()[1] == "reveal":
            for it in a.split()[2].split(","):
                first.setdefault(it.split(":")[3], i + 1)
    salts = [(q, x) for x, q in first.items()]
    assert salts and all(len(x) == 32 for _i, x in salts)
    for p in peers:
        texts = [(f.get("seq") if f["type"] in ("commit", "roll") else None, repr(f))
                 for f in p.frames]  # a reveal that rolls is announced by its roll
        end = next(i for i, f in enumerate(p.frames) if f["type"] == "end")
        assert not [k for k in keys for _q, t in texts[:end] if k in t]
        for seq, salt in salts:
            at = next(i for i, (q, _t) in enumerate(texts) if q == seq)
            assert not [t for _q, t in texts[:at] if salt in t], (seq, salt)
    assert not [k for k in keys for _s, m in got[:over] if k in repr(m)]


# ---- R113 commitments, R114 openings, R115's queue ---------------------------------------


def test_every_block_is_committed_at_deployment_and_after_each_build_phase() -> None:
    """R113: once both armies are deployed every owner commits to each of his blocks (epoch
    0), and again to every block after each Build Phase (one epoch more), before the next
    Initiative Phase; the commitments are public state, equal on every peer; the owner's
    first commitment carries his key, sealed by him (the others get it without); each
    digest is the one R113 gives from the block's values and the owner's salt."""
    from core.wizardkings import commits as C

    peers, whole = _play(1)
    host = peers[""].d
    coms = [i for i, a in enumerate(whole) if a.verb == "commit"]
    deploys = [i for i, a in enumerate(whole) if a.verb == "deploy"]
    assert [whole[i].actor for i in coms[:2]] == ["P1", "P2"] and coms[0] == deploys[-1] + 1
    assert all(any(w.startswith("key=") for w in whole[i].words) for i in coms[:2])
    assert not any(w.startswith("key=") for i in coms[2:] for w in whole[i].words)
    for i in coms[:2]:
        sealed = RS.seal(peers[whole[i].actor], whole[i])
        assert sealed is not None and sealed.by == "owner"
        assert "key=" not in str(sealed.public)
    builds = [i for i, a in enumerate(whole) if a.verb == "build"]
    after = [i for i in coms if i > builds[1]]
    assert after and after[0] == builds[1] + 1  # right after the orders are applied
    assert {str(x.d.get("commits")) for x in peers.values()} == {str(host["commits"])}
    for p in ("P1", "P2"):
        g = peers[p].d
        for b, (e, d) in host["commits"].items():
            x = g["blocks"][b]
            if x["owner"] == p and x["state"] == "map" and e == C.epoch_next(g, b) - 1 \
                    and not x.get("seen"):
                assert d == C.digest(g, p, x["label"], e, x["type"], x["strength"],
                                     C.salt(g, p, x["label"], e))
    assert max(e for e, _d in host["commits"].values()) >= 2


def test_a_lie_about_a_hidden_blocks_move_is_caught_at_its_next_battle() -> None:
    """R115: the headless host and the other player accept a move of a hidden block as far
    as some type could make it (here 3 hexes by a unit that moves 2), queue the check with
    the block's label, and run it when the block is revealed at the battle it moved into:
    the reveal is refused naming the player and the action."""
    from core.wizardkings import game as G

    peers = _peers(4)
    whole: list[Any] = []
    act = functools.partial(RS.bot_act, level="captain")

    def ready(g: Any) -> bool:
        return bool(g["phase"] == "movement" and g["active"] == "P2"
                    and not g.get("mspell") and not g.get("settle") and not g.get("reveal"))
    while not ready(peers[""].d):
        _step(peers, whole, act)
    mine = peers["P2"].d
    lie = None
    for a in RS.legal_actions(peers[""], "P2"):
        if a.verb != "move" or "," in a.words[0] or len(a.words[1].split("-")) != 3:
            continue
        x = mine["blocks"][f"P2.{a.words[0]}"]
        if x["type"] and G.utype(mine, f"P2.{a.words[0]}").ability != "flyer" and \
                "moves 2, not 3" in RS.why_illegal(peers["P2"], a):
            lie = a
            break
    assert lie is not None
    end = lie.words[1].split("-")[-1]
    foe = next(b for b, x in peers["P1"].d["blocks"].items() if x["owner"] == "P1"
               and x["state"] == "map" and not G.utype(peers["P1"].d, b).wizard
               and G.utype(peers["P1"].d, b).ability != "castle")
    for x in peers.values():  # a P1 unit waits in the hex the lie ends in
        x.d["blocks"][foe]["at"], x.d["blocks"][foe]["moved"] = end, True
    with pytest.raises(IllegalAction, match="moves 2, not 3"):
        RS.apply(peers["P2"], lie)  # the owner's own peer refuses it
    blk = peers["P2"].d["blocks"][f"P2.{lie.words[0]}"]
    t = blk["type"]
    blk["type"] = ""  # a cheating process skips its own check
    _step(peers, whole, act, lie)
    peers["P2"].d["blocks"][f"P2.{lie.words[0]}"]["type"] = t  # (apply made a new state)
    peers["P2"].d["audit"].pop()  # and queues nothing of its own
    assert peers[""].d["audit"][-1]["action"] == str(lie)  # queued, with its label
    assert peers[""].d["audit"][-1]["labels"][:1] == [f"P2.{lie.words[0]}"]
    caught = None
    for _ in range(400):
        g = peers[""].d
        st = RS.stage(peers[""])
        if g["phase"] == "movement" and st.kind == "act":
            _step(peers, whole, act, parse(f"{st.players[0]} end"))
            continue
        try:
            _step(peers, whole, act)
        except IllegalAction as exc:
            caught = exc
            break
    assert caught is not None, "the lie was never caught"
    assert st.kind == "reveal" and st.holder == "P2" and peers[""].d["reveal"]["hex"] == end, \
        caught.reason
    assert re.search(rf"P2's action \d+ '{lie}' was illegal: block {lie.words[0]} \(a \w+\) "
                     r"moves 2, not 3 \(R41\) \(R115", caught.reason), caught.reason


async def test_a_rejoin_from_a_new_process_keeps_the_owners_secrets(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """A joiner dropped in turn 2 and started again as a new process (a new PeerGame, only
    its seat token and its secrets folder kept) holds its blocks again after the catch-up:
    its kept private randomness and its own sealed orders (``owner-secrets/``, mode 0600)
    let it answer the commitments and reveals the rules ask of it; the game ends on one hash
    with every audit passing."""
    import os
    import stat

    from net.protocol import ProtocolError

    monkeypatch.setattr(lan, "secrets", _Secrets(5))
    host = HostGame(players=2, local_seat=False, ruleset=RS, seed=5, bots=0)
    port = await host.start()
    kept = str(tmp_path / "b")
    a = PeerGame("127.0.0.1", port, name="a", ruleset=RS, secrets_dir=str(tmp_path / "a"))
    b = PeerGame("127.0.0.1", port, name="b", ruleset=RS, secrets_dir=kept)
    cut: dict[str, int] = {}

    def maybe_cut() -> None:
        st = b.state
        if not cut and st is not None and st.d["turn"] == 2 and st.d["phase"] == "movement":
            cut["seq"] = RS.seq(st)
            assert b.conn is not None
            b.conn.writer.transport.abort()

    b.on_change = maybe_cut
    try:
        async with asyncio.timeout(400):
            host_task = asyncio.create_task(host.run())
            a_task = asyncio.create_task(a.run())
            with pytest.raises((ConnectionError, ProtocolError)):
                await b.run()
            assert cut, "the game never reached turn 2"
            [path] = [os.path.join(kept, f) for f in os.listdir(kept)]
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
            again = PeerGame("127.0.0.1", port, name="b", ruleset=RS, token=b.token,
                             secrets_dir=kept)
            final = await again.run()
            res = [await host_task, await a_task, final]
    finally:
        await host.close()
    assert again.seat == b.seat and res[0] and len(set(res)) == 1
    assert not host.audit and a.audited and not a.audit and again.audited and not again.audit
    later = [x for x in host.actions[cut["seq"]:] if x.split()[0] == again.seat]
    assert any(x.split()[1] == "reveal" for x in later), later
    assert any(x.split()[1] == "commit" for x in later)


class Liar(Recorder):
    """A joiner whose process lies in its first battle reveal: one block's strength told
    otherwise, with its true epoch and salt."""

    lied: str = ""

    def answer_for(self, st: Any) -> Any:
        a = super().answer_for(st)
        if a.verb != "reveal" or self.lied or st.d["reveal"].get("blocks"):
            return a
        lab, _, rest = a.words[0].split(",")[0].partition("=")
        t, k, e, s = rest.split(":")
        lie = parse(str(a).replace(f"{lab}={rest}", f"{lab}={t}:{1 if k != '1' else 2}:{e}:{s}",
                                   1))
        self.lied = str(lie)
        return lie


async def test_a_lying_reveal_over_the_lan_stops_the_game_at_that_reveal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R114 on real sockets: a joiner's battle reveal that does not open its commitment is
    refused by the headless host, which holds no block (the digest does not match), and the
    game stops at once for everyone, naming the seat; no frame ever carried the lie as an
    applied action, and the game never reached its end."""
    monkeypatch.setattr(lan, "secrets", _Secrets(1))
    host = HostGame(players=2, local_seat=False, ruleset=RS, seed=1, bots=0)
    port = await host.start()
    liar = Liar("127.0.0.1", port, name="liar", ruleset=RS)
    other = Recorder("127.0.0.1", port, name="other", ruleset=RS)
    try:
        async with asyncio.timeout(300):
            res = await asyncio.gather(host.run(), liar.run(), other.run())
    finally:
        await host.close()
    assert liar.lied and res == ["", "", ""]
    assert re.search(rf"{liar.seat}'s answer after action \d+ is refused by the rules: "
                     rf"{liar.seat}'s reveal of block \d+ .* does not open its commitment of "
                     rf"epoch \d+: {liar.seat} lied", host.audit), host.audit
    assert liar.lied.split(" ", 2)[2] not in " ".join(host.actions)
    stops = [f for f in other.frames if f["type"] == "desync"]
    assert stops and f"{liar.seat} lied" in stops[0]["reason"]
    assert not [f for f in other.frames if f["type"] == "end"]
    assert not [f for f in other.frames if f["type"] == "commit" and
                f["action"][1] == "reveal" and f["action"][0] == liar.seat and
                f["action"][2][0] == liar.lied.split()[2]]


def test_a_heal_on_a_hidden_wizard_is_caught_at_the_casters_reveal() -> None:
    """R115's queue for a spell target's type: a heal whose target is the (hidden) caster
    itself, a wizard, is refused by its owner's state, accepted by the headless host as
    far as some type could be healed, and caught when the caster is revealed right after
    the declaration (R81 step 2), naming the player and the action."""
    peers, whole = _play(1, "captain", True)
    host = _peers(1)[""]
    i = 0
    while True:  # the first Elf cast whose caster the host never saw
        a = whole[i]
        if a.verb == "cast" and a.words[0] in MOVE_SPELLS and host.d["armies"][a.actor] == \
                "elves" and not host.d["blocks"][f"{a.actor}.{a.words[1]}"]["type"]:
            break
        RS.apply(host, RS.seal(host, a).public if RS.seal(host, a) else a)
        i += 1
    cast = parse(f"{whole[i].actor} cast heal {whole[i].words[1]} @{whole[i].words[1]}")
    mine = _peers(1)[whole[i].actor]
    RS.keep_private(mine, whole[i].actor, bytes([int(whole[i].actor[1:])]) * 16)
    for a in whole[:i]:
        RS.apply(mine, a if a.actor == whole[i].actor else
                 (RS.seal(mine, a).public if RS.seal(mine, a) else a))
    assert "not a wizard or castle" in RS.why_illegal(mine, cast)
    RS.apply(host, cast)
    assert host.d["audit"][-1]["kind"] == "types"
    with pytest.raises(IllegalAction, match=rf"{whole[i].actor}'s action {i + 1} '{cast}' was "
                                            r"illegal: block \d+ is a \w+: heal is for a unit "
                                            "that is not a wizard or castle"):
        RS.apply(host, whole[i + 1])
