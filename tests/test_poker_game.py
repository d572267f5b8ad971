"""A whole Wiz-War game dealt by mental poker where no process holds the full state
(net/mental.py, ``trial``; issue 15; docs/protocol.md, "What an action opens").

Each process (the host's with its player P1 and its bot P4, two joiners) keeps only its own
partial state, as a joining peer does today. Before an action is applied, every process
tries it on a copy of its state (:func:`net.mental.trial`) and the openings are settled in
rounds: a claim that a slot is shown (to everyone or to a seat) is taken only from a
process that knows that slot; a re-deal the trials reach is dealt by mental poker first;
then the first card (in draw order) that enters a hand unknown to its holder is opened to
the holder, so its process can see what the rules do with it (a Trap! goes off and is
claimed public). When no round opens anything more, every process applies the action.

A reference game, the trusted dealer with every face (what the host does today), plays the
same actions on the same deal: after every action each process's state hash is the
reference's, and each process knows exactly the cards the trusted dealer would have revealed
to its seats, no more, no fewer.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from core import registry
from net.dealer import HostDealer
from net.mental import Epoch, MentalDealer, Prepared, Trial, TrialDealer, next_steps, trial

GROUPS = [["P1", "P4"], ["P2"], ["P3"]]


def commit_of(e: Epoch, j: int) -> str:
    """The public commitment of position ``j`` of a mental-poker deal: its final point."""
    return blake2b(e.points()[j], digest_size=16).hexdigest()


class Reference(HostDealer):
    """The trusted dealer on the same deal: every face (from every seat's keys, as only a
    test can), the mental deal's commitments, and its re-deals."""

    coms: list[str]
    game: MentalGame
    used: int = 0

    def commits(self) -> list[str]:
        """The mental deal's commitments (so the state hashes agree)."""
        return list(self.coms)

    def reblind(self, state: Any, slots: list[int]) -> None:
        """The re-deal the processes dealt ahead, with its faces."""
        g = self.game
        e = g.ledger.epochs[g.redeals[self.used]]
        assert e.slots == list(slots)
        self.used += 1
        faces = g.god()
        for c in slots:
            self._old.setdefault(c, (self.values[c], self.salts[c]))
            self.values[c] = faces[c]
            self.coms[c] = commit_of(e, e.slots.index(c))
            self.hooks.set_slot(state, c, faces[c], self.coms[c])
        self._reblinds.append({"cids": list(slots), "commits": [self.coms[c] for c in slots]})


class MentalGame:
    """The processes of one 4-seat game, their partial states, and the reference."""

    def __init__(self, seed: bytes) -> None:
        rs = self.rs = registry.get("wizwar")
        self.opts = rs.validate_options({"players": 4})
        self.seats = rs.seats(self.opts)
        self.hooks = rs.dealing()
        values = self.hooks.values(self.opts)
        self.procs = [MentalDealer(self.seats, g, seed=f"{seed!r}:{i}")
                      for i, g in enumerate(GROUPS)]
        boxes = {s: p.box_key() for p in self.procs for s in p.mine}
        for p in self.procs:
            p.learn_boxes(boxes)
        self.expected: list[set[int]] = [set() for _ in self.procs]
        self.redeals: list[int] = []  # the ledger epochs of every re-deal, in order
        self.pending: list[int] = []  # those dealt for the action being settled
        self.applied = [1 for _ in self.procs]  # epochs each process's state has taken
        self.rounds = self.trap_claims = self.shown_to_seat = 0
        self.seed = seed
        self.deal(list(range(len(values))), values)
        e0 = self.ledger.epochs[0]
        coms = self.coms = [commit_of(e0, j) for j in range(len(values))]
        self.states: list[Any] = []
        faces = self.god()
        ref = Reference(self.hooks, [faces[c] for c in range(len(values))],
                        [f"{c:032x}" for c in range(len(values))])
        ref.coms, ref.game = list(coms), self
        ref.history = [[c, ref.values[c], ref.salts[c], 0] for c in range(len(values))]
        self.ref = ref
        self.full = rs.new_game(self.opts, seed, deal=ref.game_deal())
        ref.attach(self.full)

    def start(self) -> None:
        """The start, settled like an action: every process sets the game up with the faces
        it knows (``new_game``); the first card dealt (in the deal's order) that its holder
        does not know is opened to it, a card the holder's set-up then makes public (a Trap!
        dealt goes off) to everyone, and so on until nothing more opens (opening a whole
        hand at once would be wrong: a Trap! set aside moves every later card to another
        seat). Then every process
        sets up its own partial state, and the reference says what it would reveal."""
        rs, n = self.rs, len(self.coms)
        blind = rs.new_game(self.opts, self.seed, deal=self.hooks.deal([""] * n, self.coms))
        # the deal's order: the hands in seat order, then the draw pile (Wiz-War deals 7
        # cards to each seat in turn; nothing known, nothing is set aside)
        order = {c: k for k, c in enumerate(
            [c for w in blind.wizards for c in w.hand] + list(blind.deck))}
        for _ in range(200):
            setups = [rs.new_game(self.opts, self.seed, deal=self.hooks.deal(
                [p.known.get(c, "") for c in range(n)], self.coms)) for p in self.procs]
            trials = {i: Trial(True, sorted(self.hooks.public(st)), {},
                               {s: sorted(cs) for s, cs in self.hooks.holders(st).items()})
                      for i, st in enumerate(setups)}
            steps = next_steps(trials, self.plays(), self.knows(), {}, order.__getitem__)
            for step in steps:
                self.open(list(step.slots), step.to)
            if steps[-1].kind == "apply":
                break
        else:
            raise AssertionError("the start never settled")
        self.states = [rs.new_game(self.opts, self.seed, deal=self.hooks.deal(
            [p.known.get(c, "") for c in range(n)], self.coms)) for p in self.procs]
        pre, private = self.ref.start_reveals(self.full)
        for c, _f, _s in pre:
            for exp in self.expected:
                exp.add(c)
        for seat, got in private.items():
            self.expected[self.at(seat)].update(c for c, _f, _s in got)
        h = rs.state_hash(self.full)
        for i, st in enumerate(self.states):
            assert rs.state_hash(st) == h, ("the start", GROUPS[i])
            assert set(self.procs[i].known) == self.expected[i], ("the start", GROUPS[i])

    @property
    def ledger(self) -> Any:
        return self.procs[0].ledger

    def god(self) -> dict[int, str]:
        keys: dict[str, Any] = {}
        for p in self.procs:
            keys.update(p.reveal()["keys"])
        return self.ledger.audit(keys)

    def at(self, seat: str) -> int:
        return next(i for i, p in enumerate(self.procs) if seat in p.mine)

    # -- the network -------------------------------------------------------------------
    def send(self, msg: dict[str, Any]) -> None:
        for p in self.procs:
            if msg["type"] == "mask":
                p.take_step(msg)
            else:
                p.take_shares(msg)

    def deal(self, slots: list[int], faces: list[str]) -> None:
        for p in self.procs:
            p.begin(slots, faces)
        while (msg := next((m for p in self.procs if (m := p.step()) is not None), None)):
            self.send(msg)

    def open(self, slots: list[int], to: str = "") -> None:
        for p in self.procs:
            msg = p.shares(slots, to)
            if msg["shares"]:
                self.send(msg)
        if to:
            self.procs[self.at(to)].open_own(slots)
        self.sync()

    def public(self, c: int) -> bool:
        return all(c in p.known for p in self.procs)

    def sync(self) -> None:
        """Each process's state takes the faces it learnt, for slots its state already
        holds in that deal (a re-deal dealt ahead takes them when it is applied)."""
        for i, p in enumerate(self.procs):
            if not self.states:
                return
            for c, f in p.known.items():
                if self.ledger.where[c][0] < self.applied[i] and \
                        self.states[i].faces[c] != f:
                    self.hooks.set_slot(self.states[i], c, f, self.states[i].commits[c])

    def plays(self) -> dict[int, list[str]]:
        return {i: list(p.mine) for i, p in enumerate(self.procs)}

    def knows(self) -> dict[int, set[int]]:
        return {i: set(p.known) for i, p in enumerate(self.procs)}

    def prepared(self, i: int) -> list[Prepared]:
        out = []
        for n in self.pending:
            e = self.ledger.epochs[n]
            out.append(Prepared(list(e.slots), [self.procs[i].known.get(c, "")
                                                for c in e.slots],
                                [commit_of(e, j) for j in range(len(e.slots))]))
        return out

    # -- one action ----------------------------------------------------------------------
    def settle(self, action: Any) -> None:
        """The rounds of openings for ``action`` (module docstring), then its application
        everywhere, checked against the reference."""
        rs = self.rs
        deck = {c: k for k, c in enumerate(self.states[0].deck)}  # draw order, before
        held = {c: seat for seat, cs in self.hooks.holders(self.states[0]).items() for c in cs}
        self.pending = []
        # an action with sealed fields (Telepath's choose): a process playing no seat that
        # may know it whole applies its public form, as a peer does today
        sealed = rs.seal(self.states[self.at(action.actor)], action)
        forms = [action if sealed is None or set(p.mine) & set(sealed.knows)
                 else sealed.public for p in self.procs]

        def order(c: int) -> tuple[int, int]:
            n = self.ledger.where[c][0]
            if n in self.pending:
                return 1 + self.pending.index(n), self.ledger.epochs[n].slots.index(c)
            return (0, deck[c]) if c in deck else (99, c)

        for _ in range(100):
            self.rounds += 1
            trials = [trial(rs, st, forms[i], self.prepared(i))
                      for i, st in enumerate(self.states)]
            assert trials[self.at(action.actor)].ok, f"the actor's trial refused {action}"
            steps = next_steps(dict(enumerate(trials)), self.plays(), self.knows(), held,
                               order)
            for step in steps:
                if step.kind == "open":
                    self.trap_claims += not step.to and any(c in deck for c in step.slots)
                    self.shown_to_seat += sum(1 for c in step.slots
                                              if step.to and held.get(c, step.to) != step.to)
                    self.open(list(step.slots), step.to)
                elif step.kind == "redeal":
                    pile = list(step.slots)
                    self.deal(pile, [self.procs[0].known[c] for c in pile])
                    self.pending.append(len(self.ledger.epochs) - 1)
                    self.redeals.append(len(self.ledger.epochs) - 1)
            if steps[-1].kind == "apply":
                break
        else:
            raise AssertionError(f"the openings for {action} never settled")
        for i, st in enumerate(self.states):
            dealer = TrialDealer(self.hooks, self.prepared(i))
            self.hooks.attach(st, dealer)
            rs.apply(st, forms[i])
            assert dealer.used == len(self.pending)
            self.applied[i] += len(self.pending)
        self.sync()
        self.reference(action)

    def reference(self, action: Any) -> None:
        """The trusted dealer's game: the same hash, and what it would reveal to each
        seat is exactly what each process knows."""
        ref, rs = self.ref, self.rs
        before = ref.begin(self.full, action)
        rs.apply(self.full, action)
        rev = ref.finish(self.full, before)
        again = {c for rb in rev["reblind"] for c in rb["cids"]}
        for exp in self.expected:
            exp.difference_update(again)
        for c, _f, _s in rev["pre"]:
            if c not in again:
                for exp in self.expected:
                    exp.add(c)
        for rb in rev["reblind"]:
            for c, _f, _s in rb["public"]:
                for exp in self.expected:
                    exp.add(c)
        for seat, got in rev["private"].items():
            self.expected[self.at(seat)].update(c for c, _f, _s in got)
        h = rs.state_hash(self.full)
        for i, st in enumerate(self.states):
            assert rs.state_hash(st) == h, (action, GROUPS[i])
            assert set(self.procs[i].known) == self.expected[i], (action, GROUPS[i])
            for c, f in self.procs[i].known.items():
                assert ref.values[c] == f


def test_whole_games_with_no_full_state_anywhere() -> None:
    """Whole 4-seat games, every action settled by mental poker between processes that
    each hold only their own cards: the same games as the trusted dealer's, every process
    knowing exactly what that dealer would tell its seats after the start and after every
    action; at the end every process's audit opens the deal played. Between them the games
    deal a Trap! at the start, draw one later, reshuffle, and show a hand to another seat
    (Telepath)."""
    rounds = traps = shown = redeals = 0
    for seed in (b"mental-poker-game-9", b"mental-poker-game-23"):
        g = MentalGame(seed)
        rs = g.rs
        g.start()
        traps += len(g.full.discard)  # a Trap! dealt is set aside at the start
        actions = 0
        while not rs.result(g.full).over and actions < 1500:
            seat = rs.to_move(g.full)[0]
            action = rs.bot_act(g.states[g.at(seat)], seat)  # chosen on its own state
            g.settle(action)
            actions += 1
        assert rs.result(g.full).over
        rounds += g.rounds
        traps += g.trap_claims
        shown += g.shown_to_seat
        redeals += len(g.redeals)
        keys: dict[str, Any] = {}
        for p in g.procs:
            keys.update(p.reveal()["keys"])
        for p in g.procs:
            faces = p.audit(keys)
            assert [faces[c] for c in range(len(g.ref.values))] == g.ref.values
    assert traps >= 2 and shown >= 1 and redeals >= 2, (traps, shown, redeals, rounds)
