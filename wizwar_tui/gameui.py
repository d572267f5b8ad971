"""The contract between the app shell and each game's UI part (docs/architecture.md, the app).

The shell (menu, new-game screen, host form, lobby, join, saved games, the replay timeline,
help frame, quit questions, the SSH lock, type-ahead, the too-small notice) knows no game. Each
ruleset brings a *UI part*: a :class:`GameUI` found by ruleset name in
:mod:`wizwar_tui.games` (imported lazily). The shell asks it for:

* its **game screen** class (:meth:`GameUI.game_screen`): a :class:`GameScreenBase` built as
  ``cls(session=..., lan=..., ascii_only=..., bot_delay=..., save_log=..., seed=...)`` over a
  :class:`core.session.Session` (local or LAN);
* its **replay** drawing (:meth:`GameUI.replay_screen`, :meth:`GameUI.replay_mark`): the
  screen that draws the board and panels at action *n* (the shell reads any game's log
  through ``core.log`` into a :class:`wizwar_tui.replay.Replay`, and its
  :class:`wizwar_tui.replay.ReplayScreen` keeps the timeline, its keys, seek, play/pause and
  "seen as"), and where a state is on the timeline (round, seat acting);
* its **help text** (:meth:`GameUI.help_text`) for the shell's help frame, and the screen of
  a watcher over SSH (:meth:`GameUI.watch_screen`);
* its **reference screens** (:attr:`GameUI.references`, :meth:`GameUI.open_reference`: the
  Cards screen of Wiz-War) and the menu's **quick starts** (:attr:`GameUI.quick_starts`);
* words for the new-game screen (:meth:`GameUI.option_note`, :meth:`GameUI.seat_note`);
  the options themselves come from the ruleset's schema (``core.engine.OptionsSchema``).

A UI part's module must import nothing heavy at module level (no rules core, no card data):
the menu lists the games from these objects before its first paint (start-up time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

from textual import events
from textual.screen import Screen
from textual.widgets import RichLog

if TYPE_CHECKING:
    from textual.app import App

    from core.engine import Ruleset
    from wizwar_tui.replay import ReplayScreen


class ReflowLog(RichLog):
    """A log panel (``RichLog`` with ``wrap``) whose lines wrap again to its new width when
    it is resized: a RichLog wraps a line once, as it is written, so lines cut at 45
    columns stayed cut in a window made 120 wide. It keeps what was written (up to
    ``max_lines``) and writes it all again at the new width."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[tuple[Any, int | None, bool, bool]] = []
        self.wrapped_at = 0  # the width the lines were last wrapped to (0: not yet)
        self.rewriting = False

    def write(self, content: Any, width: int | None = None, expand: bool = False,
              shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> Self:
        """Write ``content`` (kept for a later re-wrap once the size is known: a write
        before it is deferred by RichLog and comes back here)."""
        if self._size_known and not self.rewriting:
            self.kept.append((content, width, expand, shrink))
            if self.max_lines and len(self.kept) > self.max_lines:
                del self.kept[: len(self.kept) - self.max_lines]
        return super().write(content, width, expand, shrink, scroll_end, animate)

    def clear(self) -> Self:
        """Clear the panel and what it keeps."""
        if not self.rewriting:
            self.kept = []
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        """A new width: write the kept lines again, wrapped to it."""
        w = event.size.width
        if not w or not self._size_known or w == self.wrapped_at:
            return
        self.wrapped_at = w
        if not self.kept:
            return
        self.rewriting = True
        try:
            super().clear()
            for content, width, expand, shrink in self.kept:
                super().write(content, width, expand, shrink)
        finally:
            self.rewriting = False


@dataclass(frozen=True)
class QuickStart:
    """A menu line that starts a game against bots at once.

    Attributes:
        key: the menu key that starts it too (``"2"``; ``""`` for none).
        label: the menu line ("Play against 1 bot (2 players)").
        options: the options it sets (validated by the ruleset; the rest take defaults).
    """

    key: str
    label: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reference:
    """A reference screen of a game (the rules' cards, a unit list), opened from the menu.

    Attributes:
        key: the menu key that opens it (``"c"``; ``""`` for none).
        label: the menu line ("Cards: the whole deck (c)").
        id: passed to :meth:`GameUI.open_reference`.
        short: the key's word on the menu's key line ("Cards"; ``""``: not shown there).
    """

    key: str
    label: str
    id: str
    short: str = ""


class NetNotices:
    """What a LAN game tells every player that the game screen must show, whatever the game:
    the host's notices to a joined player (``PeerGame.notices``: a peer found at odds with
    the host and dropped, this seat dropped, a lobby reopened), the desync reports the host
    wrote (``HostGame.reports``: a peer at odds, dropped), and the seats that lost their
    connection or came back (``seat_status()``: a player waiting to rejoin).

    Pure bookkeeping over the net game's public attributes (no Textual): :meth:`take` gives
    what is new since the last call; :meth:`waiting` what still holds."""

    def __init__(self) -> None:
        """Nothing seen yet."""
        self.notices = 0
        self.reports = 0
        self.status: dict[str, str] = {}
        self.returned: list[str] = []  # the seats the last take found back

    def take(self, game: Any, status: Mapping[str, str]) -> list[tuple[str, str]]:
        """The new notices as ``(text, severity)`` (``warning`` or ``information``), oldest
        first: ``game``'s new ``notices`` and ``reports`` (read with ``getattr``: either side
        of a LAN game), and each seat of ``status`` (seat -> host/bot/free/connected/
        disconnected) that became disconnected or connected again since the last call (the
        first call only notes the seats, and a seat seen disconnected then)."""
        out: list[tuple[str, str]] = []
        notices = list(getattr(game, "notices", ()) or ())
        out += [(f"LAN: {n}", "warning") for n in notices[self.notices:]]
        self.notices = len(notices)
        reports = list(getattr(game, "reports", ()) or ())
        out += [(f"LAN: a peer was found at odds with the host and dropped; report {r}",
                 "warning") for r in reports[self.reports:]]
        self.reports = len(reports)
        first = not self.status
        self.returned = []
        for seat, now in status.items():
            was = self.status.get(seat)
            if now == "disconnected" and (was != now or first):
                out.append((f"{self.lost_text(seat)}: the game waits for {seat} to rejoin",
                            "warning"))
            elif now == "connected" and was == "disconnected":
                out.append((f"LAN: {seat} is back", "information"))
                self.returned.append(seat)
        self.status = dict(status)
        return out

    @staticmethod
    def lost_text(seat: str) -> str:
        """How the notice of ``seat``'s lost connection begins (:meth:`take`)."""
        return f"LAN: {seat} lost the connection"

    def away(self) -> list[str]:
        """The seats whose connection is lost now (they may rejoin), in seat order."""
        return [s for s, st in self.status.items() if st == "disconnected"]

    def waiting(self) -> str:
        """One line while seats are disconnected ("P2 disconnected: the game waits for P2
        to rejoin"), else ""."""
        gone = ", ".join(self.away())
        return f"{gone} disconnected: the game waits for {gone} to rejoin" if gone else ""


class GameScreenBase(Screen[None]):
    """What the shell needs of every game's screen (the app's key dropping, resizes), and
    what it does on every game's screen: a LAN game's notices (:class:`NetNotices`) shown as
    they come, as notifications on the screen (:meth:`show_net_notices`).

    Attributes:
        session: the :class:`core.session.Session` played.
        lan: the LAN link (``wizwar_tui.lobby.LanLink``) of a LAN game, None for a local one
            (each game's screen sets it).
        accept_since: Textual's clock when the human's current decision began; the app drops
            keys pressed before it (see ``WizWarApp.on_event``).
        net_notices: what of the LAN game's notices this screen has shown.
    """

    session: Any
    lan: Any = None
    accept_since: float = 0.0
    net_notices: NetNotices | None = None

    def on_mount(self) -> None:
        """(Every game's screen: Textual calls each class's handler.) Follow the LAN game's
        notices: shown now and on every change of the net game."""
        lan = getattr(self, "lan", None)
        if lan is None or not hasattr(lan, "listeners"):
            return
        self.net_notices = NetNotices()
        lan.listeners.insert(0, self.show_net_notices)  # before the screen draws
        self.show_net_notices()

    def on_unmount(self) -> None:
        """Stop following the LAN game's notices."""
        lan = getattr(self, "lan", None)
        if lan is not None and self.show_net_notices in getattr(lan, "listeners", ()):
            lan.listeners.remove(self.show_net_notices)

    def show_net_notices(self) -> None:
        """Show what is new in the LAN game (:meth:`NetNotices.take`) as notifications on
        this screen: a warning stays 20 s, a seat's return 6 s. The texts come from
        ``net/`` already made safe (``net.safe``) and are shown without markup."""
        lan = getattr(self, "lan", None)
        if lan is None or self.net_notices is None or not self.is_attached:
            return
        session = getattr(lan, "session", None)
        try:
            status = session.seat_status() if session is not None else {}
        except Exception:  # noqa: BLE001 - a game not started yet has no seats to tell
            status = {}
        for text, severity in self.net_notices.take(getattr(lan, "game", None), status):
            self.notify(text, title="LAN game", severity=severity,  # type: ignore[arg-type]
                        timeout=20 if severity == "warning" else 6, markup=False)
        back = list(self.net_notices.returned)
        if back:  # "P2 is back" replaces "P2 lost the connection" (it stayed up to 20 s)
            self.drop_lost_notices(back)
            self.call_after_refresh(self.drop_lost_notices, back)  # (one still on its way)

    def drop_lost_notices(self, seats: list[str]) -> None:
        """Take the shown notices of ``seats``' lost connections off the screen."""
        prefixes = tuple(NetNotices.lost_text(seat) for seat in seats)
        app = self.app
        stale = [n for n in app._notifications if n.message.startswith(prefixes)]
        for n in stale:
            app._unnotify(n, refresh=False)
        if stale:
            app._refresh_notifications()

    def __init__(self, *, session: Any = None, lan: Any = None, seed: int | None = None,
                 ascii_only: bool = False, bot_delay: float = 0.3,
                 save_log: bool = False) -> None:
        """How the shell builds a game's screen: over ``session`` (a local game) or a LAN
        game's ``session`` with its ``lan`` link; ``seed`` the local game's; ``ascii_only``
        draws with ASCII; ``bot_delay`` seconds between two bot actions; ``save_log``
        writes a local game's log as it is played."""
        super().__init__()

    def after_resize(self) -> None:
        """Called after the terminal changed size (the screen re-lays itself out)."""

    def notation_key(self, event: events.Key, line: Any, opener: str,
                     openers: Mapping[str, str] | None = None) -> bool:
        """Route a key typed right behind ``:`` to the notation ``line`` (a Textual
        ``Input``), for a game screen's ``on_key``; True when the key was taken.

        Textual hands each key to the widget focused when the key arrives and runs a
        binding only when the key has bubbled up to the app, so under load the letters typed
        right after ``:`` were already on their way through the board when the line opened:
        lost, or taken for game keys (``e`` ended the turn; issues 12 and 17). Here ``:``
        opens the line at once (``action_<opener>``, which must focus it with
        ``set_focus``, not the deferred ``focus``), and a printable key that still comes
        through the board while the line has the focus is inserted into it, in order.

        ``openers`` maps more keys to the actions that open an input of their own at once
        (Wiz-War: ``a`` the actions menu); a key the screen takes for such an input before
        it is up (:meth:`early_key`) goes there first."""
        if not event.is_printable or not event.character:
            return False
        action = {**(openers or {}), "colon": opener}.get(event.key)
        if self.early_key(event.character):
            pass
        elif self.app.screen is not self:
            return False
        elif self.focused is line:
            line.insert_text_at_cursor(event.character)
        elif action is not None and self.check_action(action, ()) is True:
            getattr(self, f"action_{action}")()
        else:
            return False
        event.stop()
        event.prevent_default()
        return True

    def early_key(self, character: str) -> bool:
        """Take a printable key for an input that one of :meth:`notation_key`'s openers is
        opening (a menu's filter, say), before the keys go anywhere else; True when taken.
        None by default."""
        return False

    def leave_note(self) -> str:
        """What leaving this local game keeps, in words that hold: the saved-games list shows
        a game once someone has acted (``wizwar_tui.saves.list_saved``), so a game left
        before that is said not to be kept; a game played without saving says so."""
        if getattr(self, "logfile", None) is None:
            return "It is not saved (saving is off, or its log could not be written)."
        if not getattr(self.session, "actions", ()):
            return "Nothing has been played yet, so it is not kept in the saved games."
        return "It is saved: Replay a saved game (r) in the menu shows it."


class GameUI:
    """One game's UI part. Subclass it in ``wizwar_tui/<game>/__init__.py``; keep the module
    light (import the screens inside the methods).

    Class attributes:
        name: the ruleset's registry name (``"wizwar"``).
        title: the game's name ("Wiz-War"; equal to the ruleset's ``title``, checked by the
            tests, so the menu need not load the ruleset).
        subtitle: the menu's line under the title when this is the only game ("" for the
            shell's).
        menu_note: one line the menu shows under the entries while this game's are
            highlighted ("" for none).
        quick_starts: the menu's "play against bots" lines.
        references: the menu's reference screens.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    subtitle: ClassVar[str] = ""
    menu_note: ClassVar[str] = ""
    quick_starts: ClassVar[tuple[QuickStart, ...]] = ()
    references: ClassVar[tuple[Reference, ...]] = ()

    def ruleset(self) -> Ruleset:
        """The ruleset (through :mod:`core.registry`; loads the rules)."""
        from core import registry

        return registry.get(self.name)

    def game_screen(self) -> type[GameScreenBase]:
        """The screen class of a game in progress (local or LAN)."""
        raise NotImplementedError

    def help_text(self, ascii_only: bool = False, menu: bool = True) -> str:
        """The help frame's text (Rich markup): keys and a summary of the rules. ``menu``
        False: the app has no main menu (an SSH session), ``q`` leaves."""
        return f"[b]{self.title}[/b]"

    def open_reference(self, ref: str, app: App[Any]) -> None:
        """Open the reference screen ``ref`` (a :attr:`references` id) over ``app``."""

    def edit_option(self, app: App[Any], name: str) -> str:
        """The new-game form's change of a text option ``name`` (the form cannot type one):
        open the game's own editor for it and return "", or return where it is set. Default:
        on the command line (its flag)."""
        return f"set it on the command line ({self.ruleset().options[name].flag})"

    def option_note(self, name: str, values: Mapping[str, Any], refused: str = "") -> str:
        """The new-game screen's hint for option ``name`` with the form's ``values`` (typed,
        every option). ``refused``: why the ruleset refuses a non-default value now (its
        ``OptionError`` in words), "" when the option can be set. Default: the refusal, else
        the schema's help."""
        if refused:
            return refused
        return self.ruleset().options[name].help

    def sides(self, options: Mapping[str, Any]) -> list[tuple[str, ...]]:
        """The seats grouped by side for ``options`` (validated): a team game's partners in
        one tuple. The shell shows players by side from it (the saved games, a replay's
        header) and reads no option itself. Default: every seat alone
        (``ruleset.seats(options)``)."""
        return [(s,) for s in self.ruleset().seats(options)]

    def seat_note(self, seat: str, values: Mapping[str, Any]) -> str:
        """Words before a bot seat's levels on the new-game screen ("your team-mate · ")."""
        return ""

    def watch_screen(self) -> Callable[[Any], Screen[None]]:
        """The screen of a watcher over SSH (public information only), built as
        ``cls(link)`` over the watcher's ``wizwar_tui.lobby.LanLink``."""
        raise NotImplementedError(f"{self.title} games cannot be watched yet")

    def run_bench(self, runs: int = 5, quick: bool = False, only: list[str] | None = None) -> int:
        """``wizwar bench GAME``: print this game's performance figures; the exit status.
        Raises ``ValueError`` (said by the command line) for an unknown part or a game
        without benchmarks."""
        raise ValueError(f"bench has no figures for {self.title} yet")

    def replay_mark(self, state: Any) -> tuple[int, str]:
        """Where ``state`` is on a replay's timeline: ``(round, seat acting)`` (the replay's
        turns start where it changes; ``r3`` jumps to round 3). Default: round 0 and the
        first player to move."""
        moving = self.ruleset().to_move(state)
        return 0, moving[0] if moving else ""

    def replay_screen(self) -> type[ReplayScreen]:
        """The replay screen class: the shell's timeline with this game's board and panels."""
        raise NotImplementedError
