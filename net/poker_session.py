"""A game dealt by mental poker (:mod:`net.poker`) seen through the
:class:`core.session.Session` protocol, so the app's game screen plays it like any LAN game
(issue 15).

The session sits on one process's :class:`~net.poker.Player`: its partial state (only the
faces this process may know) is all it has; :meth:`PokerSession.view` is
``ruleset.view(state, seat)`` of it. The person's moves are the player's ``choose``
(:meth:`PokerSession.choose`, awaited by the player when his seat is to move); the bots seated
on this machine are played inside the player. Generic over rulesets.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from core import beacon
from core.engine import Event, IllegalAction, Outcome, Ruleset, Stage
from net.poker import Player
from net.session import NetSession


@dataclass
class PokerSession(NetSession):
    """The app's handle on one process of a poker game: ``game`` is its
    :class:`~net.poker.Player`; ``host`` the :class:`~net.poker.PokerHost` when this process
    hosts (None for a joiner). ``stopped``: why the game stopped before its end ("")."""

    game: Any
    host: Any = None
    stopped: str = ""
    _moves: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    _waiting: bool = False

    @property
    def player(self) -> Player:
        """This process's poker player."""
        p: Player = self.game
        return p

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self.player.ruleset

    @property
    def options(self) -> dict[str, Any]:
        """The game's options (the host's own; a joiner's from the host's table)."""
        return self.player.options or (self.host.options if self.host is not None else {})

    @property
    def human(self) -> str:
        """This process's person's seat (the host's: the first; a joiner's: "" until the
        table is known)."""
        if self.player.mine:
            return self.player.mine[0]
        return self.host.seat_ids[0] if self.host is not None else ""

    @property
    def started(self) -> bool:
        """True once the deal is done and the state exists."""
        return self.player.state is not None

    @property
    def events(self) -> list[Event]:
        """Every event this process applied, in order."""
        return self.player.events

    @property
    def actions(self) -> list[str]:
        """Every action applied so far, as text."""
        return [str(r["action"]) for r in self.player.records]

    @property
    def over(self) -> bool:
        """True once the game has ended or stopped."""
        st = self.player.state
        return bool(self.stopped) or (st is not None and self.ruleset.result(st).over)

    def view(self, seat: str | None = None) -> Any:
        """The view of ``seat`` (default this process's person) of the partial state.
        Raises ``RuntimeError`` before the deal."""
        st = self.player.state
        if st is None:
            raise RuntimeError("the game has not started")
        return self.ruleset.view(st, self.human if seat is None else seat)

    def stage(self) -> Stage:
        """The current stage (``over`` before the deal)."""
        st = self.player.state
        return Stage("over") if st is None else self.ruleset.stage(st)

    def to_move(self) -> list[str]:
        """Who may act now."""
        st = self.player.state
        return [] if st is None else self.ruleset.to_move(st)

    def _mine_now(self, seat: str | None) -> str:
        st = self.player.state
        if st is None or self.stopped:
            return ""
        return self.human if seat is None else seat

    def legal_actions(self, seat: str | None = None) -> list[Any]:
        """The person's legal actions now, from this process's own core."""
        s = self._mine_now(seat)
        return self.ruleset.legal_actions(self.player.state, s) if s else []

    def families(self, seat: str | None = None) -> list[str]:
        """The person's large action families now."""
        s = self._mine_now(seat)
        return self.ruleset.families(self.player.state, s) if s else []

    def expand(self, family: str, seat: str | None = None) -> list[Any]:
        """The members of one of the person's action families."""
        s = self._mine_now(seat)
        return self.ruleset.expand(self.player.state, s, family) if s else []

    def why(self, action: Any) -> str:
        """Why ``action`` would be refused ("" if legal)."""
        st = self.player.state
        if st is None:
            return "the game has not started"
        return beacon.why_illegal(self.ruleset, st, action)

    def submit(self, action: Any) -> list[Event]:
        """Hand the person's action to the player (checked here first: an illegal one, or
        one while another seat is to move first, raises ``IllegalAction`` and nothing is
        sent). Returns [] (the events come when every process has applied it)."""
        if isinstance(action, str):
            try:
                action = self.ruleset.parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        reason = self.ruleset.keeper_only(action) or self.why(action)
        if reason:
            raise IllegalAction(reason)
        movers = self.to_move()
        if not movers or movers[0] != self.human or getattr(action, "actor", "") != self.human:
            raise IllegalAction(f"wait for {movers[0] if movers else 'the game'} to act first")
        self._moves.put_nowait(action)
        return []

    async def choose(self, state: Any, seat: str) -> Any:
        """The player's ``choose``: the person's next action (from :meth:`submit`), legal on
        ``state`` (a move typed on an older state is dropped)."""
        self._waiting = True
        try:
            while True:
                action = await self._moves.get()
                why = beacon.why_illegal(self.ruleset, state, action)
                if not why:
                    return action
                # never expected (the state does not move while the person's seat is to
                # move), but a move dropped must not leave his screen waiting for it
                self.player.last_reject = f"{action}: {why}"
                if self.player.on_change is not None:
                    self.player.on_change()
        finally:
            self._waiting = False

    def bot_to_act(self) -> str:
        """The bots on this machine act inside the player: always ""."""
        return ""

    def step_bot(self) -> list[Event]:
        """Nothing to do here (see :meth:`bot_to_act`)."""
        return []

    def result(self) -> Outcome:
        """The outcome so far (not over before the deal)."""
        st = self.player.state
        return Outcome() if st is None else self.ruleset.result(st)

    def seat_status(self) -> dict[str, str]:
        """Per seat: ``host`` (the hosting process's person), ``bot``, ``free``,
        ``connected`` or ``disconnected`` (the host knows who is away, and so does a joiner
        that sequences the game after a hand-over; another joiner is told by the relay,
        ``mp_presence``, and takes the relay's process as away while it hands over)."""
        host = self.host
        if host is not None:
            out = {}
            for s in host.seat_ids:
                proc = next((p for p in host.procs if s in p.seats), None)
                if proc is None:
                    out[s] = "free"
                elif s != proc.seats[0]:
                    out[s] = "bot"
                elif proc.proc == 0:
                    out[s] = "host"
                else:
                    out[s] = "disconnected" if proc.gone else "connected"
            return out
        p = self.player
        relay = getattr(getattr(p, "link", None), "seq", None)  # this process sequences
        gone = {q.proc for q in relay.procs if q.gone} if relay is not None else p.away
        out = {}
        for proc, seats in sorted(p.plays.items()):
            for i, s in enumerate(seats):
                out[s] = "bot" if i else ("disconnected" if proc in gone else
                                          "host" if proc == 0 else "connected")
        return out

    def digest(self) -> str:
        """The current state hash ("" before the deal)."""
        st = self.player.state
        return "" if st is None else self.ruleset.state_hash(st)

    async def wait_started(self) -> None:
        """Wait until the deal."""
        while self.player.state is None:
            await asyncio.sleep(0.05)
