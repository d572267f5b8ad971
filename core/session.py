"""Sessions: what the app plays a game through, local or networked, for any ruleset.

The app shell and each game's screens talk only to a :class:`Session`: they read ``view()``
(this player's eyes, never the state), ask ``legal_actions()``, ``submit()`` actions and let
bots act with ``step_bot()``. :class:`LocalSession` is a game in this process (one human seat
or none, bots elsewhere, no networking); ``net.session.NetSession`` is the same interface over
a LAN game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from core import beacon
from core.engine import Event, IllegalAction, Outcome, Ruleset, Stage


class Session(Protocol):
    """The one interface the app uses for a game in progress (local or on a LAN).

    Attributes (read-only):
        ruleset: the game's :class:`~core.engine.Ruleset`.
        options: the validated options map.
        human: the seat played here ("" for a spectator or before seating).
        started: True once the game state exists (a LAN game waits for the deal).
        over: True once the game has ended (or a LAN game stopped on a desync).
        events: every event so far, in order. actions: every action so far, in order.
    """

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def human(self) -> str: ...
    @property
    def started(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def events(self) -> list[Event]: ...
    @property
    def actions(self) -> list[Any]: ...

    def view(self, seat: str | None = None) -> Any:
        """The view of ``seat`` (default: the human's)."""

    def stage(self) -> Stage:
        """The current stage."""

    def to_move(self) -> list[str]:
        """Who may act now."""

    def legal_actions(self, seat: str | None = None) -> list[Any]:
        """The legal actions of ``seat`` (default: the human)."""

    def families(self, seat: str | None = None) -> list[str]:
        """The large action families ``legal_actions`` leaves to :meth:`expand` now
        (``ruleset.families``; [] when everything is listed)."""

    def expand(self, family: str, seat: str | None = None) -> list[Any]:
        """The members of one of :meth:`families`, listed on demand (``ruleset.expand``)."""

    def why(self, action: Any) -> str:
        """Why ``action`` would be refused ("" if legal)."""

    def submit(self, action: Any) -> list[Event]:
        """Apply (or send) an action; raises ``IllegalAction`` with the reason."""

    def bot_to_act(self) -> str:
        """The bot seat this process must play now, or ""."""

    def step_bot(self) -> list[Event]:
        """Let one bot take one action ([] if none must)."""

    def result(self) -> Outcome:
        """The outcome so far."""

    def seat_status(self) -> dict[str, str]:
        """Per seat: local, bot, free, connected, disconnected."""

    def digest(self) -> str:
        """The current state hash ("" before the start)."""


@dataclass
class LocalSession:
    """A game in this process, for any ruleset.

    Attributes:
        ruleset: the game. state: the full state (never handed to the app; use :meth:`view`).
        human: the seat played from the keyboard ("" for bots only). bots: the seats the bots
        play. levels: the bot level per bot seat (the ruleset's default when missing).
        actions/events: the game record. seed: the game seed. options: the validated
        options. names: display names per seat. writer: where log records go (see
        :meth:`record_to`).
    """

    ruleset: Ruleset
    state: Any
    human: str = "P1"
    bots: tuple[str, ...] = ()
    actions: list[Any] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    writer: Callable[[bytes], None] | None = None
    levels: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls, ruleset: Ruleset, options: Mapping[str, Any] | None = None, seed: int = 0,
              human: str = "P1", names: tuple[str, ...] = (),
              levels: Mapping[str, str] | None = None) -> LocalSession:
        """A new game: the human at ``human`` (``""``: bots only), bots at every other seat;
        ``levels`` maps bot seats to one of ``ruleset.bot_levels``.

        Raises ``OptionError`` for refused options and ``ValueError`` for an unknown bot
        level."""
        opts = ruleset.validate_options(options)
        levels = dict(levels or {})
        for s, lv in levels.items():
            if lv not in ruleset.bot_levels:
                raise ValueError(f"unknown bot level {lv!r} for {s} "
                                 f"({', '.join(ruleset.bot_levels)})")
        st = ruleset.new_game(opts, seed, names=names)
        bots = tuple(s for s in ruleset.seats(opts) if s != human)
        return cls(ruleset, st, human, bots, seed=seed, options=opts, names=tuple(names),
                   levels=levels)

    def record_to(self, writer: Callable[[bytes], None], started: str = "") -> None:
        """Write this game's log through ``writer`` from now on (header, a record per action,
        the end record; docs/log-format.md). ``writer`` must flush each call."""
        from core import log

        self.writer = writer
        first = self.ruleset.bot_levels[0] if self.ruleset.bot_levels else ""
        levels = {s: self.levels.get(s) or first for s in self.bots
                  if self.human and (self.levels.get(s) or first)}  # (bots only: no one's rival)
        writer(log.encode(log.header(self.ruleset, self.options, self.seed, kind="local",
                                     viewer=self.human, names=self.names, started=started,
                                     extra={"levels": levels} if levels else None)))
        for i, a in enumerate(self.actions, 1):
            writer(log.encode(log.record(self.ruleset, i, a)))

    @property
    def started(self) -> bool:
        """Always True: a local game exists from the start."""
        return True

    def view(self, seat: str | None = None) -> Any:
        """The view of ``seat`` (default: the human's)."""
        return self.ruleset.view(self.state, self.human if seat is None else seat)

    def stage(self) -> Stage:
        """The current stage."""
        return self.ruleset.stage(self.state)

    def to_move(self) -> list[str]:
        """Who may act now."""
        return self.ruleset.to_move(self.state)

    def legal_actions(self, seat: str | None = None) -> list[Any]:
        """The legal actions of ``seat`` (default: the human) right now."""
        return self.ruleset.legal_actions(self.state, self.human if seat is None else seat)

    def families(self, seat: str | None = None) -> list[str]:
        """The large action families of ``seat`` (default: the human) left to
        :meth:`expand` now."""
        return self.ruleset.families(self.state, self.human if seat is None else seat)

    def expand(self, family: str, seat: str | None = None) -> list[Any]:
        """The members of action family ``family`` of ``seat`` (default: the human)."""
        return self.ruleset.expand(self.state, self.human if seat is None else seat, family)

    def why(self, action: Any) -> str:
        """Why ``action`` would be refused ("" if legal); an action that rolls is judged
        without its dice (:func:`core.beacon.why_illegal`)."""
        return beacon.why_illegal(self.ruleset, self.state, action)

    def submit(self, action: Any) -> list[Event]:
        """Apply an action (a value or its notation). Raises ``IllegalAction`` with the
        reason (state unchanged)."""
        if isinstance(action, str):
            try:
                action = self.ruleset.parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        ev = self.ruleset.apply(self.state, action)
        self.actions.append(action)
        self.events.extend(ev)
        if self.writer is not None:
            from core import log

            over = self.over
            self.writer(log.encode(log.record(self.ruleset, len(self.actions), action,
                                              self.state, force_hash=over)))
            if over:
                self.writer(log.encode(log.end_record(self.ruleset, self.state)))
        return ev

    def bot_to_act(self) -> str:
        """The bot seat that must act now, or "". In a ``reveal`` stage about an owner-held
        secret, its holder (this process holds every owner's secret, and the rules answer
        from it: ``Ruleset.answer``), whoever plays that seat."""
        stage = self.stage()
        if stage.kind == "reveal" and stage.holder:
            return stage.holder
        for s in self.to_move():
            if s in self.bots:
                return s
        return ""

    def step_bot(self) -> list[Event]:
        """Let one bot take one action; [] if no bot must act."""
        seat = self.bot_to_act()
        if not seat:
            return []
        stage = self.stage()
        if stage.kind == "reveal" and stage.holder == seat:
            return self.submit(self.ruleset.answer(self.state, seat))
        return self.submit(self.ruleset.bot_act(self.state, seat, self.levels.get(seat, "")))

    def run_bots(self, limit: int = 10_000) -> list[Event]:
        """Let bots act until the human must act or the game is over."""
        out: list[Event] = []
        for _ in range(limit):
            ev = self.step_bot()
            if not ev and not self.bot_to_act():
                break
            out.extend(ev)
        return out

    def result(self) -> Outcome:
        """The outcome so far."""
        return self.ruleset.result(self.state)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.ruleset.result(self.state).over

    def seat_status(self) -> dict[str, str]:
        """Per seat: ``local`` for the human's seat, ``bot`` for the others."""
        return {s: ("local" if s == self.human else "bot")
                for s in self.ruleset.seats(self.options)}

    def digest(self) -> str:
        """The current state hash."""
        return self.ruleset.state_hash(self.state)
