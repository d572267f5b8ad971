"""A local game: one human seat (or none) against bots, in one process, no networking.

The app talks only to a session: it reads ``view()`` (the human's eyes), asks
``legal_actions()``, ``submit()``s actions and calls ``step_bots()`` to let the bots act.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.engine import Event, IllegalAction
from core.wizwar import bot
from core.wizwar.actions import Action, parse
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, legal_actions, to_move, why_illegal
from core.wizwar.state import State, state_hash
from core.wizwar.view import View, view


@dataclass
class LocalSession:
    """A game in this process.

    Attributes:
        state: the full state (never handed to the app; use :meth:`view`).
        human: the seat played from the keyboard ("" for bots only).
        bots: the seats the bots play.
        levels: the bot level per bot seat ("apprentice" when a seat is missing).
        actions: every action applied, in order (the game record).
        events: every event, in order.
    """

    state: State
    human: str = "P1"
    bots: tuple[str, ...] = ()
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    seed: int = 0
    config: GameConfig = field(default_factory=GameConfig)
    writer: Callable[[bytes], None] | None = None
    levels: dict[str, str] = field(default_factory=dict)

    def record_to(self, writer: Callable[[bytes], None], started: str = "") -> None:
        """Write this game's log through ``writer`` from now on (the header first, then a
        record per action, then the end record; docs/log-format.md). ``writer`` must flush
        each call (the app writes to a file), so a crash loses nothing already applied."""
        from core import log

        self.writer = writer
        writer(log.encode(log.header(self.config, self.seed, kind="local", viewer=self.human,
                                     started=started)))
        for i, a in enumerate(self.actions, 1):
            writer(log.encode(log.record(i, a)))

    @classmethod
    def start(cls, players: int = 2, seed: int = 0, human: str = "P1",
              names: tuple[str, ...] = (), crossed: bool = False,
              doors: bool = False, team: bool = False,
              levels: dict[str, str] | None = None) -> LocalSession:
        """A new game of ``players`` seats, the human at ``human`` and bots elsewhere, with the
        official variants ``crossed`` (2-player crossed exits), ``doors`` and ``team``
        (4 players) as asked; ``levels`` maps bot seats to a bot level (bot.LEVELS).

        Raises ``ValueError`` for an unknown bot level or an impossible option."""
        cfg = GameConfig(players=players, names=names, crossed=crossed, doors=doors, team=team)
        st = new_game(cfg, seed)
        bots = tuple(w.seat for w in st.wizards if w.seat != human)
        levels = dict(levels or {})
        for s, lv in levels.items():
            if lv not in bot.LEVELS:
                raise ValueError(f"unknown bot level {lv!r} for {s} ({', '.join(bot.LEVELS)})")
        return cls(st, human, bots, seed=seed, config=cfg, levels=levels)

    def view(self, seat: str | None = None) -> View:
        """The view of ``seat`` (default: the human's)."""
        return view(self.state, self.human if seat is None else seat)

    def to_move(self) -> list[str]:
        """Who may act now."""
        return to_move(self.state)

    def legal_actions(self, seat: str | None = None) -> list[Action]:
        """The legal actions of ``seat`` (default: the human) right now."""
        return legal_actions(self.state, self.human if seat is None else seat)

    def why(self, action: Action) -> str:
        """Why ``action`` would be refused ("" if legal)."""
        return why_illegal(self.state, action)

    def submit(self, action: Action | str) -> list[Event]:
        """Apply an action. Raises ``IllegalAction`` with the reason (state unchanged)."""
        if isinstance(action, str):
            try:
                action = parse(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        ev = apply(self.state, action)
        self.actions.append(action)
        self.events.extend(ev)
        if self.writer is not None:
            from core import log

            self.writer(log.encode(log.record(len(self.actions), action, self.state,
                                              force_hash=self.over)))
            if self.over:
                self.writer(log.encode(log.end_record(self.state)))
        return ev

    def bot_to_act(self) -> str:
        """The bot seat that must act now, or ""."""
        movers = self.to_move()
        for s in movers:
            if s in self.bots:
                return s
        return ""

    def step_bot(self) -> list[Event]:
        """Let one bot take one action; [] if no bot must act."""
        seat = self.bot_to_act()
        if not seat:
            return []
        legal = legal_actions(self.state, seat)
        action = bot.choose(view(self.state, seat), seat, legal,
                            level=self.levels.get(seat, "apprentice"))
        return self.submit(action)

    def run_bots(self, limit: int = 10_000) -> list[Event]:
        """Let bots act until the human must act or the game is over."""
        out: list[Event] = []
        for _ in range(limit):
            ev = self.step_bot()
            if not ev and not self.bot_to_act():
                break
            out.extend(ev)
        return out

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return bool(self.state.winner)

    def digest(self) -> str:
        """The current state hash."""
        return state_hash(self.state)
