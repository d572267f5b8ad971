"""Magic Trap's hidden target, all in one place (R94-R98, R125, R128, R129; seed §11.2).

The target is a secret held by the trapper (``Secret("trap-target", holder="owner")``). Each
trap is a record ``{n, victim, trapper, turn, commit, status}`` in ``g["traps"]`` (status
``cast`` while its Magic Trap is on the stack, ``lying``, ``sprung``, ``removed``,
``dropped`` when countered); the dealer's copy also holds ``slug`` and ``salt``. In a local
game and in scenarios the process is the dealer: the salt of trap ``n`` is blake2b-128 of
``arcomage-trap|<seed>|<n>`` and trap answers are given at once and truthfully, so no
``reveal`` step is ever awaited. The LAN path (redacted casts, answers from the trapper's
process, the audit) plugs in here: see ``docs/arcomage.md``.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from core.arcomage.state import Dict, other


def salt_for(g: Dict, n: int) -> str:
    """The local dealer's salt of trap number ``n`` (R125)."""
    return blake2b(f"arcomage-trap|{g['seed']}|{n}".encode("ascii"),
                   digest_size=16).hexdigest()


def commit(salt: str, slug: str) -> str:
    """The commitment blake2b-128 of ``<salt>|<slug>`` (R125)."""
    return blake2b(f"{salt}|{slug}".encode("ascii"), digest_size=16).hexdigest()


def lying(g: Dict, victim: str) -> list[Dict]:
    """The traps lying on ``victim``'s book, in trap-number order."""
    return [t for t in g["traps"] if t["victim"] == victim and t["status"] == "lying"]


def carries_trap(g: Dict, victim: str, slug: str) -> bool:
    """Whether the spell carries a lying trap (the dealer's knowledge)."""
    return any(t.get("slug") == slug for t in lying(g, victim))


def pending(g: Dict, trapper: str, slug: str) -> bool:
    """Whether one of ``trapper``'s Magic Traps on ``slug`` is on the stack (his knowledge)."""
    return any(t["status"] == "cast" and t["trapper"] == trapper and t.get("slug") == slug
               for t in g["traps"])


def room(g: Dict, trapper: str) -> bool:
    """Whether the rival's book still has a spell with no trap of ``trapper`` lying on it or
    cast at it (counted, so even a peer that does not know the slugs can check it)."""
    victim = other(trapper)
    taken = [t for t in g["traps"] if t["trapper"] == trapper and t["victim"] == victim
             and t["status"] in ("cast", "lying")]
    return len(taken) < len(g["players"][victim]["book"])


def new_trap(g: Dict, trapper: str, slug: str, status: str) -> Dict:
    """A new trap record by ``trapper`` on his rival's ``slug``, numbered and committed.
    In a networked game (``g["owners"]``) the record holds no commitment (the net layer's
    commitment to the whole cast stands for it, R125) and the slug only in the trapper's
    own state (``?``: another peer's)."""
    g["trap_n"] += 1
    n = int(g["trap_n"])
    if g.get("owners"):
        t = {"n": n, "victim": other(trapper), "trapper": trapper, "turn": int(g["turn"]),
             "commit": "", "status": status}
        if slug != "?":
            t["slug"] = slug
        g["traps"].append(t)
        return t
    salt = salt_for(g, n)
    t = {"n": n, "victim": other(trapper), "trapper": trapper, "turn": int(g["turn"]),
         "commit": commit(salt, slug), "status": status, "slug": slug, "salt": salt}
    g["traps"].append(t)
    return t


def on_cast(g: Dict, entry: Dict, target: str) -> None:
    """Magic Trap is cast at ``P2:<slug>``: the commitment travels with the cast (R125);
    the stack shows the target as ``P2:?`` and keeps the slug as the trapper's secret."""
    p, _, slug = target.partition(":")
    t = new_trap(g, entry["caster"], slug, "cast")
    entry["targets"] = [f"{p}:?"]
    entry["trap"] = t["n"]
    if slug != "?":
        entry["secret"] = slug


def set_trap(g: Dict, ctx: Any, entry: Dict) -> None:
    """Magic Trap resolves: its trap is set (R94)."""
    for t in g["traps"]:
        if t["n"] == entry.get("trap"):
            if "slug" in t and any(x.get("slug") == t["slug"] for x in lying(g, t["victim"])):
                t["status"] = "dropped"  # the spell carries a trap already (R94)
                ctx.ev("ignored", "the spell already carries a trap")
                return
            t["status"] = "lying"
            t["turn"] = int(g["turn"])
            ctx.ev("trap-set", f"{t['trapper']} sets trap {t['n']} on {t['victim']}'s book",
                   player=t["trapper"], victim=t["victim"], n=t["n"])


def countered(g: Dict, entry: Dict) -> None:
    """A countered Magic Trap sets no trap; its commitment is dropped (R125)."""
    for t in g["traps"]:
        if t["n"] == entry.get("trap"):
            t["status"] = "dropped"


def springs(g: Dict, victim: str, slug: str) -> Dict | None:
    """The trap answer (R128), given by the local dealer: the trap lying on ``slug``, or
    None ("no trap here")."""
    for t in lying(g, victim):
        if t.get("slug") == slug:
            return t
    return None


def untrap(g: Dict, ctx: Any, p: str) -> None:
    """Magic Untrap: every trap on ``p``'s book is removed, unrevealed (R96)."""
    k = 0
    for t in lying(g, p):
        t["status"] = "removed"
        k += 1
    ctx.ev("untrap", f"{p} removes {k} trap(s) from his book", player=p, n=k)


def view_traps(g: Dict, viewer: str) -> list[Dict]:
    """The trap records as ``viewer`` may see them (R98): the trapper sees his slugs; a
    sprung trap is known to both; otherwise the slug is ``?`` and no salt is shown."""
    out = []
    for t in g["traps"]:
        if viewer == t["trapper"] or t["status"] == "sprung":
            out.append({k: v for k, v in t.items() if k != "salt"})
        else:
            out.append({**{k: v for k, v in t.items() if k not in ("slug", "salt")},
                        "slug": "?"})
    return out


def trapped_list(g: Dict, victim: str, viewer: str | None) -> list[str]:
    """The spells carrying a lying trap on ``victim``'s book: their slugs for the dealer's
    full state (``viewer`` None) or the trapper, ``?`` for anyone else."""
    return [t["slug"] if viewer is None or viewer == t["trapper"] else "?"
            for t in lying(g, victim)]


def redeal(g: Dict, viewer: str, seed: int) -> None:
    """For the conformance suite: move every trap ``viewer`` may not see to another spell
    of the victim's book that carries no other trap (deterministic from ``seed``)."""
    for k, t in enumerate(g["traps"]):
        if viewer == t["trapper"] or t["status"] == "sprung" or "slug" not in t:
            continue
        book = g["players"][t["victim"]]["book"]
        taken = {x.get("slug") for x in lying(g, t["victim"]) if x is not t}
        free = [s for s in book if s not in taken]
        if free:
            t["slug"] = free[(seed + 7 * k + 3) % len(free)]
            t["salt"] = "0" * 32
        for e in g["stack"]:
            if e.get("trap") == t["n"]:
                e["secret"] = t["slug"]
    g["seed"] = f"redealt-{seed}"
