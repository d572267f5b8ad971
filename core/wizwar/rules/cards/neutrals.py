"""Neutral spells on oneself or a friend: Teleport, Invisible, Speed, Power Run,
Shrink, Buddy, the modifiers (Add, Amplify, Extend, Around the Corner) and the self
durations (Mist-Body).

Sources: cards.md §1.3 (modifiers), §1.6 (durations) and each neutral row; RB The Turn.
"""

from __future__ import annotations

from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import Square, parse_square, square_name
from core.wizwar.rules._common import (
    Out,
    _add_condition,
    _attack_target,
    _discard_cards,
    _number,
    _square,
    _vacant,
)
from core.wizwar.rules.hooks import Answering, AnswerPlay, CardRules, card_rules, register
from core.wizwar.rules.rows import (
    Near,
    Row,
    _bare_rows,
    _each_other_rows,
    _near,
    _row,
    _self_number_rows,
)
from core.wizwar.rules.sight import _sees, has_los
from core.wizwar.rules.stack import _victims, needs_sight_or_square
from core.wizwar.state import Condition, Counter, State, Wizard


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
    o("condition", f"{w.seat} turns invisible for {C.counted(value, 'turn')}", seat=w.seat)


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
    o("condition", f"{w.seat} shrinks for {C.counted(value, 'turn')}", seat=w.seat)


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
    o("condition", f"{w.seat} casts {C.card(a.card).name} for {C.counted(value, 'turn')}",
      seat=w.seat)


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
    effect = card_rules(spell).play
    if effect is None or spell == "reuse-spell":
        raise IllegalAction(f"{cd.name} cannot be recast")
    again = Action(a.actor, "play", spell, a.targets, a.number,
                   tuple(p for p in a.args if p[0] != "spell"))
    effect(state, w, again, cid, dry, o)  # the Reuse Spell card is the one discarded


def _mist_forbids(state: State, w: Wizard, a: Action) -> str:
    """Mist-Body: no punches, no weapons, no picking up (cards.md mist-body)."""
    if a.verb in ("punch", "pickup") or (a.verb == "play" and a.card in
                                          ("dagger", "large-rock", "wizardblade")):
        return "as mist you cannot punch, use weapons or pick anything up"
    return ""



def _buddy_attack_refused(state: State, w: Wizard, c: Condition, target: Wizard) -> str:
    """Buddy: its wizard may not attack the caster until the caster attacks him (cards.md
    buddy)."""
    if c.caster == target.seat:
        return (f"{target.seat} is your Buddy: you cannot attack him until he "
                "attacks you (cards.md buddy)")
    return ""



def _escape_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Teleport (to the square named) or Invisible (for its duration) as an escape from an
    attack aimed at you: the attacker too, once a counteraction has turned his attack on him
    (cards.md §1.5); Invisible only from an attack that needs line of sight or your square
    (cards.md teleport, invisible; §1.5)."""
    if q.win.kind != "attack" or w.seat not in _victims(state, q.win):
        raise IllegalAction(f"{q.name} escapes an attack aimed at you")
    if a.card == "invisible" and not needs_sight_or_square(q.win.source):
        raise IllegalAction("Invisible escapes only an attack that needs line of sight or "
                            "your square (cards.md invisible)")
    if a.card == "teleport":
        return AnswerPlay(-1, square_name(_teleport_dest(state, a)))
    if a.targets or a.args:
        raise IllegalAction("invisible is cast on yourself only")
    value, ncid = _number(state, w, a, "duration")
    return AnswerPlay(-1, "", value, ncid)


def _teleport_away(state: State, c: Counter, o: Out) -> None:
    """Teleport as an escape: its player goes to the square he named, if it is still vacant
    (cards.md teleport; §1.5)."""
    sq = parse_square(c.target)
    if _vacant(state, sq):
        state.wizard(c.player).at = sq
        o("move", f"{c.player} teleports away to {c.target}", seat=c.player,
          path=[c.target])


def _vanish(state: State, c: Counter, o: Out) -> None:
    """Invisible as an escape: its player becomes invisible for N turns (cards.md
    invisible)."""
    w = state.wizard(c.player)
    _add_condition(w, Condition("invisible", c.player, c.value))
    o("condition", f"{c.player} vanishes for {C.counted(c.value, 'turn')}", seat=c.player)



def _add(value: int, num: object, use: str, used_card: bool) -> tuple[int, bool]:
    """Add: + its own number card (1 without); a number card above 1 counts as one used
    (cards.md add, §1.3)."""
    if isinstance(num, int):
        return value + num, used_card or num > 1
    return value, used_card


def _amplify(value: int, num: object, use: str, used_card: bool) -> tuple[int, bool]:
    """Amplify: x2 (cards.md amplify)."""
    return value * 2, used_card


def _extend(value: int, num: object, use: str, used_card: bool) -> tuple[int, bool]:
    """Extend: x2 a duration (cards.md extend)."""
    return (value * 2 if use == "duration" else value), used_card


# ---------------------------------------------------------------------------------------
# candidate actions (legal_actions asks these; the far targets are reach.py's)
# ---------------------------------------------------------------------------------------
def _add_rows(state: State, n: Near, s: str) -> list[Row]:
    """Add with each number (1 without one)."""
    return [_row(n.seat, "play", s, number=k) for k in n.nums]


def _reuse_spell_rows(state: State, n: Near, s: str) -> list[Row]:
    """Reuse Spell on Teleport (to each square within 3), Speed or Power Run played this
    turn."""
    out = []
    assert n.at is not None
    for p in sorted(set(state.turn.played)):
        if p == "teleport":
            for sq in _near(state, n.at, 3):
                out.append(_row(n.seat, "play", s, (square_name(sq),), args=(("spell", p),)))
        elif p in ("speed", "power-run"):
            out.append(_row(n.seat, "play", s, args=(("spell", p),)))
    return out


def _pivot_rows(state: State, n: Near, s: str) -> list[Row]:
    """Around the Corner pivoting on each square within 2."""
    assert n.at is not None
    return [_row(n.seat, "play", s, (square_name(sq),)) for sq in _near(state, n.at, 2)]


def _teleport_rows(state: State, n: Near, s: str) -> list[Row]:
    """Teleport to each square of the board (in its owner's turn or as an escape)."""
    return [_row(n.seat, "play", s, (square_name(sq),)) for sq in state.layout.squares()]


def _invisible_answer_rows(state: State, n: Near, s: str) -> list[Row]:
    """Invisible as an escape: with no number, then each number."""
    return [_row(n.seat, "play", s), *(_row(n.seat, "play", s, number=k) for k in n.numbers)]


# ---------------------------------------------------------------------------------------
# the neutral cards' records
# ---------------------------------------------------------------------------------------
register(
    CardRules("teleport", answer=_escape_answer, answer_targets=True, candidates=_teleport_rows,
              answers=_teleport_rows, play=_teleport, stops=True, escape=True,
              on_stop=_teleport_away, source="cards.md teleport"),
    CardRules("invisible", answer=_escape_answer, answer_targets=True, candidates=_self_number_rows,
              answers=_invisible_answer_rows, play=_invisible, to_hit=1, to_hit_as="invisible",
              stops=True, escape=True, on_stop=_vanish, source="cards.md invisible; §1.5"),
    CardRules("speed", candidates=_bare_rows, play=_speed, source="cards.md speed; RB The Turn"),
    CardRules("power-run", candidates=_bare_rows, play=_power_run, source="cards.md power-run"),
    CardRules("shrink", candidates=_self_number_rows, play=_shrink, base_moves=2, to_hit=2,
              to_hit_as="shrunk", source="cards.md shrink"),
    CardRules("buddy", candidates=_each_other_rows, play=_buddy,
              attack_refused=_buddy_attack_refused, ends_on_attack=True,
              source="cards.md buddy (AF)"),
    CardRules("add", candidates=_add_rows, play=_modifier, modify=_add, modify_phase=1,
              source="cards.md add; §1.3"),
    CardRules("amplify", candidates=_bare_rows, play=_modifier, modify=_amplify, modify_phase=2,
              source="cards.md amplify; §1.3"),
    CardRules("extend", candidates=_bare_rows, play=_modifier, modify=_extend, modify_phase=3,
              source="cards.md extend; §1.3"),
    CardRules("around-the-corner", candidates=_pivot_rows, play=_modifier, pivot=True,
              source="cards.md around-the-corner; §1.3"),
    CardRules("mist-body", candidates=_self_number_rows, play=_self_duration, forbids=_mist_forbids,
              through_doors=True, through_bushes=True, immune="physical", immune_as="mist",
              source="cards.md mist-body"),
    CardRules("reuse-spell", candidates=_reuse_spell_rows, play=_reuse, recasts=True,
              source="cards.md reuse-spell; DG §12"),
)
