"""The game-agnostic contract every ruleset of the engine provides (design.md, core/).

Everything outside a ruleset's own folders (the log, ``net/``, the app shell) talks to a game
only through a :class:`Ruleset` found in :mod:`core.registry`, and through the values it hands
out: opaque *states*, *actions* (small immutable values with ``actor``, a canonical text form
``str(action)`` and ``to_wire()``), :class:`Event` lists, per-player *views*, a typed
:class:`Outcome` and the current :class:`Stage`.

The shapes, in one place:

* **Options** (:class:`Option`, :class:`OptionsSchema`): typed, with defaults and
  validation. The command-line flags, the new-game screen, the host form, the lobby, the
  discovery TXT record and the log header are all generated from the schema, so an option is
  never dropped on one path. A validated options map holds every option (``str`` keys; ``int``,
  ``bool`` or ``str`` values); :meth:`OptionsSchema.to_wire` is its canonical msgpack form.
* **Stages** (:class:`Stage`): who may act now and how: one player acting, an answer window
  (a stack), a simultaneous sealed stage (every listed player commits, then all reveal; the
  host applies the actions in seat order, so arrival order never matters), a reveal pause
  (nobody decides; a secret holder's opening is awaited), or over.
* **Secrets** (:class:`Secret`): what is hidden and who holds it (a dealer, or the player who
  owns it), for the dealer machinery and the no-leak checks. Dealer-held slots sit behind
  :class:`Dealing` (the rules request their reveals); an action's secret fields are marked by
  :meth:`Ruleset.seal` (:class:`Sealed`: sealed by the dealer, or by the owner's own process
  for an owner-held secret); a ``reveal`` stage about an owner-held secret is answered by the
  holder's process through :meth:`Ruleset.answer`; one audit at the end opens everything.
* **Outcome** (:class:`Outcome`): winners, draw, how it ended.

Rules that raise :class:`IllegalAction` leave the state exactly as it was (byte-identical
wire form). Determinism law: no clocks, no ``random``, no ``hash()``, no set order deciding
anything, no floats; all chance from the game's own generator.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

# ---- errors and events -----------------------------------------------------------------


class IllegalAction(ValueError):
    """An action the rules refuse. ``reason`` says why in words a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OptionError(ValueError):
    """An option value (or a combination of options) a ruleset refuses; the message names the
    option and says what is allowed, in words a player reads."""


class UnknownRuleset(LookupError):
    """A ruleset name the registry does not know (the message lists the ones it does)."""


@dataclass(frozen=True)
class Event:
    """Something that happened, for the app to show and the log to tell.

    Attributes:
        kind: a short tag, e.g. ``"damage"``, ``"move"``, ``"card"``, ``"turn"``, ``"win"``.
        text: one line in plain words (what a player would read in the event log).
        data: tag-specific details (str keys; ints, strs and lists only).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class ActionLike(Protocol):
    """What every ruleset's action values offer the shared machinery.

    ``actor`` is the seat that acts (``"P1"``...); ``str(action)`` is the canonical notation
    (``ruleset.parse_action(str(a)) == a``); ``to_wire()`` the canonical msgpack form
    (``ruleset.action_from_wire(a.to_wire()) == a``)."""

    @property
    def actor(self) -> str: ...

    def to_wire(self) -> Any: ...


# ---- options ---------------------------------------------------------------------------

OptionKind = Literal["int", "bool", "choice", "str"]


@dataclass(frozen=True)
class Option:
    """One typed game option.

    Attributes:
        name: the key in the options map (``snake_case``); the command-line flag is
            ``--name`` with ``_`` as ``-`` (``--bool-name`` / ``--no-bool-name`` for bools).
        kind: ``"int"``, ``"bool"``, ``"choice"`` (one of ``choices``, strings) or ``"str"``.
        default: the value when none is given (of the option's type).
        label: a short label for a form ("Players").
        help: one sentence for ``--help`` and the form's hint, in the game's own terms.
        choices: the allowed values: strings for ``choice``; for ``int`` an optional closed
            list of allowed ints (``(2, 3, 4)``).
        lo, hi: inclusive bounds for an ``int`` without ``choices`` (``None``: unbounded).
        public: shown in discovery TXT records and the lobby (every option is in the log).
        max_len: the longest ``str`` value accepted.
    """

    name: str
    kind: OptionKind
    default: Any
    label: str
    help: str = ""
    choices: tuple[Any, ...] = ()
    lo: int | None = None
    hi: int | None = None
    public: bool = True
    max_len: int = 64

    @property
    def flag(self) -> str:
        """The command-line flag, ``--crossed``."""
        return "--" + self.name.replace("_", "-")

    def allowed(self) -> str:
        """What values are allowed, in words ("2, 3 or 4", "yes or no")."""
        if self.kind == "bool":
            return "yes or no"
        if self.choices:
            items = [str(c) for c in self.choices]
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
        if self.kind == "int":
            if self.lo is not None and self.hi is not None:
                return f"a whole number from {self.lo} to {self.hi}"
            if self.lo is not None:
                return f"a whole number of at least {self.lo}"
            if self.hi is not None:
                return f"a whole number of at most {self.hi}"
            return "a whole number"
        return f"text of at most {self.max_len} characters"

    def coerce(self, value: Any) -> Any:
        """``value`` as this option's type: accepts the typed value or its text form (from a
        command line, a form field or a TXT record: ``"3"``, ``"yes"``/``"no"``/``"1"``/
        ``"0"``/``"true"``/``"false"``). Raises :class:`OptionError` naming the option."""
        bad = OptionError(f"{self.label} ({self.name}): {value!r} is not allowed; "
                          f"use {self.allowed()}")
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            if isinstance(value, str):
                t = value.strip().lower()
                if t in ("1", "yes", "y", "true", "on"):
                    return True
                if t in ("0", "no", "n", "false", "off", ""):
                    return False
            raise bad
        if self.kind == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                t = value.strip()
                if not (t.lstrip("-").isdigit() and len(t) <= 20):
                    raise bad
                value = int(t)
            if not isinstance(value, int):
                raise bad
            if self.choices and value not in self.choices:
                raise bad
            if (self.lo is not None and value < self.lo) or (self.hi is not None
                                                             and value > self.hi):
                raise bad
            return value
        if not isinstance(value, str):
            raise bad
        if self.kind == "choice":
            t = value.strip().lower()
            if t not in self.choices:
                raise bad
            return t
        if len(value) > self.max_len or not value.isprintable():
            raise bad
        return value


@dataclass(frozen=True)
class OptionsSchema:
    """A ruleset's options, in the order forms and ``--help`` show them.

    ``check`` (optional) refuses a combination of valid values (``team`` needs four players)
    by raising :class:`OptionError`."""

    options: tuple[Option, ...]
    check: Callable[[dict[str, Any]], None] | None = None

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __getitem__(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def names(self) -> list[str]:
        """The option names in order."""
        return [o.name for o in self.options]

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {o.name: o.default for o in self.options}

    def validate(self, values: Mapping[str, Any] | None = None, *,
                 partial_ok: bool = True) -> dict[str, Any]:
        """The full, typed options map from ``values`` (typed or text values; missing ones
        take their defaults unless ``partial_ok`` is false). Raises :class:`OptionError` for
        an unknown option, a bad value or a refused combination."""
        values = dict(values or {})
        unknown = sorted(k for k in values if k not in self.names())
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r} (options: "
                              f"{', '.join(self.names()) or 'none'})")
        out: dict[str, Any] = {}
        for o in self.options:
            if o.name in values:
                out[o.name] = o.coerce(values[o.name])
            elif partial_ok:
                out[o.name] = o.default
            else:
                raise OptionError(f"option {o.name!r} is missing")
        if self.check is not None:
            self.check(out)
        return out

    def to_wire(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Canonical msgpack-ready form of a validated map: bools as 0/1, every option."""
        v = self.validate(values)
        return {k: (int(x) if isinstance(x, bool) else x) for k, x in v.items()}

    def from_wire(self, data: Any) -> dict[str, Any]:
        """Validate a wire form (from a log header, a handshake). Raises
        :class:`OptionError` if it is not a map or holds a bad value."""
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise OptionError("the options are not a map of names to values")
        return self.validate(data)

    def to_txt(self, values: Mapping[str, Any]) -> dict[str, str]:
        """The public options as text (discovery TXT, lobby), bools as ``1``/``0``."""
        v = self.validate(values)
        return {o.name: (str(int(v[o.name])) if o.kind == "bool" else str(v[o.name]))
                for o in self.options if o.public}

    def describe(self, values: Mapping[str, Any]) -> str:
        """The options in words for a header or a list ("3 players, doors")."""
        v = self.validate(values)
        parts = []
        for o in self.options:
            x = v[o.name]
            if o.kind == "bool":
                if x:
                    parts.append(o.label.lower())
            elif x != o.default or o.name == "players":
                parts.append(f"{x} {o.label.lower()}" if o.kind == "int" else
                             f"{o.label.lower()} {x}")
        return ", ".join(parts)


# ---- stages, outcome, secrets ----------------------------------------------------------

StageKind = Literal["act", "answer", "sealed", "reveal", "over"]


@dataclass(frozen=True)
class Stage:
    """Who may act now, and how (design.md, Stages).

    Attributes:
        kind: ``"act"`` (one player acting), ``"answer"`` (an answer window: the listed
            players answer in turn), ``"sealed"`` (every listed player commits an action, then
            all reveal; the host applies them in seat order), ``"reveal"`` (no player decides:
            the game waits for the opening of a secret held by ``holder``) or ``"over"``.
        players: the players who may act now (empty in a reveal pause and when over), in seat
            order.
        window: an id of this decision point that changes whenever the set of decisions
            does (a proposal names the window it was made for; the host refuses a stale one).
        holder: in a reveal pause, whose opening is awaited.
        default: in a reveal pause, the logged action a clock times out into (notation).
    """

    kind: StageKind
    players: tuple[str, ...] = ()
    window: int = 0
    holder: str = ""
    default: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a game stands: over or not, who won, how.

    Attributes:
        over: True once the game has ended.
        winners: the winning seats (a team's seats together), seat order; empty on a draw.
        draw: True when the game ended with no winner (every wizard gone at once).
        how: a short tag (``"treasures"``, ``"last-standing"``, ``"resigned"``...).
        text: one sentence for the game-over screen and the saved-games list.
    """

    over: bool = False
    winners: tuple[str, ...] = ()
    draw: bool = False
    how: str = ""
    text: str = ""

    def to_wire(self) -> dict[str, Any]:
        """Canonical msgpack form (for the log's end record)."""
        return {"over": int(self.over), "winners": list(self.winners), "draw": int(self.draw),
                "how": self.how, "text": self.text}

    @classmethod
    def from_wire(cls, d: Any) -> Outcome:
        """Rebuild from :meth:`to_wire` (tolerant: a bad map gives "not over")."""
        if not isinstance(d, dict):
            return cls()
        w = d.get("winners", [])
        return cls(bool(d.get("over")), tuple(str(x) for x in w) if isinstance(w, list) else (),
                   bool(d.get("draw")), str(d.get("how", "")), str(d.get("text", "")))


@dataclass(frozen=True)
class Secret:
    """One kind of hidden value a ruleset has (design.md, Hidden information).

    Attributes:
        name: a short tag (``"card-faces"``, ``"trap-target"``, ``"block"``).
        holder: ``"dealer"`` (a dealer assigns and commits: a shuffled deck) or ``"owner"``
            (the player who owns it commits and opens it when the rules say).
        what: in words, what it is and who may see it.
    """

    name: str
    holder: Literal["dealer", "owner"]
    what: str


@dataclass(frozen=True)
class Budget:
    """The time a clock gives one decision of a player (``Ruleset.budget``), kept by the
    host (or a local app), never by the rules: the core reads no clock.

    Attributes:
        key: which budget this decision spends: decisions with one key share the time left
            (ArcoMage's turn budget, R111: ``"turn 7 P1"``); a key not seen before starts
            with :attr:`seconds` (a response budget: one key per decision).
        seconds: the budget's time when it starts (whole seconds, > 0).
        runs_out: the action the keeper enters, as an ordinary logged action, when the time
            left reaches 0 (ArcoMage: ``P1 timeout``, or the default answer, R112).
    """

    key: str
    seconds: int
    runs_out: Any


@dataclass(frozen=True)
class Sealed:
    """An action whose fields are secret to all but some seats (:meth:`Ruleset.seal`).

    Attributes:
        knows: the seats the rules let know the whole action (its owner first), seat order
            after the owner.
        public: the action every other peer (and a watcher) is sent and applies instead, with
            the secret fields left out (Wiz-War: ``P3 choose +31``, the card instance taken,
            not its face). Applied on a state that lacks the secret it must give the same
            state hash as the whole action on the full state.
        by: who seals it: ``"dealer"`` (the host, which sees every action: Telepath's
            choose) or ``"owner"`` (an owner-held secret, :class:`Secret` ``holder="owner"``:
            the acting seat's own process commits before it sends the action, so the host
            gets only the public form and the commitment, and neither it nor any other peer
            can read the secret before the end).
    """

    knows: tuple[str, ...]
    public: Any
    by: Literal["dealer", "owner"] = "dealer"


# ---- dealer-held secrets ---------------------------------------------------------------


def commitment(value: str, salt: str) -> str:
    """The salted commitment to a secret value: blake2b over ``salt|value`` (hex, 32 chars).
    ``salt`` is hex text of at least 16 random bytes chosen by whoever holds the value."""
    from hashlib import blake2b

    return blake2b(f"{salt}|{value}".encode(), digest_size=16).hexdigest()


class Dealing:
    """How a ruleset's dealer-held secrets sit in its state, for the generic dealer of a
    networked game (``net/dealer.py``) and the log's replay (design.md, Hidden information).

    The secrets are *slots* numbered ``0..n-1`` (Wiz-War: card instances), each holding a
    text *value* (a card's face) that the dealer assigns in secret and commits to with
    :func:`commitment`. The generic dealer keeps the values, salts, epochs (a re-deal gives
    slots new salts) and the audit; the ruleset says, through these hooks, which slots are
    public and which each seat holds; what a rule shows as it applies, the rules request
    themselves, so no hook second-guesses them by reading actions:

    **Reveals requested by the rules.** As they apply an action the rules call
    ``dealer.show(state, slots, to)`` on the object :meth:`attach` installed (``to``: a seat,
    or ``""`` for everyone); without a dealer (a local game) they ask nothing. The generic
    dealer serves the requests: a slot shown to everyone is opened to every peer before it
    applies the action (``pre``: the action may name it by its value), a slot shown to one
    seat is opened to that seat only (its ``private`` list). Wiz-War: a card played,
    discarded or dropped and the stones Stone Dead counts (to everyone), the hand Telepath
    shows (to the caster).

    This base class is a game with no dealer-held secret (no slots; every hook empty).
    """

    def values(self, options: Mapping[str, Any]) -> list[str]:
        """Every slot's value in a fixed order before the secret shuffle (the deck list)."""
        return []

    def deal(self, values: list[str], commits: list[str]) -> Any:
        """The ``deal`` argument of :meth:`Ruleset.new_game` from the slot values this
        process knows (``""`` for the others) and the commitments."""
        return None

    def attach(self, state: Any, dealer: Any) -> None:
        """Make the rules call ``dealer.reblind(state, slots)`` when they deal ``slots``
        again (a reshuffle): the dealer then assigns them anew behind fresh commitments."""

    def set_slot(self, state: Any, slot: int, value: str, commit: str) -> None:
        """Set a slot's value (``""``: unknown here) and commitment after a re-deal."""

    def reveal(self, state: Any, slot: int, value: str, salt: str) -> None:
        """Learn a slot's value; raises ``ValueError`` when ``(value, salt)`` does not open
        the slot's commitment."""
        raise ValueError(f"no secret slot {slot}")

    def public(self, state: Any) -> set[int]:
        """The slots whose values every player knows now."""
        return set()

    def holders(self, state: Any) -> dict[str, set[int]]:
        """Per seat (seat order), the slots it holds and so may see (a hand)."""
        return {}

    def draw_order(self, state: Any, start: bool = False) -> list[int]:
        """The slots in the order the rules deal them next (Wiz-War: the draw pile, top
        first); with ``start``, on a state just set up, the order its set-up dealt them
        (Wiz-War: each hand in seat order, then the draw pile). A dealer that opens a card
        to its holder only once the rules show who holds it (the mental-poker dealer,
        ``net/mental.py`` ``next_steps``) opens them in this order. Default: none."""
        return []


# ---- the ruleset -----------------------------------------------------------------------


class Ruleset(ABC):
    """One game of the engine. Implementations live in their own package (``core/<game>/``)
    and are found by name through :mod:`core.registry`; nothing else imports them.

    Class attributes:
        name: the registry name (``"wizwar"``), also in the log header, the handshake and
            discovery TXT.
        title: the game's name for people ("Wiz-War").
        version: the rules version; logs and peers of another version are refused in words.
        options: the :class:`OptionsSchema`.
        secrets: the :class:`Secret` kinds the game has.
        bot_levels: the bot levels, the default first.
        tools: the modules of the ruleset's headless tools, imported only when run
            (``{"selfplay": "core.wizwar.selfplay"}``: ``wizwar selfplay GAME``).
        seat_names: the seat ids, in seat order, for the largest table.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int]
    options: ClassVar[OptionsSchema]
    secrets: ClassVar[tuple[Secret, ...]] = ()
    bot_levels: ClassVar[tuple[str, ...]] = ()
    tools: ClassVar[dict[str, str]] = {}

    # -- setup --
    def validate_options(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The full typed options map. Raises :class:`OptionError`."""
        return self.options.validate(values)

    @abstractmethod
    def seats(self, options: Mapping[str, Any]) -> list[str]:
        """The seats of a game with these options, in seat order (``["P1", "P2"]``)."""

    @abstractmethod
    def new_game(self, options: Mapping[str, Any], seed: int | bytes | str, *,
                 names: Iterable[str] = (), deal: Any = None) -> Any:
        """A new game state. ``names``: display names per seat. ``deal``: what a dealer
        supplied for a networked game (its form is the ruleset's; ``None`` locally).
        Raises :class:`OptionError` for refused options."""

    # -- play --
    @abstractmethod
    def stage(self, state: Any) -> Stage:
        """The current :class:`Stage`."""

    def to_move(self, state: Any) -> list[str]:
        """The players who may act now (several in a sealed stage; none in a reveal pause
        or when over), seat order."""
        return list(self.stage(state).players)

    @abstractmethod
    def legal_actions(self, state: Any, player: str) -> list[Any]:
        """Exactly what :meth:`apply` accepts from ``player`` now, in a fixed order, each
        action once, except the members of the families :meth:`families` names (too large
        to list at every step; :meth:`expand` lists them on demand). So ``legal_actions``
        plus every family's members is exactly the accepted set: an app's action list and a
        bot can reach every action (the conformance suite checks it). Empty when ``player``
        may not act."""

    def expand(self, state: Any, player: str, family: str) -> list[Any]:
        """The members of one family named by :meth:`families` now: every action of that
        family :meth:`apply` accepts, in a fixed order, none of them in
        :meth:`legal_actions`. ``[]`` for a name not in :meth:`families` now. No side effect.
        Called on demand (an app's "more" prompt, a bot that wants them, the conformance
        suite); a family may be large. Default: none."""
        return []

    def families(self, state: Any, player: str) -> list[str]:
        """The names of the action families :meth:`legal_actions` leaves to :meth:`expand`
        right now, in a fixed order (``[]`` when everything is listed). A name is the
        ruleset's own (Wiz-War: ``move-path:3``, walks of three squares in one action;
        ``throw:dagger``); a named family may turn out empty."""
        return []

    @abstractmethod
    def apply(self, state: Any, action: Any) -> list[Event]:
        """Apply ``action`` (an action value or its notation). Raises
        :class:`IllegalAction` with a reason, the state untouched."""

    @abstractmethod
    def why_illegal(self, state: Any, action: Any) -> str:
        """Why ``action`` would be refused now (``""`` when it is legal). No side effect."""

    @abstractmethod
    def view(self, state: Any, player: str) -> Any:
        """What ``player`` may know (``""``: a spectator who sees no hidden value)."""

    @abstractmethod
    def result(self, state: Any) -> Outcome:
        """The :class:`Outcome` so far."""

    @abstractmethod
    def state_hash(self, state: Any) -> str:
        """A short hex digest of the canonical wire form; equal on every peer after the same
        actions, in any process."""

    @abstractmethod
    def seq(self, state: Any) -> int:
        """How many actions have been applied."""

    # -- forms --
    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """An action from its notation. Raises ``ValueError`` (the ruleset's
        ``NotationError``) with the reason."""

    @abstractmethod
    def action_from_wire(self, data: Any) -> Any:
        """An action from its msgpack form. Raises ``ValueError`` if malformed."""

    @abstractmethod
    def state_to_wire(self, state: Any) -> Any:
        """The whole state as canonical msgpack-ready data."""

    @abstractmethod
    def state_from_wire(self, data: Any) -> Any:
        """A state from :meth:`state_to_wire` (sharing nothing with ``data``)."""

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        return self.state_from_wire(self.state_to_wire(state))

    def chance(self, state: Any) -> Any:
        """The game's generator held in ``state`` (a :class:`core.rng.Rng`), through which
        :mod:`core.beacon` feeds a networked game's dice their per-roll entropy; ``None`` for
        a game without chance (the default)."""
        return None

    # -- bots, scenarios --
    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Callable[[str], list[Any]] | None = None) -> Any:
        """A bot's choice among ``legal`` from ``view`` alone, or among the members of one of
        the player's large families (:meth:`families`) it asks ``expand`` for by name: a bot
        learns no more than ``legal_actions`` and ``expand`` tell its player. ``expand`` None:
        ``legal`` only. Raises ``ValueError`` for an unknown level."""
        raise ValueError(f"{self.title} has no bots")

    def bot_act(self, state: Any, player: str, level: str = "") -> Any:
        """The action a bot at ``level`` ("": the first of :attr:`bot_levels`) takes for
        ``player`` now: :meth:`bot_choose` on the player's view, his legal actions and his
        families (``expand`` bound to this state and player). Every place a bot plays (a local
        game, a LAN host's or joiner's bot seat) calls this one method."""
        lv = level or (self.bot_levels[0] if self.bot_levels else "")
        return self.bot_choose(self.view(state, player), player,
                               self.legal_actions(state, player), lv,
                               expand=lambda family: self.expand(state, player, family))

    def run_scenario(self, doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
        """Run one parsed scenario document of this ruleset (``../shared/notation.md``,
        scenario files): ``(passed, why it failed or "")``. Never raises for a bad file: a
        file that cannot be loaded is a failure that says so."""
        return False, f"{self.title} has no scenario runner"


    def budget(self, state: Any, player: str) -> Budget | None:
        """The clock's budget for ``player``'s decision now (a :class:`Budget`), or None
        when this decision is not timed by the rules (the host's generic ``clock`` for
        answer windows, :meth:`default_answer`, then applies). Default: None."""
        return None

    def keeper_only(self, action: Any) -> str:
        """Why a player may not propose ``action`` himself (an action only the clock's
        keeper enters, such as ArcoMage's ``timeout``, R112), or "" when he may. The LAN
        host refuses such a proposal in these words. Default: ""."""
        return ""

    def answer_clock_refusal(self) -> str:
        """Why the LAN host's answer clock (``wizwar host --clock S``: an answer window left
        unanswered S seconds becomes :meth:`default_answer`) is refused for this game, in
        words, or "" when it applies. Default: "" when the ruleset has a default answer,
        else that nothing could be entered for it (the flag would do nothing)."""
        if type(self).default_answer is Ruleset.default_answer:
            return (f"{self.title} has no answer window for an answer clock (nothing would "
                    "be entered when it ran out)")
        return ""

    def lan_refusal(self, options: Mapping[str, Any]) -> str:
        """Why a game with these (validated) ``options`` cannot be hosted on a LAN yet, in
        the ruleset's words, or "" when it can (a local game with them may still be
        played). The LAN host's command line and host form refuse in these words before
        anyone joins. Default: ""."""
        return ""

    def default_answer(self, state: Any, player: str) -> Any:
        """The action a clock enters for ``player`` when it does not answer in time in an
        answer window (None: the ruleset has none, no clock runs). Default: None."""
        return None

    # -- secrets, the log, the handshake --
    def seal(self, state: Any, action: Any) -> Sealed | None:
        """Which fields of ``action`` (about to be applied on ``state``, a state that knows
        what the action names) are secret, and to whom: ``None`` when the whole action is
        public (the default), else a :class:`Sealed` with the seats that may know it and
        the public form everybody else gets.

        The sequencer of a networked game sends the whole action only to ``knows`` and the
        public form to every other peer, with a salted commitment to the whole action
        (:func:`commitment` of its msgpack hex); the whole action and its salt are opened
        to everyone at the end (the audit), where each peer checks the commitment it kept.
        A log keeps the form its writer was sent (and the commitment); both replay. Source
        for Wiz-War: cards.md telepath (the card taken is seen by the two players only)."""
        return None

    def seen_by_others(self, state: Any, action: Any) -> Sealed | None:
        """What a replay or an export "seen as" a seat shows of ``action`` (about to be
        applied on ``state``): as :meth:`seal` (the default), but also for a local game,
        whose log holds every action whole (a bot's secrets included), so a player who
        replays or exports an unfinished game learns no more than he saw while playing.
        ``None``: the whole action is public."""
        return self.seal(state, action)

    def answer(self, state: Any, holder: str) -> Any:
        """In a ``reveal`` stage awaiting ``holder`` (an owner-held secret the rules ask
        about: "is this spell trapped?"), the action the holder's process enters on its own,
        computed by the rules from the secrets this state holds (the holder's process
        applied its own whole actions). Every peer applies it; a lie (an answer the secret
        contradicts) is caught by the end's audit, which replays the game with every secret
        opened and asks this hook again (``core.log.audit_answers``). Raises ``ValueError``
        when this state does not hold ``holder``'s secret. Default: the ruleset has no
        owner-held secret."""
        raise ValueError(f"{self.title} has no owner-held secret to answer from")

    def audit_answer(self, state: Any, holder: str, given: Any) -> Any:
        """The end's audit asks the holder's answer again (``core.log.audit_answers``):
        ``given`` is the answer logged (its opened wire form), which a ruleset may read for
        what its owner opened in it before computing the answer due. Default:
        :meth:`answer`."""
        return self.answer(state, holder)

    def keep_private(self, state: Any, seat: str, entropy: bytes) -> None:
        """A networked game's process plays ``seat``: ``entropy`` (16 random bytes, never
        sent) is that owner's private randomness, for the private choices its rules make
        (Wizard Kings: the labels of the standard army, R112/R113). Never part of the state
        hash or a view. Default: the ruleset makes no private choice."""
        return None

    def dealing(self) -> Dealing:
        """The hooks of this ruleset's dealer-held secrets (:class:`Dealing`; the base: no
        secret)."""
        return Dealing()

    def replay_dealer(self, deal: Any) -> Any:
        """For a log's replay: ``None`` (no dealer) or an object with ``before(state,
        reveals)`` and ``after(state, reveals)`` that applies a record's recorded reveals
        around its action, and ``attach(state)`` (called on every state the replay builds).
        ``deal`` is the log header's (or an export text's) deal. Raises ``ValueError`` when
        a recorded reveal does not match."""
        return None

    def export_deal(self, deal: Any, records: list[dict[str, Any]],
                    end: dict[str, Any] | None) -> tuple[list[str], Any]:
        """For the text export of a log: the ``deal``/re-deal lines that make the text replay
        alone, and the deal to replay it with. Raises ``ValueError`` when the deal is not
        revealed yet. Default: no lines, the header's deal."""
        return [], deal

    def parse_deal(self, lines: list[tuple[int, str, str]]) -> Any:
        """The deal of an export text from its deal lines ``(line number, word, rest)``
        (the words :meth:`export_deal` wrote). Raises ``ValueError``."""
        if lines:
            raise ValueError(f"line {lines[0][0]}: unknown line {lines[0][1]!r}")
        return None

    def deal_words(self) -> tuple[str, ...]:
        """The first words of the export-text lines :meth:`parse_deal` reads."""
        return ()

    def describe_turn(self, state: Any) -> str:
        """Where the game is, for a comment line of the text export (``"round 2, P1"``);
        the export writes one whenever it changes. Default: none."""
        return ""

    def content_digest(self) -> str:
        """A digest of the game's content data (Wiz-War: the cards and the implemented set):
        peers whose digests differ do not play together even at one rules version."""
        return ""

    def options_from_legacy(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Options from an old log header's ``config`` map (log format 1): the schema's
        options found there (others ignored), validated. Raises :class:`OptionError`."""
        names = set(self.options.names())
        return self.validate_options({k: v for k, v in config.items() if k in names})

    # -- conformance hooks (tests/conformance; optional) --
    def probe_actions(self, state: Any, player: str) -> list[Any]:
        """Test hook for the conformance suite: many plausible actions of ``player`` now,
        built without asking what is legal, so that it includes what :meth:`legal_actions`
        might omit (every card at every wizard, square and edge, every number, every argument
        value). The suite checks that each one :meth:`why_illegal` accepts is listed (or is a
        member of a family of :meth:`families`) and that each one it refuses leaves the state
        unchanged. Default: ``[]`` (the suite then checks only the listing itself)."""
        return []

    def redeal_hidden(self, state: Any, player: str, seed: int) -> Any:
        """Test hook for the conformance suite: another state, consistent with everything
        ``player`` may know now (``""``: a spectator, who knows only what is public), whose
        hidden values (the faces of other hands, the draw pile's order...) are dealt anew
        from ``seed``. ``state`` is not changed. The suite asserts ``view(state, player) ==
        view(redealt, player)``: a view that differs shows a secret. Default: ``None``, for
        a ruleset without hidden values (one that declares :attr:`secrets` must provide it).
        """
        return None
