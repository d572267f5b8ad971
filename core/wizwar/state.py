"""The Wiz-War game state: wizards, the board's changing parts, the card zones, the turn.

Card faces are read only through the zone API (:meth:`State.face`); every card is an
instance id into ``State.faces``. A peer that does not know a face holds ``""`` there and
must receive a reveal before a rule can read it (design.md, Hidden information).
The state round-trips through :meth:`State.to_wire` / :meth:`State.from_wire` (canonical
msgpack) and :func:`state_hash` digests that form.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from hashlib import blake2b
from operator import attrgetter
from typing import Any

from msgpack import packb as _packb

from core.codec import canonical as _canon
from core.codec import pack
from core.rng import Rng
from core.wizwar.board import Edge, Layout, Square

START_LIFE = 15
HAND_LIMIT = 7
WALL_HP = 20
DOOR_HP = 15
BUSH_HP = 5
BASE_MOVES = 3


@dataclass
class Condition:
    """A duration or permanent effect on a wizard (cards.md §1.6).

    ``count`` is how many of the recipient's turns have begun since the casting; the effect
    ends at the start of one of the caster's turns once ``count >= duration``.
    ``duration`` 0 means permanent.
    """

    slug: str
    caster: str
    duration: int
    count: int = 0


@dataclass
class Wizard:
    """One player's wizard and hand. ``seat`` is ``"P1"``..; ``at`` is None off the board."""

    seat: str
    name: str
    at: Square | None
    home: Square | None
    life: int = START_LIFE
    hand: list[int] = field(default_factory=list)
    displayed: list[int] = field(default_factory=list)
    carrying: str = ""
    lost_turns: int = 0
    alive: bool = True
    out: bool = False
    conditions: list[Condition] = field(default_factory=list)

    @property
    def in_game(self) -> bool:
        """Neither dead nor out by treasures."""
        return self.alive and not self.out

    def has(self, slug: str) -> bool:
        """True if a condition ``slug`` is active on this wizard."""
        return any(c.slug == slug for c in self.conditions)


@dataclass
class EdgeState:
    """Something standing on an edge. ``kind``: wall, door, door-jammed, wall-of-fire,
    illusion-wall; ``hp`` left; ``created`` by a card. An illusion wall also keeps its
    ``caster``, the seats that have ``rolled`` for it and those who ``believe`` it."""

    kind: str
    hp: int
    created: bool = False
    caster: str = ""
    rolled: list[str] = field(default_factory=list)
    believe: list[str] = field(default_factory=list)


@dataclass
class Counter:
    """A counteraction played on the open stack.

    ``answers`` is the index in the counters list of the card it answers (Anti-Anti), or -1
    for the attack itself. ``side`` is ``"attacker"`` or ``"defender"``.
    """

    player: str
    cid: int
    slug: str
    side: str
    answers: int = -1
    number_cid: int | None = None
    value: int = 0
    target: str = ""


@dataclass
class Window:
    """An open answer window: an attack on the stack, or an indirect damage event.

    Attributes:
        kind: ``"attack"`` or ``"indirect"``.
        attacker: who played the attack (for indirect damage: the player whose action caused
            it, or "" for none).
        defender: the target wizard (for indirect damage: the damaged wizard).
        source: the attack's card slug, ``"punch"``, or the indirect source (``destroy-wall``,
            ``thornbush``, ``trap``).
        cid: the attack card's instance id (None for a punch or indirect damage).
        number_cid: its number card (discarded with it).
        value: the final number V of the attack, or the indirect damage.
        target: the target text (``P2``).
        mode: card-specific detail (``throw``) or "".
        physical: True for physical damage.
        counters: the counteractions played, in order.
        to_answer: whose answer is awaited.
        passes: consecutive passes (playing the attack counts as the attacker's pass).
        push_dir: for pushes, the direction chosen at declaration.
        arg: a card-specific argument fixed at declaration (Teleport Opponent's ``to=``).
    """

    kind: str
    attacker: str
    defender: str
    source: str
    value: int
    to_answer: str
    cid: int | None = None
    number_cid: int | None = None
    target: str = ""
    mode: str = ""
    physical: bool = False
    counters: list[Counter] = field(default_factory=list)
    passes: int = 0
    push_dir: str = ""
    arg: str = ""


@dataclass
class Turn:
    """Bookkeeping of the turn in progress (the active player's)."""

    active: str
    moves_used: int = 0
    boost: int = 0
    attacked: bool = False
    picked_up: bool = False
    extra: bool = False
    speed_pending: int = 0
    open_doors: list[Edge] = field(default_factory=list)
    stopped: bool = False
    draws_left: int = 0
    ending: bool = False
    lost_rest: bool = False
    power_run: bool = False
    teleported: bool = False
    swapped: bool = False
    modifiers: list[list[Any]] = field(default_factory=list)  # [slug, number] waiting
    pass_edge: str = ""  # Pass Through Wall: the edge that may be crossed once this turn
    played: list[str] = field(default_factory=list)  # non-attack spells cast this turn


@dataclass
class Script:
    """Forced chance outcomes for conformance scenarios (notation.md): dice, reshuffles, picks.

    ``None`` lists mean "use the RNG". An exhausted list raises :class:`ScriptExhausted`.
    """

    dice: list[int] | None = None
    reshuffles: list[list[str]] | None = None
    picks: list[str] | None = None


def _row_major(sq: Square) -> tuple[int, int]:
    """The sort key of the board's square order (``Layout.squares``: row by row)."""
    return (sq[1], sq[0])


class ScriptExhausted(RuntimeError):
    """A scenario ran out of forced dice, picks or reshuffles (a scenario FAIL)."""


@dataclass
class State:
    """The whole game state. Mutated in place by ``rules.apply``.

    Attributes:
        layout: the board geometry (immutable). layout_spec: how to rebuild it
            (see :func:`build_layout`).
        wizards: per seat, in seat order.
        faces: card instance id -> slug (the zone API reads it via :meth:`face`).
        deck: draw pile, top first. discard: the discard pile, oldest first.
        edges: every wall/door standing, by edge key.
        bushes: thornbush squares -> hp. stones: stone-block squares (sorted).
        floor: loose objects as (square, card id), in the order they were dropped.
        treasures: treasure name (``P2.t1``) -> square, or None when carried or absent.
        turn: the turn in progress. round: the round number (1 forbids attacks).
        first: the seat that begins rounds. windows: open answer windows (first = current).
        discarding: seats that must discard down to their hand limit, in order.
        winner: the winning seat or "". eliminated: seats out of the game, in order.
        rng: the game's generator. script: forced outcomes (scenarios only).
        options: game options (str -> int/str). deck_kind: "full" (or "scenario" in scenario files).
        commits: networked games: the dealer's salted commitment to each card's face (hex),
            public; empty in a local game.
        dealer: networked games: the object that re-blinds reshuffled cards
            (``reblind(state, cids)``) and serves the reveals the rules request
            (``show(state, cids, to)``, :meth:`show`); never serialised, None in a local
            game.
        choice: Telepath's pending choice, ``[chooser, target]`` (the chooser must ``choose``).
        retreats: forced retreats to walk, ``[seat, from-square, squares]`` (Go Away, Ugly).
    """

    layout: Layout
    layout_spec: dict[str, Any]
    wizards: list[Wizard]
    faces: list[str]
    deck: list[int]
    discard: list[int]
    edges: dict[Edge, EdgeState]
    bushes: dict[Square, int]
    stones: list[Square]
    floor: list[tuple[Square, int]]
    treasures: dict[str, Square | None]
    turn: Turn
    round: int
    first: str
    rng: Rng
    windows: list[Window] = field(default_factory=list)
    discarding: list[str] = field(default_factory=list)
    winner: str = ""
    eliminated: list[str] = field(default_factory=list)
    script: Script = field(default_factory=Script)
    options: dict[str, Any] = field(default_factory=dict)
    deck_kind: str = "full"
    seq: int = 0
    commits: list[str] = field(default_factory=list)
    choice: list[str] = field(default_factory=list)  # Telepath: [chooser, target] pending
    retreats: list[list[Any]] = field(default_factory=list)  # [seat, from-square, n] queued
    dealer: Any = field(default=None, compare=False, repr=False)

    # ---- the zone API -------------------------------------------------------------------
    def face(self, cid: int) -> str:
        """The slug of card instance ``cid``: the only place rules read a card's face.

        ``""`` when this process does not know it (another player's hand, the draw pile in a
        networked game). Rules only ever test such a face for a card that the dealer reveals
        whenever the test would succeed (a Trap! drawn, a stone burnt), so "" reads as "not
        that card" safely.
        """
        return self.faces[cid]

    def public_cards(self) -> set[int]:
        """Card instances whose faces every player knows: the discard pile, loose objects,
        displayed cards and the cards on the open stack."""
        out = set(self.discard)
        out.update(c for _s, c in self.floor)
        for w in self.wizards:
            out.update(w.displayed)
        for win in self.windows:
            for c in (win.cid, win.number_cid):
                if c is not None:
                    out.add(c)
            for k in win.counters:
                out.add(k.cid)
                if k.number_cid is not None:
                    out.add(k.number_cid)
        return out

    def show(self, cids: list[int], to: str = "") -> None:
        """The rules show the faces of ``cids`` to seat ``to`` (``""``: to everyone): in a
        networked game the dealer opens them to whoever may now see them
        (:class:`core.engine.Dealing`, reveals requested by the rules); nothing happens in a
        local game, where every face is known."""
        if self.dealer is not None and cids:
            show = getattr(self.dealer, "show", None)
            if show is not None:
                show(self, list(cids), to)

    def reveal(self, cid: int, face: str, salt: str = "") -> None:
        """Learn the face of ``cid`` (a dealer's reveal). With commitments, the face and salt
        must open the card's commitment. Raises ``ValueError`` on a bad reveal."""
        if not 0 <= cid < len(self.faces):
            raise ValueError(f"no card {cid}")
        if self.commits:
            if commitment(face, salt) != self.commits[cid]:
                raise ValueError(f"the reveal of card {cid} does not match its commitment")
        elif self.faces[cid] not in ("", face):
            raise ValueError(f"card {cid} is already known as {self.faces[cid]}")
        self.faces[cid] = face

    def hand_slugs(self, seat: str) -> list[str]:
        """The slugs in ``seat``'s hand (displayed cards included)."""
        return [self.face(c) for c in self.wizard(seat).hand]

    def find_in_hand(self, seat: str, slug: str) -> int | None:
        """A card instance of ``slug`` in ``seat``'s hand, preferring undisplayed ones."""
        w = self.wizard(seat)
        best = None
        for c in w.hand:
            if self.face(c) == slug:
                if c not in w.displayed:
                    return c
                best = c
        return best

    # ---- lookups ------------------------------------------------------------------------
    def wizard(self, seat: str) -> Wizard:
        """The wizard of ``seat``. Raises ``KeyError`` for an unknown seat."""
        for w in self.wizards:
            if w.seat == seat:
                return w
        raise KeyError(f"no player {seat}")

    @property
    def seats(self) -> list[str]:
        """All seats in order."""
        return [w.seat for w in self.wizards]

    def wizards_at(self, sq: Square) -> list[Wizard]:
        """Wizards standing on ``sq`` (in seat order)."""
        return [w for w in self.wizards if w.in_game and w.at == sq]

    def tokens_at(self, sq: Square) -> list[str]:
        """Token names lying in ``sq`` (notation.md: object slugs, treasure names,
        ``thornbush``, ``stone-block``)."""
        out = [self.face(c) for s, c in self.floor if s == sq]
        out += [t for t, s in sorted(self.treasures.items()) if s == sq]
        if sq in self.bushes:
            out.append("thornbush")
        if sq in self.stones:
            out.append("stone-block")
        return out

    def tokens_by_square(self) -> dict[Square, tuple[str, ...]]:
        """``tokens_at`` of every square of the board that has a token, in one pass over the
        tokens (not one per square): the same lists, keyed in the board's square order
        (row-major) and leaving out squares not on the board, like asking ``tokens_at`` of
        every square of ``layout.squares()``."""
        found: dict[Square, list[str]] = {}
        for s, c in self.floor:
            found.setdefault(s, []).append(self.face(c))
        for t, where in sorted(self.treasures.items()):
            if where is not None:
                found.setdefault(where, []).append(t)
        for s in self.bushes:
            found.setdefault(s, [])
        for s in self.stones:
            found.setdefault(s, [])
        on_board = self.layout._square_objects
        out: dict[Square, tuple[str, ...]] = {}
        for sq in sorted((s for s in found if s in on_board), key=_row_major):
            tk = found[sq]
            if sq in self.bushes:
                tk.append("thornbush")
            if sq in self.stones:
                tk.append("stone-block")
            out[on_board[sq]] = tuple(tk)
        return out

    def team_of(self, seat: str) -> tuple[str, ...]:
        """The seats of ``seat``'s team, in seat order: ``("P1", "P3")`` or ``("P2", "P4")``
        in the team variant, else ``(seat,)``. Source: rulebook, Team play option (4 players:
        the 1st and 3rd are one team, the 2nd and 4th the other)."""
        if not self.options.get("team"):
            return (seat,)
        seats = self.seats
        i = seats.index(seat)
        return tuple(s for j, s in enumerate(seats) if j % 2 == i % 2)

    def allies(self, a: str, b: str) -> bool:
        """True when seats ``a`` and ``b`` are on one team (a seat is its own ally)."""
        return b in self.team_of(a)

    def home_owner(self, sq: Square) -> Wizard | None:
        """The wizard whose home base is ``sq``, if any."""
        for w in self.wizards:
            if w.home == sq:
                return w
        return None

    # ---- serialisation ------------------------------------------------------------------
    def to_wire(self, public: bool = False) -> dict[str, Any]:
        """The canonical msgpack-ready form of the whole state (str keys, lists, ints).

        ``public=True`` blanks every face that is not public (:meth:`public_cards`): the form
        every peer of a networked game holds identically, which the state hash digests.
        """
        from core.wizwar.board import edge_name, square_name

        def sq(s: Square | None) -> str:
            return "" if s is None else square_name(s)

        return {
            "layout": _fresh(self.layout_spec),
            "wizards": [[w.seat, w.name, sq(w.at), sq(w.home), w.life, list(w.hand),
                         list(w.displayed), w.carrying, w.lost_turns, w.alive, w.out,
                         [[c.slug, c.caster, c.duration, c.count] for c in w.conditions]]
                        for w in self.wizards],
            "faces": self._faces_wire(public),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "edges": {edge_name(e): [v.kind, v.hp, v.created, v.caster, list(v.rolled),
                                     list(v.believe)] for e, v in self.edges.items()},
            "bushes": {square_name(s): hp for s, hp in self.bushes.items()},
            "stones": [square_name(s) for s in self.stones],
            "floor": [[square_name(s), c] for s, c in self.floor],
            "treasures": {t: sq(s) for t, s in self.treasures.items()},
            "turn": [self.turn.active, self.turn.moves_used, self.turn.boost, self.turn.attacked,
                     self.turn.picked_up, self.turn.extra, self.turn.speed_pending,
                     [edge_name(e) for e in self.turn.open_doors], self.turn.stopped,
                     self.turn.draws_left, self.turn.ending, self.turn.lost_rest,
                     self.turn.power_run, self.turn.teleported, self.turn.swapped,
                     [list(m) for m in self.turn.modifiers], self.turn.pass_edge,
                     list(self.turn.played)],
            "round": self.round,
            "first": self.first,
            "rng": self.rng.to_wire(),
            "windows": [window_to_wire(w) for w in self.windows],
            "discarding": list(self.discarding),
            "winner": self.winner,
            "eliminated": list(self.eliminated),
            "script": _fresh([self.script.dice, self.script.reshuffles, self.script.picks]),
            "options": dict(self.options),
            "deck_kind": self.deck_kind,
            "seq": self.seq,
            "commits": list(self.commits),
            "choice": list(self.choice),
            "retreats": [list(r) for r in self.retreats],
        }

    def _faces_wire(self, public: bool) -> list[str]:
        if not public:
            return list(self.faces)
        shown = self.public_cards()
        return [f if i in shown else "" for i, f in enumerate(self.faces)]

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_wire`. Raises ``KeyError``/``ValueError`` if malformed.

        The state shares no list or dict with ``d``: a replay restores one checkpoint many
        times, and playing on from it must not change the checkpoint (an illusion wall's
        belief rolls were once appended to the stored wire form itself)."""
        from core.wizwar.board import parse_edge, parse_square

        d = _fresh(d)

        def sq(s: str) -> Square | None:
            return None if s == "" else parse_square(s)

        wizards = []
        for (seat, name, at, home, life, hand, displayed, carrying, lost, alive, out,
             conds) in d["wizards"]:
            wizards.append(Wizard(seat, name, sq(at), sq(home), life, list(hand),
                                  list(displayed), carrying, lost, alive, out,
                                  [Condition(*c) for c in conds]))
        t = d["turn"]
        turn = Turn(t[0], t[1], t[2], t[3], t[4], t[5], t[6], [parse_edge(e) for e in t[7]],
                    t[8], t[9], t[10], t[11], t[12], t[13], t[14],
                    [list(m) for m in t[15]], t[16], list(t[17]))
        sc = d["script"]
        return cls(
            layout=build_layout(d["layout"]),
            layout_spec=dict(d["layout"]),
            wizards=wizards,
            faces=list(d["faces"]),
            deck=list(d["deck"]),
            discard=list(d["discard"]),
            edges={parse_edge(k): EdgeState(*v) for k, v in d["edges"].items()},
            bushes={parse_square(k): v for k, v in d["bushes"].items()},
            stones=[parse_square(s) for s in d["stones"]],
            floor=[(parse_square(s), c) for s, c in d["floor"]],
            treasures={k: sq(v) for k, v in d["treasures"].items()},
            turn=turn,
            round=d["round"],
            first=d["first"],
            rng=Rng.from_wire(d["rng"]),
            windows=[window_from_wire(w) for w in d["windows"]],
            discarding=list(d["discarding"]),
            winner=d["winner"],
            eliminated=list(d["eliminated"]),
            script=Script(sc[0], sc[1], sc[2]),
            options=dict(d["options"]),
            deck_kind=d["deck_kind"],
            seq=d["seq"],
            commits=list(d.get("commits", [])),
            choice=list(d.get("choice", [])),
            retreats=[list(r) for r in d.get("retreats", [])],
        )


def _fresh(v: Any) -> Any:
    """A copy of plain wire data (lists, tuples, dicts of scalars) sharing no container."""
    t = type(v)
    if t is list:
        return [_fresh(x) for x in v]
    if t is dict:
        return {k: _fresh(x) for k, x in v.items()}
    if t is tuple:
        return tuple(_fresh(x) for x in v)
    return v


def window_to_wire(w: Window) -> list[Any]:
    """Canonical list form of an answer window."""
    return [w.kind, w.attacker, w.defender, w.source, w.value, w.to_answer, w.cid,
            w.number_cid, w.target, w.mode, w.physical,
            [[c.player, c.cid, c.slug, c.side, c.answers, c.number_cid, c.value, c.target]
             for c in w.counters], w.passes, w.push_dir, w.arg]


def window_from_wire(d: list[Any]) -> Window:
    """Inverse of :func:`window_to_wire`."""
    return Window(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10],
                  [Counter(*c) for c in d[11]], d[12], d[13], d[14])


#: Boards already built, by the canonical bytes of their spec, most recently used last. A
#: layout is immutable (only its memo tables fill up), so games with the same board share
#: one and its line-of-sight tables (issue 6: performance); Rotate and Relocate Sector
#: bring back boards seen before. Bounded by count and by the line-of-sight answers held
#: (about 2 KB each: the full table of a 4-player board, 30,000 targets, takes some 66 MB;
#: one game fills a fraction of it).
_LAYOUT_MEMO: dict[bytes, Layout] = {}
_LAYOUT_MEMO_SIZE = 64
_LAYOUT_LOCK = threading.Lock()


def build_layout(spec: dict[str, Any]) -> Layout:
    """Build the board geometry from its spec (deterministic).

    ``{"kind": "open", "size": "9x9", "walls": [...], "doors": [...], "exits": [[a, b], ...]}``
    for a scenario test board, or ``{"kind": "sectors", "players": 2|3|4, "sectors": [ids],
    "crossed": 0|1}`` for the real board, with ``"rotations"`` (quarter turns per sector),
    ``"places"`` (3 players: each sector's quadrant) and ``"warp"`` (0 once the AUTO WARP is
    gone) after Rotate/Relocate Sector. Raises ``ValueError`` on a bad spec.
    The same spec gives the same (shared, immutable) layout while it stays in the memo.
    """
    try:
        key = pack(spec)
    except ValueError:  # not canonical data: build it without the memo (it will refuse it)
        return _build_layout(spec)
    with _LAYOUT_LOCK:  # bots may start or reshape boards in a worker thread
        got = _LAYOUT_MEMO.pop(key, None)
        if got is None:
            got = _build_layout(spec)
            # the line-of-sight tables are shared by geometry and bounded there
            # (board.geometry_cache); this memo only bounds the number of boards
            while len(_LAYOUT_MEMO) >= _LAYOUT_MEMO_SIZE:
                _LAYOUT_MEMO.pop(next(iter(_LAYOUT_MEMO)))
        _LAYOUT_MEMO[key] = got
    return got


def _build_layout(spec: dict[str, Any]) -> Layout:
    from core.wizwar.board import assemble, open_board

    kind = spec.get("kind")
    if kind == "open":
        w, _, h = str(spec["size"]).partition("x")
        if not (w.isdigit() and h.isdigit()):
            raise ValueError(f"bad board size {spec['size']!r} (columns x rows, e.g. 9x9)")
        return open_board(int(w), int(h), walls=tuple(spec.get("walls", ())),
                          doors=tuple(spec.get("doors", ())),
                          exits=tuple(tuple(p) for p in spec.get("exits", ())))
    if kind == "sectors":
        return assemble(int(spec["players"]), list(spec["sectors"]),
                        crossed=bool(spec.get("crossed", 0)),
                        rotations=spec.get("rotations"), places=spec.get("places"),
                        warp=bool(spec.get("warp", 1)))
    raise ValueError(f"unknown board kind {kind!r}")


def state_hash(state: State) -> str:
    """A short digest (blake2b, 16 hex chars) of the canonical msgpack form of the public
    state: every face not public is left out, the dealer's commitments are in.

    Same log, same hash, in any process, under any PYTHONHASHSEED, on every peer of a
    networked game whatever hand it holds (design.md, State hash; the LAN issue).
    The bytes digested are exactly ``pack(state.to_wire(public=True))`` (so the hashes
    stored in older logs still verify), written by :func:`public_wire_bytes` without the
    generic canonical walk (issue 6: performance; tests/test_state_hash.py checks that the
    two agree).
    """
    return blake2b(public_wire_bytes(state), digest_size=8).hexdigest()


_EDGE_ROW = attrgetter("kind", "hp", "created", "caster", "rolled", "believe")
_EMPTY_SCRIPT = (None, None, None)
#: The top-level map of ``to_wire`` has 25 keys: a map16 header. Its keys before "edges"
#: (7: a fixmap of one header byte), "edges", "eliminated" (a fixmap of one), "faces" and
#: the 15 keys after "faces" (a fixmap of one header byte) are packed as maps whose headers
#: are replaced by this one, the edges' and the faces' bytes spliced between them.
_TOP_HEADER = b"\xde\x00\x19"
_EDGES_KEY = _packb("edges")
_FACES_KEY = _packb("faces")
#: By the edge keys standing (in the dict's order): their names (in that order), the
#: positions in sorted name order, a snapshot of the rows the bytes were made from (each
#: edge's fields, with *copies* of its ``rolled`` and ``believe`` lists: a list changed in
#: place later no longer equals its copy, so the snapshot never matches a changed edge), the
#: packed name and row of each edge (in the dict's order) and the whole packed map. The
#: walls and doors standing rarely change; between two hashes a few rows do (a wall hit, a
#: belief rolled): only those are packed again (issue 14, seventh round: in a long game 95%
#: of the hashes, ten actions apart, met a changed row and packed every edge). Bounded
#: (cleared when full); entries are replaced whole (safe to read from several threads).
_EDGE_BYTES: dict[tuple[Edge, ...],
                  tuple[list[str], list[int], list[Any], list[bytes], bytes]] = {}
_EDGE_BYTES_SIZE = 256
#: By edge: the snapshot of its row and its packed entry, last made when the walls standing
#: differed from every entry of :data:`_EDGE_BYTES` (a wall put up or taken down). Bounded.
_EDGE_PIECES: dict[Edge, tuple[tuple[Any, ...], bytes]] = {}
_EDGE_PIECES_SIZE = 20_000
#: The last packed public faces list per thread: ``(faces copied, shown, bytes)``.
_FACES_BYTES = threading.local()


def _edge_piece(name: str, row: tuple[Any, ...]) -> bytes:
    """One entry of the packed edges map: the packed name, then the packed row (a list)."""
    return _packb(name) + _packb(row, use_bin_type=True)


def _map_header(n: int) -> bytes:
    """The msgpack header of a map of ``n`` entries (as ``packb`` writes it)."""
    if n < 16:
        return bytes((0x80 | n,))
    if n < 0x10000:
        return b"\xde" + n.to_bytes(2, "big")
    return b"\xdf" + n.to_bytes(4, "big")


def _row_copy(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A snapshot of one edge's row: its lists copied."""
    kind, hp, created, caster, rolled, believe = row
    return kind, hp, created, caster, list(rolled), list(believe)


def _edges_bytes(edges: dict[Edge, EdgeState]) -> bytes:
    """The packed canonical edges map of ``to_wire`` (names sorted; rows as lists), the same
    bytes as ``packb`` of that map: reused while every edge's row compares equal to the
    snapshot it was made from (one C-speed pass making the rows and one comparing them);
    otherwise only the entries of the rows that changed are packed again and the entries
    joined in name order under the map's header."""
    from core.wizwar.board import edge_name

    keys = tuple(edges)
    rows = list(map(_EDGE_ROW, edges.values()))
    got = _EDGE_BYTES.get(keys)
    if got is None:  # other walls stand: the entries of unchanged edges are kept by edge
        names = list(map(edge_name, keys))
        order = sorted(range(len(names)), key=names.__getitem__)
        snapshot, pieces = [], []
        kept = _EDGE_PIECES
        if len(kept) >= _EDGE_PIECES_SIZE:
            kept.clear()
        for e, name, row in zip(keys, names, rows, strict=True):
            old_piece = kept.get(e)
            if old_piece is not None and old_piece[0] == row:
                snapshot.append(old_piece[0])
                pieces.append(old_piece[1])
            else:
                was = _row_copy(row)
                piece = _edge_piece(name, row)
                kept[e] = (was, piece)
                snapshot.append(was)
                pieces.append(piece)
    else:
        names, order, before, old, data = got
        if before == rows:
            return data
        snapshot, pieces = list(before), list(old)
        for i, (row, was) in enumerate(zip(rows, before, strict=True)):
            if row != was:
                snapshot[i] = _row_copy(row)
                pieces[i] = _edge_piece(names[i], row)
    data = _map_header(len(pieces)) + b"".join(map(pieces.__getitem__, order))
    if len(_EDGE_BYTES) >= _EDGE_BYTES_SIZE:
        _EDGE_BYTES.clear()
    _EDGE_BYTES[keys] = (names, order, snapshot, pieces, data)
    return data


def _faces_bytes(state: State) -> bytes:
    """The packed public faces list of ``to_wire`` (a face not public is ""), reused while
    the faces and the set of public cards are those it was made from (per thread)."""
    faces, shown = state.faces, state.public_cards()
    got = getattr(_FACES_BYTES, "last", None)
    if got is not None and got[1] == shown and got[0] == faces:
        return got[2]
    data = _packb([f if i in shown else "" for i, f in enumerate(faces)], use_bin_type=True)
    _FACES_BYTES.last = (list(faces), shown, data)
    return data


def public_wire_bytes(state: State) -> bytes:
    """``pack(state.to_wire(public=True))``, the same bytes, built faster (issues 6, 14).

    Every map is built with its keys already in sorted order (the top level literally; the
    edges, bushes and treasures by sorting their names once) and handed to msgpack whole;
    tuples stand for lists (msgpack writes both as arrays). The packed edges map is reused
    while the walls and doors standing are unchanged (checked field by field), the packed
    faces list while the faces and the public cards are. Only the small free-form parts (the
    board spec, options, script, forced retreats, waiting modifiers) go through the generic
    canonical walk, which raises ``CodecError`` as ``pack`` would.

    Only values of the types the state holds are written (int, bool, str, bytes, None):
    ``pack`` would refuse a float anywhere, this writer only in the free-form parts.
    """
    from core.wizwar.board import edge_name, square_name

    t = state.turn
    sc = state.script
    sn = square_name
    wizards = []
    for w in state.wizards:
        wizards.append((w.seat, w.name, "" if w.at is None else sn(w.at),
                        "" if w.home is None else sn(w.home), w.life, w.hand, w.displayed,
                        w.carrying, w.lost_turns, w.alive, w.out,
                        [(c.slug, c.caster, c.duration, c.count) for c in w.conditions]))
    bushes = state.bushes
    before = {
        "bushes": dict(sorted(zip(map(sn, bushes), bushes.values(), strict=True))),
        "choice": state.choice,
        "commits": state.commits,
        "deck": state.deck,
        "deck_kind": state.deck_kind,
        "discard": state.discard,
        "discarding": state.discarding,
    }
    after = {
        "first": state.first,
        "floor": [(sn(s), c) for s, c in state.floor],
        "layout": _canon(state.layout_spec),
        "options": _canon(state.options) if state.options else {},
        "retreats": _canon(state.retreats) if state.retreats else [],
        "rng": state.rng.to_wire(),
        "round": state.round,
        "script": (_EMPTY_SCRIPT if sc.dice is None and sc.reshuffles is None
                   and sc.picks is None else _canon([sc.dice, sc.reshuffles, sc.picks])),
        "seq": state.seq,
        "stones": [sn(s) for s in state.stones],
        "treasures": {k: "" if v is None else sn(v)
                      for k, v in sorted(state.treasures.items())},
        "turn": (t.active, t.moves_used, t.boost, t.attacked, t.picked_up, t.extra,
                 t.speed_pending, [edge_name(e) for e in t.open_doors], t.stopped,
                 t.draws_left, t.ending, t.lost_rest, t.power_run, t.teleported, t.swapped,
                 _canon(t.modifiers) if t.modifiers else [], t.pass_edge, t.played),
        "windows": [window_to_wire(w) for w in state.windows],
        "winner": state.winner,
        "wizards": wizards,
    }
    return b"".join((_TOP_HEADER, _packb(before, use_bin_type=True)[1:], _EDGES_KEY,
                     _edges_bytes(state.edges),
                     _packb({"eliminated": state.eliminated}, use_bin_type=True)[1:],
                     _FACES_KEY, _faces_bytes(state), _packb(after, use_bin_type=True)[1:]))


def commitment(face: str, salt: str) -> str:
    """The salted commitment to a card face: blake2b over ``salt|face`` (hex, 32 chars).
    ``salt`` is a hex string of at least 16 random bytes chosen by the dealer."""
    return blake2b(f"{salt}|{face}".encode(), digest_size=16).hexdigest()
