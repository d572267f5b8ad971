"""The Wiz-War rules: ``apply``, ``legal_actions``, ``to_move``, ``result``.

``apply(state, action)`` checks the action fully before it changes anything, so an illegal
action raises :class:`~core.engine.IllegalAction` with a reason and leaves the state as it
was. Every handler takes ``dry``: with ``dry=True`` it only checks (``legal_actions`` uses
this, so the list and ``apply`` can never disagree).

Sources are cited per rule: "RB" is the rulebook text in seeds/001 (§2, 5th-edition text
revised by 6e), "FAQ" Tom Jolly's FAQ summary (seeds/001 §4), "DG" the implementer's digest
(seeds/000), "cards.md" the card reference in shared/.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter

from core.engine import Event, IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action, NotationError, parse
from core.wizwar.board import (
    DIRS,
    OPPOSITE,
    QUADRANTS,
    Edge,
    Sightline,
    Square,
    blocked_count,
    edge_name,
    parse_edge,
    parse_square,
    rotate_local,
    sightlines,
    square_name,
)
from core.wizwar.state import (
    BASE_MOVES,
    BUSH_HP,
    DOOR_HP,
    HAND_LIMIT,
    WALL_HP,
    Condition,
    Counter,
    EdgeState,
    ScriptExhausted,
    State,
    Turn,
    Window,
    Wizard,
    build_layout,
)

#: Counteractions that end the whole attack when they stand (cards.md §1.5 step 1).
STOPPERS = ("full-shield", "teleport", "invisible", "absorb-spell", "wall-of-fire", "waterwall")
#: Counteractions that void the card they answered (cards.md §1.5 step 1).
VOIDERS = ("anti-anti", "absorb-spell")
#: Counteractions that turn an attack, wholly or by half, on the other side.
TURNERS = ("reflection", "full-reflection")
#: Escapes and blocks: Anti-Anti cannot void them (DG §7).
ESCAPES = ("teleport", "invisible", "wall-of-fire", "waterwall")
#: Attacks that deal damage to a wizard (so Absorb and Blunt have something to answer).
#: Attacks whose hits deal damage (Absorb, Blunt and Reverse have something to answer):
#: every attack with a hit effect (see HIT_EFFECTS) does.


def _ceil_half(n: int) -> int:
    return (n + 1) // 2


class Out:
    """Collects the events of one action."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, kind: str, text: str, **data: object) -> None:
        self.events.append(Event(kind, text, dict(data)))


# ---------------------------------------------------------------------------------------
# public contract
# ---------------------------------------------------------------------------------------
def to_move(state: State) -> list[str]:
    """The players who may act now (notation.md, the stack): nobody once the game is over;
    the player who must answer while a window is open; the player who must discard while over
    the hand limit; otherwise the active player."""
    if state.winner:
        return []
    if state.windows:
        return [state.windows[0].to_answer]
    if state.choice:
        return [state.choice[0]]
    if state.retreats:
        return [state.retreats[0][0]]
    if state.discarding:
        return [state.discarding[0]]
    return [state.turn.active]


def apply(state: State, action: Action | str) -> list[Event]:
    """Apply one action, mutating ``state``; returns the events.

    Raises ``IllegalAction`` (state untouched) if the action is not legal now, with a reason.
    A string is parsed as notation first (``NotationError`` becomes ``IllegalAction``).
    """
    if isinstance(action, str):
        try:
            action = parse(action)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from exc
    _dispatch(state, action, dry=True)
    out = Out()
    _dispatch(state, action, dry=False, out=out)
    _settle(state, out)
    state.seq += 1
    return out.events


def is_legal(state: State, action: Action) -> bool:
    """True if ``action`` would be accepted now."""
    try:
        _dispatch(state, action, dry=True)
    except IllegalAction:
        return False
    return True


def why_illegal(state: State, action: Action) -> str:
    """The reason ``action`` is refused, or "" if it is legal."""
    try:
        _dispatch(state, action, dry=True)
    except IllegalAction as exc:
        return exc.reason
    return ""


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every legal action of ``seat`` now, in a fixed order.

    Movement is listed one square at a time (a longer path is legal exactly when each of its
    steps is). Empty when ``seat`` may not act.
    """
    if seat not in to_move(state):
        return []
    # the candidates are only checked (dry runs change nothing), so a line of sight asked
    # again by another candidate has the same answer: remember it for this call
    outer = getattr(_LOS_MEMO, "state", None), getattr(_LOS_MEMO, "table", None)
    _LOS_MEMO.state, _LOS_MEMO.table = state, {}
    try:
        return [a for a in _candidates(state, seat) if is_legal(state, a)]
    finally:
        _LOS_MEMO.state, _LOS_MEMO.table = outer


def sample_legal_action(state: State, seat: str, below: Callable[[int], int],
                        weight: Callable[[Action], int] | None = None) -> Action | None:
    """One legal action of ``seat`` drawn at random, without listing them all: exactly the
    distribution of drawing from :func:`legal_actions` (uniformly, or in proportion to
    ``weight(action)``, a positive int), with a few dry runs instead of one per candidate.

    The candidates of :func:`legal_actions` are put in random order one at a time (with
    ``weight``: each next one drawn in proportion to its weight among those left) and the
    first that passes the check is returned. In a uniformly random order every legal action
    is equally likely to come first among the legal ones (by symmetry); in a weighted one
    (successive draws in proportion to weight), the first legal one is drawn in proportion to
    its weight among the legal ones (the illegal ones drawn before it do not change the odds
    between the legal ones left). ``below(n)`` must return an int in ``[0, n)`` (e.g. ``Rng.below``: the choice
    is deterministic for a seeded generator). None when ``seat`` may not act or has no legal
    action (when :func:`legal_actions` is empty). Raises ``ValueError`` for a weight below 1.
    """
    if seat not in to_move(state):
        return None
    outer = getattr(_LOS_MEMO, "state", None), getattr(_LOS_MEMO, "table", None)
    _LOS_MEMO.state, _LOS_MEMO.table = state, {}
    try:
        rows = _candidate_rows(state, seat)
        n = len(rows)
        if weight is None:
            for i in range(n):  # a Fisher-Yates shuffle, stopped at the first legal action
                j = i + below(n - i)
                rows[i], rows[j] = rows[j], rows[i]
                a = Action(*rows[i])
                if is_legal(state, a):
                    return a
            return None
        cands = [Action(*r) for r in rows]
        ws = [weight(a) for a in cands]
        if any(w < 1 for w in ws):
            raise ValueError("weights must be positive integers")
        total = sum(ws)
        while cands:
            r, k = below(total), 0
            while r >= ws[k]:
                r -= ws[k]
                k += 1
            a = cands.pop(k)
            total -= ws.pop(k)
            if is_legal(state, a):
                return a
        return None
    finally:
        _LOS_MEMO.state, _LOS_MEMO.table = outer


#: has_los answers remembered during one legal_actions call (per thread: bots may think in
#: a worker thread while the app asks for its own player's actions)
_LOS_MEMO = threading.local()


def result(state: State) -> dict[str, object]:
    """``{"over": bool, "winner": seat or "", "eliminated": [seats in order]}``."""
    return {"over": bool(state.winner), "winner": state.winner,
            "eliminated": list(state.eliminated)}


# ---------------------------------------------------------------------------------------
# dispatch
# ---------------------------------------------------------------------------------------
#: How many targets each verb takes (None: any number, at least one).
_TARGETS = {"move": None, "punch": 1, "pickup": 1, "drop": 1}


def _check_shape(a: Action) -> None:
    """Refuse an action value that no notation could produce (built by hand or decoded)."""
    if a.verb in _TARGETS:
        n = _TARGETS[a.verb]
        if not a.targets or (n is not None and len(a.targets) != n):
            raise IllegalAction(f"{a.verb} needs {'a target' if n else 'a path'}")
    if a.verb == "boost" and a.number is None:
        raise IllegalAction("boost needs a number card")
    if a.verb in ("play", "discard", "choose") and not a.card:
        raise IllegalAction(f"{a.verb} needs a card")


def _dispatch(state: State, a: Action, dry: bool, out: Out | None = None) -> None:
    o = out or Out()
    if state.winner:
        raise IllegalAction("the game is over")
    try:
        w = state.wizard(a.actor)
    except KeyError:
        raise IllegalAction(f"there is no player {a.actor}") from None
    movers = to_move(state)
    if a.actor not in movers:
        if state.windows:
            win = state.windows[0]
            raise IllegalAction(f"{win.to_answer} must answer the {win.source} first")
        if state.choice:
            raise IllegalAction(f"{state.choice[0]} must choose a card first (Telepath)")
        if state.retreats:  # DG §12: the forced retreat is walked at once, out of turn
            raise IllegalAction(f"{state.retreats[0][0]} must walk his forced retreat first")
        if state.discarding:
            raise IllegalAction(f"{state.discarding[0]} must discard down to the hand limit")
        raise IllegalAction(f"it is {state.turn.active}'s turn")
    why = _restricted(state, w, a)
    if why:
        raise IllegalAction(why)
    if state.choice and not state.windows:
        if a.verb != "choose":
            raise IllegalAction("choose the card to take first (Telepath)")
        _check_shape(a)
        return _choose(state, w, a, dry, o)
    if state.retreats and not state.windows:
        if a.verb != "move":
            raise IllegalAction("walk your forced retreat first (move ...)")
        _check_shape(a)
        return _retreat(state, w, a, dry, o)
    if state.windows:
        if a.verb == "pass":
            return _answer_pass(state, w, dry, o)
        _check_shape(a)
        if a.verb == "play":
            return _answer_play(state, w, a, dry, o)
        raise IllegalAction("you may only answer the attack (play a counteraction) or pass "
                            "(RB: only counteractions out of turn)")
    if state.discarding:
        if a.verb != "discard":
            raise IllegalAction(f"you hold more than {hand_limit(state, w)} cards: discard first"
                                " (RB: discard down at once)")
        _check_shape(a)
        return _discard(state, w, a, dry, o)
    t = state.turn
    if t.picked_up and a.verb != "end":
        raise IllegalAction("picking something up ended your turn: only end may follow "
                            "(RB Objects)")
    _check_shape(a)
    handler = {
        "move": _move, "boost": _boost, "punch": _punch, "play": _play, "pickup": _pickup,
        "drop": _drop, "discard": _discard, "end": _end,
    }.get(a.verb)
    if handler is None:
        raise IllegalAction(f"'{a.verb}' is not possible now")
    handler(state, w, a, dry, o)
    if not dry and not (a.verb == "play" and a.card in MODIFIERS):
        state.turn.modifiers.clear()  # a modifier changes only its player's very next action


# ---------------------------------------------------------------------------------------
# conditions: what a duration effect forbids its wizard (cards.md rows; §1.6)
# ---------------------------------------------------------------------------------------
def _medusa_forbids(state: State, w: Wizard, a: Action) -> str:
    """Medusa's lockout: no moving, spells, counteractions, objects, stones or punches; his
    turns still begin and end with a draw (DG §12; cards.md medusa)."""
    if a.verb in ("end", "pass") or (a.verb == "discard" and state.discarding):
        return ""
    return "you are stone (Medusa): you can only end your turn or pass"


def _no_spell_forbids(state: State, w: Wizard, a: Action) -> str:
    """No Spell: no spell cards of any kind; objects, stones, lock tools, punches, walking and
    boosts still work (cards.md no-spell)."""
    if a.verb == "play" and (cd := C.BY_SLUG.get(a.card)) and cd.spell:
        return "you are under No Spell: you cannot cast spells"
    return ""


def _lock_forbids(state: State, w: Wizard, a: Action) -> str:
    """Lock in Place: he cannot leave his square by his own means (cards.md lock-in-place)."""
    if a.verb == "move" or (a.verb == "play" and a.card == "teleport"):
        return "you are locked in place"
    return ""


def _slow_forbids(state: State, w: Wizard, a: Action) -> str:
    """Slow: no boost and no Power Run (cards.md slow)."""
    if a.verb == "boost" or (a.verb == "play" and a.card == "power-run"):
        return "you are slowed: at most 1 square a turn"
    return ""


def _mist_forbids(state: State, w: Wizard, a: Action) -> str:
    """Mist-Body: no punches, no weapons, no picking up (cards.md mist-body)."""
    if a.verb in ("punch", "pickup") or (a.verb == "play" and a.card in
                                          ("dagger", "large-rock", "wizardblade")):
        return "as mist you cannot punch, use weapons or pick anything up"
    return ""


CONDITION_RULES: dict[str, Callable[[State, Wizard, Action], str]] = {
    "medusa": _medusa_forbids,
    "no-spell": _no_spell_forbids,
    "lock-in-place": _lock_forbids,
    "slow": _slow_forbids,
    "mist-body": _mist_forbids,
}


def _restricted(state: State, w: Wizard, a: Action) -> str:
    """Why a condition on ``w`` forbids ``a`` ("" if none does)."""
    for c in w.conditions:
        rule = CONDITION_RULES.get(c.slug)
        if rule is not None:
            why = rule(state, w, a)
            if why:
                return why
    return ""


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------
def hand_limit(state: State, w: Wizard) -> int:
    """7, or 9 with a displayed Brainstone (RB The Cards; DG §3)."""
    if any(state.face(c) == "brainstone" for c in w.displayed):
        return 9
    return HAND_LIMIT


def allowance(state: State, w: Wizard) -> int:
    """This turn's movement: 3 (4 with a displayed Speedstone) plus the boost (RB Movement;
    cards.md speedstone)."""
    if w.has("slow"):  # cards.md slow: at most 1 square a turn, no boost or Speedstone
        return 1
    base = 4 if _displayed(state, w, "speedstone") else BASE_MOVES
    if w.has("shrink"):  # cards.md shrink: base movement 2
        base = 2
    return base + state.turn.boost


def _target_wizard(state: State, text: str) -> Wizard:
    try:
        w = state.wizard(text)
    except KeyError:
        raise IllegalAction(f"there is no player {text}") from None
    if not w.in_game or w.at is None:
        raise IllegalAction(f"{text} is not on the board")
    return w


def _edge(state: State, text: str) -> Edge:
    try:
        e = parse_edge(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    x, y, side = e
    lay = state.layout
    if not lay.has_square((x, y)):
        raise IllegalAction(f"{text} is not an edge of this board")
    return lay.edge_key((x, y), side)


def _square(state: State, text: str) -> Square:
    try:
        sq = parse_square(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    if not state.layout.has_square(sq):
        raise IllegalAction(f"{text} is not a square of this board")
    return sq


def _is_blocking(state: State, e: Edge) -> bool:
    es = state.edges.get(e)
    return es is not None and e not in state.turn.open_doors


def has_los(state: State, frm: Square, target: Square | Edge, through: int = 0) -> bool:
    """Line of sight from ``frm`` to a square centre or an edge midpoint.

    Source: RB The Cards (L.O.S., centre to centre, any part of a wall interrupts it); FAQ
    (nicking a corner breaks LOS); cards.md §1.2 (thornbushes and stone blocks block, except
    in the caster's or target's square; an open door does not; wizards and objects do not).
    ``through``: how many wall edges the line may pass (1 with a Visionstone; a corner counts
    as two: FAQ).
    """
    if isinstance(target, tuple) and len(target) == 2 and target == frm:
        return True
    key = (tuple(frm), tuple(target), through)
    if getattr(_LOS_MEMO, "state", None) is state:
        table = _LOS_MEMO.table
    else:
        table = _blocking_memo(state)
    got = table.get(key)
    if got is None:
        got = table[key] = _has_los(state, frm, target, through)
    return got


def _blocking_memo(state: State) -> dict[tuple[object, ...], bool]:
    """The has_los answers remembered for what blocks lines of sight in ``state`` now: the
    board (the same layout object), the walls and doors standing, the doors held open, the
    thornbushes and the stone blocks; nothing else goes into an answer (see
    :func:`_clear_line`). One set of answers per thread, dropped when any of these differs
    (compared by value: a dict in another order only misses) or when it grows large.
    Between two actions that put up or take down nothing, the settle's illusion-wall scan
    asks the same lines again."""
    t = _BLOCKING
    opened = state.turn.open_doors
    if (getattr(t, "layout", None) is not state.layout or t.edges != tuple(state.edges)
            or t.opened != opened or t.bushes != tuple(state.bushes)
            or t.stones != state.stones or len(t.table) > 20_000):
        t.layout, t.edges, t.opened = state.layout, tuple(state.edges), list(opened)
        t.bushes, t.stones, t.table = tuple(state.bushes), list(state.stones), {}
    return t.table  # type: ignore[no-any-return]


#: has_los answers by what blocks (see :func:`_blocking_memo`), per thread
_BLOCKING = threading.local()


def _has_los(state: State, frm: Square, target: Square | Edge, through: int) -> bool:
    return _clear_line(state, frm, target, through) is not None


def _clear_line(state: State, frm: Square, target: Square | Edge,
                through: int) -> Sightline | None:
    """The first (shortest) sightline from ``frm`` to ``target`` that nothing blocks, with
    ``through`` wall edges allowed, or None (see :func:`has_los`)."""
    edges, opened = state.edges, state.turn.open_doors
    standing = edges.keys()
    has = edges.__contains__
    bushes, stones = state.bushes, state.stones
    for sl in sightlines(state.layout, frm, target):
        # blocked_count(sl, _is_blocking) inlined (the hot path of legal_actions); with no
        # door held open, "blocking" is "standing", counted at C speed
        if opened:
            count = 0
            for e in sl.edges:
                if e in edges and e not in opened:
                    count += 1
            for corner in sl.corners:
                if any(e in edges and e not in opened for e in corner):
                    count += 2
            if count > through:
                continue
        else:
            if standing.isdisjoint(sl.edges):
                count = 0
            elif not through:
                continue
            else:
                count = sum(map(has, sl.edges))
                if count > through:
                    continue
            for corner in sl.corners:
                if not standing.isdisjoint(corner):
                    count += 2
                    if count > through:
                        break
            if count > through:
                continue
        if bushes or stones:
            ends = {frm}
            if len(target) == 2:
                ends.add(target)  # type: ignore[arg-type]
            if any(s not in ends and (s in bushes or s in stones) for s in sl.squares):
                continue
        return sl
    return None


def _sees(state: State, w: Wizard, frm: Square, target: Square | Edge) -> bool:
    """A spell's line of sight for ``w``: through one wall with a displayed Visionstone (cards.md
    visionstone; FAQ: a corner counts as two). Throws use :func:`has_los` (a clear line)."""
    if w.has("blind"):  # cards.md blind: his LOS reaches only his own square
        return len(target) == 2 and target == frm
    through = 1 if _displayed(state, w, "visionstone") else 0
    if state.turn.active == w.seat and not state.windows:
        for slug, pivot in state.turn.modifiers:
            if slug == "around-the-corner":  # two legs, both clear (cards.md)
                p = parse_square(str(pivot))
                return has_los(state, frm, p, through) and has_los(state, p, target, through)
    return has_los(state, frm, target, through)


def _number(state: State, w: Wizard, a: Action, use: str) -> tuple[int, int | None]:
    """Resolve ``+N``: (final value V, number card id). Default 1 without a number card (RB).

    The fixed order of cards.md §1.3: Add (its own number card), Amplify x2 each, Extend x2
    for a duration, then +1 once for a displayed Powerstone if any number card was used.
    """
    if a.number is not None and use in ("none", "-", "modifier") and a.card:
        raise IllegalAction(f"{a.card} takes no number card (cards.md §1.3)")
    cid = None
    if a.number is not None:
        cid = state.find_in_hand(w.seat, str(a.number))
        if cid is None or not C.is_number(str(a.number)):
            raise IllegalAction(f"you hold no number card {a.number}")
    return _final_number(state, w, a.number, use), cid


def _final_number(state: State, w: Wizard, n: int | None, use: str) -> int:
    value = 1 if n is None else n
    used_card = n is not None
    mods = state.turn.modifiers if state.turn.active == w.seat and not state.windows else []
    if use in ("power", "duration", "count", "distance", "boost"):
        for slug, num in mods:
            if slug == "add" and isinstance(num, int):
                value += num
                used_card = used_card or num > 1
        for slug, _num in mods:
            if slug == "amplify":
                value *= 2
        if use == "duration":
            for slug, _num in mods:
                if slug == "extend":
                    value *= 2
    if used_card:
        value += _powerstone(state, w)
    return value


def _powerstone(state: State, w: Wizard) -> int:
    """+1, applied last, to an action that used a number card, with a displayed Powerstone
    (cards.md §1.3 step 4, powerstone)."""
    return 1 if _displayed(state, w, "powerstone") else 0


def _discard_cards(state: State, cids: Iterable[int | None]) -> None:
    for c in cids:
        if c is None:
            continue
        for w in state.wizards:
            if c in w.hand:
                w.hand.remove(c)
            if c in w.displayed:
                w.displayed.remove(c)
        if c not in state.discard:
            state.discard.append(c)


def _take_from_hand(w: Wizard, cid: int | None) -> None:
    if cid is None:
        return
    if cid in w.hand:
        w.hand.remove(cid)
    if cid in w.displayed:
        w.displayed.remove(cid)


def _vacant(state: State, sq: Square) -> bool:
    """No wizard, no thornbush, no stone block (cards.md §1.8: objects and home bases ok)."""
    return (not state.wizards_at(sq) and sq not in state.bushes and sq not in state.stones)


def _creatable_square(state: State, sq: Square) -> str:
    """Why a square creation cannot go on ``sq`` ("" if it can). Source: RB (nothing may be
    created on a home base or an occupied square); cards.md §1.8."""
    if state.wizards_at(sq):
        return "a wizard stands there"
    if state.tokens_at(sq):
        return "something lies there"
    if state.home_owner(sq) is not None:
        return "nothing can be created on a home base"
    return ""


def _check_attack(state: State, w: Wizard, target: Wizard | None, card: str = "") -> None:
    """The limits on any attack (RB Combat; FAQ; cards.md §1.1; Medusa: only Swap and
    Teleport Opponent may target a petrified wizard, DG §12)."""
    if target is not None and target.has("medusa") and card not in ("swap",
                                                                     "teleport-opponent"):
        raise IllegalAction(f"{target.seat} is stone: only Swap or Teleport Opponent affect him")
    if state.round <= 1:
        raise IllegalAction("no attacks in the first round (RB Combat; FAQ errata)")
    if state.turn.attacked:
        raise IllegalAction("you have already attacked this turn (one attack a turn)")
    if target is not None and target.seat == w.seat:
        raise IllegalAction("you cannot attack yourself (6e rule)")
    if target is not None and state.allies(w.seat, target.seat):
        raise IllegalAction(f"{target.seat} is your team-mate: you may not attack him "
                            "(rulebook, Team play option)")
    if target is not None and any(c.slug == "buddy" and c.caster == target.seat
                                  for c in w.conditions):
        raise IllegalAction(f"{target.seat} is your Buddy: you cannot attack him until he "
                            "attacks you (cards.md buddy)")


def _roll(state: State) -> int:
    """One d4 roll: from the scenario's forced dice, else the game RNG."""
    if state.script.dice is not None:
        if not state.script.dice:
            raise ScriptExhausted("the scenario ran out of dice")
        return state.script.dice.pop(0)
    return state.rng.d4()


def _pick(state: State, cids: list[int]) -> int:
    """One card chosen at random from ``cids`` (a hand, in its public order): from the
    scenario's forced picks (by slug), else the game RNG (cards.md §1.4 random loss)."""
    if state.script.picks is not None:
        if not state.script.picks:
            raise ScriptExhausted("the scenario ran out of picks")
        slug = state.script.picks.pop(0)
        for c in cids:
            if state.face(c) == slug:
                return c
        raise ScriptExhausted(f"the forced pick {slug} is not in that hand")
    return cids[state.rng.below(len(cids))]


def _other_side(win: Window, seat: str) -> str:
    return win.defender if seat == win.attacker else win.attacker


# ---------------------------------------------------------------------------------------
# movement
# ---------------------------------------------------------------------------------------
def _step_ok(state: State, frm: Square, to: Square) -> tuple[Edge, str] | None:
    """The edge crossed stepping from ``frm`` to ``to`` (adjacent or joined by an exit/warp)
    and the side left by, or None if they are not joined."""
    for side in "nesw":
        nb = state.layout.neighbor(frm, side)
        if nb is not None and nb[0] == to:
            return nb[1], side
    return None


def _move(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Walk along a path. Source: RB Movement (3 squares, plus one number card; split around
    other actions); RB The Board (walls block; doors are locked and relock after passage);
    cards.md thornbush (entering stops you, 1 physical damage, a lost turn)."""
    t = state.turn
    if not a.targets:
        raise IllegalAction("move needs a path")
    if t.stopped:
        raise IllegalAction("you entered a thornbush: your movement is over this turn")
    if t.swapped:
        raise IllegalAction("you swapped places: Swap replaced your movement this turn")
    left = max(0, allowance(state, w) - t.moves_used)
    extra = max(0, len(a.targets) - left)
    if extra and not t.power_run:
        raise IllegalAction(f"you have {left} square(s) of movement left this turn")
    if extra and w.life - extra < 1:
        raise IllegalAction("Power Run: you cannot pay your last life point "
                            f"({extra} extra square(s) cost {extra} life)")
    cur = w.at
    assert cur is not None
    used_doors: list[Edge] = []
    bush_at: Square | None = None
    passed = False
    fires = 0
    walked = len(a.targets)
    for i, text in enumerate(a.targets):
        sq = _square(state, text)
        step = _step_ok(state, cur, sq)
        if step is None:
            if sq == cur:
                raise IllegalAction(f"you are already on {text}: a path lists the squares "
                                    "you enter")
            raise IllegalAction(f"{text} is not next to {square_name(cur)}")
        e, _side = step
        if e in state.edges:
            if e in t.open_doors and e not in used_doors:
                used_doors.append(e)
            elif t.pass_edge == edge_name(e) and not passed:
                passed = True  # Pass Through Wall: once this turn (cards.md)
            elif w.has("mist-body") and state.edges[e].kind.startswith("door"):
                pass  # as mist you drift through doors, even jammed ones (cards.md mist-body)
            elif _own_door(state, w, e, cur, sq):
                pass  # the doors variant: your own sector's doors open for you (DG §11)
            elif state.edges[e].kind == "wall-of-fire":
                fires += 1  # it can be crossed, at 4 magical damage (cards.md wall-of-fire)
            elif state.edges[e].kind == "illusion-wall" and \
                    w.seat not in state.edges[e].believe:
                # he sees through it (cards.md illusion-wall); one who meets it for the first
                # time on this walk rolls now, and a believer stops in front of it (DG §12:
                # belief is rolled at first sight)
                if not dry and _first_sight_believes(state, w, e, o):
                    walked = i
                    break
            else:
                what = state.edges[e].kind
                what = "wall" if what == "illusion-wall" else what  # a believer sees a wall
                raise IllegalAction(f"a {'locked door' if what.startswith('door') else what} "
                                    f"blocks the way at {edge_name(e)}")
        if sq in state.stones:
            raise IllegalAction(f"a stone block fills {text}")
        if sq in state.bushes and not w.has("mist-body"):
            if i != len(a.targets) - 1:
                raise IllegalAction(f"entering the thornbush at {text} ends the move")
            bush_at = sq
        cur = sq
    if dry:
        return
    w.at = cur
    t.moves_used += walked
    extra = max(0, walked - left)
    if extra:
        w.life -= extra  # a cost, not damage: no counteraction or stone applies
        o("run", f"{w.seat} pays {extra} life to run on", seat=w.seat)
    for e in used_doors:
        t.open_doors.remove(e)  # the door relocks behind you (RB The Board)
    if passed:
        t.pass_edge = ""
    o("move", f"{w.seat} moves to {square_name(cur)}", seat=w.seat,
      path=list(a.targets[:walked]))
    if bush_at is not None:
        _enter_bush(state, w, o)
    for _ in range(fires):  # each crossing is one damage event (cards.md §1.8)
        o("fire", f"{w.seat} crosses a wall of fire", seat=w.seat)
        _open_indirect(state, [w], 4, "wall-of-fire", physical=False, cause=w.seat)


def _first_sight_believes(state: State, w: Wizard, e: Edge, o: Out) -> bool:
    """A walker about to cross an illusion wall he has never rolled for sees it now: he rolls
    (1-2: he believes it) unless he is blind. True if he now believes it.
    Source: DG §12 (belief rolled per player at first sight); cards.md illusion-wall."""
    es = state.edges[e]
    if w.seat in es.rolled or w.has("blind"):
        return False
    roll = _roll(state)
    es.rolled.append(w.seat)
    if roll <= 2:
        es.believe.append(w.seat)
    o("illusion", f"{w.seat} sees the wall at {edge_name(e)}", seat=w.seat, roll=roll)
    return roll <= 2


def _own_door(state: State, w: Wizard, e: Edge, frm: Square, to: Square) -> bool:
    """The doors variant: a wizard opens the doors of his own sector without a key (the
    sector whose centre is his home base). Source: DG §11 (official variants)."""
    if not state.options.get("doors") or w.home is None:
        return False
    es = state.edges.get(e)
    if es is None or es.kind != "door":
        return False
    mine = state.layout.sector_of(w.home)
    return mine is not None and mine in (state.layout.sector_of(frm),
                                         state.layout.sector_of(to))


def _enter_bush(state: State, w: Wizard, o: Out) -> None:
    """Entering a thornbush: stop, 1 physical damage (indirect), lose the next turn.
    Source: cards.md thornbush (decided 1 damage); AF."""
    if w.seat == state.turn.active:
        state.turn.stopped = True
    w.lost_turns += 1
    o("bush", f"{w.seat} is caught in a thornbush and loses a turn", seat=w.seat)
    _open_indirect(state, [w], 1, "thornbush", physical=True, cause=state.turn.active)


def _boost(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Add one number card to this turn's movement, once a turn. Source: RB Movement."""
    if state.turn.boost:
        raise IllegalAction("you have already added a number card to your movement this turn")
    cid = state.find_in_hand(w.seat, str(a.number))
    if cid is None or not C.is_number(str(a.number)):
        raise IllegalAction(f"you hold no number card {a.number}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.boost = _final_number(state, w, a.number, "boost")
    o("boost", f"{w.seat} adds {a.number} to this turn's movement", seat=w.seat)


# ---------------------------------------------------------------------------------------
# punch
# ---------------------------------------------------------------------------------------
def _punch(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Punch: no card, the turn's one attack, 1 damage to a wizard in your square, or to a wall
    or door on a side of your square, or a thornbush in your or an open next square.
    Source: RB Combat (punch; walls 20, doors 15; attacks on objects use the attack)."""
    text = a.targets[0]
    at = w.at
    assert at is not None
    if text.startswith("P") and "." not in text:
        target = _target_wizard(state, text)
        _check_attack(state, w, target, a.card)
        if target.at != at:
            raise IllegalAction(f"{text} is not in your square")
        if dry:
            return
        _declare(state, w, target, "punch", None, None, 1, o, physical=True)
        return
    if ":" in text:
        e = _edge(state, text)
        if e not in [k for _s, k in state.layout.edges_of(at)]:
            raise IllegalAction(f"{text} is not a side of your square")
        if not _attackable_edge(state, e, w.seat):
            raise IllegalAction(f"there is no wall or door to attack at {text}")
        _check_attack(state, w, None)
        if dry:
            return
        state.turn.attacked = True
        _damage_edge(state, e, 1, o, w.seat)
        return
    sq = _square(state, text)
    if sq not in state.bushes:
        raise IllegalAction(f"there is no thornbush at {text}")
    if sq != at:
        step = _step_ok(state, at, sq)
        if step is None or step[0] in state.edges:
            raise IllegalAction(f"the thornbush at {text} is not next to you")
    _check_attack(state, w, None)
    if dry:
        return
    state.turn.attacked = True
    _damage_bush(state, sq, 1, o)


def _attackable_edge(state: State, e: Edge, seat: str = "") -> bool:
    """A wall or door stands there (a wall of fire cannot be attacked: cards.md §1.8; an
    illusion wall only by those who believe it)."""
    es = state.edges.get(e)
    if es is None or es.kind == "wall-of-fire":
        return False
    return es.kind != "illusion-wall" or seat in es.believe


def _damage_edge(state: State, e: Edge, n: int, o: Out, by: str = "") -> None:
    """Points of damage to a wall or door; it stays damaged until destroyed (RB Combat).
    A believer who "destroys" an illusion wall stops believing it; it stays for the others
    (DG §12; cards.md illusion-wall)."""
    es = state.edges[e]
    es.hp -= n
    if es.hp <= 0 and es.kind == "illusion-wall":
        es.hp = WALL_HP
        if by in es.believe:
            es.believe.remove(by)
        o("edge", f"{by} sees through the illusion at {edge_name(e)}", edge=edge_name(e))
        return
    if es.hp <= 0:
        del state.edges[e]
        if e in state.turn.open_doors:
            state.turn.open_doors.remove(e)
        o("edge", f"the {es.kind} at {edge_name(e)} is destroyed", edge=edge_name(e))
    else:
        o("edge", f"the {es.kind} at {edge_name(e)} takes {n} ({es.hp} left)",
          edge=edge_name(e), hp=es.hp)


def _damage_bush(state: State, sq: Square, n: int, o: Out) -> None:
    hp = state.bushes[sq] - n
    if hp <= 0:
        del state.bushes[sq]
        o("bush", f"the thornbush at {square_name(sq)} is destroyed", square=square_name(sq))
    else:
        state.bushes[sq] = hp
        o("bush", f"the thornbush at {square_name(sq)} takes {n} ({hp} left)",
          square=square_name(sq))


# ---------------------------------------------------------------------------------------
# playing cards in your own turn
# ---------------------------------------------------------------------------------------
def _play(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Play a card from hand in your own turn (RB The Cards; cards.md §1.1)."""
    try:
        cd = C.card(a.card)
    except KeyError:
        raise IllegalAction(f"there is no card called {a.card!r}") from None
    cid = state.find_in_hand(w.seat, a.card)
    if cid is None:
        raise IllegalAction(f"you hold no {a.card}")
    if cd.kind == C.NUMBER:
        raise IllegalAction("a number card is played with an action (+N) or as a boost")
    if cd.slug not in C.IMPLEMENTED:
        raise IllegalAction(f"{cd.name} is not implemented yet in this engine")
    if cd.kind == C.COUNTER:
        raise IllegalAction(f"{cd.name} only answers an attack (it has no use as a neutral)")
    effect = _OWN_TURN.get(cd.slug)
    if effect is None:  # pragma: no cover - IMPLEMENTED and the table agree (tested)
        raise IllegalAction(f"{cd.name} cannot be played now")
    if a.arg("mode") == "throw" and cd.kind in (C.OBJECT, C.STONE) and effect is not _weapon:
        effect = _throw_object  # FAQ: any object can be thrown (weapons have their own rows)
    if a.number is not None and a.number == 0:
        raise IllegalAction("there is no number card 0")
    if a.number is not None and str(a.number) == a.card:
        raise IllegalAction("a card cannot be its own number")
    effect(state, w, a, cid, dry, o)
    if not dry and cd.spell and cd.kind != C.ATTACK and cd.slug != "reuse-spell":
        state.turn.played.append(cd.slug)


def _attack_target(state: State, w: Wizard, a: Action) -> Wizard:
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target: @P2")
    return _target_wizard(state, a.targets[0])


def _to_hit(state: State, w: Wizard, target: Wizard, o: Out) -> bool:
    """The d4 to-hit roll against an invisible target, made when the attack is declared:
    it hits only on a 1 (cards.md invisible; §1.5 Declaring an attack)."""
    if target.has("invisible"):
        roll = _roll(state)
        o("roll", f"{w.seat} rolls {roll} to hit the invisible {target.seat}", roll=roll)
        return roll == 1
    if target.has("shrink"):  # cards.md shrink: hits only on 1-2
        roll = _roll(state)
        o("roll", f"{w.seat} rolls {roll} to hit the shrunk {target.seat}", roll=roll)
        return roll <= 2
    return True


def _point_attack(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Fireball, Lightning Blast, Powerthrust, Sudden Death: a wizard, or a wall, door or
    thornbush in LOS (cards.md §1.8: only these spells' points hurt walls).
    Source: RB Combat (walls/doors/bushes take points; attacking them is the turn's attack);
    RB Number cards (power); cards.md rows."""
    cd = C.card(a.card)
    value, ncid = _number(state, w, a, cd.number)
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target")
    text = a.targets[0]
    at = w.at
    assert at is not None
    pts = {"powerthrust": value + 2, "sudden-death": 10}.get(a.card, value)
    if a.args:
        raise IllegalAction(f"{a.card} takes no {a.args[0][0]}=")
    if ":" in text:
        e = _edge(state, text)
        if not _attackable_edge(state, e, w.seat):
            raise IllegalAction(f"there is no wall or door to attack at {text}")
        _check_attack(state, w, None)
        if not _sees(state, w, at, e):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        state.turn.attacked = True
        _discard_cards(state, [cid, ncid])
        o("attack", f"{w.seat} casts {cd.name} at {text}", seat=w.seat)
        _damage_edge(state, e, pts, o, w.seat)
        return
    if not text.startswith("P"):
        sq = _square(state, text)
        if sq not in state.bushes:
            raise IllegalAction(f"there is nothing to attack at {text}")
        _check_attack(state, w, None)
        if not _sees(state, w, at, sq):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        state.turn.attacked = True
        _discard_cards(state, [cid, ncid])
        o("attack", f"{w.seat} casts {cd.name} at the thornbush at {text}", seat=w.seat)
        _damage_bush(state, sq, pts, o)
        return
    target = _target_wizard(state, text)
    _check_attack(state, w, target, a.card)
    assert target.at is not None
    if not _sees(state, w, at, target.at):
        raise IllegalAction(f"no line of sight to {text} (RB The Cards: L.O.S.)")
    if dry:
        return
    _declare(state, w, target, a.card, cid, ncid, value, o)


def _declare(state: State, w: Wizard, target: Wizard, slug: str, cid: int | None,
             ncid: int | None, value: int, o: Out, *, mode: str = "", physical: bool = False,
             push_dir: str = "") -> None:
    """Declare an attack on a wizard: use up the turn's attack, roll to hit if needed, then
    open the answer window (cards.md §1.5)."""
    state.turn.attacked = True
    if slug not in ("dagger", "wizardblade") or mode == "throw":  # a blade that strikes stays
        _take_from_hand(w, cid)
    _take_from_hand(w, ncid)
    name = "a punch" if slug == "punch" else C.card(slug).name
    # attacking your Buddy ends the Buddy spell you cast on him (cards.md buddy)
    target.conditions = [c for c in target.conditions
                         if not (c.slug == "buddy" and c.caster == w.seat)]
    o("attack", f"{w.seat} attacks {target.seat} with {name}"
      + (f" ({value})" if ncid is not None else ""), seat=w.seat, target=target.seat,
      card=slug, value=value)
    if not _to_hit(state, w, target, o):
        o("miss", f"the {name} misses {target.seat}", seat=w.seat)
        _finish_objects(state, slug, cid, mode, target.at)
        _discard_cards(state, [c for c in (cid, ncid) if c is not None and _is_spent(state, c)])
        return
    _open_attack(state, w, target, slug, value, cid, ncid, mode=mode, physical=physical,
                 push_dir=push_dir)


def _is_spent(state: State, cid: int) -> bool:
    """Cards discarded after their action: everything but objects (cards.md §1.1)."""
    return C.card(state.face(cid)).kind not in (C.OBJECT, C.STONE)


def _open_attack(state: State, w: Wizard, target: Wizard, slug: str, value: int,
                 cid: int | None, ncid: int | None, *, mode: str = "", physical: bool = False,
                 push_dir: str = "") -> None:
    """Put an attack on the stack and hand the answer to its target. Playing the attack
    counts as the attacker's pass (notation.md, the stack)."""
    state.windows.insert(0, Window(
        kind="attack", attacker=w.seat, defender=target.seat, source=slug, value=value,
        to_answer=target.seat, cid=cid, number_cid=ncid, target=target.seat, mode=mode,
        physical=physical, passes=1, push_dir=push_dir))


def _waterbolt(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Waterbolt: push the target N squares away from the caster, 1 magical damage per
    blocked square. Source: cards.md waterbolt, §1.8 (push; away from the caster)."""
    value, ncid = _number(state, w, a, "distance")
    target = _attack_target(state, w, a)
    _check_attack(state, w, target, a.card)
    assert w.at is not None and target.at is not None
    if not _sees(state, w, w.at, target.at):
        raise IllegalAction(f"no line of sight to {target.seat}")
    d = _away(w.at, target.at, a.arg("dir"), _last_leg(state, w, w.at, target.at))
    for k, _v in a.args:
        if k != "dir":
            raise IllegalAction(f"waterbolt takes no {k}=")
    if dry:
        return
    _declare(state, w, target, "waterbolt", cid, ncid, value, o, push_dir=d)


def _last_leg(state: State, w: Wizard, frm: Square, to: Square) -> tuple[int, int]:
    """The direction of the last straight leg of ``w``'s line of sight from ``frm`` to
    ``to`` (board coordinates, doubled units): through an exit or warp the part beyond the
    rim crossing; after Around the Corner the leg from the pivot. Falls back on the plain
    difference when no clear line is found. Source: cards.md §1.8 ("When the LOS runs
    through an exit or warp, it is measured along the last straight leg of the LOS")."""
    through = 1 if _displayed(state, w, "visionstone") else 0
    if state.turn.active == w.seat and not state.windows:
        for slug, pivot in state.turn.modifiers:
            if slug == "around-the-corner":
                frm = parse_square(str(pivot))
    if frm == to:
        return (0, 0)
    sl = _clear_line(state, frm, to, through)
    if sl is not None and sl.leg != (0, 0):
        return sl.leg
    return (2 * (to[0] - frm[0]), 2 * (to[1] - frm[1]))


def _away(frm: Square, to: Square, given: str, leg: tuple[int, int] | None = None) -> str:
    """The direction "away from the caster": the axis of the larger distance (measured
    along ``leg``, the last straight leg of the LOS, when given); on a tie the caster names
    it with dir=, choosing one of the directions that lead away (any, when both stand in one
    square); without a tie dir= may only repeat the one direction (cards.md §1.8).
    Raises ``IllegalAction`` for a missing or wrong dir=."""
    dx, dy = leg if leg is not None else (to[0] - frm[0], to[1] - frm[1])
    if given and given not in DIRS:
        raise IllegalAction("dir= must be n, e, s or w")
    if abs(dx) == abs(dy):
        away = ["e" if dx > 0 else "w", "s" if dy > 0 else "n"] if dx else list(DIRS)
        if not given:
            raise IllegalAction("the target is on a diagonal: name the push direction with "
                                f"dir={'|'.join(away)}")
        if given not in away:
            raise IllegalAction(f"dir={given} does not lead away from the caster "
                                f"(dir={' or dir='.join(away)})")
        return given
    d = ("e" if dx > 0 else "w") if abs(dx) > abs(dy) else ("s" if dy > 0 else "n")
    if given and given != d:
        raise IllegalAction(f"the push goes {d}, away from the caster: dir= is only for a "
                            "target on a diagonal (cards.md §1.8)")
    return d


def _weapon(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Dagger and Large Rock (objects, not spells; physical damage).
    Dagger: stab a wizard in your square (2), or throw it (mode=throw) at one in LOS (2), after
    which it lies in his square. Large Rock: thrown at a wizard in LOS (3), lands in his
    square. Thrown at a square instead they do no damage and are no attack.
    Wizardblade: strikes a wizard in your square for 3 magical damage and stays in hand.
    Source: RB Objects (thrown objects land in the target square or before a barrier); FAQ
    (thrown objects do no damage unless the card says so); cards.md dagger, large-rock,
    wizardblade."""
    if a.number is not None:
        raise IllegalAction(f"{a.card} takes no number card")
    mode = a.arg("mode")
    if mode not in ("", "throw") or any(k != "mode" for k, _ in a.args):
        raise IllegalAction("the only argument here is mode=throw")
    if a.card == "large-rock":
        mode = "throw"
    if a.card == "wizardblade" and mode == "throw" and a.targets and \
            a.targets[0].startswith("P"):
        raise IllegalAction("a thrown Wizardblade does no damage: throw it at a square")
    if len(a.targets) != 1:
        raise IllegalAction(f"{a.card} needs one target")
    text = a.targets[0]
    at = w.at
    assert at is not None
    if not text.startswith("P"):
        sq = _square(state, text)
        if mode != "throw":
            raise IllegalAction("to throw it at a square, say mode=throw")
        land = _throw_landing(state, at, sq)
        if dry:
            return
        _take_from_hand(w, cid)
        state.floor.append((land, cid))
        o("throw", f"{w.seat} throws the {C.card(a.card).name} to {square_name(land)}",
          seat=w.seat)
        return
    target = _target_wizard(state, text)
    _check_attack(state, w, target, a.card)
    assert target.at is not None
    if mode == "throw":
        if not has_los(state, at, target.at):
            raise IllegalAction(f"no line of sight to {text}")
    elif target.at != at:
        raise IllegalAction(f"{text} is not in your square (throw it with mode=throw)")
    if dry:
        return
    value = {"large-rock": 3, "wizardblade": 3}.get(a.card, 2)
    # the Wizardblade's cut is magical (RB: it counts as magical damage)
    _declare(state, w, target, a.card, cid, None, value, o, mode=mode,
             physical=a.card != "wizardblade")


def _throw_object(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Throw an object that is no weapon (a magic stone, the Master Key) at a square in a clear
    line: it lands there, or just before a thornbush or stone block; a displayed stone is
    displayed no more. It does no damage and is no attack, whoever stands there.
    Source: FAQ (you can throw objects, not treasures; thrown objects do no damage unless a
    card says so); RB Objects (where a thrown object lands); cards.md §1.4 (throwing)."""
    name = C.card(a.card).name
    if a.number is not None or len(a.targets) != 1 or a.targets[0].startswith("P") or \
            any(k != "mode" for k, _ in a.args):
        raise IllegalAction(f"throw the {name} at a square, e.g. @c3 mode=throw; a thrown "
                            "object does no damage (FAQ)")
    sq = _square(state, a.targets[0])
    assert w.at is not None
    land = _throw_landing(state, w.at, sq)
    if dry:
        return
    _take_from_hand(w, cid)
    state.floor.append((land, cid))
    o("throw", f"{w.seat} throws the {name} to {square_name(land)}", seat=w.seat)


def _throw_landing(state: State, frm: Square, to: Square) -> Square:
    """Where a thrown object lands: the target square, or the square just before a thornbush
    or stone block on the line. Walls, closed doors on the line make the throw impossible.
    Source: RB Objects; cards.md §1.4."""
    best = None
    for sl in sightlines(state.layout, frm, to):
        if blocked_count(sl, lambda e: _is_blocking(state, e)) == 0:
            best = sl
            break
    if best is None:
        raise IllegalAction(f"no clear line to throw to {square_name(to)}")
    prev = frm
    for s in best.squares[1:]:
        if s in state.bushes or s in state.stones:
            return prev
        prev = s
    return to


def _create_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Create Wall: a permanent 20-point wall on an empty edge in LOS (measured to the edge's
    midpoint). Source: RB The Cards (LOS to the centre of the wall); cards.md create-wall."""
    e = _neutral_edge(state, w, a)
    if e in state.edges:
        raise IllegalAction(f"{a.targets[0]} is not empty")
    x, y, side = e
    if state.layout.neighbor((x, y), side) is None:
        raise IllegalAction(f"{a.targets[0]} is the board's edge")
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("wall", WALL_HP, created=True)
    o("edge", f"{w.seat} creates a wall at {edge_name(e)}", edge=edge_name(e))


def _neutral_edge(state: State, w: Wizard, a: Action) -> Edge:
    if a.number is not None:
        raise IllegalAction(f"{a.card} takes no number card (cards.md §1.3)")
    if a.args:
        raise IllegalAction(f"{a.card} takes no {a.args[0][0]}=")
    if len(a.targets) != 1 or ":" not in a.targets[0]:
        raise IllegalAction(f"{a.card} needs a side as its target, e.g. @c3:e")
    return _edge(state, a.targets[0])


def _destroy_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Destroy Wall: a wall or door in LOS is gone; every wizard in the two squares beside it
    takes 2 physical damage, indirect: not an attack, legal in round 1, no kill credit.
    Source: FAQ (Destroy Wall next to someone in round one is legal; second-hand kills give no
    cards); RB (Absorb or Blunt against a falling wall); cards.md destroy-wall (2 damage)."""
    e = _neutral_edge(state, w, a)
    if not _attackable_edge(state, e, w.seat):
        raise IllegalAction(f"there is no wall or door at {a.targets[0]}")
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    if state.edges[e].kind == "illusion-wall":  # no falling damage; only he stops believing
        state.edges[e].believe.remove(w.seat)
        o("edge", f"{w.seat} sees through the illusion at {edge_name(e)}", edge=edge_name(e))
        return
    kind = state.edges.pop(e).kind
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("edge", f"{w.seat} destroys the {kind} at {edge_name(e)}", edge=edge_name(e))
    x, y, side = e
    beside = [(x, y)]
    nb = state.layout.neighbor((x, y), side)
    if nb is not None:
        beside.append(nb[0])
    victims = [v for v in _seat_order_from(state, state.turn.active) if v.at in beside]
    _open_indirect(state, victims, 2, "destroy-wall", physical=True, cause=w.seat)


def _seat_order_from(state: State, seat: str) -> list[Wizard]:
    seats = state.seats
    i = seats.index(seat)
    order = seats[i:] + seats[:i]
    return [state.wizard(s) for s in order if state.wizard(s).in_game]


def _door_of_square(state: State, w: Wizard, a: Action) -> Edge:
    e = _neutral_edge(state, w, a)
    assert w.at is not None
    if e not in [k for _s, k in state.layout.edges_of(w.at)]:
        raise IllegalAction(f"{a.targets[0]} is not a side of your square")
    es = state.edges.get(e)
    if es is None or not es.kind.startswith("door"):
        raise IllegalAction(f"there is no door at {a.targets[0]}")
    return e


def _pick_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Pick Lock: a locked, unjammed door of your square opens for your passage this turn;
    it relocks after you pass or when the turn ends. Not a spell.
    Source: RB The Board (doors locked at all times; relock after passage); cards.md."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if e in state.turn.open_doors:
        raise IllegalAction("that door is already open")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.open_doors.append(e)
    o("door", f"{w.seat} picks the lock of {edge_name(e)}", edge=edge_name(e))


def _thornbush(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Thornbush: a permanent bush (5 points) on an empty square in LOS.
    Source: RB (creations never on a home base or an occupied square); cards.md thornbush."""
    if a.number is not None or a.args:
        raise IllegalAction("thornbush takes only a square")
    if len(a.targets) != 1:
        raise IllegalAction("thornbush needs a square, e.g. @d4")
    sq = _square(state, a.targets[0])
    why = _creatable_square(state, sq)
    if why:
        raise IllegalAction(f"no thornbush at {a.targets[0]}: {why}")
    assert w.at is not None
    if not _sees(state, w, w.at, sq):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.bushes[sq] = BUSH_HP
    o("bush", f"{w.seat} grows a thornbush at {square_name(sq)}", square=square_name(sq))


def _teleport_dest(state: State, a: Action) -> Square:
    if a.number is not None or a.args:
        raise IllegalAction("teleport takes only a square")
    if len(a.targets) != 1:
        raise IllegalAction("teleport needs a square, e.g. @f7")
    sq = _square(state, a.targets[0])
    if not _vacant(state, sq):
        raise IllegalAction(f"{a.targets[0]} is not vacant")
    return sq


def _teleport(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Teleport as a neutral: move to any vacant square (objects and home bases allowed; no
    pick-up out of turn). Source: DG §12 (vacant); RB Objects; cards.md teleport."""
    sq = _teleport_dest(state, a)
    if dry:
        return
    _discard_cards(state, [cid])
    w.at = sq
    state.turn.teleported = True
    o("move", f"{w.seat} teleports to {square_name(sq)}", seat=w.seat, path=[square_name(sq)])


def _invisible(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Invisible as a neutral: for N turns attacks aimed at you hit only on a d4 roll of 1.
    Source: cards.md invisible; §1.6 durations."""
    value, ncid = _number(state, w, a, "duration")
    if a.targets or a.args:
        raise IllegalAction("invisible is cast on yourself only (6e)")
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    _add_condition(w, Condition("invisible", w.seat, value))
    o("condition", f"{w.seat} turns invisible for {value} turn(s)", seat=w.seat)


def _add_condition(w: Wizard, cond: Condition) -> None:
    w.conditions = [c for c in w.conditions if c.slug != cond.slug] + [cond]


def _speed(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Speed: one extra full turn right after this one, still the same round.
    Source: AF; RB (no round-1 attacks even with Speed); FAQ (it counts for durations)."""
    if a.number is not None or a.targets or a.args:
        raise IllegalAction("speed takes no target or number")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.speed_pending += 1
    o("speed", f"{w.seat} will take an extra turn", seat=w.seat)


def _player_spell(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """An attack spell on a wizard in LOS, its number from the card's number use (Power
    Drain, Stone Dead, the duration curses, Swap and Teleport Opponent). Source: RB The Cards
    (L.O.S.); cards.md rows; DG §12 (Swap replaces movement)."""
    cd = C.card(a.card)
    value, ncid = _number(state, w, a, cd.number)
    allowed = {"teleport-opponent": ("to",), "card-erasure": ("name",),
               "drop-object": ("drop",)}.get(a.card, ())
    for k, _v in a.args:
        if k not in allowed:
            raise IllegalAction(f"{a.card} takes no {k}=")
    target = _attack_target(state, w, a)
    _check_attack(state, w, target, a.card)
    assert w.at is not None and target.at is not None
    if cd.target.startswith("los") and not _sees(state, w, w.at, target.at):
        raise IllegalAction(f"no line of sight to {target.seat}")
    arg = ""
    if a.card == "teleport-opponent":
        if not a.arg("to"):
            raise IllegalAction("name the square: to=h8")
        sq = _square(state, a.arg("to"))
        if not _vacant(state, sq):
            raise IllegalAction(f"{a.arg('to')} is not vacant")
        arg = square_name(sq)
    if a.card == "card-erasure":
        if a.arg("name") not in C.BY_SLUG:
            raise IllegalAction("name the card: name=absorb-spell")
        arg = a.arg("name")
    if a.card == "drop-object":
        names = [x for x in a.arg("drop").split(",") if x]
        if not names:
            raise IllegalAction("name what he drops: drop=P3.t1,dagger")
        for x in names:
            if "." not in x and (x not in C.BY_SLUG or
                                 C.card(x).kind not in (C.OBJECT, C.STONE)):
                raise IllegalAction(f"{x} is not a treasure or an object")
        arg = ",".join(names)
    if a.card == "swap":
        t = state.turn
        if t.moves_used or t.teleported or t.swapped:
            raise IllegalAction("Swap replaces your movement: you have already moved this turn"
                                " (DG §12)")
    if dry:
        return
    if a.card == "swap":
        state.turn.swapped = True
    _declare(state, w, target, a.card, cid, ncid, value, o)
    if state.windows and state.windows[0].cid == cid:
        state.windows[0].arg = arg


def _display(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Display a magic stone: from now on its power works; it still counts in the hand.
    Source: RB The Cards (stones are displayed face up after use); cards.md §1.4."""
    if a.targets or a.args or a.number is not None:
        raise IllegalAction(f"{a.card} takes no target or number")
    if cid in w.displayed or any(state.face(c) == a.card for c in w.displayed):
        raise IllegalAction(f"your {C.card(a.card).name} is already displayed")
    if dry:
        return
    w.displayed.append(cid)
    o("stone", f"{w.seat} displays the {C.card(a.card).name}", seat=w.seat, card=a.card)


def _open_door_card(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Master Key: opens an undamaged, unjammed door of your square for your passage this
    turn, like Pick Lock; it stays in hand and is displayed after its first use.
    Source: cards.md master-key (AF: any undamaged door; DG: Jam Lock beats it)."""
    e = _door_of_square(state, w, a)
    es = state.edges[e]
    if es.kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if es.hp < DOOR_HP:
        raise IllegalAction("the Master Key opens only an undamaged door")
    if e in state.turn.open_doors:
        raise IllegalAction("that door is already open")
    if dry:
        return
    if cid not in w.displayed:
        w.displayed.append(cid)
    state.turn.open_doors.append(e)
    o("door", f"{w.seat} unlocks {edge_name(e)} with the Master Key", edge=edge_name(e))


def _jam_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Jam Lock: a door of your square is jammed for good: Pick Lock, Master Key and Remove
    Lock no longer open it; it can still be destroyed. Not a spell. Source: cards.md jam-lock
    (DG: beats Master Key)."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is already jammed")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e].kind = "door-jammed"
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("door", f"{w.seat} jams the door at {edge_name(e)}", edge=edge_name(e))


def _remove_lock(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Remove Lock: a door of your square stays open for good: movement and LOS pass.
    Source: RB The Board (only Remove Lock keeps a door open); cards.md remove-lock."""
    e = _door_of_square(state, w, a)
    if state.edges[e].kind == "door-jammed":
        raise IllegalAction("that door is jammed")
    if dry:
        return
    _discard_cards(state, [cid])
    del state.edges[e]
    if e in state.turn.open_doors:
        state.turn.open_doors.remove(e)
    o("door", f"{w.seat} removes the lock of {edge_name(e)}: it stays open", edge=edge_name(e))


def _stone_block(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Fill Square with Stone: a permanent stone block on an empty square in LOS; it blocks
    movement, LOS and throws and cannot be attacked. Source: RB (creation limits); cards.md."""
    if a.number is not None or a.args or len(a.targets) != 1:
        raise IllegalAction("fill-square-with-stone takes one square, e.g. @d4")
    sq = _square(state, a.targets[0])
    why = _creatable_square(state, sq)
    if why:
        raise IllegalAction(f"no stone at {a.targets[0]}: {why}")
    assert w.at is not None
    if not _sees(state, w, w.at, sq):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.stones.append(sq)
    state.stones.sort()
    o("stone-block", f"{w.seat} fills {square_name(sq)} with stone", square=square_name(sq))


def _dispel(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Dispel Creation: removes one magical creation in LOS: a created wall, a thornbush or a
    stone block (printed walls and doors are not creations). Source: DG; cards.md."""
    if a.number is not None or a.args or len(a.targets) != 1:
        raise IllegalAction("dispel-creation takes one square or side")
    text = a.targets[0]
    assert w.at is not None
    if ":" in text:
        e = _edge(state, text)
        es = state.edges.get(e)
        if es is None or not es.created:
            raise IllegalAction(f"there is no created wall at {text}")
        if not _sees(state, w, w.at, e):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        del state.edges[e]
        what = f"the created wall at {edge_name(e)}"
    else:
        sq = _square(state, text)
        if sq not in state.bushes and sq not in state.stones:
            raise IllegalAction(f"there is no creation at {text}")
        if not _sees(state, w, w.at, sq):
            raise IllegalAction(f"no line of sight to {text}")
        if dry:
            return
        if sq in state.bushes:
            del state.bushes[sq]
            what = f"the thornbush at {text}"
        else:
            state.stones.remove(sq)
            what = f"the stone block at {text}"
    _discard_cards(state, [cid])
    o("dispel", f"{w.seat} dispels {what}", seat=w.seat)


def _power_run(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Power Run: for the rest of the turn, past the allowance, walk on at 1 life a square
    (a cost, not damage; never your last life point). Source: AF; cards.md power-run."""
    if a.number is not None or a.targets or a.args:
        raise IllegalAction("power-run takes no target or number")
    if state.turn.power_run:
        raise IllegalAction("Power Run is already on this turn")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.power_run = True
    o("run", f"{w.seat} starts a Power Run", seat=w.seat)


def _shrink(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Shrink: for N turns, base movement 2 and attacks aimed at you hit only on a d4 of 1-2.
    Self only in 6e. Source: cards.md shrink; DG §12."""
    value, ncid = _number(state, w, a, "duration")
    if a.targets or a.args:
        raise IllegalAction("shrink is cast on yourself only (6e)")
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    _add_condition(w, Condition("shrink", w.seat, value))
    o("condition", f"{w.seat} shrinks for {value} turn(s)", seat=w.seat)


def _buddy(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Buddy: from now until you attack him, the target's attacks on you are refused. It is a
    neutral, not an attack. Source: cards.md buddy (AF)."""
    if a.number is not None or a.args:
        raise IllegalAction("buddy takes only a player")
    target = _attack_target(state, w, a)
    if target.seat == w.seat:
        raise IllegalAction("Buddy is cast on another wizard")
    assert w.at is not None and target.at is not None
    if not _sees(state, w, w.at, target.at):
        raise IllegalAction(f"no line of sight to {target.seat}")
    if dry:
        return
    _discard_cards(state, [cid])
    target.conditions.append(Condition("buddy", w.seat, 0))
    o("condition", f"{target.seat} becomes {w.seat}'s Buddy", seat=target.seat)


#: Modifier cards: each changes its player's very next action (cards.md §1.3).
MODIFIERS = ("add", "amplify", "extend", "around-the-corner")


def _modifier(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Add (+ its own number card; 1 without), Amplify (x2), Extend (x2 a duration): played
    as their own action right before the action they change; if that action is not one they
    fit, they lapse. Source: cards.md §1.3, add, amplify, extend; notation.md."""
    if a.card == "around-the-corner":
        return _pivot(state, w, a, cid, dry, o)
    if a.targets or a.args:
        raise IllegalAction(f"{a.card} takes no target")
    ncid = None
    n = 0
    if a.number is not None:
        if a.card != "add":
            raise IllegalAction(f"{a.card} takes no number card")
        ncid = state.find_in_hand(w.seat, str(a.number))
        if ncid is None or not C.is_number(str(a.number)):
            raise IllegalAction(f"you hold no number card {a.number}")
        n = a.number
    elif a.card == "add":
        n = 1
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    state.turn.modifiers.append([a.card, n])
    o("modifier", f"{w.seat} plays {C.card(a.card).name}" + (f" ({n})" if n else ""),
      seat=w.seat)


def _pivot(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Around the Corner: your next LOS spell this turn traces its line in two legs, from you
    to the pivot square in your sight, then from the pivot to the target (cards.md)."""
    if a.number is not None or a.args or len(a.targets) != 1:
        raise IllegalAction("around-the-corner takes the pivot square, e.g. @c5")
    sq = _square(state, a.targets[0])
    assert w.at is not None
    if not has_los(state, w.at, sq):
        raise IllegalAction(f"no line of sight to the pivot {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.modifiers.append(["around-the-corner", square_name(sq)])
    o("modifier", f"{w.seat} bends his sight around {square_name(sq)}", seat=w.seat)


def _pass_through(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Pass Through Wall: once this turn you may step through one wall or door edge of your
    square (a normal step of movement). Source: cards.md pass-through-wall (decided)."""
    e = _neutral_edge(state, w, a)
    assert w.at is not None
    if e not in [k for _s, k in state.layout.edges_of(w.at)] or e not in state.edges:
        raise IllegalAction(f"{a.targets[0]} is not a wall or door of your square")
    if dry:
        return
    _discard_cards(state, [cid])
    state.turn.pass_edge = edge_name(e)
    o("condition", f"{w.seat} may pass through {edge_name(e)} once", seat=w.seat)


def _self_duration(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """A self-cast duration spell with no other effect (Mist-Body): the condition lasts N of
    your turns (cards.md §1.6)."""
    value, ncid = _number(state, w, a, "duration")
    if a.targets or a.args:
        raise IllegalAction(f"{a.card} is cast on yourself")
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    _add_condition(w, Condition(a.card, w.seat, value))
    o("condition", f"{w.seat} casts {C.card(a.card).name} for {value} turn(s)", seat=w.seat)


def _reuse(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Reuse Spell: cast again a non-attack spell you played earlier this turn that lies in
    the discard pile, with new targets and a new number card; it stays in the discard pile.
    Teleport twice is fine; Swap is an attack and never allowed (DG §12; cards.md)."""
    spell = a.arg("spell")
    cd = C.BY_SLUG.get(spell)
    if cd is None or cd.kind == C.ATTACK or not cd.spell:
        raise IllegalAction("Reuse Spell recasts a non-attack spell: spell=teleport")
    if spell not in state.turn.played or \
            not any(state.face(c) == spell for c in state.discard):
        raise IllegalAction(f"you have not cast {cd.name} this turn (or it left the discard)")
    effect = _OWN_TURN.get(spell)
    if effect is None or spell == "reuse-spell":
        raise IllegalAction(f"{cd.name} cannot be recast")
    again = Action(a.actor, "play", spell, a.targets, a.number,
                   tuple(p for p in a.args if p[0] != "spell"))
    effect(state, w, again, cid, dry, o)  # the Reuse Spell card is the one discarded


def _wall_of_fire(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Wall of Fire: a permanent wall of fire on an empty edge in LOS; it blocks sight and
    throws, can be crossed at 4 magical damage, cannot be attacked. Source: RB (crossing a
    firewall is magical damage); cards.md wall-of-fire (decided: permanent, 4)."""
    e = _neutral_edge(state, w, a)
    _empty_edge(state, e, a.targets[0])
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("wall-of-fire", 0, created=True)
    o("edge", f"{w.seat} raises a wall of fire at {edge_name(e)}", edge=edge_name(e))


def _empty_edge(state: State, e: Edge, text: str, fire_ok: bool = False) -> None:
    """An edge creation needs an empty edge of the board (cards.md §1.8)."""
    es = state.edges.get(e)
    if es is not None and not (fire_ok and es.kind == "wall-of-fire"):
        raise IllegalAction(f"{text} is not empty")
    x, y, side = e
    if state.layout.neighbor((x, y), side) is None:
        raise IllegalAction(f"{text} is the board's edge")


def _waterwall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Waterwall: a wall of water collapses at once on an empty edge (or a wall of fire,
    which it puts out) in LOS: every wizard in the two squares beside it is pushed N squares
    straight away from it, 1 magical damage per blocked square (indirect). Source: AF; FAQ
    (allowed on a wall of fire); cards.md waterwall, §1.8."""
    value, ncid = _number(state, w, a, "distance")
    if a.args or len(a.targets) != 1 or ":" not in a.targets[0]:
        raise IllegalAction("waterwall needs a side, e.g. @c3:e +2")
    e = _edge(state, a.targets[0])
    _empty_edge(state, e, a.targets[0], fire_ok=True)
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid, ncid])
    _collapse_water(state, e, value, w.seat, o)


def _collapse_water(state: State, e: Edge, n: int, cause: str, o: Out) -> None:
    """The waterwall on ``e`` collapses: fire out, pushes away from the edge, each damaged
    wizard answering his damage as indirect damage, in seat order from the active player."""
    if e in state.edges and state.edges[e].kind == "wall-of-fire":
        del state.edges[e]
        o("edge", f"the waterwall puts out the fire at {edge_name(e)}", edge=edge_name(e))
    x, y, side = e
    sides = {(x, y): OPPOSITE[side]}
    nb = state.layout.neighbor((x, y), side)
    if nb is not None:
        sides[nb[0]] = _entered_side(state, (x, y), side)
    hurt = []
    for v in _seat_order_from(state, state.turn.active):
        if v.at in sides:
            dmg = _push(state, v, sides[v.at], n, o)
            if dmg:
                hurt.append((v, dmg))
    o("water", f"a waterwall crashes down at {edge_name(e)}", edge=edge_name(e))
    for v, dmg in reversed(hurt):  # inserted in front: the first in seat order answers first
        _open_indirect(state, [v], dmg, "waterwall", physical=False, cause=cause)


def _entered_side(state: State, sq: Square, side: str) -> str:
    """The direction of travel on the far side of ``sq``'s ``side`` (rim links may turn it)."""
    link = state.layout.links.get((sq, side))
    return OPPOSITE[link[1]] if link is not None else side


def _ugly(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Ugly: every other wizard who has LOS to you and is not blind retreats 3 squares away
    from you, at once and out of turn, in seat order from you; no to-hit roll (DG §12;
    cards.md ugly)."""
    if a.number is not None or a.targets or a.args:
        raise IllegalAction("ugly takes no target or number")
    if dry:
        return
    _discard_cards(state, [cid])
    assert w.at is not None
    o("ugly", f"{w.seat} shows his face", seat=w.seat)
    for v in _seat_order_from(state, w.seat)[1:]:
        if v.at is not None and not v.has("blind") and has_los(state, v.at, w.at):
            state.retreats.append([v.seat, square_name(w.at), 3])


def _drag(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Drag: a wizard, object or loose treasure in your square moves along your walk
    (``path=``, paid from your movement; entering effects apply to it; not a pick-up).
    Source: RB (players can be dragged); DG §9; cards.md drag."""
    if a.number is not None or len(a.targets) != 1 or any(k != "path" for k, _ in a.args):
        raise IllegalAction("drag takes one thing and path=..., e.g. @P2 path=c4-c5")
    path = tuple(p for p in a.arg("path").split("-") if p)
    if not path:
        raise IllegalAction("name the walk: path=c4-c5")
    text = a.targets[0]
    assert w.at is not None
    start = w.at
    thing: Wizard | int | str
    if text.startswith("P") and "." not in text:
        thing = _target_wizard(state, text)
        if thing.at != start or thing.seat == w.seat:
            raise IllegalAction(f"{text} is not in your square")
    elif "." in text:
        if state.treasures.get(text) != start:
            raise IllegalAction(f"{text} is not lying in your square")
        thing = text
    else:
        c = next((c for s_, c in state.floor if s_ == start and state.face(c) == text), None)
        if c is None:
            raise IllegalAction(f"there is no {text} in your square")
        thing = c
    walk = Action(w.seat, "move", targets=path)
    _move(state, w, walk, True, o)
    if dry:
        return
    fires = 0
    cur = start
    for t in path:
        sq = parse_square(t)
        step = _step_ok(state, cur, sq)
        if step and step[0] in state.edges and state.edges[step[0]].kind == "wall-of-fire":
            fires += 1
        cur = sq
    _discard_cards(state, [cid])
    _move(state, w, walk, False, o)
    end = w.at
    if isinstance(thing, Wizard):
        thing.at = end
        o("move", f"{thing.seat} is dragged to {square_name(end)}", seat=thing.seat)
        if end in state.bushes:
            _enter_bush(state, thing, o)
        for _ in range(fires):
            _open_indirect(state, [thing], 4, "wall-of-fire", physical=False, cause=w.seat)
    elif isinstance(thing, str):
        state.treasures[thing] = end
    else:
        state.floor = [(end if c == thing else s_, c) for s_, c in state.floor]


def _illusion_wall(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Illusion Wall: a fake wall on an empty edge in LOS. It blocks sight for everyone,
    always; the caster knows it is fake; every other player rolls the d4 the first time he
    sees it (1-2: he believes it, and treats it as a real 20-point wall for walking, pushes
    and attacks). Source: DG §12; cards.md illusion-wall (decided: d4 1-2, 20 points)."""
    e = _neutral_edge(state, w, a)
    _empty_edge(state, e, a.targets[0])
    assert w.at is not None
    if not _sees(state, w, w.at, e):
        raise IllegalAction(f"no line of sight to {a.targets[0]}")
    if dry:
        return
    _discard_cards(state, [cid])
    state.edges[e] = EdgeState("illusion-wall", WALL_HP, created=True, caster=w.seat,
                               rolled=[w.seat])
    o("edge", f"{w.seat} raises a wall at {edge_name(e)}", edge=edge_name(e))
    _illusion_rolls(state, o)


def _illusion_rolls(state: State, o: Out) -> None:
    """Everyone who sees an illusion wall for the first time rolls for belief, in seat order
    from its caster (DG §12: belief rolled per player at first sight)."""
    walls = [e for e, es in state.edges.items() if es.kind == "illusion-wall"]
    walls.sort()
    for e in walls:
        es = state.edges[e]
        if all(x.seat in es.rolled or x.at is None or not x.in_game for x in state.wizards):
            continue  # (a fast path: nobody left to see it for the first time)
        for v in _seat_order_from(state, es.caster) if state.wizard(es.caster).in_game \
                else [x for x in state.wizards if x.in_game]:
            if v.seat in es.rolled or v.at is None or v.has("blind"):
                continue
            if not has_los(state, v.at, e):
                continue
            roll = _roll(state)
            es.rolled.append(v.seat)
            if roll <= 2:
                es.believe.append(v.seat)
            o("illusion", f"{v.seat} sees the wall at {edge_name(e)}", seat=v.seat, roll=roll)


def _reshape_board(state: State, spec: dict, moving: Callable[[Square], int | None],
                   to_new: Callable[[Square, str | None], tuple[Square, str | None]]) -> None:
    """Rebuild the board from ``spec`` after sectors moved or turned, carrying everything
    with them: wizards, home bases, treasures, objects, creations, and every edit of an edge
    (damage, created or destroyed walls, jammed doors). An edit inside a moving sector moves
    with it; one on its seam or rim moves with it on a d4 of 1-2, else it stays where it was.
    ``moving(sq)`` names the moving sector of a square (None if it stays); ``to_new`` maps a
    square and side of a moving sector to the new board. Source: RB The Board (Rotate and
    Relocate; the 50/50 roll for a changed junction, DG §8)."""
    lay = state.layout
    new = build_layout(spec)
    edits: dict[Edge, EdgeState | None] = {}
    for e in sorted(set(state.edges) | set(lay.printed)):
        now, printed = state.edges.get(e), lay.printed.get(e)
        pristine = now is not None and printed is not None and now.kind == printed and \
            not now.created and now.hp == (WALL_HP if printed == "wall" else DOOR_HP)
        if not pristine and not (now is None and printed is None):
            edits[e] = now
    edges = {e: EdgeState(kind, WALL_HP if kind == "wall" else DOOR_HP)
             for e, kind in sorted(new.printed.items())}
    for e, now in edits.items():
        phys = lay.physical_edges(e)
        ins = [(sq, side) for sq, side in phys if moving(sq) is not None]
        target = e
        if ins:
            whole = len(ins) == len(phys) and len({moving(sq) for sq, _s in phys}) == 1
            if whole or _roll(state) <= 2:
                tsq, tside = to_new(*ins[0])
                target = new.edge_key(tsq, str(tside))
        if now is None:
            edges.pop(target, None)
        else:
            edges[target] = now

    def mv(sq: Square | None) -> Square | None:
        return to_new(sq, None)[0] if sq is not None and moving(sq) is not None else sq

    state.layout, state.layout_spec, state.edges = new, spec, edges
    state.turn.open_doors = []
    for x in state.wizards:
        x.at, x.home = mv(x.at), mv(x.home)
    state.treasures = {t: mv(sq) for t, sq in state.treasures.items()}
    state.floor = [(mv(sq), c) for sq, c in state.floor]  # type: ignore[misc]
    state.bushes = {mv(sq): hp for sq, hp in state.bushes.items()}  # type: ignore[misc]
    state.stones = sorted(mv(sq) for sq in state.stones)  # type: ignore[type-var]


def _rotate_sector(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Rotate Sector: turn one sector 90, 180 or 270 degrees clockwise about its centre, with
    everything on it (see :func:`_reshape_board`). The AUTO WARP is not affected.
    Source: RB The Board (rotation); cards.md rotate-sector."""
    lay = state.layout
    if a.number is not None or len(a.targets) != 1 or any(k != "turn" for k, _ in a.args):
        raise IllegalAction("rotate-sector takes a sector and turn=90|180|270, e.g. @ne turn=90")
    if not lay.placements or a.targets[0] not in lay.placements:
        raise IllegalAction(f"name a sector of this board: {', '.join(lay.placements) or '-'}")
    if a.arg("turn") not in ("90", "180", "270"):
        raise IllegalAction("turn=90, 180 or 270 (clockwise)")
    if dry:
        return
    _discard_cards(state, [cid])
    p = lay.placements.index(a.targets[0])
    k = int(a.arg("turn")) // 90
    ox, oy = lay.sector_origin[p]
    n = lay.sector_size

    def moving(sq: Square) -> int | None:
        return p if ox <= sq[0] < ox + n and oy <= sq[1] < oy + n else None

    def to_new(sq: Square, side: str | None) -> tuple[Square, str | None]:
        (x, y), s2 = rotate_local((sq[0] - ox, sq[1] - oy), side, k, n)
        return (ox + x, oy + y), s2

    spec = dict(state.layout_spec)
    rots = list(spec.get("rotations") or [0] * len(lay.placements))
    rots[p] = (rots[p] + k) % 4
    spec["rotations"] = rots
    _reshape_board(state, spec, moving, to_new)
    o("sector", f"{w.seat} turns the {a.targets[0]} sector {a.arg('turn')} degrees",
      seat=w.seat)


def _relocate_sector(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Relocate Sector: a sector swaps places with another (``@nw to=se``), or on a 3-player
    board moves into the empty place, everything on it moving along and its orientation kept
    (see :func:`_reshape_board`). Not in 2-player games (taken out at setup, FAQ). On a
    3-player board any relocation discards the AUTO WARP for good: from then on only opposite
    board edges connect. Source: RB The Board ("If a sector gets RELOCATED ... the AUTO WARP
    is discarded, and only opposite board edges connect"); cards.md relocate-sector."""
    lay = state.layout
    if a.number is not None or len(a.targets) != 1 or any(k != "to" for k, _ in a.args):
        raise IllegalAction("relocate-sector takes a sector and to=, e.g. @nw to=se")
    src, dst = a.targets[0], a.arg("to")
    if src not in lay.placements:
        raise IllegalAction(f"name a sector of this board: {', '.join(lay.placements) or '-'}")
    into_hole = len(lay.placements) == 3 and dst in QUADRANTS and dst not in lay.placements
    if dst not in lay.placements and not into_hole:
        raise IllegalAction(f"to= must be another sector: {', '.join(lay.placements)}")
    if dst == src:
        raise IllegalAction("to= must be another sector")
    if dry:
        return
    _discard_cards(state, [cid])
    p = lay.placements.index(src)
    n = lay.sector_size
    spec = dict(state.layout_spec)
    if into_hole:
        origin = {p: lay.sector_origin[p]}
        dest = {p: QUADRANTS[dst]}
        places = list(lay.placements)
        places[p] = dst
        spec["places"] = places
    else:
        q = lay.placements.index(dst)
        origin = {p: lay.sector_origin[p], q: lay.sector_origin[q]}
        dest = {p: origin[q], q: origin[p]}
        ids = list(spec["sectors"])
        rots = list(spec.get("rotations") or [0] * len(ids))
        ids[p], ids[q] = ids[q], ids[p]
        rots[p], rots[q] = rots[q], rots[p]
        spec["sectors"], spec["rotations"] = ids, rots
    if len(lay.placements) == 3:
        spec["warp"] = 0

    def moving(sq: Square) -> int | None:
        for i, (ox, oy) in origin.items():
            if ox <= sq[0] < ox + n and oy <= sq[1] < oy + n:
                return i
        return None

    def to_new(sq: Square, side: str | None) -> tuple[Square, str | None]:
        i = moving(sq)
        (fx, fy), (tx, ty) = origin[i], dest[i]  # type: ignore[index]
        return (sq[0] - fx + tx, sq[1] - fy + ty), side

    _reshape_board(state, spec, moving, to_new)
    o("sector", f"{w.seat} moves the {src} sector to {dst}", seat=w.seat)


_OWN_TURN = {
    "fireball": _point_attack,
    "lightning-blast": _point_attack,
    "powerthrust": _point_attack,
    "waterbolt": _waterbolt,
    "dagger": _weapon,
    "large-rock": _weapon,
    "create-wall": _create_wall,
    "destroy-wall": _destroy_wall,
    "pick-lock": _pick_lock,
    "thornbush": _thornbush,
    "teleport": _teleport,
    "invisible": _invisible,
    "speed": _speed,
    "sudden-death": _point_attack,
    "power-drain": _player_spell,
    "wizardblade": _weapon,
    "master-key": _open_door_card,
    "jam-lock": _jam_lock,
    "remove-lock": _remove_lock,
    "fill-square-with-stone": _stone_block,
    "dispel-creation": _dispel,
    "power-run": _power_run,
    "shrink": _shrink,
    "rotate-sector": _rotate_sector,
    "relocate-sector": _relocate_sector,
    "illusion-wall": _illusion_wall,
    "ugly": _ugly,
    "drag": _drag,
    "wall-of-fire": _wall_of_fire,
    "waterwall": _waterwall,
    "pass-through-wall": _pass_through,
    "mist-body": _self_duration,
    "reuse-spell": _reuse,
    "telepath": _player_spell,
    **{slug: _modifier for slug in MODIFIERS},
    "buddy": _buddy,
    **{slug: _player_spell for slug in ("blind", "no-spell", "slow", "lock-in-place", "medusa",
                                        "stone-dead", "swap", "teleport-opponent",
                                        "thought-steal", "card-erasure", "drop-object",
                                        "slow-death", "go-away")},
    **{slug: _display for slug in ("bloodstone", "brainstone", "powerstone", "shadowstone",
                                   "shieldstone", "soulstone", "speedstone", "visionstone")},
}


# ---------------------------------------------------------------------------------------
# objects and treasures
# ---------------------------------------------------------------------------------------
def _pickup(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Pick up one object or treasure in your square; it ends your turn; one treasure at most.
    Source: RB Objects (your turn ends if you pick up any object; only one treasure);
    FAQ (not two objects at once)."""
    text = a.targets[0]
    at = w.at
    if "." in text:
        if state.treasures.get(text) != at or text not in state.treasures:
            raise IllegalAction(f"{text} is not in your square")
        if w.carrying:
            raise IllegalAction("you can carry only one treasure (RB Objects)")
        if dry:
            return
        state.treasures[text] = None
        w.carrying = text
    else:
        cid = next((c for s, c in state.floor if s == at and state.face(c) == text), None)
        if cid is None:
            raise IllegalAction(f"there is no {text} in your square")
        if dry:
            return
        state.floor.remove((at, cid))  # type: ignore[arg-type]
        w.hand.append(cid)
    state.turn.picked_up = True
    o("pickup", f"{w.seat} picks up {thing_name(text)}; the turn is over", seat=w.seat,
      thing=text)


def _drop(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Drop a carried treasure or an object in your square, during your own turn.
    Source: RB Objects (Dropping and Retrieving Objects)."""
    text = a.targets[0]
    at = w.at
    assert at is not None
    if "." in text:
        if w.carrying != text:
            raise IllegalAction(f"you are not carrying {text}")
        if dry:
            return
        w.carrying = ""
        state.treasures[text] = at
    else:
        cid = state.find_in_hand(w.seat, text)
        if cid is None:
            raise IllegalAction(f"you hold no {text}")
        if C.card(text).kind not in (C.OBJECT, C.STONE):
            raise IllegalAction(f"{text} is not an object")
        if dry:
            return
        _take_from_hand(w, cid)
        state.floor.append((at, cid))
    o("drop", f"{w.seat} drops {thing_name(text)} at {square_name(at)}", seat=w.seat,
      thing=text)


def _discard(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Discard a card: in your own turn, or when over the hand limit (RB Getting new cards;
    FAQ: discarding an object sends it to the pile)."""
    cid = state.find_in_hand(w.seat, a.card)
    if cid is None:
        raise IllegalAction(f"you hold no {a.card}")
    if dry:
        return
    _discard_cards(state, [cid])
    cd = C.card(a.card)
    shown = f"Number {cd.name}" if cd.kind == C.NUMBER else cd.name
    o("discard", f"{w.seat} discards {shown}", seat=w.seat, card=a.card)
    if state.discarding and state.discarding[0] == w.seat and \
            len(w.hand) <= hand_limit(state, w):
        state.discarding.pop(0)


def _end(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """End the turn and draw up to 2 (RB: draw up to 2 at the end of the turn)."""
    n = 2 if a.number is None else a.number
    if not 0 <= n <= 2:
        raise IllegalAction("you draw 0, 1 or 2 cards at the end of your turn")
    if dry:
        return
    state.turn.ending = True
    state.turn.draws_left = n
    o("end", f"{w.seat} ends the turn", seat=w.seat)


# ---------------------------------------------------------------------------------------
# answering: counteractions and passes
# ---------------------------------------------------------------------------------------
def _victims(state: State, win: Window) -> list[str]:
    """Who the attack now points at: the defender, and the attacker once a standing
    Reflection has turned half of it back (cards.md reflection)."""
    out = [win.defender]
    if any(c.slug in TURNERS for c in win.counters):
        out.append(win.attacker)
    return out


def _answer_pass(state: State, w: Wizard, dry: bool, o: Out) -> None:
    """Decline to answer; when both sides have passed in succession the stack resolves
    (notation.md, the stack). An indirect damage window closes on its single pass."""
    if dry:
        return
    win = state.windows[0]
    o("pass", f"{w.seat} passes", seat=w.seat)
    if win.kind == "indirect":
        _resolve_indirect(state, o)
        return
    win.passes += 1
    if win.passes >= 2:
        _resolve_attack(state, o)
    else:
        win.to_answer = _other_side(win, w.seat)


def _answer_play(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Play a counteraction on the open window. Source: cards.md §1.5 (answering; what each
    counteraction answers); RB (counteractions may be counteracted); FAQ (order chosen by the
    defender, by the order played)."""
    win = state.windows[0]
    try:
        cd = C.card(a.card)
    except KeyError:
        raise IllegalAction(f"there is no card called {a.card!r}") from None
    cid = state.find_in_hand(w.seat, a.card)
    if cid is None:
        raise IllegalAction(f"you hold no {a.card}")
    if cd.slug in ANSWER_STONES:
        return _display_answer(state, w, a, cid, dry, o)
    if cd.kind not in (C.COUNTER, C.DUAL):
        raise IllegalAction(f"{cd.name} is not a counteraction: out of turn you may only "
                            "answer with counteractions (RB The Cards)")
    if cd.slug not in C.IMPLEMENTED:
        raise IllegalAction(f"{cd.name} is not implemented yet in this engine")
    slug = cd.slug
    side = "attacker" if w.seat == win.attacker else "defender"
    answers = -1
    extra_target = ""
    value, ncid = 0, None
    src = SOURCE_CARD.get(win.source, win.source)
    is_spell_attack = win.kind == "attack" and src != "punch" and C.card(src).spell
    if win.kind == "indirect" and slug not in ("absorb", "blunt"):
        raise IllegalAction("only Absorb or Blunt answer damage that is not an attack (RB)")
    if slug in ("absorb", "blunt"):
        if w.seat not in _victims(state, win):
            raise IllegalAction(f"{cd.name} answers damage dealt to you")
        if win.kind == "attack" and not HIT_EFFECTS[win.source].damage:
            raise IllegalAction(f"{cd.name} answers damage, and this attack deals none")
    elif slug == "reverse":
        if w.seat not in _victims(state, win) or not HIT_EFFECTS[win.source].damage:
            raise IllegalAction("Reverse answers an attack that would deal you damage")
    elif slug == "full-shield":
        if not is_spell_attack:
            raise IllegalAction("Full Shield stops only spell attacks (not punches, weapons or "
                                "indirect damage)")
        if w.seat not in _victims(state, win):
            raise IllegalAction("Full Shield stops a spell aimed at you")
    elif slug == "reflection":
        if not is_spell_attack or not C.card(src).uses_number:
            raise IllegalAction("Reflection answers a spell attack that has a number")
        if w.seat != win.defender or any(c.slug == "reflection" and c.player == w.seat
                                         for c in win.counters):
            raise IllegalAction("Reflection splits an attack aimed at you, once")
    elif slug == "full-reflection":
        if not is_spell_attack:
            raise IllegalAction("Full Reflection turns back spell attacks only")
        if w.seat not in _victims(state, win):
            raise IllegalAction("Full Reflection turns back a spell aimed at you")
    elif slug == "absorb-spell":
        if side == "defender":
            if not is_spell_attack:
                raise IllegalAction("Absorb Spell takes a spell: not a punch, weapon or object")
        else:
            answers = _latest_standing(win, "defender")
            if answers < 0 or win.counters[answers].slug not in TURNERS:
                raise IllegalAction("Absorb Spell answers a spell aimed at you, or a Reflection"
                                    " or Full Reflection sent back at your attack")
    elif slug == "anti-anti":
        answers = _latest_standing(win, "defender" if side == "attacker" else "attacker")
        if answers < 0:
            raise IllegalAction("Anti-Anti needs a counteraction of the other side to void")
        if win.counters[answers].slug in ESCAPES:
            raise IllegalAction("Anti-Anti does not work on escapes (DG §7)")
    elif slug in ("wall-of-fire", "waterwall"):
        extra_target = _block_edge(state, win, w, a)
        if slug == "waterwall":
            value, ncid = _number(state, w, a, "distance")
    elif slug in ("teleport", "invisible"):
        if w.seat != win.defender or win.kind != "attack":
            raise IllegalAction(f"{cd.name} escapes an attack aimed at you")
        if slug == "teleport":
            sq = _teleport_dest(state, a)
            extra_target = square_name(sq)
        else:
            if a.targets or a.args:
                raise IllegalAction("invisible is cast on yourself only")
            value, ncid = _number(state, w, a, "duration")
    else:
        raise IllegalAction(f"{cd.name} cannot answer this")
    if slug not in ("teleport", "invisible", "wall-of-fire", "waterwall") and \
            (a.targets or a.args or a.number is not None):
        raise IllegalAction(f"{cd.name} takes no target or number: its target is implied")
    if dry:
        return
    _take_from_hand(w, cid)
    _take_from_hand(w, ncid)
    win.counters.append(Counter(w.seat, cid, slug, side, answers, ncid, value, extra_target))
    win.passes = 0
    # an attack hands the answer to the other side; indirect damage stays with its victim
    win.to_answer = _other_side(win, w.seat) if win.kind == "attack" else w.seat
    o("counter", f"{w.seat} answers with {cd.name}", seat=w.seat, card=slug)


#: Stones that may be displayed out of turn, when you are about to take damage (cards.md §1.4).
ANSWER_STONES = ("bloodstone", "shieldstone", "soulstone")


def _display_answer(state: State, w: Wizard, a: Action, cid: int, dry: bool, o: Out) -> None:
    """Display a Bloodstone, Shieldstone or Soulstone while damage is on its way to you. It is
    no counteraction: nothing goes on the stack and you may still answer or pass.
    Source: cards.md §1.4 (these three may be displayed out of turn)."""
    win = state.windows[0]
    if w.seat not in _victims(state, win) or (win.kind == "attack"
                                              and not HIT_EFFECTS[win.source].damage):
        raise IllegalAction("a stone is displayed out of turn only when you are about to "
                            "take damage")
    _display(state, w, a, cid, dry, o)


def _block_edge(state: State, win: Window, w: Wizard, a: Action) -> str:
    """A Wall of Fire or Waterwall played as a block: only against an attack aimed at you whose
    line of sight comes from another square; it goes on an empty edge that line crosses.
    Source: cards.md wall-of-fire, waterwall (decided: blocks); §1.5."""
    src = SOURCE_CARD.get(win.source, win.source)
    if win.kind != "attack" or w.seat != win.defender or src == "punch" or \
            not C.card(src).target.startswith("los"):
        raise IllegalAction(f"{C.card(a.card).name} blocks only an attack by line of sight")
    attacker = state.wizard(win.attacker)
    if attacker.at is None or w.at is None or attacker.at == w.at:
        raise IllegalAction("there is no line between you to block")
    if len(a.targets) != 1 or ":" not in a.targets[0] or \
            any(k for k, _ in a.args):
        raise IllegalAction("name the edge the attack's line crosses, e.g. @c3:e")
    e = _edge(state, a.targets[0])
    _empty_edge(state, e, a.targets[0], fire_ok=a.card == "waterwall")
    line = next((sl for sl in sightlines(state.layout, attacker.at, w.at)
                 if blocked_count(sl, lambda x: _is_blocking(state, x)) == 0), None)
    if line is None or e not in line.edges:
        raise IllegalAction(f"the attack's line does not cross {a.targets[0]}")
    return edge_name(e)


def _walk_distances(state: State, w: Wizard, src: Square) -> dict[Square, int]:
    """Walking distance from ``src`` over edges ``w`` could pass himself (no walls, closed
    doors or stone blocks), ignoring wizards and objects (cards.md §1.8 forced retreat)."""
    dist = {src: 0}
    queue = [src]
    for cur in queue:
        for side in "nesw":
            nb = state.layout.neighbor(cur, side)
            if nb is None or nb[0] in dist or nb[0] in state.stones:
                continue
            if not _can_cross(state, w, nb[1]):
                continue
            dist[nb[0]] = dist[cur] + 1
            queue.append(nb[0])
    return dist


def _can_cross(state: State, w: Wizard, e: Edge) -> bool:
    es = state.edges.get(e)
    if es is None or es.kind == "wall-of-fire":
        return True
    if es.kind == "illusion-wall":
        return w.seat not in es.believe
    return w.has("mist-body") and es.kind.startswith("door")


def _retreat_paths(state: State, w: Wizard, src: Square, n: int) -> list[tuple[Square, ...]]:
    """Every legal forced retreat: each step farther from ``src`` in walking distance, up to
    ``n`` steps, stopping early only when no legal step is left (or in a thornbush)."""
    if w.at is None or w.has("lock-in-place") or w.has("medusa"):
        return []
    if w.has("slow"):
        n = min(n, 1)
    dist = _walk_distances(state, w, src)
    out: list[tuple[Square, ...]] = []

    def grow(path: tuple[Square, ...]) -> None:
        cur = path[-1] if path else w.at
        steps = []
        if len(path) < n and not (path and cur in state.bushes and not w.has("mist-body")):
            for side in "nesw":
                nb = state.layout.neighbor(cur, side)  # type: ignore[arg-type]
                if nb is None or nb[0] in state.stones or not _can_cross(state, w, nb[1]):
                    continue
                if dist.get(nb[0], -1) > dist.get(cur, 10**6):  # type: ignore[arg-type]
                    steps.append(nb[0])
        if not steps:
            if path:
                out.append(path)
            return
        for sq in steps:
            grow((*path, sq))

    grow(())
    return out


def _retreat(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Walk the forced retreat, out of turn: the wizard picks the path (cards.md §1.8 forced
    retreat; DG §12: the retreat happens out of the victims' turns)."""
    seat, frm, n = state.retreats[0]
    try:
        path = tuple(parse_square(t) for t in a.targets)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from exc
    legal = _retreat_paths(state, w, parse_square(frm), n)
    if path not in legal:
        raise IllegalAction(f"a forced retreat of {n} from {frm}: every step farther away, "
                            "as far as you can go")
    if dry:
        return
    state.retreats.pop(0)
    fires = 0
    cur = w.at
    for sq in path:
        step = _step_ok(state, cur, sq)  # type: ignore[arg-type]
        if step and step[0] in state.edges:
            fires += 1
        cur = sq
    w.at = path[-1]
    o("move", f"{w.seat} retreats to {square_name(w.at)}", seat=w.seat,
      path=[square_name(x) for x in path])
    if w.at in state.bushes and not w.has("mist-body"):
        _enter_bush(state, w, o)
    for _ in range(fires):
        _open_indirect(state, [w], 4, "wall-of-fire", physical=False, cause=w.seat)


def _choose(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Telepath's choice: take one card of the hand you were shown; the hand limit applies at
    once (cards.md telepath)."""
    target = state.wizard(state.choice[1])
    cid = state.find_in_hand(target.seat, a.card)
    if cid is None:
        raise IllegalAction(f"{target.seat} holds no {a.card}")
    if dry:
        return
    _take_from_hand(target, cid)
    w.hand.append(cid)
    state.choice = []
    o("telepath", f"{w.seat} takes {C.card(a.card).name} from {target.seat}", seat=w.seat)


def _latest_standing(win: Window, side: str) -> int:
    """Index of the latest counteraction of ``side`` not voided by an Anti-Anti, or -1."""
    voided = {c.answers for c in win.counters if c.slug in VOIDERS}
    for i in range(len(win.counters) - 1, -1, -1):
        c = win.counters[i]
        if c.side == side and i not in voided:
            return i
    return -1


def _resolve_attack(state: State, o: Out) -> None:
    """Resolve the stack (cards.md §1.5 Resolving; FAQ: counteractions before the attack).

    1. Cancels, last played first: Anti-Anti voids what it answered; then a standing
       attack-stopper (Full Shield, or an escape) ends the attack.
    2. Splits in the order played (Reflection: each keeps half, rounded up).
    3. Each victim's damage changes in the order he played them (Absorb -3, Blunt half up).
    5. The attack takes effect; if all of a hit's damage was stopped, its side effects are
       stopped too (RB).
    6. Every card played goes to the discard pile, the number card included (FAQ).
    """
    win = state.windows.pop(0)
    defender = state.wizard(win.defender)
    voided: set[int] = set()
    for i in range(len(win.counters) - 1, -1, -1):
        if i in voided:
            continue
        if win.counters[i].slug in VOIDERS and win.counters[i].answers >= 0:
            voided.add(win.counters[i].answers)
    for i in sorted(voided):
        o("void", f"{win.counters[i].player}'s {C.card(win.counters[i].slug).name} is voided")
    standing = [c for i, c in enumerate(win.counters) if i not in voided]
    played = [win.cid, win.number_cid] + [c for k in win.counters for c in (k.cid, k.number_cid)]
    stoppers = [c for c in standing if c.slug in STOPPERS and c.answers < 0]
    captured = _captures(state, win, standing, o)
    played = [c for c in played if c not in captured]
    for c in stoppers:
        if c.slug == "teleport":
            sq = parse_square(c.target)
            if _vacant(state, sq):
                state.wizard(c.player).at = sq
                o("move", f"{c.player} teleports away to {c.target}", seat=c.player,
                  path=[c.target])
        elif c.slug == "invisible":
            w = state.wizard(c.player)
            _add_condition(w, Condition("invisible", c.player, c.value))
            o("condition", f"{c.player} vanishes for {c.value} turn(s)", seat=c.player)
        elif c.slug == "wall-of-fire":
            e = parse_edge(c.target)
            state.edges[e] = EdgeState("wall-of-fire", 0, created=True)
            o("edge", f"{c.player} blocks with a wall of fire at {c.target}", edge=c.target)
        elif c.slug == "waterwall":
            _collapse_water(state, parse_edge(c.target), c.value, c.player, o)
    if stoppers:
        last = stoppers[-1]
        o("stopped", f"{C.card(last.slug).name} stops the {_name(win.source)}",
          card=last.slug)
        _finish_objects(state, win.source, win.cid, win.mode, defender.at)
        _discard_cards(state, [c for c in played if c is not None and _is_spent(state, c)])
        return
    # hits: [victim, value, credit]
    credit0 = win.attacker if HIT_EFFECTS[win.source].credit else ""
    hits: list[list] = [[win.defender, win.value, credit0]]
    for c in standing:
        if c.slug == "reflection":
            for h in hits:
                if h[0] == c.player:
                    half = _ceil_half(h[1])
                    h[1] = half
                    hits.append([_other_side(win, c.player), half, c.player])
                    o("reflect", f"{c.player} reflects half of the {_name(win.source)}")
                    break
        elif c.slug == "full-reflection":
            for h in hits:  # the whole hit turns on the other side (cards.md full-reflection)
                if h[0] == c.player:
                    h[0], h[2] = _other_side(win, c.player), c.player
                    o("reflect", f"{c.player} turns the {_name(win.source)} back")
                    break
    landing = defender.at
    for victim_seat, value, credit in hits:
        victim = state.wizard(victim_seat)
        if not victim.in_game:
            continue
        effect = HIT_EFFECTS[win.source]
        base = effect.base(state, win, victim, value, o)
        dmg = base
        reversed_ = False
        for c in standing:
            if c.player != victim_seat:
                continue
            if c.slug == "absorb":
                dmg = max(0, dmg - 3)
            elif c.slug == "blunt":
                dmg = _ceil_half(dmg)
            elif c.slug == "reverse" and dmg > 0:
                victim.life += dmg
                o("reverse", f"{victim_seat} turns {dmg} damage into life", seat=victim_seat)
                dmg, reversed_ = 0, True
        if base > 0 and dmg != base and not reversed_:
            o("reduce", f"{victim_seat}'s damage is cut from {base} to {dmg}")
        dmg = _stones_step(state, victim, dmg, physical=win.physical, o=o)
        stopped_all = base > 0 and dmg == 0
        if dmg > 0:
            _hurt(state, victim, dmg, credit, o, physical=win.physical)
            _shadowstone(state, credit, victim, dmg, win.physical, o)
        if stopped_all:
            o("stopped", f"all damage to {victim_seat} was stopped, and the rest with it")
            continue
        if effect.after is not None:
            effect.after(state, win, victim, value, dmg, credit, o)
    _finish_objects(state, win.source, win.cid, win.mode, landing)
    _discard_cards(state, [c for c in played if c is not None and _is_spent(state, c)])


def _captures(state: State, win: Window, standing: list[Counter], o: Out) -> list[int]:
    """Absorb Spell: the card it cancelled goes to its player's hand instead of the discard
    pile (its number card is still discarded); the hand limit applies at once.
    Source: JDB; cards.md absorb-spell, §1.5 step 6."""
    out = []
    for c in standing:
        if c.slug != "absorb-spell":
            continue
        taken = win.cid if c.answers < 0 else win.counters[c.answers].cid
        if taken is None or taken in out:
            continue
        w = state.wizard(c.player)
        for x in state.wizards:
            if taken in x.hand:
                x.hand.remove(taken)
        w.hand.append(taken)
        out.append(taken)
        o("capture", f"{c.player} absorbs the {C.card(state.face(taken)).name} into his hand",
          seat=c.player)
    return out


#: Stack sources that are not cards themselves, and the card they come from.
SOURCE_CARD = {"slow-death-tick": "slow-death"}


def thing_name(text: str) -> str:
    """A carried thing in words, for event texts: ``P1.t2`` -> ``P1's treasure 2``, an
    object's slug -> its card name; anything else as it is."""
    seat, dot, n = text.partition(".t")
    if dot and seat[:1] == "P" and seat[1:].isdigit() and n.isdigit():
        return f"{seat}'s treasure {n}"
    cd = C.BY_SLUG.get(text)
    return cd.name if cd is not None else text


def _name(slug: str) -> str:
    if slug == "punch":
        return "punch"
    if slug in SOURCE_CARD:
        return C.card(SOURCE_CARD[slug]).name + " tick"
    return C.card(slug).name


@dataclass(frozen=True)
class HitEffect:
    """What one hit of an attack does: ``base`` gives its damage before counteractions and
    stones (it may also move the victim); ``after`` its other effects, which happen only if
    not all the damage was stopped (RB: secondary effects are stopped with the damage).
    One entry per attack card (cards.md rows); the stack machinery never names a card."""

    base: Callable[[State, Window, Wizard, int, Out], int]
    after: Callable[[State, Window, Wizard, int, int, str, Out], None] | None = None
    damage: bool = True  # its hits deal damage (Absorb, Blunt, Reverse can answer them)
    credit: bool = True  # a kill by it gives the killer the victim's cards


def _points(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return value


def _points_plus_two(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return value + 2


def _ten(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return 10


def _push_hit(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    """Waterbolt: the target is pushed away from the caster; a reflected half pushes the
    caster away from the target (cards.md waterbolt, reflection; §1.8)."""
    d = win.push_dir
    if victim.seat != win.defender:
        d = _reverse(win.push_dir)
        other = state.wizard(win.defender)
        if other.at is not None and victim.at is not None and other.at != victim.at:
            dx, dy = victim.at[0] - other.at[0], victim.at[1] - other.at[1]
            if abs(dx) != abs(dy):
                d = _away(other.at, victim.at, "")
    return _push(state, victim, d, value, o)


def _stun(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
          o: Out) -> None:
    """Lightning Blast: the wizard loses a turn (RB Number cards; FAQ lost turns)."""
    if victim.in_game:
        _lose_turn(state, victim, o)


def _burn_stones(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Fireball: if damage reached him, every magic stone he holds burns (cards.md fireball;
    FAQ: Bloodstone reduces the hit before it burns)."""
    if dmg <= 0 or not victim.in_game:
        return
    burnt = [c for c in victim.hand  # an unknown face here is no stone: see State.face
             if (cd := C.BY_SLUG.get(state.face(c))) and cd.kind == C.STONE]
    if burnt:
        _discard_cards(state, burnt)
        o("burn", f"{victim.seat}'s magic stones burn")


def _drain(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Power Drain: the caster of this hit gains its full number, even if Blunted; nothing if
    all of it was stopped (DG §12; cards.md power-drain)."""
    w = state.wizard(credit)
    if w.in_game:
        w.life += value
        o("drain", f"{credit} drains {value} life", seat=credit)


def _nothing(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    return 0


def _curse(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """A duration curse (Blind, No Spell, Slow, Lock in Place, Medusa): the condition lasts
    ``value`` of the victim's turns and ends at the start of one of its caster's turns
    (RB Number cards; FAQ; cards.md §1.6)."""
    if victim.in_game:
        _add_condition(victim, Condition(win.source, credit, value))
        o("condition", f"{victim.seat} is under {C.card(win.source).name} for {value} turn(s)",
          seat=victim.seat, condition=win.source)


def _stone_dead(state: State, win: Window, victim: Wizard, value: int, o: Out) -> int:
    """Stone Dead: N magical damage for each magic stone he holds, displayed or not (the
    stones counted become known to all). Source: cards.md stone-dead (AF)."""
    stones = [c for c in victim.hand
              if (cd := C.BY_SLUG.get(state.face(c))) and cd.kind == C.STONE]
    state.exposed.extend(stones)
    return value * len(stones)


def _swap_places(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Swap: caster and target trade squares, taking what they carry; entering effects
    apply (cards.md swap; DG §12)."""
    me = state.wizard(credit)
    if not (victim.in_game and me.in_game) or me.seat == victim.seat:
        return
    me.at, victim.at = victim.at, me.at
    o("move", f"{me.seat} and {victim.seat} swap places", seat=me.seat)
    for w in (me, victim):
        if w.at in state.bushes:
            _enter_bush(state, w, o)


def _put_elsewhere(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                   credit: str, o: Out) -> None:
    """Teleport Opponent: the target is put on the chosen square if it is still vacant
    (cards.md teleport-opponent)."""
    sq = parse_square(win.arg)
    if victim.in_game and _vacant(state, sq):
        victim.at = sq
        o("move", f"{victim.seat} is teleported to {win.arg}", seat=victim.seat,
          path=[win.arg])


def _steal(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Thought Steal: the caster of this hit takes N cards at random from the victim's hand;
    displayed cards go back into the hand first. Against Reflection each side takes half
    from the other (cards.md thought-steal, §1.4; DG §12)."""
    thief = state.wizard(credit)
    if not (victim.in_game and thief.in_game):
        return
    victim.displayed.clear()
    taken = 0
    for _ in range(value):
        if not victim.hand:
            break
        c = _pick(state, list(victim.hand))
        victim.hand.remove(c)
        thief.hand.append(c)
        taken += 1
    o("steal", f"{credit} takes {taken} card(s) from {victim.seat}", seat=credit)


def _erase(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
           o: Out) -> None:
    """Card Erasure: if the target holds the named card, in hand or displayed, he discards
    one copy; if not, everyone learns it missed (cards.md card-erasure)."""
    c = state.find_in_hand(victim.seat, win.arg)
    if c is None:
        o("miss", f"{victim.seat} holds no {C.card(win.arg).name}", seat=victim.seat)
        return
    _discard_cards(state, [c])
    o("discard", f"{victim.seat} loses his {C.card(win.arg).name}", seat=victim.seat,
      card=win.arg)


def _drop_things(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                 credit: str, o: Out) -> None:
    """Drop Object: the target drops up to N of the things named (treasures or objects he
    holds) in his own square; names he does not hold are wasted (RB Objects; cards.md
    drop-object)."""
    if not victim.in_game or victim.at is None:
        return
    dropped = 0
    for name in win.arg.split(","):
        if dropped >= value:
            break
        if "." in name:
            if victim.carrying == name:
                victim.carrying = ""
                state.treasures[name] = victim.at
                dropped += 1
                o("drop", f"{victim.seat} drops {name}", seat=victim.seat)
            continue
        c = state.find_in_hand(victim.seat, name)
        if c is not None and C.card(name).kind in (C.OBJECT, C.STONE):
            _take_from_hand(victim, c)
            state.floor.append((victim.at, c))
            dropped += 1
            o("drop", f"{victim.seat} drops the {C.card(name).name}", seat=victim.seat)


def _read_mind(state: State, win: Window, victim: Wizard, value: int, dmg: int,
               credit: str, o: Out) -> None:
    """Telepath: the caster sees the victim's hand and must choose one card to take."""
    if not victim.in_game or not victim.hand:
        o("telepath", f"{credit} reads an empty mind")
        return
    victim.displayed.clear()
    state.shown.append([credit, list(victim.hand)])
    state.choice = [credit, victim.seat]
    o("telepath", f"{credit} sees {victim.seat}'s hand", seat=credit)


def _slow_death(state: State, win: Window, victim: Wizard, value: int, dmg: int,
                credit: str, o: Out) -> None:
    """Slow Death: a permanent curse until the victim dies; every card he draws then costs
    him a tick of 1 magical damage (cards.md slow-death; AF)."""
    if victim.in_game and not any(c.slug == "slow-death" for c in victim.conditions):
        victim.conditions.append(Condition("slow-death", credit, 0))
        o("condition", f"{victim.seat} is cursed with Slow Death", seat=victim.seat)


def _tick(state: State, w: Wizard, o: Out) -> None:
    """A Slow Death tick after a draw: answered as if it were an attack by the caster (any
    counteraction, for this tick only); nobody's attack, no kill credit; none while
    petrified (cards.md slow-death; DG §7 and §12)."""
    curse = next((c for c in w.conditions if c.slug == "slow-death"), None)
    if curse is None or w.has("medusa"):
        return
    caster = curse.caster if state.wizard(curse.caster).in_game else w.seat
    o("tick", f"Slow Death: {w.seat} takes a tick", seat=w.seat)
    state.windows.insert(0, Window(kind="attack", attacker=caster, defender=w.seat,
                                   source="slow-death-tick", value=1, to_answer=w.seat,
                                   target=w.seat, passes=1))


def _go_away(state: State, win: Window, victim: Wizard, value: int, dmg: int, credit: str,
             o: Out) -> None:
    """Go Away: the target makes a forced retreat of N squares away from the caster, at once
    (cards.md go-away; §1.8)."""
    src = state.wizard(credit).at
    if victim.in_game and src is not None:
        state.retreats.append([victim.seat, square_name(src), value])
        o("retreat", f"{victim.seat} must retreat {value} from {square_name(src)}",
          seat=victim.seat)


HIT_EFFECTS: dict[str, HitEffect] = {
    "punch": HitEffect(_points),
    "dagger": HitEffect(_points),
    "large-rock": HitEffect(_points),
    "wizardblade": HitEffect(_points),
    "fireball": HitEffect(_points, _burn_stones),
    "lightning-blast": HitEffect(_points, _stun),
    "powerthrust": HitEffect(_points_plus_two),
    "sudden-death": HitEffect(_ten),
    "power-drain": HitEffect(_points, _drain),
    "waterbolt": HitEffect(_push_hit),
    "stone-dead": HitEffect(_stone_dead),
    "swap": HitEffect(_nothing, _swap_places, damage=False),
    "teleport-opponent": HitEffect(_nothing, _put_elsewhere, damage=False),
    "thought-steal": HitEffect(_nothing, _steal, damage=False),
    "telepath": HitEffect(_nothing, _read_mind, damage=False),
    "slow-death": HitEffect(_nothing, _slow_death, damage=False),
    "go-away": HitEffect(_nothing, _go_away, damage=False),
    "slow-death-tick": HitEffect(_points, credit=False),
    "card-erasure": HitEffect(_nothing, _erase, damage=False),
    "drop-object": HitEffect(_nothing, _drop_things, damage=False),
    **{c: HitEffect(_nothing, _curse, damage=False)
       for c in ("blind", "no-spell", "slow", "lock-in-place", "medusa")},
}


def _displayed(state: State, w: Wizard, slug: str) -> bool:
    return any(state.face(c) == slug for c in w.displayed)


def _stones_step(state: State, w: Wizard, dmg: int, *, physical: bool, o: Out) -> int:
    """Step 4 of the resolution: the victim's displayed stones, in a fixed order:
    Shieldstone (no physical damage), Soulstone (no magical damage at 3 life or less),
    Bloodstone (1 less). Source: cards.md §1.5 step 4, §2.3; FAQ (Bloodstone before the
    Fireball burns it)."""
    if dmg <= 0:
        return dmg
    if w.has("medusa"):  # DG §12: the statue is immune to damage, Trap! included
        o("stone", f"{w.seat} is stone and takes no damage")
        return 0
    if physical and w.has("mist-body"):
        o("stone", f"{w.seat} is mist and takes no physical damage")
        return 0
    if physical and _displayed(state, w, "shieldstone"):
        o("stone", f"{w.seat}'s Shieldstone stops the physical damage")
        return 0
    if not physical and w.life <= 3 and _displayed(state, w, "soulstone"):
        o("stone", f"{w.seat}'s Soulstone stops the magical damage")
        return 0
    if _displayed(state, w, "bloodstone"):
        o("stone", f"{w.seat}'s Bloodstone takes a point")
        return dmg - 1
    return dmg


def _shadowstone(state: State, credit: str, victim: Wizard, dmg: int, physical: bool,
                 o: Out) -> None:
    """Shadowstone: physical damage your attacks deal to a wizard is added to your life
    (cards.md shadowstone)."""
    if not physical or not credit or credit == victim.seat:
        return
    w = state.wizard(credit)
    if w.in_game and _displayed(state, w, "shadowstone"):
        w.life += dmg
        o("stone", f"{credit}'s Shadowstone gives {dmg} life")


def _reverse(d: str) -> str:
    return {"n": "s", "s": "n", "e": "w", "w": "e"}[d]


def _push(state: State, w: Wizard, d: str, n: int, o: Out) -> int:
    """Push N squares in direction d; each blocked square costs 1 magical damage, returned.
    Source: cards.md §1.8 (push; pushes cannot enter bush or stone squares)."""
    blocked = 0
    assert w.at is not None
    start = w.at
    for _ in range(n):
        nb = state.layout.neighbor(w.at, d)
        fire = nb is not None and nb[1] in state.edges and \
            state.edges[nb[1]].kind == "wall-of-fire"
        seen_through = nb is not None and nb[1] in state.edges and \
            state.edges[nb[1]].kind == "illusion-wall" and \
            w.seat not in state.edges[nb[1]].believe
        if nb is None or (nb[1] in state.edges and not fire and not seen_through) or \
                nb[0] in state.bushes or nb[0] in state.stones:
            blocked += 1
            continue
        if fire:
            blocked += 4  # crossing a wall of fire costs its damage (cards.md §1.8)
        w.at = nb[0]
    if w.at != start:
        o("move", f"{w.seat} is pushed to {square_name(w.at)}", seat=w.seat,
          path=[square_name(w.at)])
    return blocked


def _finish_objects(state: State, slug: str, cid: int | None, mode: str,
                    landing: Square | None) -> None:
    """A thrown object lands in the target's square (RB Objects); a stabbing dagger stays."""
    if cid is None or slug not in ("dagger", "large-rock"):
        return
    if slug == "dagger" and mode != "throw":
        return
    if landing is not None and all(c != cid for _s, c in state.floor):
        state.floor.append((landing, cid))


def _lose_turn(state: State, w: Wizard, o: Out) -> None:
    """A lost turn. If the active player loses a turn to his own reflected attack in his own
    turn, he loses the rest of the current turn (FAQ; cards.md §1.7); otherwise it adds up."""
    if w.seat == state.turn.active and not state.turn.ending:
        state.turn.lost_rest = True
        o("lost", f"{w.seat} loses the rest of this turn", seat=w.seat)
    else:
        w.lost_turns += 1
        o("lost", f"{w.seat} loses a turn", seat=w.seat)


def _hurt(state: State, w: Wizard, n: int, credit: str, o: Out, *, physical: bool) -> None:
    """Take ``n`` points of damage; at 0 life the wizard dies (RB Combat)."""
    w.life -= n
    o("damage", f"{w.seat} takes {n} damage ({w.life} life left)", seat=w.seat, amount=n)
    if w.life <= 0:
        _kill(state, w, credit, o)


def _kill(state: State, w: Wizard, credit: str, o: Out) -> None:
    """Death: the wizard leaves the board, a carried treasure stays in his square; the player
    whose attack dealt the killing damage takes all his cards and discards down to his limit;
    kills by indirect damage give the cards to no one (RB Combat; FAQ second-hand kills)."""
    w.alive = False
    if w.carrying:
        state.treasures[w.carrying] = w.at
        w.carrying = ""
    w.at = None
    w.conditions = []
    for other in state.wizards:  # his duration effects end (cards.md §1.6, decided)
        other.conditions = [c for c in other.conditions if c.caster != w.seat]
    state.eliminated.append(w.seat)
    o("death", f"{w.seat} dies", seat=w.seat)
    cards_ = list(w.hand)
    w.hand.clear()
    w.displayed.clear()
    killer = None
    if credit and credit != w.seat:
        killer = state.wizard(credit)
        if not killer.in_game:
            killer = None
    if killer is not None:
        killer.hand.extend(cards_)
        o("spoils", f"{killer.seat} takes {w.seat}'s {len(cards_)} cards", seat=killer.seat)
    else:
        state.discard.extend(cards_)
    state.windows = [x for x in state.windows if x.defender != w.seat or x.kind != "indirect"]


def _open_indirect(state: State, victims: list[Wizard], n: int, source: str, *,
                   physical: bool, cause: str) -> None:
    """Indirect damage: each damaged wizard gets one answer window (Absorb, Blunt), in seat
    order from the active player (cards.md §1.5 Indirect damage; RB)."""
    new = [Window(kind="indirect", attacker=cause, defender=v.seat, source=source, value=n,
                  to_answer=v.seat, physical=physical) for v in victims]
    state.windows[0:0] = new


def _resolve_indirect(state: State, o: Out) -> None:
    win = state.windows.pop(0)
    w = state.wizard(win.defender)
    played = [c for k in win.counters for c in (k.cid, k.number_cid)]
    dmg = win.value
    for c in win.counters:
        if c.slug == "absorb":
            dmg = max(0, dmg - 3)
        elif c.slug == "blunt":
            dmg = _ceil_half(dmg)
    _discard_cards(state, played)
    dmg = _stones_step(state, w, dmg, physical=win.physical, o=o)
    if w.in_game and dmg > 0:
        _hurt(state, w, dmg, "", o, physical=win.physical)


# ---------------------------------------------------------------------------------------
# after every action: draws, hand limit, turn passing, winning
# ---------------------------------------------------------------------------------------
_KIND = attrgetter("kind")


def _settle(state: State, o: Out) -> None:
    """Run the automatic steps until a player must act (notation.md, Turn edges)."""
    if "illusion-wall" in map(_KIND, state.edges.values()):  # (a C-speed scan)
        _illusion_rolls(state, o)
    for _guard in range(10_000):
        _check_end(state, o)
        if state.winner or state.windows or state.choice or state.discarding:
            return
        if state.retreats:
            seat, frm, n = state.retreats[0]
            if _retreat_paths(state, state.wizard(seat), parse_square(frm), n):
                return
            state.retreats.pop(0)  # no legal step at all: he stays (cards.md §1.8)
            continue
        drawing = state.turn.active if state.turn.ending and state.turn.draws_left else ""
        # a hand limit is never below HAND_LIMIT: no longer hand, nobody over (fast path)
        over = [w.seat for w in _seat_order_from(state, state.turn.active)
                if len(w.hand) > hand_limit(state, w) and w.seat != drawing] \
            if any(len(w.hand) > HAND_LIMIT for w in state.wizards) else []
        if over:
            state.discarding = over
            return
        t = state.turn
        if t.lost_rest:
            _next_turn(state, o)
            continue
        if not t.ending:
            if not state.wizard(t.active).in_game:
                _next_turn(state, o)
                continue
            return
        if t.draws_left > 0:
            t.draws_left -= 1
            _draw(state, state.wizard(t.active), o)
            continue
        _next_turn(state, o)
    raise RuntimeError("the turn sequence did not settle")  # pragma: no cover


def _draw(state: State, w: Wizard, o: Out) -> None:
    """Draw one card from the top; only when a card must be drawn and the pile is empty is the
    discard pile shuffled into a new one (notation.md, Turn edges). Trap! goes off when drawn:
    d4 physical damage to the drawer, indirect (cards.md trap)."""
    if not state.deck:
        if not state.discard:
            o("draw", f"{w.seat} has nothing to draw")
            return
        _reshuffle(state)
        o("reshuffle", "the discard pile is shuffled into a new draw pile")
    cid = state.deck.pop(0)
    if state.face(cid) == "trap":
        state.discard.append(cid)
        roll = _roll(state)
        o("trap", f"{w.seat} draws Trap! and takes {roll} damage", seat=w.seat, roll=roll)
        _open_indirect(state, [w], roll, "trap", physical=True, cause="")
        return
    w.hand.append(cid)
    o("draw", f"{w.seat} draws a card", seat=w.seat)
    _tick(state, w, o)


def _reshuffle(state: State) -> None:
    pile = list(state.discard)
    state.discard.clear()
    if state.script.reshuffles is not None:
        if not state.script.reshuffles:
            raise ScriptExhausted("the scenario ran out of reshuffles")
        order = state.script.reshuffles.pop(0)
        new: list[int] = []
        for slug in order:
            cid = next((c for c in pile if state.face(c) == slug and c not in new), None)
            if cid is None:
                raise ScriptExhausted(f"reshuffle names {slug}, which is not in the discard")
            new.append(cid)
        rest = [c for c in pile if c not in new]
        state.deck = new + rest
        return
    state.rng.shuffle(pile)
    state.deck = pile
    if state.dealer is not None:
        # networked games: the pile's faces were public, so the dealer deals them again
        # behind fresh commitments (design.md, Hidden information)
        state.dealer.reblind(state, list(pile))


def _next_turn(state: State, o: Out) -> None:
    """Pass the turn: Speed's extra turn first, else the next seat in the game. A turn that
    begins with lost turns uses one up and passes on (it still counts for durations).
    The round goes up when the seat that begins rounds starts a turn that is not a Speed turn.
    Source: RB The Turn; FAQ (lost turns add up; durations count the recipient's turns);
    cards.md §1.6-1.7; notation.md Turn edges."""
    t = state.turn
    prev = state.wizard(t.active)
    # a lost (rest of a) turn is this turn only: Speed's extra turn still comes (FAQ: your own
    # reflected attack costs the current turn, not the next)
    if t.speed_pending and prev.in_game:
        state.turn = Turn(prev.seat, extra=True, speed_pending=t.speed_pending - 1)
        _begin(state, prev, o, extra=True)
        return
    seats = state.seats
    i = seats.index(t.active)
    for k in range(1, len(seats) + 1):
        cand = state.wizard(seats[(i + k) % len(seats)])
        if cand.in_game:
            break
    else:  # pragma: no cover - the game ends before everyone is out
        return
    if not state.wizard(state.first).in_game:
        j = seats.index(state.first)
        for k in range(1, len(seats) + 1):
            s = seats[(j + k) % len(seats)]
            if state.wizard(s).in_game:
                state.first = s
                break
    state.turn = Turn(cand.seat)
    _begin(state, cand, o, extra=False)


def _begin(state: State, w: Wizard, o: Out, *, extra: bool) -> None:
    if w.seat == state.first and not extra:
        state.round += 1
    # durations: count the recipient's turn, then end the caster's expired effects
    for x in state.wizards:
        for c in x.conditions:
            if x.seat == w.seat:
                c.count += 1
    for x in state.wizards:
        keep = []
        for c in x.conditions:
            if c.caster == w.seat and c.duration > 0 and c.count >= c.duration:
                o("expire", f"{x.seat}'s {c.slug} ends", seat=x.seat, condition=c.slug)
            else:
                keep.append(c)
        x.conditions = keep
    if w.lost_turns > 0:
        w.lost_turns -= 1
        o("lost", f"{w.seat} loses this turn", seat=w.seat)
        state.turn.lost_rest = True
        return
    o("turn", f"{w.seat}'s turn" + (" (extra)" if extra else "") + f", round {state.round}",
      seat=w.seat, round=state.round)


def _check_end(state: State, o: Out) -> None:
    """Elimination by treasures and the win (RB Winning; DG §2; FAQ).

    Out: both your treasures rest on home bases of other players still in the game. Win: two
    opponents' treasures on your home base, or being the last player in the game.

    Team play (rulebook, Team play option): a team wins with three of the other team's
    treasures on its members' home bases in any combination, or when every player of the
    other team is out of the game; the winner is then written ``P1+P3``. The option is
    silent on elimination by treasures; our reading: you are out when both your treasures
    rest on home bases of the other team's players still in the game (a treasure carried to
    a team-mate's base does not count), and the two-treasure win of the base game gives way
    to the team's three.
    """
    if state.winner:
        return
    # fast path: putting a player out or a treasure win needs two treasures lying on home
    # bases of players other than their owners (with two players on one home base, look)
    owner_of: dict[Square, str] = {}
    for x in state.wizards:
        if x.home is not None:
            owner_of.setdefault(x.home, x.seat)
    shared = len(owner_of) < sum(1 for x in state.wizards if x.home is not None)
    possible = shared
    if not shared:
        # a treasure on the home base of another player; a player is put out only with two
        # of his own on such bases, a treasure win needs two on one base (in team play three
        # on two bases: two on one of them), so neither can happen without a repeat here
        foreign = [(t.partition(".")[0], sq) for t, sq in state.treasures.items()
                   if sq in owner_of and not t.startswith(owner_of[sq] + ".")]
        if len(foreign) >= 2:
            seats = [f[0] for f in foreign]
            bases = [f[1] for f in foreign]
            possible = len(set(seats)) < len(seats) or len(set(bases)) < len(bases)
    changed = possible
    while changed:
        changed = False
        for w in state.wizards:
            if not w.in_game:
                continue
            mine = [t for t in state.treasures if t.startswith(w.seat + ".")]
            if len(mine) < 2:
                continue
            on_bases = 0
            for t in mine:
                sq = state.treasures[t]
                owner = state.home_owner(sq) if sq is not None else None
                if owner is not None and owner.in_game and not state.allies(w.seat, owner.seat):
                    on_bases += 1
            if on_bases == 2:
                winner_now = _treasure_winner(state)
                if winner_now:
                    break
                _put_out(state, w, o)
                changed = True
    win = _treasure_winner(state) if possible else ""
    if win:
        state.winner = win
        if "+" in win:
            o("win", f"team {win} wins with three treasures on its home bases", seat=win)
        else:
            o("win", f"{win} wins with two treasures on the home base", seat=win)
        return
    alive = [w for w in state.wizards if w.in_game]
    if state.options.get("team") and alive:
        teams = {"+".join(state.team_of(w.seat)) for w in alive}
        if len(teams) == 1:
            team = teams.pop()
            state.winner = team
            o("win", f"team {team} wins: the other team is out of the game", seat=team)
        return
    if len(alive) == 1 and len(state.wizards) > 1:
        state.winner = alive[0].seat
        o("win", f"{alive[0].seat} wins as the last wizard in the game", seat=alive[0].seat)
    elif not alive:
        state.winner = "-"


def _treasure_winner(state: State) -> str:
    """The seat (or in team play the team, ``P1+P3``) with enough enemy treasures on its
    home base(s), or "" (RB Winning; rulebook, Team play option: three)."""
    if state.options.get("team"):
        for w in state.wizards:
            team = state.team_of(w.seat)
            if w.seat != team[0]:
                continue
            bases = {m.home for m in state.wizards
                     if m.seat in team and m.in_game and m.home is not None}
            theirs = [t for t, sq in state.treasures.items()
                      if sq in bases and t.split(".")[0] not in team]
            if len(theirs) >= 3:
                return "+".join(team)
        return ""
    for w in state.wizards:
        if not w.in_game or w.home is None:
            continue
        theirs = [t for t, sq in state.treasures.items()
                  if sq == w.home and not t.startswith(w.seat + ".")]
        if len(theirs) >= 2:
            return w.seat
    return ""


def _put_out(state: State, w: Wizard, o: Out) -> None:
    """A player out by treasures: cards discarded, wizard off the board (RB Winning)."""
    w.out = True
    if w.carrying:
        state.treasures[w.carrying] = w.at
        w.carrying = ""
    w.at = None
    state.discard.extend(w.hand)
    w.hand.clear()
    w.displayed.clear()
    state.eliminated.append(w.seat)
    o("out", f"{w.seat} is out: both treasures lie on enemy home bases", seat=w.seat)


# ---------------------------------------------------------------------------------------
# candidate actions for legal_actions
# ---------------------------------------------------------------------------------------
def _candidates(state: State, seat: str) -> list[Action]:
    """The actions :func:`legal_actions` checks for ``seat``, in its order, duplicates
    removed (what is legal among them is decided by the dry run)."""
    return [Action(*r) for r in _candidate_rows(state, seat)]


#: A candidate action as a plain tuple, the fields of :class:`Action` in order (cheaper to
#: build, compare and drop as a duplicate than an Action; made one only when checked).
Row = tuple[str, str, str, tuple[str, ...], int | None, tuple[tuple[str, str], ...]]


def _row(actor: str, verb: str, card: str = "", targets: tuple[str, ...] = (),
         number: int | None = None, args: tuple[tuple[str, str], ...] = ()) -> Row:
    return (actor, verb, card, targets, number, args)


def _candidate_rows(state: State, seat: str) -> list[Row]:
    w = state.wizard(seat)
    out: list[Row] = []
    hand = sorted(set(state.hand_slugs(seat)), key=_slug_order)
    numbers = sorted({int(s) for s in hand if C.is_number(s)})
    if state.windows:
        out.append(_row(seat, "pass"))
        for s in hand:
            if s in ANSWER_STONES:
                out.append(_row(seat, "play", s))
            win = state.windows[0]
            if s in ("wall-of-fire", "waterwall") and win.kind == "attack":
                att = state.wizard(win.attacker)
                if att.at is not None and w.at is not None and att.at != w.at:
                    for sl in sightlines(state.layout, att.at, w.at)[:1]:
                        for e in sl.edges:
                            out += [_row(seat, "play", s, (edge_name(e),), n)
                                    for n in ([None, *numbers] if s == "waterwall"
                                              else [None])]
            if s in ("teleport",):
                for sq in state.layout.squares():
                    out.append(_row(seat, "play", s, (square_name(sq),)))
            elif s == "invisible":
                out.append(_row(seat, "play", s))
                out += [_row(seat, "play", s, number=n) for n in numbers]
            elif C.BY_SLUG[s].kind in (C.COUNTER,):
                out.append(_row(seat, "play", s))
        return out
    if state.retreats and state.retreats[0][0] == seat:
        _s, frm, n = state.retreats[0]
        return [_row(seat, "move", targets=tuple(square_name(x) for x in p))
                for p in _retreat_paths(state, w, parse_square(frm), n)]
    if state.choice:
        target = state.wizard(state.choice[1])
        return [_row(seat, "choose", s) for s in sorted(set(state.hand_slugs(target.seat)))
                if s]
    if state.discarding:
        return [_row(seat, "discard", s) for s in hand]
    out.append(_row(seat, "end"))
    if state.turn.picked_up:
        return out
    at = w.at
    if at is None:
        return out
    for side in "nesw":
        nb = state.layout.neighbor(at, side)
        if nb is not None:
            out.append(_row(seat, "move", targets=(square_name(nb[0]),)))
    out += [_row(seat, "boost", number=n) for n in numbers]
    others = [x for x in state.wizards if x.in_game and x.seat != seat]
    for x in others:
        out.append(_row(seat, "punch", targets=(x.seat,)))
    for _s, e in state.layout.edges_of(at):
        if e in state.edges:
            out.append(_row(seat, "punch", targets=(edge_name(e),)))
    for t, sq in sorted(state.treasures.items()):
        if sq == at:
            out.append(_row(seat, "pickup", targets=(t,)))
    for sq, c in state.floor:
        if sq == at:
            out.append(_row(seat, "pickup", targets=(state.face(c),)))
    if w.carrying:
        out.append(_row(seat, "drop", targets=(w.carrying,)))
    nums: list[int | None] = [None, *numbers]
    for s in hand:
        if s in ("fireball", "lightning-blast", "powerthrust", "waterbolt", "power-drain",
                 "sudden-death"):
            for x in others:
                for n in (nums if s != "sudden-death" else [None]):
                    out.append(_row(seat, "play", s, (x.seat,), n))
            if s not in ("waterbolt", "power-drain"):
                for e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),), None))
                for sq in state.bushes:
                    out.append(_row(seat, "play", s, (square_name(sq),), None))
        elif C.BY_SLUG[s].kind == C.STONE:
            out.append(_row(seat, "play", s))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s == "wizardblade":
            for x in others:
                out.append(_row(seat, "play", s, (x.seat,)))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s in ("master-key", "jam-lock", "remove-lock"):
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
            if s == "master-key":
                out.append(_row(seat, "drop", targets=(s,)))
        elif s == "fill-square-with-stone":
            for sq in _near(state, at, 3):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "dispel-creation":
            for e, es in state.edges.items():
                if es.created:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
            for sq in [*state.bushes, *state.stones]:
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s in ("power-run", "speed", "amplify", "extend"):
            out.append(_row(seat, "play", s))
        elif s == "add":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "card-erasure":
            for x in others:
                for slug in ("absorb-spell", "full-shield", "reflection", "teleport"):
                    out.append(_row(seat, "play", s, (x.seat,), args=(("name", slug),)))
        elif s == "drop-object":
            for x in others:
                if x.carrying:
                    out.append(_row(seat, "play", s, (x.seat,),
                                      args=(("drop", x.carrying),)))
        elif s in ("blind", "no-spell", "slow", "lock-in-place", "medusa", "stone-dead",
                   "shrink", "thought-steal"):
            for n in nums:
                if s == "shrink":
                    out.append(_row(seat, "play", s, number=n))
                else:
                    out += [_row(seat, "play", s, (x.seat,), n) for x in others]
        elif s in ("wall-of-fire", "waterwall", "illusion-wall"):
            for sq in _near(state, at, 2):
                for _side, e in state.layout.edges_of(sq):
                    if e not in state.edges:
                        out += [_row(seat, "play", s, (edge_name(e),), n)
                                for n in (nums if s == "waterwall" else [None])]
        elif s == "relocate-sector":
            pls = state.layout.placements
            dests = list(pls) + ([q for q in QUADRANTS if q not in pls] if len(pls) == 3 else [])
            out += [_row(seat, "play", s, (x,), args=(("to", y),))
                    for x in pls for y in dests if x != y]
        elif s == "rotate-sector":
            for pl in state.layout.placements:
                out += [_row(seat, "play", s, (pl,), args=(("turn", t),))
                        for t in ("90", "180", "270")]
        elif s == "pass-through-wall":
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "mist-body":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "reuse-spell":
            for p in sorted(set(state.turn.played)):
                if p == "teleport":
                    for sq in _near(state, at, 3):
                        out.append(_row(seat, "play", s, (square_name(sq),),
                                          args=(("spell", p),)))
                elif p in ("speed", "power-run"):
                    out.append(_row(seat, "play", s, args=(("spell", p),)))
        elif s == "around-the-corner":
            for sq in _near(state, at, 2):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "ugly":
            out.append(_row(seat, "play", s))
        elif s == "go-away":
            out += [_row(seat, "play", s, (x.seat,), n) for x in others for n in nums]
        elif s == "drag":
            for x in others:
                if x.at == at:
                    for side in "nesw":
                        nb = state.layout.neighbor(at, side)
                        if nb is not None:
                            out.append(_row(seat, "play", s, (x.seat,),
                                              args=(("path", square_name(nb[0])),)))
        elif s in ("swap", "buddy", "telepath", "slow-death"):
            out += [_row(seat, "play", s, (x.seat,)) for x in others]
        elif s == "teleport-opponent":
            for x in others:
                for sq in _near(state, at, 2):
                    out.append(_row(seat, "play", s, (x.seat,),
                                      args=(("to", square_name(sq)),)))
        elif s in ("dagger", "large-rock"):
            for x in others:
                out.append(_row(seat, "play", s, (x.seat,)))
                if s == "dagger":
                    out.append(_row(seat, "play", s, (x.seat,), args=(("mode", "throw"),)))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s == "create-wall":
            for sq in _near(state, at, 3):
                for _side, e in state.layout.edges_of(sq):
                    if e not in state.edges:
                        out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "destroy-wall":
            for e in state.edges:
                out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "pick-lock":
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "thornbush":
            for sq in _near(state, at, 3):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "teleport":
            for sq in state.layout.squares():
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "invisible":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "speed":
            out.append(_row(seat, "play", s))
        out.append(_row(seat, "discard", s))
    # dedupe, keep order (a dict keeps the first of equal rows, in order). Each verb's
    # candidates set only the fields its notation prints, so two candidates are equal exactly
    # when their notation is
    return list(dict.fromkeys(out))


def _near(state: State, at: Square, r: int) -> list[Square]:
    return [sq for sq in state.layout.squares()
            if abs(sq[0] - at[0]) + abs(sq[1] - at[1]) <= r]


def _slug_order(s: str) -> tuple[int, str]:
    return (0, s) if not C.is_number(s) else (1, s)
