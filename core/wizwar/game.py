"""Starting a game of Wiz-War: the board, the deal, the turn order.

Source: RB Starting the Game (sectors chosen face down at random; the wizard starts on his
home base, the centre of his sector; his treasures on its two circles; deal seven, a Trap!
dealt is discarded and replaced; 15 life; clockwise from the highest die roll).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.rng import Rng
from core.wizwar import cards as C
from core.wizwar.board import load_sectors
from core.wizwar.ruleset import RULES_VERSION  # noqa: F401  (set there, re-exported here)
from core.wizwar.state import (
    DOOR_HP,
    WALL_HP,
    EdgeState,
    State,
    Turn,
    Wizard,
    build_layout,
)

RULESET = "wizwar"


@dataclass(frozen=True)
class GameConfig:
    """Options for a new game.

    Attributes:
        players: 2, 3 or 4 (RB: 2 to 4 players with the four base sectors).
        names: display names per seat (defaults "P1".."PN").
        deck: ``"full"``, the whole 6th-edition deck (the only deck).
        crossed: the 2-player crossed-exit variant (FAQ).
        doors: the doors variant: a wizard opens the doors of his own sector without a key
            (DG §11, official variants).
        team: the team variant (4 players; seats P1+P3 against P2+P4; three treasures on
            the team's home bases win; no attacking a team-mate). Source: rulebook,
            Optional rules / Team play.
    """

    players: int = 2
    names: tuple[str, ...] = ()
    deck: str = "full"
    crossed: bool = False
    doors: bool = False
    team: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_wire(self) -> dict[str, Any]:
        """Canonical msgpack-ready form."""
        return {"players": self.players, "names": list(self.names), "deck": self.deck,
                "crossed": int(self.crossed), "doors": int(self.doors), "team": int(self.team)}


def new_game(config: GameConfig, seed: int | bytes | str, faces: list[str] | None = None,
             commits: list[str] | None = None) -> State:
    """A new game from ``config`` and ``seed``: everything random drawn from the game RNG in a
    fixed order (sectors, deck shuffle, deal, turn-order rolls).

    ``faces`` (networked games) gives the face of every card instance as the dealer assigned
    it, with ``""`` for faces this process may not know; ``commits`` the dealer's salted
    commitments to them (design.md, Hidden information). By default every face is known, in
    the deck's fixed order. The order in which the instances are drawn always comes from the
    seed, so no one chooses it.

    Raises ``ValueError`` for an unsupported player count or deck name, or ``faces`` of the
    wrong length.
    """
    n = config.players
    if n not in (2, 3, 4):
        raise ValueError("Wiz-War is played by 2, 3 or 4 players with the base sectors")
    if config.team and n != 4:
        raise ValueError("team play needs four players (P1+P3 against P2+P4)")
    if config.crossed and n != 2:
        raise ValueError("crossed exits are a 2-player variant")
    rng = Rng.from_seed(seed)
    ids = sorted(load_sectors())
    rng.shuffle(ids)
    chosen = ids[:n]
    spec = {"kind": "sectors", "players": n, "sectors": chosen, "crossed": int(config.crossed)}
    layout = build_layout(spec)
    names = list(config.names) + [f"P{i + 1}" for i in range(len(config.names), n)]
    wizards = [Wizard(f"P{i + 1}", names[i], layout.homes[i], layout.homes[i]) for i in range(n)]
    treasures: dict[str, Any] = {}
    for i in range(n):
        a, b = layout.treasure_spots[i]
        treasures[f"P{i + 1}.t1"] = a
        treasures[f"P{i + 1}.t2"] = b
    full = C.deck_list(config.deck, n)
    if faces is None:
        faces = full
    elif len(faces) != len(full):
        raise ValueError(f"the dealer gave {len(faces)} faces for a {len(full)}-card deck")
    deck = list(range(len(faces)))
    rng.shuffle(deck)
    edges = {e: EdgeState(kind, WALL_HP if kind == "wall" else DOOR_HP)
             for e, kind in sorted(layout.printed.items())}
    state = State(layout=layout, layout_spec=spec, wizards=wizards, faces=faces, deck=deck,
                  discard=[], edges=edges, bushes={}, stones=[], floor=[], treasures=treasures,
                  turn=Turn("P1"), round=1, first="P1", rng=rng,
                  options={"crossed": int(config.crossed), "doors": int(config.doors),
                           "team": int(config.team)},
                  deck_kind=config.deck,
                  commits=list(commits or []))
    for w in wizards:
        while len(w.hand) < 7 and state.deck:
            cid = state.deck.pop(0)
            # RB: a Trap! drawn on the deal is discarded and replaced. A face unknown here is
            # not a Trap!: the dealer reveals every Trap! dealt, since it goes face up.
            if state.face(cid) == "trap":
                state.discard.append(cid)
                continue
            w.hand.append(cid)
    first = roll_for_first(rng, [w.seat for w in wizards])
    state.first = first
    state.turn = Turn(first)
    return state


def roll_for_first(rng: Rng, seats: list[str]) -> str:
    """Each player rolls the d4, highest first, ties roll again (RB; notation.md)."""
    rolling = list(seats)
    while True:
        rolls = [(rng.d4(), s) for s in rolling]
        top = max(r for r, _ in rolls)
        rolling = [s for r, s in rolls if r == top]
        if len(rolling) == 1:
            return rolling[0]
