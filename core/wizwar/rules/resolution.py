"""The stack, resolving side: passing, resolving an attack once both sides pass
(stoppers, voiders, turners, hit effects, stones, captures) and resolving indirect damage.

Sources: cards.md §1.5 (resolution order); RB Combat; DG §7; FAQ.
"""

from __future__ import annotations

from core.wizwar import cards as C
from core.wizwar.rules._common import Out, _discard_cards, _name
from core.wizwar.rules.damage import _hurt
from core.wizwar.rules.hooks import card_rules, hit_effect
from core.wizwar.rules.objects import _finish_objects, _shadowstone, _stones_step
from core.wizwar.rules.stack import _is_spent, _other_side
from core.wizwar.rules.victory import _deaths
from core.wizwar.state import Counter, State, Window, Wizard


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
        if card_rules(win.counters[i].slug).voids and win.counters[i].answers >= 0:
            voided.add(win.counters[i].answers)
    for i in sorted(voided):
        o("void", f"{win.counters[i].player}'s {C.card(win.counters[i].slug).name} is voided")
    standing = [c for i, c in enumerate(win.counters) if i not in voided]
    played = [win.cid, win.number_cid] + [c for k in win.counters for c in (k.cid, k.number_cid)]
    stoppers = [c for c in standing if card_rules(c.slug).stops and c.answers < 0]
    captured = _captures(state, win, standing, o)
    played = [c for c in played if c not in captured]
    for c in stoppers:
        on_stop = card_rules(c.slug).on_stop
        if on_stop is not None:
            on_stop(state, c, o)
    if stoppers:
        last = stoppers[-1]
        o("stopped", f"{C.card(last.slug).name} stops the {_name(win.source)}",
          card=last.slug)
        _finish_objects(state, win.source, win.cid, win.mode, defender.at)
        _discard_cards(state, [c for c in played if c is not None and _is_spent(state, c)])
        return
    # hits: [victim, value, credit]
    credit0 = win.attacker if hit_effect(win.source).credit else ""
    # the quantity is V, or the card's fixed amount (Reflection splits either)
    hits: list[list] = [[win.defender, hit_effect(win.source).fixed or win.value, credit0]]
    for c in standing:  # splits, in the order played (the Reflections)
        split = card_rules(c.slug).split
        if split is not None:
            split(state, win, c, hits, o)
    landing = defender.at
    killers: dict[str, str] = {}
    for victim_seat, value, credit in hits:
        victim = state.wizard(victim_seat)
        if not victim.in_game or victim.life <= 0:  # a second hit finds him already dying
            continue
        effect = hit_effect(win.source)
        base = effect.base(state, win, victim, value, o)
        dmg = base
        reversed_ = False
        for c in standing:  # his own, in the order he played them (Absorb, Blunt, Reverse)
            reduce = card_rules(c.slug).reduce
            if c.player != victim_seat or reduce is None:
                continue
            dmg, turned = reduce(state, victim, dmg, o)
            reversed_ = reversed_ or turned
        if base > 0 and dmg != base and not reversed_:
            o("reduce", f"{victim_seat}'s damage is cut from {base} to {dmg}")
        dmg = _stones_step(state, victim, dmg, physical=win.physical, o=o)
        stopped_all = base > 0 and dmg == 0
        if dmg > 0:
            _hurt(state, victim, dmg, o)
            if victim.life <= 0:
                killers[victim_seat] = credit
            _shadowstone(state, credit, victim, dmg, win.physical, o)
        if stopped_all:
            o("stopped", f"all damage to {victim_seat} was stopped, and the rest with it")
            continue
        if effect.after is not None:
            effect.after(state, win, victim, value, dmg, credit, o)
    # one event, every victim: all the hits have landed, now the deaths (cards.md §1.9)
    _deaths(state, o, killers)
    _finish_objects(state, win.source, win.cid, win.mode, landing)
    _discard_cards(state, [c for c in played if c is not None and _is_spent(state, c)])


def _captures(state: State, win: Window, standing: list[Counter], o: Out) -> list[int]:
    """Absorb Spell: the card it cancelled goes to its player's hand instead of the discard
    pile (its number card is still discarded); the hand limit applies at once.
    Source: JDB; cards.md absorb-spell, §1.5 step 6."""
    out = []
    for c in standing:
        if not card_rules(c.slug).captures:
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


def _resolve_indirect(state: State, o: Out) -> None:
    win = state.windows.pop(0)
    w = state.wizard(win.defender)
    played = [c for k in win.counters for c in (k.cid, k.number_cid)]
    dmg = win.value
    for c in win.counters:  # only Absorb and Blunt answer indirect damage
        reduce = card_rules(c.slug).reduce
        if reduce is not None:
            dmg, _turned = reduce(state, w, dmg, o)
    _discard_cards(state, played)
    dmg = _stones_step(state, w, dmg, physical=win.physical, o=o)
    if w.in_game and dmg > 0:
        _hurt(state, w, dmg, o)  # he dies once every window of the event is closed (§1.9)
        if w.life <= 0:  # his own later windows are moot; the other victims' stay open
            state.windows = [x for x in state.windows
                             if x.defender != w.seat or x.kind != "indirect"]
