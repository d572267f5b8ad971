"""A networked game seen through the :class:`core.session.Session` protocol, like
``core.session.LocalSession``, so the app's game screen plays a LAN game exactly like a local
one, for any ruleset.

``submit`` hands the human's action to the host's sequencer (or sends it to the host); the
state changes when the host commits it, and ``on_change`` tells the app to redraw.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from core import beacon
from core.engine import Event, IllegalAction, Outcome, Ruleset, Stage
from net.lan import HostGame, PeerGame


@dataclass
class NetSession:
    """The app's handle on a hosted (``HostGame``) or joined (``PeerGame``) game."""

    game: HostGame | PeerGame

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self.game.ruleset

    @property
    def options(self) -> dict[str, Any]:
        """The game's options (a joined game's: the host's, known from the deal)."""
        return self.game.options

    @property
    def human(self) -> str:
        """This player's seat ("" until the host has seated us)."""
        return "P1" if isinstance(self.game, HostGame) else self.game.seat

    @property
    def started(self) -> bool:
        """True once the game is dealt."""
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
        """True once the game has ended (or stopped on a desync)."""
        return bool(self.game.desync) or self.game.over

    def view(self, seat: str | None = None) -> Any:
        """This player's view. Raises ``RuntimeError`` before the deal."""
        st = self.game.state
        if st is None:
            raise RuntimeError("the game has not started")
        return self.ruleset.view(st, self.human if seat is None else seat)

    def stage(self) -> Stage:
        """The current stage (``over`` before the deal: nobody acts; a ``reveal`` pause,
        ``holder`` naming the seats, while an action that rolls waits for their dice
        reveals: docs/protocol.md, Dice)."""
        st = self.game.state
        if st is None:
            return Stage("over")
        waiting = self.game.dice_waiting()
        if waiting:
            return Stage("reveal", (), self.ruleset.seq(st), holder=", ".join(waiting))
        return self.ruleset.stage(st)

    def to_move(self) -> list[str]:
        """Who may act now."""
        return [] if self.game.state is None else self.ruleset.to_move(self.game.state)

    def legal_actions(self, seat: str | None = None) -> list[Any]:
        """This player's legal actions now (from this peer's own core)."""
        st = self.game.state
        if st is None or self.game.desync:
            return []
        return self.ruleset.legal_actions(st, self.human if seat is None else seat)

    def families(self, seat: str | None = None) -> list[str]:
        """This player's large action families left to :meth:`expand` now."""
        st = self.game.state
        if st is None or self.game.desync:
            return []
        return self.ruleset.families(st, self.human if seat is None else seat)

    def expand(self, family: str, seat: str | None = None) -> list[Any]:
        """The members of one of this player's action families (from this peer's core)."""
        st = self.game.state
        if st is None or self.game.desync:
            return []
        return self.ruleset.expand(st, self.human if seat is None else seat, family)

    def why(self, action: Any) -> str:
        """Why ``action`` would be refused ("" if legal)."""
        st = self.game.state
        if st is None:
            return "the game has not started"
        return beacon.why_illegal(self.ruleset, st, action)  # a roll: judged without its dice

    def submit(self, action: Any) -> list[Event]:
        """Hand the action to the host (checked here first: an illegal one raises
        ``IllegalAction`` and nothing is sent). A joined game's proposal names the state it
        was decided on (``PeerGame.stamp``): if the game moves on first, the host (or this
        peer) refuses it and the player decides again. Returns [] (events arrive with the
        commit)."""
        if isinstance(action, str):
            try:
                action = self.ruleset.parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        reason = self.ruleset.keeper_only(action) or self.why(action)  # a clock's own: refused
        if reason:
            raise IllegalAction(reason)
        if isinstance(self.game, PeerGame):  # its proposal names the state it was made on
            self.game.stamp(action)
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

    def result(self) -> Outcome:
        """The outcome so far (not over before the deal)."""
        st = self.game.state
        return Outcome() if st is None else self.ruleset.result(st)

    def seat_status(self) -> dict[str, str]:
        """Per seat: host, bot, free, connected or disconnected (the host knows; a peer shows
        what the host last told it)."""
        if isinstance(self.game, HostGame):
            return self.game.seat_status()
        return dict(getattr(self.game, "peer_status", {}))

    def digest(self) -> str:
        """The current state hash ("" before the deal)."""
        return "" if self.game.state is None else self.ruleset.state_hash(self.game.state)

    async def wait_started(self) -> None:
        """Wait until the deal."""
        while self.game.state is None:
            await asyncio.sleep(0.05)
