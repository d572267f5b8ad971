"""Count card slugs named inside the shared functions of the Wiz-War rules.

A *shared* function is one that is not a card's own behaviour: every top-level function (or
method) of the rules modules (``core/wizwar/rules.py`` or ``core/wizwar/rules/*.py``, plus
any extra paths given) except those a card brings with it, i.e. functions defined in a
card-family module (``core/wizwar/rules/cards/``). A *card name* is a string literal that
is the slug of a card of the deck (``core.wizwar.cards.BY_SLUG``), or of a condition or
creation named after its card (``slow-death-tick``).

Usage: ``python scripts/card_names_in_shared.py [--list] [PATH...]``; prints the number of
card names, of distinct slugs and of shared functions naming at least one, and with
``--list`` each function with the slugs it names. Source: the measure asked for in the
"one engine, three games" issue (deliverable 7).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.wizwar import cards as C  # noqa: E402

CARD_DIR = "core/wizwar/rules/cards"


def rule_files(extra: list[str]) -> list[Path]:
    """The rules modules to scan (the old single module or the package), plus ``extra``."""
    files = [ROOT / "core/wizwar/rules.py"] if (ROOT / "core/wizwar/rules.py").exists() else []
    files += sorted((ROOT / "core/wizwar/rules").rglob("*.py"))
    return files + [Path(p).resolve() for p in extra]


def slugs() -> set[str]:
    """Every card slug, with the derived names a card's own state uses."""
    out = {c.slug for c in C.CARDS}
    return out | {"slow-death-tick"}


def count(files: list[Path]) -> dict[str, list[str]]:
    """``{"module:function": [slugs named, with repeats]}`` for the shared functions."""
    names = slugs()
    found: dict[str, list[str]] = {}
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(CARD_DIR):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            hits = [s.value for s in ast.walk(node)
                    if isinstance(s, ast.Constant) and s.value in names]
            if hits:
                found[f"{rel}:{node.name}"] = hits
    # a nested function is counted inside its outer one too: keep the outermost only
    return found


def main(argv: list[str]) -> int:
    """Print the figures; ``--list`` lists each function. Returns the exit status."""
    show = "--list" in argv
    found = count(rule_files([a for a in argv if a != "--list"]))
    total = sum(len(v) for v in found.values())
    distinct = len({s for v in found.values() for s in v})
    print(f"{total} card names ({distinct} distinct slugs) in {len(found)} shared functions")
    if show:
        for fn, hits in sorted(found.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(hits):3} {fn}: {', '.join(sorted(set(hits)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
