"""A networked game seen through the same interface as ``core.wizwar.session.LocalSession``,
so the app's game screen plays a LAN game exactly like a local one.

``submit`` hands the human's action to the host's sequencer (or sends it to the host); the
state changes when the host commits it, and ``on_change`` tells the app to redraw.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from core.engine import Event, IllegalAction
from core.wizwar.actions import Action, parse
from core.wizwar.rules import legal_actions, to_move, why_illegal
from core.wizwar.state import state_hash
from core.wizwar.view import View, view
from net.lan import HostGame, PeerGame


@dataclass
class NetSession:
    """The app's handle on a hosted (``HostGame``) or joined (``PeerGame``) game."""

    game: HostGame | PeerGame

    @property
    def human(self) -> str:
        """This player's seat ("" until the host has seated us)."""
        return "P1" if isinstance(self.game, HostGame) else self.game.seat

    @property
    def started(self) -> bool:
        """True once the cards are dealt."""
        return self.game.state is not None

    @property
    def events(self) -> list[Event]:
        """Every event of the game so far, in order."""
        return self.game.events

    @property
    def actions(self) -> list[str]:
        """Every action committed so far, as notation."""
        return self.game.actions

    @property
    def over(self) -> bool:
        """True once the game has a winner (or stopped on a desync)."""
        st = self.game.state
        return bool(self.game.desync) or (st is not None and bool(st.winner))

    def view(self, seat: str | None = None) -> View:
        """This player's view. Raises ``RuntimeError`` before the deal."""
        st = self.game.state
        if st is None:
            raise RuntimeError("the game has not started")
        return view(st, self.human if seat is None else seat)

    def to_move(self) -> list[str]:
        """Who may act now."""
        return [] if self.game.state is None else to_move(self.game.state)

    def legal_actions(self, seat: str | None = None) -> list[Action]:
        """This player's legal actions now (from this peer's own core)."""
        st = self.game.state
        if st is None or self.game.desync:
            return []
        return legal_actions(st, self.human if seat is None else seat)

    def why(self, action: Action) -> str:
        """Why ``action`` would be refused ("" if legal)."""
        st = self.game.state
        if st is None:
            return "the game has not started"
        return why_illegal(st, action)

    def submit(self, action: Action | str) -> list[Event]:
        """Hand the action to the host (checked here first: an illegal one raises
        ``IllegalAction`` and nothing is sent). Returns [] (events arrive with the commit)."""
        if isinstance(action, str):
            try:
                action = parse(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        reason = self.why(action)
        if reason:
            raise IllegalAction(reason)
        q = self.game.local_actions
        assert q is not None
        q.put_nowait(action)
        return []

    def bot_to_act(self) -> str:
        """Bots act on the host, never in this app: always ""."""
        return ""

    def step_bot(self) -> list[Event]:
        """Nothing to do here (see :meth:`bot_to_act`)."""
        return []

    def seat_status(self) -> dict[str, str]:
        """Per seat: host, bot, free, connected or disconnected (the host knows; a peer shows
        what the host last told it)."""
        if isinstance(self.game, HostGame):
            return self.game.seat_status()
        return dict(getattr(self.game, "peer_status", {}))

    def digest(self) -> str:
        """The current state hash ("" before the deal)."""
        return "" if self.game.state is None else state_hash(self.game.state)

    async def wait_started(self) -> None:
        """Wait until the deal."""
        while self.game.state is None:
            await asyncio.sleep(0.05)
