"""Record the golden games: seeded games whose events and state hashes must never move.

Run once before a refactor that must not change behaviour (issue "One engine, three games"):
``python scripts/golden_games.py`` writes ``tests/data/golden_games.json``; the test
``tests/test_golden_games.py`` replays every recorded action list and compares, step by step,
a digest of the events and the state hash. The action lists are stored as notation, so a
change to what ``legal_actions`` lists (or to a bot) does not change the games replayed.

``python scripts/golden_games.py --redigest`` keeps the recorded action lists and only
recomputes their digests: for a change of event wording alone (issue 12), where replaying the
bots afresh would record other games.

``python scripts/golden_games.py --rerecord`` keeps every recorded game that still replays
step for step and records afresh only those that do not (a rules fix that changes some games:
raise the rules version in the same commit); it prints which.
"""

from __future__ import annotations

import json
import pathlib
import sys
from hashlib import blake2b

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core import registry  # noqa: E402
from core.codec import pack  # noqa: E402
from core.rng import Rng  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "golden_games.json"

#: (options, seed, chooser, cap): 12 bot games and 6 uniformly random ones.
GAMES = [
    ({"players": 2}, 1, "bot", 3000), ({"players": 2}, 2, "bot", 3000),
    ({"players": 3}, 3, "bot", 3000), ({"players": 3}, 4, "bot", 3000),
    ({"players": 4}, 5, "bot", 3000), ({"players": 4}, 6, "bot", 3000),
    ({"players": 2, "crossed": True}, 7, "bot", 3000),
    ({"players": 3, "doors": True}, 8, "bot", 3000),
    ({"players": 4, "team": True}, 9, "bot", 3000),
    ({"players": 4, "team": True, "doors": True}, 10, "bot", 3000),
    ({"players": 2, "doors": True}, 11, "bot", 3000), ({"players": 4}, 12, "bot", 3000),
    ({"players": 2}, 21, "random", 500), ({"players": 3}, 22, "random", 500),
    ({"players": 4}, 23, "random", 500), ({"players": 4, "team": True}, 24, "random", 500),
    ({"players": 2, "crossed": True}, 25, "random", 500),
    ({"players": 3, "doors": True}, 26, "random", 500),
]


def step_digest(rs, state, events) -> str:
    """8 bytes of blake2b over the events (kind, text, data) and the state hash after."""
    body = pack([[e.kind, e.text, e.data] for e in events] + [rs.state_hash(state)])
    return blake2b(body, digest_size=8).hexdigest()


def play(options, seed, chooser, cap):
    """Play one game; returns (actions as notation, per-step digests)."""
    rs = registry.get("wizwar")
    opts = rs.validate_options(options)
    st = rs.new_game(opts, seed)
    pick = Rng.from_seed(f"golden-{seed}")
    actions, digests = [], []
    for _ in range(cap):
        movers = rs.to_move(st)
        if not movers:
            break
        seat = movers[0]
        legal = rs.legal_actions(st, seat)
        if chooser == "bot":
            a = rs.bot_choose(rs.view(st, seat), seat, legal, "apprentice")
        else:
            a = legal[pick.below(len(legal))]
        ev = rs.apply(st, a)
        actions.append(str(a))
        digests.append(step_digest(rs, st, ev))
    return actions, digests


def redigest() -> None:
    """Recompute the digests of the recorded games from their recorded actions."""
    rs = registry.get("wizwar")
    games = json.loads(OUT.read_text())
    for g in games:
        st = rs.new_game(rs.validate_options(g["options"]), g["seed"])
        g["digests"] = [step_digest(rs, st, rs.apply(st, rs.parse_action(t)))
                        for t in g["actions"]]
    OUT.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"rewrote the digests of {len(games)} games in {OUT}")


def replays(rs, g) -> bool:
    """True when recorded game ``g`` replays to its recorded digests, step for step."""
    st = rs.new_game(rs.validate_options(g["options"]), g["seed"])
    for text, want in zip(g["actions"], g["digests"], strict=True):
        try:
            if step_digest(rs, st, rs.apply(st, rs.parse_action(text))) != want:
                return False
        except Exception:  # noqa: BLE001 - an action no longer legal: the game moved
            return False
    return True


def rerecord() -> None:
    """Record afresh only the games that no longer replay (see the module docstring)."""
    rs = registry.get("wizwar")
    games = json.loads(OUT.read_text())
    caps = {(json.dumps(o, sort_keys=True), seed, ch): cap for o, seed, ch, cap in GAMES}
    for g in games:
        if replays(rs, g):
            continue
        cap = caps[(json.dumps(g["options"], sort_keys=True), g["seed"], g["chooser"])]
        g["actions"], g["digests"] = play(g["options"], g["seed"], g["chooser"], cap)
        print(f"recorded afresh: {g['options']} seed {g['seed']} {g['chooser']}")
    OUT.write_text(json.dumps(games, separators=(",", ":")) + "\n")


def main() -> None:
    """Write the fixture (``--redigest``: only the digests of the recorded games;
    ``--rerecord``: only the games that moved, afresh)."""
    if sys.argv[1:] == ["--redigest"]:
        redigest()
        return
    if sys.argv[1:] == ["--rerecord"]:
        rerecord()
        return
    games = []
    for options, seed, chooser, cap in GAMES:
        actions, digests = play(options, seed, chooser, cap)
        games.append({"options": options, "seed": seed, "chooser": chooser,
                      "actions": actions, "digests": digests})
        print(f"{options} seed {seed} {chooser}: {len(actions)} actions")
    OUT.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
