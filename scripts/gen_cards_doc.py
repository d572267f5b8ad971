"""Write docs/cards.md from the card data in core/wizwar/cards.py (never edit it by hand).

Usage: python scripts/gen_cards_doc.py [--check]   (--check: exit 1 if the file is stale)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.wizwar.cards import CARDS, IMPLEMENTED, source_words  # noqa: E402


def render() -> str:
    """The whole document."""
    kinds: dict[str, list] = {}
    for c in CARDS:
        kinds.setdefault(c.kind, []).append(c)
    total = sum(c.count for c in CARDS)
    done = [c for c in CARDS if c.slug in IMPLEMENTED]
    lines = [
        "# The cards (generated from `core/wizwar/cards.py` — do not edit)",
        "",
        f"{len(CARDS)} names, {total} cards. Implemented: {len(done)} names "
        f"({sum(c.count for c in done)} cards); games are dealt from those until all are.",
        "Rules of each card: `../shared/cards.md` (the reference this project follows; rows",
        "marked *decided* there are our reading where the printed text is unknown, shown below",
        "as \"this game's reading\").",
        "Regenerate with `python scripts/gen_cards_doc.py`.",
        "",
    ]
    for kind, cards in kinds.items():
        lines += [f"## {kind} ({sum(c.count for c in cards)} cards)", "",
                  "| card | slug | # | target | number | engine | what it does | source |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in cards:
            state = "yes" if c.slug in IMPLEMENTED else "**missing**"
            lines.append(f"| {c.name} | `{c.slug}` | {c.count} | {c.target} | {c.number} | "
                         f"{state} | {c.text} | {source_words(c.source)} |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    """Write (or with --check, compare) docs/cards.md."""
    path = ROOT / "docs" / "cards.md"
    text = render()
    if "--check" in sys.argv:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print("docs/cards.md is stale: run python scripts/gen_cards_doc.py")
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
