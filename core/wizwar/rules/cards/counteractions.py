"""Counteractions: answering an open window with a card (blocks, escapes,
reflections, voids, Absorb, Blunt, the answering stones), where a block edge may go, and
each counteraction's record: what it does on the stack when it stands.

Sources: cards.md §1.5 (answer windows) and each counteraction row; RB Counteractions;
DG §7.
"""

from __future__ import annotations

from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import blocked_count, edge_name, sightlines
from core.wizwar.rules._common import (
    SOURCE_CARD,
    Out,
    _ceil_half,
    _edge,
    _empty_edge,
    _name,
    _take_from_hand,
)
from core.wizwar.rules.hooks import (
    Answering,
    AnswerPlay,
    CardRules,
    card_rules,
    hit_effect,
    register,
)
from core.wizwar.rules.objects import _display
from core.wizwar.rules.rows import _bare_rows
from core.wizwar.rules.sight import _is_blocking
from core.wizwar.rules.stack import _latest_standing, _other_side, _victims
from core.wizwar.state import Counter, State, Window, Wizard


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
        raise IllegalAction(C.not_held(a.card))
    if cd.slug in ANSWER_STONES:
        return _display_answer(state, w, a, cid, dry, o)
    if cd.kind not in (C.COUNTER, C.DUAL):
        what = f"the Number {cd.name} card" if cd.kind == C.NUMBER else cd.name
        raise IllegalAction(f"{what} is not a counteraction: out of turn you may only "
                            "answer with counteractions (RB The Cards)")
    if cd.slug not in C.IMPLEMENTED:
        raise IllegalAction(f"{cd.name} is not implemented yet in this engine")
    slug = cd.slug
    side = "attacker" if w.seat == win.attacker else "defender"
    src = SOURCE_CARD.get(win.source, win.source)
    is_spell_attack = win.kind == "attack" and src != "punch" and C.card(src).spell
    rules = card_rules(slug)
    if win.kind == "indirect" and not rules.answers_indirect:
        raise IllegalAction("only Absorb or Blunt answer damage that is not an attack (RB)")
    if rules.answer is None:
        raise IllegalAction(f"{cd.name} cannot answer this")
    play = rules.answer(state, w, a, Answering(win, side, src, is_spell_attack, cd.name))
    answers, extra_target, value, ncid = play.answers, play.target, play.value, play.ncid
    if not rules.answer_targets and (a.targets or a.args or a.number is not None):
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
                                              and not hit_effect(win.source).damage):
        raise IllegalAction("a stone is displayed out of turn only when you are about to "
                            "take damage")
    _display(state, w, a, cid, dry, o)


def _block_edge(state: State, win: Window, w: Wizard, a: Action) -> str:
    """A Wall of Fire or Waterwall played as a block: only against an attack by line of sight
    aimed at you (the attacker too, once a counteraction has turned it on him) whose line
    comes from another square; it goes on an empty edge that the line between the two sides
    crosses. A Slow Death tick has no line to block.
    Source: cards.md wall-of-fire, waterwall (decided: blocks); §1.5 (answering)."""
    src = SOURCE_CARD.get(win.source, win.source)
    if win.kind != "attack" or w.seat not in _victims(state, win) or src == "punch" or \
            win.source in SOURCE_CARD or not C.card(src).target.startswith("los"):
        raise IllegalAction(f"{C.card(a.card).name} blocks only an attack by line of sight")
    attacker = state.wizard(_other_side(win, w.seat))  # the attacker, or the reflector
    if attacker.at is None or w.at is None or attacker.at == w.at:
        raise IllegalAction("there is no line between you to block")
    if len(a.targets) != 1 or ":" not in a.targets[0] or \
            any(k for k, _ in a.args):
        raise IllegalAction("name the edge the attack's line crosses, e.g. @c3:e")
    e = _edge(state, a.targets[0])
    _empty_edge(state, e, a.targets[0], water=a.card == "waterwall")
    line = next((sl for sl in sightlines(state.layout, attacker.at, w.at)
                 if blocked_count(sl, lambda x: _is_blocking(state, x)) == 0), None)
    if line is None or e not in line.edges:
        raise IllegalAction(f"the attack's line does not cross {a.targets[0]}")
    return edge_name(e)


# ---------------------------------------------------------------------------------------
# what each counteraction answers (cards.md §1.5 answering, each card's row)
# ---------------------------------------------------------------------------------------
def _damage_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Absorb, Blunt: damage dealt to you, by an attack that deals damage or indirectly."""
    if w.seat not in _victims(state, q.win):
        raise IllegalAction(f"{q.name} answers damage dealt to you")
    if q.win.kind == "attack" and not hit_effect(q.win.source).damage:
        raise IllegalAction(f"{q.name} answers damage, and this attack deals none")
    return AnswerPlay()


def _reverse_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Reverse: an attack that would deal you damage (cards.md reverse)."""
    if w.seat not in _victims(state, q.win) or not hit_effect(q.win.source).damage:
        raise IllegalAction("Reverse answers an attack that would deal you damage")
    return AnswerPlay()


def _full_shield_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Full Shield: a spell attack aimed at you (cards.md full-shield)."""
    if not q.spell_attack:
        raise IllegalAction("Full Shield stops only spell attacks (not punches, weapons or "
                            "indirect damage)")
    if w.seat not in _victims(state, q.win):
        raise IllegalAction("Full Shield stops a spell aimed at you")
    return AnswerPlay()


def _reflection_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Reflection: a spell attack with a quantity (its number, or a fixed amount printed on
    the card) aimed at you, once (cards.md reflection)."""
    if not q.spell_attack or not (C.card(q.src).uses_number or hit_effect(q.src).fixed):
        raise IllegalAction("Reflection splits a spell attack's quantity (its number or "
                            "a fixed amount printed on the card): this one has none")
    if w.seat not in _victims(state, q.win) or any(
            c.slug == "reflection" and c.player == w.seat for c in q.win.counters):
        raise IllegalAction("Reflection splits an attack aimed at you, once")
    return AnswerPlay()


def _full_reflection_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Full Reflection: a spell attack aimed at you (cards.md full-reflection)."""
    if not q.spell_attack:
        raise IllegalAction("Full Reflection turns back spell attacks only")
    if w.seat not in _victims(state, q.win):
        raise IllegalAction("Full Reflection turns back a spell aimed at you")
    return AnswerPlay()


def _absorb_spell_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Absorb Spell: a spell aimed at you, or a Reflection sent back at your attack (JDB;
    cards.md absorb-spell)."""
    if q.side == "defender":
        if not q.spell_attack:
            raise IllegalAction("Absorb Spell takes a spell: not a punch, weapon or object")
        return AnswerPlay()
    answers = _latest_standing(q.win, "defender")
    if answers < 0 or not card_rules(q.win.counters[answers].slug).turns:
        raise IllegalAction("Absorb Spell answers a spell aimed at you, or a Reflection"
                            " or Full Reflection sent back at your attack")
    return AnswerPlay(answers)


def _anti_anti_answer(state: State, w: Wizard, a: Action, q: Answering) -> AnswerPlay:
    """Anti-Anti: the latest standing counteraction of the other side, not an escape
    (cards.md anti-anti; DG §7)."""
    answers = _latest_standing(q.win, "defender" if q.side == "attacker" else "attacker")
    if answers < 0:
        raise IllegalAction("Anti-Anti needs a counteraction of the other side to void")
    if card_rules(q.win.counters[answers].slug).escape:
        raise IllegalAction("Anti-Anti does not work on escapes (DG §7)")
    return AnswerPlay(answers)


# ---------------------------------------------------------------------------------------
# what each counteraction does on the stack when it stands (cards.md §1.5 Resolving)
# ---------------------------------------------------------------------------------------
def _reflect_half(state: State, win: Window, c: Counter, hits: list[list], o: Out) -> None:
    """Reflection: its player keeps half of his hit, rounded up, and the same half goes to
    the other side (cards.md reflection)."""
    for h in hits:
        if h[0] == c.player:
            half = _ceil_half(h[1])
            h[1] = half
            hits.append([_other_side(win, c.player), half, c.player])
            o("reflect", f"{c.player} reflects half of the {_name(win.source)}")
            break


def _reflect_whole(state: State, win: Window, c: Counter, hits: list[list], o: Out) -> None:
    """Full Reflection: the whole hit turns on the other side (cards.md full-reflection)."""
    for h in hits:
        if h[0] == c.player:
            h[0], h[2] = _other_side(win, c.player), c.player
            o("reflect", f"{c.player} turns the {_name(win.source)} back")
            break


def _absorb(state: State, victim: Wizard, dmg: int, o: Out) -> tuple[int, bool]:
    """Absorb: 3 less damage (cards.md absorb)."""
    return max(0, dmg - 3), False


def _blunt(state: State, victim: Wizard, dmg: int, o: Out) -> tuple[int, bool]:
    """Blunt: half the damage, rounded up (cards.md blunt)."""
    return _ceil_half(dmg), False


def _reverse_damage(state: State, victim: Wizard, dmg: int, o: Out) -> tuple[int, bool]:
    """Reverse: the damage left becomes life instead (cards.md reverse)."""
    if dmg <= 0:
        return dmg, False
    victim.life += dmg
    o("reverse", f"{victim.seat} turns {dmg} damage into life", seat=victim.seat)
    return 0, True


register(
    CardRules("absorb", answer=_damage_answer, answers_indirect=True, answers=_bare_rows,
              reduce=_absorb, source="cards.md absorb; RB"),
    CardRules("blunt", answer=_damage_answer, answers_indirect=True, answers=_bare_rows,
              reduce=_blunt, source="cards.md blunt; RB"),
    CardRules("reverse", answer=_reverse_answer, answers=_bare_rows, reduce=_reverse_damage,
              source="cards.md reverse"),
    CardRules("full-shield", answer=_full_shield_answer, answers=_bare_rows, stops=True,
              source="cards.md full-shield"),
    CardRules("reflection", answer=_reflection_answer, answers=_bare_rows, turns=True,
              split=_reflect_half, source="cards.md reflection"),
    CardRules("full-reflection", answer=_full_reflection_answer, answers=_bare_rows, turns=True,
              split=_reflect_whole, source="cards.md full-reflection"),
    CardRules("absorb-spell", answer=_absorb_spell_answer, answers=_bare_rows, stops=True,
              voids=True, captures=True, source="JDB; cards.md absorb-spell, §1.5 step 6"),
    CardRules("anti-anti", answer=_anti_anti_answer, answers=_bare_rows, voids=True,
              source="cards.md anti-anti; DG §7"),
)
