"""The mental-poker dealer (net/mental.py; issue 15): deals, openings, reshuffles, the end's
audit, and cheats caught and named.

A :class:`Table` stands for the LAN between the processes of one game: each process is a
:class:`~net.mental.MentalDealer` for the seats it plays (the host's player and its bot in
one, each joiner in its own), and every message any of them sends is delivered to every
process (the worst case: a host relaying everything sees it all) and kept as the frames that
process received. What a process could decode from its frames, with its own keys and box,
is checked against what it may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from nacl import bindings as nb
from nacl.exceptions import CryptoError
from nacl.public import Box, PublicKey

from core import registry
from net.dealer import HostDealer
from net.mental import (
    LOCK,
    SHUFFLE,
    Epoch,
    MentalDealer,
    MentalError,
    Next,
    Trial,
    base,
    face_point,
    invert,
    mul,
    next_steps,
    random_scalar,
    times,
)

SEATS = ["P1", "P2", "P3", "P4"]
#: a point of order 8 of Edwards25519
SMALL_ORDER = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
#: three processes: the host (its player P1 and a bot P4), two joiners
GROUPS = [["P1", "P4"], ["P2"], ["P3"]]


class Table:
    """Every process of one game, the messages between them, and what each may know."""

    def __init__(self, seats: list[str], groups: list[list[str]], seed: str,
                 tamper: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.seats = seats
        self.procs = [MentalDealer(seats, g, seed=f"{seed}:{i}") for i, g in enumerate(groups)]
        boxes = {s: p.box_key() for p in self.procs for s in p.mine}
        for p in self.procs:
            p.learn_boxes(boxes)
        self.frames: list[list[dict[str, Any]]] = [[] for _ in self.procs]
        self.may: list[set[int]] = [set() for _ in self.procs]  # what each may know now
        self.tamper = tamper  # changes a message before it is sent (a cheat)
        self.resign = True  # the cheat is its sender's (False: a relay's, which cannot sign)
        self._read: dict[int, int] = {}
        self._keys: dict[int, dict[tuple[int, int], set[str]]] = {}

    def proc(self, seat: str) -> MentalDealer:
        return next(p for p in self.procs if seat in p.mine)

    def send(self, msg: dict[str, Any]) -> None:
        if self.tamper is not None:  # a cheating process signs what it changed
            self.tamper(msg)
            if self.resign:
                seat = msg["seat"] if msg["type"] == "mask" else msg["shares"][0][1]
                msg = self.proc(seat).sign(msg)
        for i, p in enumerate(self.procs):
            self.frames[i].append(msg)
            if msg["type"] == "mask":
                p.take_step(msg)
            else:
                p.take_shares(msg)

    def deal(self, slots: list[int], faces: list[str]) -> None:
        for p in self.procs:
            p.begin(slots, faces)
        for m in self.may:
            m.difference_update(slots)
        while True:
            msg = next((m for p in self.procs if (m := p.step()) is not None), None)
            if msg is None:
                break
            self.send(msg)

    def open(self, slots: list[int], to: str = "") -> None:
        if not slots:
            return
        for p in self.procs:
            msg = p.shares(slots, to)
            if msg["shares"]:
                self.send(msg)
        if to:
            self.proc(to).open_own(slots)
        for i, p in enumerate(self.procs):
            if to == "" or to in p.mine:
                self.may[i].update(slots)

    def public(self, c: int) -> bool:
        return all(c in m for m in self.may)

    def god(self) -> dict[int, str]:
        """Every slot's face, from every seat's keys (only a test can see them all)."""
        keys: dict[str, Any] = {}
        for p in self.procs:
            keys.update(p.reveal()["keys"])
        return self.procs[0].ledger.audit(keys)

    def decodable(self, i: int) -> set[int]:
        """The slots process ``i`` could open from the frames it received, its own keys
        and its box: its shares in the clear, those boxed for it, and its own seats'.
        (The frames are read once each: ``_read`` and ``_keys`` keep how far.)"""
        p = self.procs[i]
        led = p.ledger
        got = self._keys.setdefault(i, {})
        frames = self.frames[i]
        for msg in frames[self._read.get(i, 0):]:
            if msg["type"] != "unmask":
                continue
            for c, s, text in msg["shares"]:
                raw = bytes.fromhex(text)
                tries = [raw] if len(raw) == 32 else []  # a key in the clear
                try:
                    tries.append(Box(p.box, PublicKey(p.boxes[s])).decrypt(raw)[2:])
                except CryptoError:
                    pass  # boxed for another process's seat: unreadable
                n, j = led.where[c]
                for key in tries:
                    if base(key) == led.epochs[n].commitment(s, j):  # a key of this deal
                        got.setdefault((n, j), set()).add(s)
        self._read[i] = len(frames)
        out = set()
        for c, (n, j) in led.where.items():
            if got.get((n, j), set()) | set(p.mine) >= set(self.seats):
                out.add(c)
        return out

    def check(self, where: str) -> None:
        for i, p in enumerate(self.procs):
            assert set(p.known) == self.may[i], (where, p.mine)
            assert self.decodable(i) == self.may[i], (where, p.mine)


def _table(n: int = 20, seed: str = "t", **kw: Any) -> tuple[Table, list[str]]:
    faces = [f"card{i % 7}" for i in range(n)]
    t = Table(SEATS, GROUPS, seed, **kw)
    t.deal(list(range(n)), faces)
    return t, faces


def test_a_card_opened_to_a_seat_is_known_to_its_process_only() -> None:
    """Opening cards to P2 (a draw) lets P2's process learn them and no other process,
    though every process received every share; a card then shown to P3 too (Telepath)
    carries P2's own key, boxed for P3's box key, so the host, which relays it, still
    cannot open it."""
    t, faces = _table()
    t.open([0, 1, 2], "P2")
    t.open([3], "P4")  # the host's bot: its process holds P1 and P4
    t.check("hands")
    t.open([0], "P3")  # Telepath: P2's card shown to P3 too, P2's key now sent
    t.check("a hand shown to another seat")
    god = t.god()
    assert {c: god[c] for c in (0, 1, 2)} == t.proc("P2").known
    assert t.proc("P1").known == {3: god[3]}
    assert t.proc("P3").known == {0: god[0]}
    assert sorted(god.values()) == sorted(faces)


def test_a_card_opened_to_everyone_is_known_alike() -> None:
    """A card played is opened to everyone: every process learns the same face."""
    t, _ = _table()
    t.open([5], "P3")
    t.open([5])
    t.check("public")
    assert len({p.known[5] for p in t.procs}) == 1


def test_a_reshuffle_deals_the_pile_again_behind_new_masks() -> None:
    """A reshuffle re-deals public cards: what anyone knew of those slots is forgotten, the
    slots get new points, and a card then drawn is one of the pile's faces."""
    t, _ = _table()
    t.open([4, 5, 6, 7])
    pile = {c: t.procs[0].known[c] for c in (4, 5, 6, 7)}
    old = [t.procs[0].ledger.epochs[0].points()[c] for c in pile]
    t.deal(list(pile), list(pile.values()))
    t.check("after the reshuffle")
    assert all(c not in p.known for p in t.procs for c in pile)
    led = t.procs[0].ledger
    assert led.where[4][0] == 1 and not set(old) & set(led.epochs[1].points())
    t.open([4], "P3")
    assert t.proc("P3").known[4] in pile.values()
    faces = t.god()
    assert sorted(faces[c] for c in pile) == sorted(pile.values())


def test_the_points_of_a_deal_say_nothing_of_which_cards_match() -> None:
    """Copies of one face get their own points, so no step shows two slots holding the same
    card (were they equal points, opening one would tell the others)."""
    t, _ = _table()
    for step in t.procs[0].ledger.epochs[0].steps:
        assert len(set(step[2])) == 20, step[:2]
    assert face_point("card1", 0) != face_point("card1", 1)


def test_every_process_keeps_the_same_public_record() -> None:
    """The ledger's digest is the same in every process after a deal and a reshuffle, and
    differs in one that declared other faces for the reshuffle."""
    t, _ = _table()
    t.open([4, 5])
    assert len({p.ledger.digest() for p in t.procs}) == 1
    before = t.procs[0].ledger.digest()
    t.deal([4, 5], [t.procs[0].known[4], t.procs[0].known[5]])
    assert len({p.ledger.digest() for p in t.procs}) == 1 != before
    other = MentalDealer(SEATS, ["P2"], seed="x")
    other.ledger.epochs = t.procs[0].ledger.epochs[:1]
    other.ledger.epochs.append(Epoch(1, [4, 5], ["card0", "card0"],
                                     list(t.procs[0].ledger.epochs[1].steps)))
    assert other.ledger.digest() != t.procs[0].ledger.digest()


def test_wizwar_bench_prints_the_mental_poker_costs(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar bench --only poker`` prints the deal, draw, show, reshuffle and audit costs
    of a 4-seat Wiz-War deal."""
    from wizwar_tui.cli import main

    assert main(["bench", "--only", "poker", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    for what in ("deal 125 cards, 4 seats", "the deal's critical path", "draw",
                 "a card shown to everyone",
                 "reshuffle of 30 cards", "the end's audit"):
        assert f"mental poker: {what}" in out, what


def test_an_honest_deal_passes_the_audit() -> None:
    """Every process audits the whole deal with every seat's revealed keys; the faces it
    opens are the ones each process learnt during the game."""
    t, _ = _table()
    t.open([0, 1], "P2")
    t.open([2])
    t.deal([2], [t.procs[0].known[2]])
    t.open([2], "P1")
    keys: dict[str, Any] = {}
    for p in t.procs:
        keys.update(p.reveal()["keys"])
    for p in t.procs:
        faces = p.audit(keys)
        assert all(faces[c] == f for c, f in p.known.items())


def test_a_restarted_process_takes_its_keys_back() -> None:
    """P2's process keeps its secrets (its data folder); a new process for P2, with the
    public record caught up, reads them back, opens the cards dealt to it and answers the
    end's audit; unreadable or another process's kept keys are refused in words."""
    t, _ = _table()
    t.open([0, 1], "P2")
    old = t.proc("P2")
    kept = old.secrets_wire()
    new = MentalDealer(SEATS, ["P2"])  # fresh keys: it could open nothing
    new.ledger = old.ledger  # caught up from the game's record (public)
    new.restore(kept)
    assert new.box_key() == old.box_key()
    new.learn_boxes({s: t.proc(s).box_key() for s in SEATS})  # from the record too
    for i, p in enumerate(t.procs):
        if p is old:
            t.procs[i] = new
    t.open([2], "P2")
    assert set(new.known) == {2} and new.known[2] == t.god()[2]
    t.procs[0].audit(_reveal_all(t))
    with pytest.raises(MentalError, match="another process's seats"):
        MentalDealer(SEATS, ["P3"]).restore(kept)
    with pytest.raises(MentalError, match="unreadable"):
        MentalDealer(SEATS, ["P2"]).restore({"box": "zz"})


def test_a_wrong_partial_unmasking_is_caught_at_once_and_named() -> None:
    """P3 sends P2 a key for card 0 that is not the one it committed to: P2's process finds
    it as it takes the share and names P3."""
    def cheat(msg: dict[str, Any]) -> None:
        if msg["type"] == "unmask" and msg["to"] == "P2":
            for item in msg["shares"]:
                if item[1] == "P3":
                    wrong = random_scalar(random.Random(5))
                    p2 = next(p for p in t.procs if "P2" in p.mine)
                    p3 = next(p for p in t.procs if "P3" in p.mine)
                    item[2] = bytes(Box(p3.box, p2.box.public_key).encrypt(
                        item[0].to_bytes(2, "big") + wrong)).hex()

    t, _ = _table(tamper=cheat)
    with pytest.raises(MentalError) as err:
        t.open([0], "P2")
    assert err.value.seat == "P3"
    assert "P3 sent a wrong partial unmasking of card 0" in str(err.value)


def test_a_relay_cannot_forge_a_share_in_another_seats_name() -> None:
    """The host's process, relaying P3's share for P2, puts a wrong key of its own making in
    P3's name: P2's process finds it was not boxed by P3's process and says so, blaming
    nobody (P3 did nothing wrong)."""
    def forge(msg: dict[str, Any]) -> None:
        if msg["type"] == "unmask" and msg["to"] == "P2":
            for item in msg["shares"]:
                if item[1] == "P3":
                    host = next(p for p in t.procs if "P1" in p.mine)
                    p2 = next(p for p in t.procs if "P2" in p.mine)
                    item[2] = bytes(Box(host.box, p2.box.public_key).encrypt(
                        item[0].to_bytes(2, "big") + random_scalar(random.Random(4)))).hex()

    t, _ = _table(tamper=forge)
    t.resign = False  # the relay cannot sign in P3's name
    with pytest.raises(MentalError) as err:
        t.open([0], "P2")
    assert err.value.seat == "" and \
        "a partial unmasking said to be P3's is not signed by P3's process" in str(err.value)
    t.resign = True  # nor box in its name, were the message signed
    with pytest.raises(MentalError) as err:
        t.open([1], "P2")
    assert err.value.seat == "" and "said to be P3's was not boxed by P3's process" in \
        str(err.value)


def test_a_relay_cannot_put_a_deal_step_in_another_seats_name() -> None:
    """A deal step changed on the way (by the host relaying it) no longer carries its
    author's signature: refused, blaming nobody."""
    t = Table(SEATS, GROUPS, "s")
    for p in t.procs:
        p.begin([0, 1], ["a", "b"])
    msg = t.proc("P1").step()
    assert msg is not None
    msg["points"] = list(reversed(msg["points"]))
    with pytest.raises(MentalError) as err:
        t.procs[1].take_step(msg)
    assert err.value.seat == "" and "a deal step said to be P1's is not signed" in \
        str(err.value)


def test_a_wrong_public_unmasking_is_named() -> None:
    """The same cheat on a card opened to everyone (a card played): named by everyone."""
    def cheat(msg: dict[str, Any]) -> None:
        if msg["type"] == "unmask" and not msg["to"]:
            for item in msg["shares"]:
                if item[1] == "P4":
                    item[2] = random_scalar(random.Random(6)).hex()

    t, _ = _table(tamper=cheat)
    with pytest.raises(MentalError) as err:
        t.open([3])
    assert err.value.seat == "P4"


def _reveal_all(t: Table) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    for p in t.procs:
        keys.update(p.reveal()["keys"])
    return keys


def test_a_tampered_shuffle_is_named_by_the_audit() -> None:
    """P3 swaps one card of its shuffle for a second copy of another (masked like the rest,
    so the step looks fine and no opening fails): the end's audit names P3."""
    def cheat(msg: dict[str, Any]) -> None:
        if msg["type"] == "mask" and msg["seat"] == "P3" and msg["kind"] == SHUFFLE:
            # P3 learns nothing more by it; it only wants a card the deck does not hold
            pts = [bytes.fromhex(p) for p in msg["points"]]
            k = random_scalar(random.Random(7))
            msg["points"][0] = mul(k, pts[1]).hex()

    t, _ = _table(tamper=cheat)
    with pytest.raises(MentalError) as err:
        t.procs[1].audit(_reveal_all(t))
    assert err.value.seat == "P3"
    assert "P3 tampered with its shuffle of deal 0" in str(err.value)


def test_a_tampered_lock_is_found_when_the_card_opens_and_named_by_the_audit() -> None:
    """P2 locks position 0 with another key than the one it commits to: the card opens to
    no face (found at once, who is not known yet), and the audit names P2."""
    def cheat(msg: dict[str, Any]) -> None:
        if msg["type"] == "mask" and msg["seat"] == "P2" and msg["kind"] == LOCK:
            p = bytes.fromhex(msg["points"][0])
            msg["points"][0] = mul(random_scalar(random.Random(8)), p).hex()

    t, _ = _table(tamper=cheat)
    with pytest.raises(MentalError) as err:
        t.open([0], "P1")
    assert "opens to no card" in str(err.value) and err.value.seat == ""
    with pytest.raises(MentalError) as err:
        t.procs[2].audit(_reveal_all(t))
    assert err.value.seat == "P2" and "P2 tampered with its lock of deal 0" in str(err.value)


def test_a_key_revealed_at_the_end_must_be_the_one_used() -> None:
    """A seat that reveals another key at the end than a share it sent is named; one that
    reveals nothing is named too."""
    t, _ = _table()
    t.open([0], "P2")
    keys = _reveal_all(t)
    keys["P3"]["cards"][0][0] = random_scalar(random.Random(9)).hex()
    with pytest.raises(MentalError) as err:
        t.procs[0].audit(keys)
    assert err.value.seat == "P3"
    keys = _reveal_all(t)
    del keys["P4"]
    with pytest.raises(MentalError) as err:
        t.procs[0].audit(keys)
    assert err.value.seat == "P4" and "did not reveal" in str(err.value)


def test_a_step_out_of_turn_or_off_the_group_is_refused_in_words() -> None:
    """A step by the wrong seat, or with a point that is not in the group, is refused and
    names its sender."""
    t = Table(SEATS, GROUPS, "o")
    for p in t.procs:
        p.begin([0, 1], ["a", "b"])
    msg = t.proc("P2").sign(t.proc("P2").hands["P2"].shuffle(t.procs[0].ledger.epochs[-1]))
    with pytest.raises(MentalError) as err:
        t.procs[0].take_step(msg)
    assert err.value.seat == "P2" and "out of turn" in str(err.value)
    msg = t.proc("P1").step()
    assert msg is not None
    # a point with a small-order part: multiplying it would leak the key modulo 8
    bad = nb.crypto_core_ed25519_add(bytes.fromhex(msg["points"][1]), SMALL_ORDER)
    msg["points"][1] = bad.hex()
    msg = t.proc("P1").sign(msg)
    for p in t.procs:
        p.take_step(msg)  # taken (checking every point on every process costs too much)
    with pytest.raises(MentalError) as err:
        t.proc("P2").step()  # the next seat to multiply it refuses, naming its sender
    assert err.value.seat == "P1" and "not a point of the group" in str(err.value)
    with pytest.raises(MentalError) as err:
        t.procs[0].take_step(t.proc("P2").sign({**msg, "seat": "P2", "points": ["00"]}))
    assert err.value.seat == "P2" and "has not 2 cards" in str(err.value)


def test_the_group_arithmetic_commutes() -> None:
    """Masks commute and strip: the property the whole scheme rests on."""
    rand = random.Random(3)
    a, b = random_scalar(rand), random_scalar(rand)
    m = face_point("fireball")
    assert mul(a, mul(b, m)) == mul(b, mul(a, m)) == mul(times(a, b), m)
    assert mul(invert(a), mul(a, m)) == m
    e = Epoch(0, [0, 1], ["x", "x"])
    assert len(e.table()) == 2


# ---- a whole Wiz-War game ----------------------------------------------------------
class MentalBacked(HostDealer):
    """The trusted dealer of a local 4-seat game whose faces come from the mental-poker
    deal of a :class:`Table` (only a test can read them all): it decides, as the host does
    today, what each seat must learn; the table opens exactly that by mental poker."""

    table: Table

    def reblind(self, state: Any, slots: list[int]) -> None:
        """A reshuffle: the pile is public first (by mental poker too), then dealt again."""
        t = self.table
        for c in slots:
            self._old.setdefault(c, (self.values[c], self.salts[c]))
        t.open([c for c in slots if not t.public(c)])
        faces = [t.procs[0].known[c] for c in slots]
        assert faces == [self.values[c] for c in slots]
        t.deal(list(slots), faces)
        god = t.god()
        epoch = 1 + max(h[3] for h in self.history)
        for c in slots:
            self.values[c] = god[c]
            self.salts[c] = f"{epoch:08x}{c:024x}"
            from core.engine import commitment
            com = commitment(self.values[c], self.salts[c])
            self.hooks.set_slot(state, c, self.values[c], com)
            self.history.append([c, self.values[c], self.salts[c], epoch])
        from core.engine import commitment
        self._reblinds.append({"cids": list(slots), "commits": [
            commitment(self.values[c], self.salts[c]) for c in slots]})


def _open_reveals(t: Table, rev: dict[str, Any], again: set[int]) -> None:
    t.open([c for c, _f, _s in rev["pre"] if c not in again and not t.public(c)])
    for rb in rev["reblind"]:
        t.open([c for c, _f, _s in rb["public"] if not t.public(c)])
    for seat, got in rev["private"].items():
        i = next(i for i, p in enumerate(t.procs) if seat in p.mine)
        t.open([c for c, _f, _s in got if c not in t.may[i]], seat)


def test_a_whole_four_seat_game_dealt_by_mental_poker_tells_each_process_only_its_share(
        ) -> None:
    """A whole 4-seat Wiz-War game (the host's player and bot, two joiners), every card
    dealt, drawn, shown and reshuffled by mental poker: after every action each process
    knows exactly, and could decode from every frame it received exactly, the cards the
    trusted dealer would reveal to its seats; at the end every process's audit opens the
    deal the game was played with."""
    rs = registry.get("wizwar")
    opts = rs.validate_options({"players": 4})
    hooks = rs.dealing()
    values = hooks.values(opts)
    t = Table(rs.seats(opts), GROUPS, "game")
    t.deal(list(range(len(values))), values)
    god = t.god()
    dealer = MentalBacked(hooks, [god[c] for c in range(len(values))],
                          [f"{c:032x}" for c in range(len(values))])
    dealer.table = t
    dealer.history = [[c, dealer.values[c], dealer.salts[c], 0] for c in range(len(values))]
    # a seed whose game reshuffles and plays Stone Dead (stones shown to everyone)
    st = rs.new_game(opts, b"mental-poker-game-10", deal=dealer.game_deal())
    dealer.attach(st)
    pre, private = dealer.start_reveals(st)
    _open_reveals(t, {"pre": pre, "reblind": [], "private": private}, set())
    t.check("the start")
    reshuffles = actions = 0
    while not rs.result(st).over and actions < 1500:
        seat = rs.to_move(st)[0]
        action = rs.bot_act(st, seat)
        before = dealer.begin(st, action)
        rs.apply(st, action)
        rev = dealer.finish(st, before)
        again = {c for rb in rev["reblind"] for c in rb["cids"]}
        reshuffles += len(rev["reblind"])
        _open_reveals(t, rev, again)
        actions += 1
        t.check(f"action {actions} {action}")
        for p in t.procs:
            assert all(dealer.values[c] == f for c, f in p.known.items())
    assert rs.result(st).over and reshuffles >= 1, (actions, reshuffles)
    keys = _reveal_all(t)
    for p in t.procs:
        faces = p.audit(keys)
        assert [faces[c] for c in range(len(values))] == dealer.values


# ---- settling an action's openings (next_steps) ------------------------------------
PLAYS = {0: ["P1", "P4"], 1: ["P2"], 2: ["P3"]}


def test_only_the_holder_says_which_of_its_cards_the_rules_show() -> None:
    """P2 discards a 3 and holds two: the host's process, which saw one of them earlier
    (Telepath), finds that one; P2's process knows its whole hand and finds the other. Only
    P2's claim is taken (found in a whole game: the first rule was "any process that knows
    the card", and it opened the wrong 3 to everyone)."""
    trials = {0: Trial(True, to_all=[105]), 1: Trial(True, to_all=[71]), 2: Trial(False)}
    knows = {0: {105}, 1: {105, 71}, 2: set()}
    held = {105: "P2", 71: "P2"}
    assert next_steps(trials, PLAYS, knows, held, int) == [Next("open", (71,))]


def test_a_card_in_no_hand_is_claimed_by_a_process_that_knows_it() -> None:
    """A Trap! just drawn (opened to its drawer first) is claimed public by the drawer's
    process; a process that does not know a card cannot claim it."""
    trials = {0: Trial(True, to_all=[8]), 1: Trial(True, to_all=[9]), 2: Trial(True)}
    knows = {0: set(), 1: {9}, 2: set()}
    assert next_steps(trials, PLAYS, knows, {}, int) == [Next("open", (9,))]


def test_a_hand_shown_to_a_seat_is_claimed_by_its_holder() -> None:
    """Telepath: the victim's process claims its hand shown to the caster; the caster's
    process (which cannot know it) is not believed for another slot."""
    trials = {0: Trial(True, to_seat={"P3": [1, 2]}), 1: Trial(True, to_seat={"P3": [4]}),
              2: Trial(True, to_seat={"P3": [1, 2, 7]})}
    knows = {0: {1, 2}, 1: set(), 2: set()}
    held = {1: "P1", 2: "P1", 4: "P3", 7: "P4"}
    assert next_steps(trials, PLAYS, knows, held, int) == [Next("open", (1, 2), "P3")]


def test_a_reshuffle_is_dealt_before_the_draws_after_it() -> None:
    """A re-deal the trials reach comes before any draw; its cards not yet public are
    opened to everyone first; trials that disagree on it are an error in words."""
    knows = {0: {5, 6}, 1: {5, 6}, 2: {5}}
    trials = {i: Trial(True, reshuffle=[5, 6]) for i in range(3)}
    assert next_steps(trials, PLAYS, knows, {}, int) == [Next("open", (6,)),
                                                          Next("redeal", (5, 6))]
    trials[2] = Trial(True, reshuffle=[5])
    with pytest.raises(MentalError, match="different reshuffles"):
        next_steps(trials, PLAYS, knows, {}, int)


def test_draws_are_opened_one_at_a_time_in_draw_order() -> None:
    """Two cards enter hands unknown to their holders: only the first in draw order is
    opened (to its holder); with nothing left to open, the action is applied."""
    trials = {0: Trial(True, entering={"P2": [30, 12]}), 1: Trial(True), 2: Trial(True)}
    knows: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
    draw = {12: 1, 30: 0}
    assert next_steps(trials, PLAYS, knows, {}, draw.__getitem__) == [
        Next("open", (30,), "P2")]
    knows[1] = {30, 12}
    assert next_steps(trials, PLAYS, knows, {}, draw.__getitem__) == [Next("apply")]
