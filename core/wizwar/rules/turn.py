"""The turn and dispatch: ``to_move``, ``apply``, ``is_legal``, ``why_illegal``; routing an
action to its handler, playing a card in one's own turn (each card's
``CardRules.play``), discarding and ending; and after every action the automatic steps (draws,
Trap!, reshuffles, the hand limit, passing the turn, Speed's extra turn, durations).

``apply(state, action)`` checks the action fully before it changes anything, so an illegal
action raises :class:`~core.engine.IllegalAction` with a reason and leaves the state as it
was. Every handler takes ``dry``: with ``dry=True`` it only checks (``legal_actions`` uses
this, so the list and ``apply`` can never disagree).

Sources: RB The Turn; notation.md (the stack, Turn edges); cards.md §1.6-1.7; FAQ.
"""

from __future__ import annotations

from core.engine import Event, IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action, NotationError, parse
from core.wizwar.board import parse_square
from core.wizwar.rules._common import (
    Out,
    _discard_cards,
    _seat_order_from,
    hand_limit,
    thing_name,
)
from core.wizwar.rules.cards.attacks import _choose, _punch, _weapon
from core.wizwar.rules.cards.counteractions import _answer_play
from core.wizwar.rules.cards.neutrals import MODIFIERS
from core.wizwar.rules.conditions import _restricted, _tick
from core.wizwar.rules.hooks import card_rules, settling_edges
from core.wizwar.rules.movement import _boost, _move, _retreat, _retreat_paths
from core.wizwar.rules.objects import _drop, _pickup, _throw_object
from core.wizwar.rules.resolution import _answer_pass
from core.wizwar.rules.victory import _check_end, _deaths
from core.wizwar.state import HAND_LIMIT, ScriptExhausted, State, Turn, Wizard


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


def apply(state: State, action: Action | str, *, checked: bool = False) -> list[Event]:
    """Apply one action, mutating ``state``; returns the events.

    Raises ``IllegalAction`` (state untouched) if the action is not legal now, with a reason.
    A string is parsed as notation first (``NotationError`` becomes ``IllegalAction``).

    ``checked``: the caller has just found ``action`` legal on this very state (it came from
    ``legal_actions`` or ``sample_legal_action``, or ``is_legal`` said so) and nothing has
    changed the state since, so the check (the dry run, which changes nothing) is not run a
    second time: the rules run once (issue 14, eighth round: the random games' loop and the
    archmage's playouts). Only for such callers: an action that is not legal may then be
    half applied.
    """
    if isinstance(action, str):
        try:
            action = parse(action)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from exc
    if not checked:
        _dispatch(state, action, dry=True)
    if state.dealer is not None:
        state.show(_shown_as_played(state, action))
    out = Out()
    _dispatch(state, action, dry=False, out=out)
    _settle(state, out)
    state.seq += 1
    return out.events


def _shown_as_played(state: State, a: Action) -> list[int]:
    """The cards ``a`` takes from its actor's hand by their faces, which everyone sees as
    they leave it (computed before it is applied): the card played, discarded or dropped (and
    a dropped object's), and a Number card played with a card or a boost. Telepath's
    ``choose`` shows nothing: only the thief, who saw the hand, and the victim, who held it,
    learn the card (its public form names the instance only: ``WizWar.seal``). Source:
    rulebook, Playing Cards; cards.md telepath."""
    named: list[int] = []
    if a.verb in ("play", "discard", "drop") and a.card:
        c = state.find_in_hand(a.actor, a.card)
        if c is not None:
            named.append(c)
    if a.verb == "drop" and a.targets:
        c = state.find_in_hand(a.actor, a.targets[0])
        if c is not None:
            named.append(c)
    if a.number is not None and a.verb in ("play", "boost"):
        c = state.find_in_hand(a.actor, str(a.number))
        if c is not None and c not in named:
            named.append(c)
    return named


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
    if a.verb in ("play", "discard") and not a.card:
        raise IllegalAction(f"{a.verb} needs a card")
    if a.verb == "choose" and not a.card and a.number is None:
        raise IllegalAction("choose needs a card")


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
        if a.verb == "pass":
            raise IllegalAction("there is nothing to answer: a pass lets an attack or an "
                                "answer stand")
        raise IllegalAction(f"'{a.verb}' is not possible now")
    handler(state, w, a, dry, o)
    if not dry and not (a.verb == "play" and a.card in MODIFIERS):
        state.turn.modifiers.clear()  # a modifier changes only its player's very next action


def _play(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Play a card from hand in your own turn (RB The Cards; cards.md §1.1)."""
    try:
        cd = C.card(a.card)
    except KeyError:
        raise IllegalAction(f"there is no card called {a.card!r}") from None
    cid = state.find_in_hand(w.seat, a.card)
    if cid is None:
        raise IllegalAction(C.not_held(a.card))
    if cd.kind == C.NUMBER:
        raise IllegalAction("a number card is played with an action (+N) or as a boost")
    if cd.slug not in C.IMPLEMENTED:
        raise IllegalAction(f"{cd.name} is not implemented yet in this engine")
    if cd.kind == C.COUNTER:
        raise IllegalAction(f"{cd.name} only answers an attack (it has no use as a neutral)")
    effect = card_rules(cd.slug).play
    if effect is None:  # pragma: no cover - IMPLEMENTED and the records agree (tested)
        raise IllegalAction(f"{cd.name} cannot be played now")
    if a.arg("mode") == "throw" and cd.kind in (C.OBJECT, C.STONE) and effect is not _weapon:
        effect = _throw_object  # FAQ: any object can be thrown (weapons have their own rows)
    if a.number is not None and a.number == 0:
        raise IllegalAction("there is no number card 0")
    if a.number is not None and str(a.number) == a.card:
        raise IllegalAction("a card cannot be its own number")
    effect(state, w, a, cid, dry, o)
    if not dry and cd.spell and cd.kind != C.ATTACK and not card_rules(cd.slug).recasts:
        state.turn.played.append(cd.slug)


def _discard(state: State, w: Wizard, a: Action, dry: bool, o: Out) -> None:
    """Discard a card: in your own turn, or when over the hand limit (RB Getting new cards;
    FAQ: discarding an object sends it to the pile)."""
    cid = state.find_in_hand(w.seat, a.card)
    if cid is None:
        raise IllegalAction(C.not_held(a.card))
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


def _settle(state: State, o: Out) -> None:
    """Run the automatic steps until a player must act (notation.md, Turn edges).

    Deaths and the end of the game are checked only once every answer window is closed:
    damage from one event lands on every victim first (cards.md §1.9)."""
    settling = settling_edges()  # creations that act after every action (first-sight rolls)
    if settling:
        # the kinds on the board, read once (a comprehension: on Python 3.11 its attribute
        # reads are specialised and beat ``map(attrgetter("kind"), ...)``; docs/performance.md)
        kinds = [es.kind for es in state.edges.values()]
        for i, er in enumerate(settling):
            if er.kind in kinds:
                assert er.settle is not None
                er.settle(state, o)
                if i + 1 < len(settling):  # a hook may change the edges the next one looks at
                    kinds = [es.kind for es in state.edges.values()]
    for _guard in range(10_000):
        if not state.windows:
            _deaths(state, o)
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
        if not state.wizard(t.active).in_game:  # he died, even half-way through his draws
            _next_turn(state, o)
            continue
        if not t.ending:
            return
        if t.draws_left > 0:
            t.draws_left -= 1
            _draw(state, state.wizard(t.active), o)
            continue
        _next_turn(state, o)
    raise RuntimeError("the turn sequence did not settle")  # pragma: no cover


def _draw(state: State, w: Wizard, o: Out) -> None:
    """Draw one card from the top; only when a card must be drawn and the pile is empty is the
    discard pile shuffled into a new one (notation.md, Turn edges). A card that goes off when
    drawn (Trap!) does so instead of going to the hand."""
    if not state.deck:
        if not state.discard:
            o("draw", f"{w.seat} has nothing to draw")
            return
        _reshuffle(state)
        o("reshuffle", "the discard pile is shuffled into a new draw pile")
    cid = state.deck.pop(0)
    drawn = card_rules(state.face(cid)).drawn
    if drawn is not None:  # it goes off instead of going to the hand (Trap!)
        drawn(state, w, cid, o)
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
    When that seat is out of the game, the next living seat begins rounds from the next round
    on: the round goes up only when the turn passes his place in the seat order, so a round
    already begun (round 1 above all) is never cut short.
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
    j = seats.index(state.first)
    # the turn passes the seats i+1 .. i+k: a new round if the first seat's place is among them
    new_round = 1 <= (j - i) % len(seats) <= k
    if not state.wizard(state.first).in_game:
        j = seats.index(state.first)
        for k in range(1, len(seats) + 1):
            s = seats[(j + k) % len(seats)]
            if state.wizard(s).in_game:
                state.first = s
                break
    state.turn = Turn(cand.seat)
    if new_round:
        state.round += 1
    _begin(state, cand, o, extra=False)


def _begin(state: State, w: Wizard, o: Out, *, extra: bool) -> None:
    """A turn begins (the round already counted by :func:`_next_turn`): durations count the
    recipient's turn and the caster's expired effects end; a lost turn is used up."""
    # durations: count the recipient's turn, then end the caster's expired effects
    for x in state.wizards:
        for c in x.conditions:
            if x.seat == w.seat:
                c.count += 1
    for x in state.wizards:
        keep = []
        for c in x.conditions:
            if c.caster == w.seat and c.duration > 0 and c.count >= c.duration:
                o("expire", f"{x.seat}'s {thing_name(c.slug)} ends", seat=x.seat, condition=c.slug)
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
