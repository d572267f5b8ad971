"""A new ArcoMage game (R20, R21, R120) and what each player may see (R98)."""

from __future__ import annotations

import copy
from typing import Any

from core.arcomage import traps
from core.arcomage.damage import Ctx
from core.arcomage.data import BOOKS, check_book
from core.arcomage.state import START_HEX, Dict, State, new_player
from core.arcomage.turn import begin_turn
from core.engine import OptionError


def blank(seed: Any, first: str = "P1", clock: int = 0, turn_limit: int = 100,
          books: tuple[list[str], list[str]] = ([], [])) -> Dict:
    """The state dict before any turn has begun (no checks)."""
    return {"seq": 0, "turn": 1, "active": first, "first": first, "step": "main", "prio": "",
            "passes": 0, "stack": [], "players": {
                "P1": new_player("P1", START_HEX["P1"], list(books[0])),
                "P2": new_player("P2", START_HEX["P2"], list(books[1]))},
            "creatures": [], "traps": [], "trap_n": 0, "ts": 0,
            "combat": {"attacks": [], "blocks": []}, "choice": {}, "winner": "", "how": "",
            "clock": int(clock), "turn_limit": int(turn_limit), "timed_out": 0,
            "seed": str(seed if not isinstance(seed, bytes) else seed.hex())}


def new_game(options: dict[str, Any], seed: Any, owners: bool = False) -> State:
    """The state at the first decision: the first player's MAIN of turn 1, UNTAP and UPKEEP
    done, PRODUCE skipped (R23, R120). ``owners``: a networked game, where each trapper
    deals his own traps (``g["owners"]``, R125, R128). Raises :class:`OptionError` for an
    illegal book."""
    books = []
    for p in ("p1", "p2"):
        own = str(options.get(f"{p}_spells", "")).strip()
        b = [s.strip() for s in own.split(",")] if own else list(BOOKS[options[f"{p}_book"]])
        why = check_book(b)
        if why:
            raise OptionError(f"{p.upper()}'s book: {why}")
        books.append(b)
    first = options["first"].upper()
    g = blank(seed, first, options["clock"], options["turn_limit"], (books[0], books[1]))
    if owners:
        g["owners"] = 1
    begin_turn(g, Ctx(), first=True)
    return State(g)


def view(st: State, player: str) -> Dict:
    """What ``player`` may know (``""``: a watcher, who sees what the victim sees): every
    public value; trap slugs only for their trapper or once sprung; no salt and no seed."""
    g = st.d
    v = copy.deepcopy({k: x for k, x in g.items() if k not in ("seed", "traps", "stack")})
    v["traps"] = traps.view_traps(g, player)
    v["stack"] = [{k: x for k, x in e.items() if k != "secret" or e["caster"] == player}
                  for e in copy.deepcopy(g["stack"])]
    v["viewer"] = player
    return v
