"""Record the legal-action lists of the golden games: what ``legal_actions`` lists must not move.

Issue 14 (a fast rules core) changes how the legal actions are found, not which they are. This
script replays every game of ``tests/data/golden_games.json`` and, before each step, lists
``legal_actions`` (in order, as notation) for every player to move, plus the names of that
player's families of larger actions (``families``). These go into one running blake2b digest per game,
with a checkpoint every ``EVERY`` steps so a difference is found near where it starts. Written
to ``tests/data/legal_digests.json``; ``tests/test_speed_equivalence.py`` compares.

Record it on the code as it was before a speed change (done from main at the start of issue
14). A merged rules fix (one that raises the rules version and re-records the golden games)
may move it: re-record then, never for a speed change.
"""

from __future__ import annotations

import json
import pathlib
import sys
from hashlib import blake2b
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core import registry  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden_games.json"
OUT = ROOT / "tests" / "data" / "legal_digests.json"
#: Steps between two checkpoints of the running digest.
EVERY = 100


def game_digests(rs: Any, game: dict[str, Any]) -> list[str]:
    """Checkpoints (hex) of the running digest of one golden game's legal-action lists.

    Before step i (and after the last) the line ``i:seat:notation|notation.../family|family`` of every player
    to move is fed to the digest; a checkpoint is taken every ``EVERY`` steps and at the end.
    """
    st = rs.new_game(rs.validate_options(game["options"]), game["seed"])
    h = blake2b(digest_size=8)
    out: list[str] = []
    texts = list(game["actions"])
    for i in range(len(texts) + 1):
        for seat in rs.to_move(st):
            legal = rs.legal_actions(st, seat)
            fams = rs.families(st, seat)
            h.update(f"{i}:{seat}:".encode() + "|".join(map(str, legal)).encode()
                     + b"/" + "|".join(fams).encode() + b"\n")
        if i % EVERY == 0 or i == len(texts):
            out.append(h.copy().hexdigest())
        if i < len(texts):
            rs.apply(st, rs.parse_action(texts[i]))
    return out


def main() -> None:
    """Write ``tests/data/legal_digests.json`` (one list of checkpoints per golden game)."""
    rs = registry.get("wizwar")
    games = json.loads(GOLDEN.read_text())
    rec = [{"seed": g["seed"], "chooser": g["chooser"], "every": EVERY,
            "checkpoints": game_digests(rs, g)} for g in games]
    OUT.write_text(json.dumps(rec, indent=0) + "\n")
    print(f"wrote {OUT}: {len(rec)} games")


if __name__ == "__main__":
    main()
