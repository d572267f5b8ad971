"""Resuming a hosted game from its host's log: ``wizwar host --resume LOG`` (in the app,
or with ``--headless --bot``, ``--ssh`` or ``--web``).

A LAN game that stopped before its end (the host's machine went down, the host was stopped)
plays on from its last action. What it takes (docs/protocol.md, Resuming a game):

- **The host's own log** (``kind`` ``host``): only the host's log knows every card, so only
  it can deal the rest of the game. A player's log is refused in words, and so is a finished
  game, a log that does not replay, and a game with an owner-held secret (ArcoMage's trap,
  Wizard Kings' blocks: the owner's old process held it, and it is gone).
- **The same game, dealt again behind fresh commitments.** The old salts were never written
  (the host's log holds the faces, not the salts), so the resumed host salts every slot anew
  and re-plays the logged actions on its own full state with the logged dice reveals and the
  logged re-deals (the reshuffles' faces); every action's reveals are worked out again. The
  seed and the seats' nonces are the log's, so the game is the very same game; its deal has
  new commitments and so a new game id: a player's process still running from before is
  refused in words (its deal is not this one) and joins anew.
- **The seats re-taken by name**: each player seat waits, ``disconnected``, for the first
  hello under the name it had (``Seat.by_name``); from then on the seat's new token, as in
  any game. The host's own and bot seats are the host's again.
- **New dice chains**: the old chains' secrets died with their processes (the host's own are
  not written down either). Every seat the host plays commits a fresh chain (``chain``,
  sequenced after the logged actions); every player commits its own in its hello (the
  protocol's rejoin from a new process). The logged dice stay: they were revealed already.

What it cannot keep: the peers cannot check the resumed deal against the old game's
commitments (their salts are lost), so a resumed game trusts the host's log for every card
nobody has seen: the host is the trusted dealer here as in any LAN game (its log already holds
every face), and the end's audit covers the resumed deal.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import TYPE_CHECKING, Any

from core import beacon, log
from core.beacon import Chain, Tracker
from core.engine import Ruleset

if TYPE_CHECKING:
    from net.lan import HostGame


class ResumeError(ValueError):
    """A log that cannot be resumed; the message says why in words."""


@dataclass
class SavedGame:
    """A host's log read for resuming (:func:`load`).

    Attributes:
        path: the file. loaded: the log as read (``core.log.Loaded``). faces: every slot's
        value at the deal (the host knew them all). reblinds: each logged re-deal's new
        values, in order. nonces, chains: every seat's seed nonce and dice chain tip
        committed in the lobby (seat -> hex). bots: how many of the last seats were the
        host's bots (their names are ``bot Pn``).
    """

    path: str
    loaded: log.Loaded
    faces: list[str] = field(default_factory=list)
    reblinds: list[list[str]] = field(default_factory=list)
    nonces: dict[str, str] = field(default_factory=dict)
    chains: dict[str, str] = field(default_factory=dict)
    bots: int = 0

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset (the log's header names it)."""
        return self.loaded.ruleset

    @property
    def options(self) -> dict[str, Any]:
        """The game's options."""
        return dict(self.loaded.options)

    @property
    def actions(self) -> int:
        """How many actions the log holds."""
        return len(self.loaded.records)


def load(path: str) -> SavedGame:
    """Read a host's log for resuming. Raises :class:`ResumeError` in words: no such file, not
    a log, a player's log, a finished game, no action yet, an owner-held secret, a log that
    does not replay (its first bad action named). A damaged log (cut short by a crash)
    resumes from its last good record."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise ResumeError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        loaded = log.read(data)
    except log.LogError as exc:
        raise ResumeError(f"{path} is not a game log this wizwar can read: {exc}") from None
    h, rs = loaded.header, loaded.ruleset
    kind = h.get("kind")
    if kind != "host":
        raise ResumeError(f"{path} is a {kind} game's log: only the host's own log of a LAN "
                          "game knows every hidden card, so only it can be resumed")
    if loaded.end is not None:
        raise ResumeError(f"the game in {path} is over: there is nothing to resume")
    owner = [s.name for s in getattr(rs, "secrets", ()) if s.holder == "owner"]
    if owner:
        raise ResumeError(f"{rs.title} keeps owner-held secrets ({', '.join(owner)}): each "
                          "was held by its player's old process, so the game cannot be "
                          "resumed")
    if not loaded.records:
        raise ResumeError(f"no action was played in {path}: host a new game instead")
    try:
        log.replay(loaded, upto=len(loaded.records))
    except log.LogError as exc:
        raise ResumeError(f"{path} does not replay: {exc}") from None
    extra = h.get("extra")
    extra = extra if isinstance(extra, dict) else {}
    dice = extra.get("beacon")
    nonces = extra.get("nonces")
    chains = dice.get("chains") if isinstance(dice, dict) else None
    seats = list(rs.seats(loaded.options))
    if not (isinstance(nonces, dict) and isinstance(chains, dict)
            and all(isinstance(nonces.get(s), str) and isinstance(chains.get(s), str)
                    for s in seats)):
        raise ResumeError(f"{path} holds no seed nonces or dice chains for every seat: it "
                          "is not a LAN game's log")
    hooks = rs.dealing()
    deck = hooks.values(loaded.options)
    deal = loaded.deal
    faces = [str(f) for f in deal.get("faces", [])] if isinstance(deal, dict) else []
    if Counter(faces) != Counter(deck):
        raise ResumeError(f"{path}'s deal does not hold every hidden value (a host's log "
                          "knows them all): it cannot be dealt again")
    reblinds: list[list[str]] = []
    for r in loaded.records:
        for rb in log.reveals_of(r).get("reblind") or []:
            got = rb.get("faces") if isinstance(rb, dict) else None
            if not isinstance(got, list) or len(got) != len(rb.get("cids", [])):
                raise ResumeError(f"action {r['seq']} of {path} re-deals cards whose new "
                                  "faces the log does not hold")
            reblinds.append([str(x) for x in got])
    names = list(loaded.names)
    bots = 0
    for i in range(len(seats) - 1, 0, -1):
        if i < len(names) and names[i] == f"bot {seats[i]}":
            bots += 1
        else:
            break
    return SavedGame(path, loaded, faces, reblinds, {s: str(nonces[s]) for s in seats},
                     {s: str(chains[s]) for s in seats}, bots)


class _Replaying:
    """The resumed dealer's randomness: a re-deal during the logged actions takes the
    logged faces (in slot order) instead of a shuffle; salts, and every re-deal after the
    logged ones, come from ``real``."""

    def __init__(self, reblinds: list[list[str]], real: Any) -> None:
        self.queue = [list(r) for r in reblinds]
        self.real = real

    def shuffle(self, values: list[str]) -> None:
        if not self.queue:
            self.real.shuffle(values)
            return
        want = self.queue.pop(0)
        if Counter(want) != Counter(values):
            raise ResumeError("a logged re-deal does not hold the cards it re-deals")
        values[:] = want

    def getrandbits(self, k: int) -> int:
        bits: int = self.real.getrandbits(k)
        return bits


class HeldReplay:
    """The resumed game's log writer: the records :func:`restore` writes (the header and
    every logged action, sequenced again) are held in memory and go to ``target`` one by
    one, in order, with the first record after them (the first action played on), so a
    resumed game that nobody plays on (nobody joined, the host was stopped) writes no new
    saved game: the old log stays the place to resume from.

    ``target`` raises what it raises (``OSError``); the held records are kept until they
    are all written."""

    def __init__(self, target: Callable[[bytes], None]) -> None:
        self.target = target
        self.held: list[bytes] = []
        self.playing = False  # restore() is done: the next record releases the held ones

    def write(self, data: bytes) -> None:
        """One encoded record (see the class)."""
        if not self.playing:
            self.held.append(data)
            return
        while self.held:
            self.target(self.held[0])
            self.held.pop(0)
        self.target(data)


def _fresh(seed: int | None, what: str) -> bytes:
    """32 fresh bytes, or (a seeded host: tests) bytes from the seed and ``what``."""
    if seed is None:
        return secrets.token_bytes(32)
    return blake2b(f"wizwar-resume:{seed}:{what}".encode(), digest_size=32).digest()


async def restore(game: HostGame, saved: SavedGame,
                  say: Callable[[str], None] | None = None) -> None:
    """Set ``game`` (a new :class:`net.lan.HostGame` of the log's ruleset and options, not
    yet listening) at the log's last action: the seats named as in the log (player seats
    wait for their names, ``Seat.by_name``), the deal dealt again behind fresh commitments,
    the logged actions sequenced again with their dice and re-deals (written to the game's
    new log through its ``writer``), and fresh dice chains for the seats the host plays.
    ``game.run()`` then plays on. What ``restore`` writes is held (:class:`HeldReplay`)
    until the first action played on: a resumed game nobody plays writes no new file.
    Raises :class:`ResumeError` if the game does not fit the log (another ruleset or
    options, another number of bots)."""
    from net.dealer import HostDealer
    from net.lan import clean_name, nonce_commit
    from net.protocol import game_id

    rs, loaded = game.ruleset, saved.loaded
    if rs.name != saved.ruleset.name or game.options != saved.options:
        raise ResumeError("the resumed game must have the log's game and options")
    names = list(loaded.names)
    for i, s in enumerate(game.seats):
        s.nonce = saved.nonces[s.seat]
        s.nonce_commit = nonce_commit(s.nonce)
        s.chain_tip = saved.chains[s.seat]
        was = names[i] if i < len(names) else s.seat
        if s.kind == "bot" and was != f"bot {s.seat}":
            raise ResumeError(f"{s.seat} was {was!r}, not a bot, in the log")
        if s.kind == "remote":
            s.name = clean_name(was)
            s.token = secrets.token_hex(16)
            s.by_name = True
    game.tracker = Tracker.from_tips(dict(saved.chains))
    held = HeldReplay(game.writer) if game.writer is not None else None
    if held is not None:
        game.writer = held.write
    import random

    real: Any = secrets.SystemRandom() if game.seed is None else \
        random.Random(f"wizwar-resume-deal:{game.seed}")  # noqa: S311 - a seeded host
    rand = _Replaying(saved.reblinds, real)
    hooks = rs.dealing()
    values = list(saved.faces)
    salts = [bytes(real.getrandbits(8) for _ in range(16)).hex() for _ in values]
    dealer = HostDealer(hooks, values, salts, rand=rand)
    dealer.history = [[i, f, s, 0] for i, (f, s) in enumerate(zip(values, salts, strict=True))]
    game.dealer = dealer
    seats = [s.seat for s in game.seats]
    seat_names = [s.name or s.seat for s in game.seats]
    commits = {s.seat: s.nonce_commit for s in game.seats}
    game.game_id = game_id(seats, commits, dict(saved.chains), dealer.commits())
    game.deal_msg = {"type": "deal", "commits": dealer.commits(), "nonce_commits": commits,
                     "options": rs.options.to_wire(game.options), "names": seat_names,
                     "chains": dict(saved.chains), "game": game.game_id}
    seed = loaded.seed
    deal = dealer.game_deal()
    st = rs.new_game(game.options, seed, names=seat_names, deal=deal)
    beacon.beaconize(rs, st)
    dealer.attach(st)
    game.state = st
    pre, private = dealer.start_reveals(st)
    game.start_msg = {"type": "start", "nonces": dict(saved.nonces), "pre": pre,
                      "private": private, "hash": rs.state_hash(st)}
    head = log.header(rs, game.options, seed, kind="host", viewer="P1", names=seat_names,
                      deal=deal, started=game.started,
                      extra={"nonces": dict(saved.nonces),
                             "beacon": {"chains": dict(saved.chains)}})
    game._record = [head]
    if game.writer is not None:
        game.writer(log.encode(head))
    game.hashes[0] = rs.state_hash(st)
    for r in loaded.records:
        action = rs.action_from_wire(r["action"])
        why = rs.why_illegal(game.state, action)
        if why:  # the log replayed (load), so only a wrong deal gets here
            raise ResumeError(f"action {r['seq']} ({action}) is illegal in the resumed "
                              f"game: {why}")
        dice = log.dice_of(r)
        if dice:
            game.tracker.accept_all(dice)
        await game.commit(action, dice)
    if rand.queue:
        raise ResumeError(f"{saved.path} logs re-deals the game never made")
    last = rs.seq(game.state)
    for s in game.seats:  # the host's chains died with its old process: new ones
        if s.kind != "remote":
            s.chain = Chain(_fresh(game.seed, f"chain:{s.seat}:{last}"))
            s.new_tip = s.chain.tip.hex()
            await game._recommit(s)
    await game._settle()  # the last re-sequenced action's record, still held (protocol 5)
    if held is not None:
        held.playing = True
    waiting = [f"{s.seat} ({s.name})" for s in game.seats if s.kind == "remote"]
    (say or game.log)(f"resumed {saved.path} at action {last}"
                      + (f"; waiting for {', '.join(waiting)} to join under their names"
                         if waiting else ""))

