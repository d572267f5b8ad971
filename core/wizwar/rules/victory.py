"""Death, elimination and victory: a wizard's death and his spoils, treasures brought
home, the last wizard standing, and the game result.

Sources: RB Winning; RB Combat (death and spoils); FAQ (second-hand kills); DG §2.
"""

from __future__ import annotations

from core.wizwar import cards as C
from core.wizwar.board import Square
from core.wizwar.rules._common import Out, _seat_order_from
from core.wizwar.state import State, Wizard


def result(state: State) -> dict[str, object]:
    """``{"over": bool, "winner": seat or "", "eliminated": [seats in order]}``."""
    return {"over": bool(state.winner), "winner": state.winner,
            "eliminated": list(state.eliminated)}


def _deaths(state: State, o: Out, killers: dict[str, str] | None = None) -> None:
    """Every wizard still in the game at 0 life or less dies now, all at the same moment,
    in seat order from the active player (who thus counts as dying first: RB Death, a
    player who dies performing a would-be-winning action has died first). ``killers`` maps
    a victim to the player whose attack dealt the killing damage (kill credit); a killer
    who dies at the same moment takes nothing. Called once every hit of an attack has
    landed, and whenever no answer window is open (indirect damage: each victim's window
    has closed). Source: cards.md §1.9 (one event, every victim; kill credit); RB Death;
    FAQ (second-hand kills give no cards)."""
    if all(w.life > 0 or not w.in_game for w in state.wizards):  # the common case, fast
        return
    dying = [w for w in _seat_order_from(state, state.turn.active) if w.life <= 0]
    gone = {w.seat for w in dying}
    for w in dying:
        credit = (killers or {}).get(w.seat, "")
        _kill(state, w, "" if credit in gone else credit, o)


def _end_durations_of(state: State, w: Wizard) -> None:
    """A caster who leaves the game (dead, or out by treasures): the duration effects he
    cast end at once; his permanent ones (duration 0: Slow Death, Buddy) stay, as do his
    creations. Source: cards.md §1.6 (decided)."""
    for other in state.wizards:
        other.conditions = [c for c in other.conditions
                            if c.caster != w.seat or c.duration <= 0]


def _kill(state: State, w: Wizard, credit: str, o: Out) -> None:
    """Death: the wizard leaves the board, a carried treasure stays in his square; the player
    whose attack dealt the killing damage takes all his cards and discards down to his limit;
    kills by indirect damage give the cards to no one (RB Combat; FAQ second-hand kills).
    His duration effects end; his permanent ones (Slow Death, Buddy, creations) stay
    (cards.md §1.6)."""
    w.alive = False
    if w.carrying:
        state.treasures[w.carrying] = w.at
        w.carrying = ""
    w.at = None
    w.conditions = []
    _end_durations_of(state, w)
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
        o("spoils", f"{killer.seat} takes {w.seat}'s {C.counted(len(cards_), 'card')}", seat=killer.seat)
    else:
        state.discard.extend(cards_)
    state.windows = [x for x in state.windows if x.defender != w.seat or x.kind != "indirect"]


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
    """A player out by treasures: cards discarded, wizard off the board (RB Winning); the
    duration effects he cast end, his permanent ones stay (cards.md §1.6)."""
    w.out = True
    if w.carrying:
        state.treasures[w.carrying] = w.at
        w.carrying = ""
    w.at = None
    _end_durations_of(state, w)  # he leaves the game
    state.discard.extend(w.hand)
    w.hand.clear()
    w.displayed.clear()
    state.eliminated.append(w.seat)
    o("out", f"{w.seat} is out: both treasures lie on enemy home bases", seat=w.seat)
