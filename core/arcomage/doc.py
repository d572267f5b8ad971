"""Write ``docs/arcomage-spells.md`` from the content tables of :mod:`core.arcomage.data`
(never edit that file by hand).

Usage: ``python -m core.arcomage.doc [--check]`` (``--check``: exit 1 if the file is stale).
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.arcomage.data import BOOKS, CONDITIONS, CREATURES, FORMS, RITES, SPELLS, SUMMONS

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII"}
PATH = Path(__file__).resolve().parents[2] / "docs" / "arcomage-spells.md"


def render() -> str:
    """The whole document."""
    lines = [
        "# ArcoMage's spells (generated from `core/arcomage/data.py` — do not edit)",
        "",
        f"{len(SPELLS)} spells; the effect of each is one function in `core/arcomage/effects.py`.",
        "The rules text of each is `../shared/arcomage/spells.md` §3.",
        "Regenerate with `python -m core.arcomage.doc`.",
        "",
    ]
    schools: dict[str, list[str]] = {}
    for s in SPELLS.values():
        schools.setdefault(s.school, []).append(s.slug)
    for school, slugs in schools.items():
        lines += [f"## {school} ({len(slugs)})", "",
                  "| slug | name | Circle | cost | kind | targets | arguments | books |",
                  "|---|---|---|---|---|---|---|---|"]
        for slug in sorted(slugs, key=lambda x: (SPELLS[x].circle, x)):
            s = SPELLS[slug]
            cost = f"{s.cost}" + (f" + {s.corpse_cost} corpse" if s.corpse_cost else "")
            books = ("every (rite)" if slug in RITES else
                     ", ".join(b for b, spells in BOOKS.items() if slug in spells) or "—")
            made = f" → `{SUMMONS[slug]}`" if slug in SUMMONS else ""
            lines.append(f"| `{slug}` | {s.name}{made} | {ROMAN[s.circle]} | {cost} | {s.kind} | "
                         f"{', '.join(s.targets) or 'none'} | {', '.join(s.keys) or '—'} | "
                         f"{books} |")
        lines.append("")
    lines += ["## Creatures", "", "| slug | types | P/T/S | keywords |", "|---|---|---|---|"]
    for c in CREATURES.values():
        lines.append(f"| `{c.slug}` | {', '.join(c.types)} | {c.power}/{c.toughness}/{c.speed} "
                     f"| {', '.join(c.keywords) or '—'} |")
    lines += ["", "## Forms", "", "| slug | Speed | Power | casting | lasts | immune to |",
              "|---|---|---|---|---|---|"]
    for f in FORMS.values():
        lasts = "until dispelled" if f.turns < 0 else f"{f.turns} turns"
        lines.append(f"| `{f.slug}` | {f.speed} | {f.power} | {'yes' if f.casting else 'no'} | "
                     f"{lasts} | {', '.join(f.immune) or '—'} |")
    lines += ["", "## Conditions", "", "| slug | on | lasts |", "|---|---|---|"]
    words = {"upkeeps": "{n} upkeeps", "turns": "{n} turns", "next": "until your next turn",
             "ctrl": "until the end of its controller's next turn", "this": "this turn",
             "dispel": "until dispelled"}
    for k in CONDITIONS.values():
        on = {"W": "wizard", "C": "creature", "WC": "wizard, creature"}[k.on]
        lines.append(f"| `{k.slug}` | {on} | {words[k.lasts].format(n=k.n)} |")
    lines += ["", "## Starting books", ""]
    for b, spells in BOOKS.items():
        lines.append(f"- `{b}`: {', '.join(spells)}; and the rites {', '.join(RITES)}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the file, or with ``--check`` report whether it is current (exit 1: stale)."""
    text = render()
    if "--check" in argv:
        if not PATH.exists() or PATH.read_text() != text:
            print(f"{PATH} is stale: run python -m core.arcomage.doc")
            return 1
        return 0
    PATH.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
