"""Wizard Kings' action notation (``../shared/wizard-kings/notation.md`` §2-§3).

An :class:`Action` is ``actor verb words...``; :func:`parse` checks the shape of each verb and
puts the words in canonical order (labels ascending, keys alphabetical), so
``parse(str(a)) == a``. Rule checks are the game's (core/wizardkings/game.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

VERBS = ("deploy", "move", "transport", "cast", "dispel", "pass", "end", "battle", "fire",
         "retreat", "hit", "regroup", "eliminate", "build", "resign", "reveal", "commit")
HEX = re.compile(r"^[1-4][a-h][1-9]$")
PLAYER = re.compile(r"^P[1-4]$")


class NotationError(ValueError):
    """Text that is not a Wizard Kings action (the message says what is wrong)."""


@dataclass(frozen=True)
class Action:
    """One action: ``actor`` (``P1``..``P4``), ``verb`` (one of :data:`VERBS`) and its
    canonical ``words``."""

    actor: str
    verb: str
    words: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.actor, self.verb, *self.words))

    def to_wire(self) -> Any:
        """``[actor, verb, [words...]]``."""
        return [self.actor, self.verb, list(self.words)]

    @classmethod
    def from_wire(cls, data: Any) -> Action:
        """From :meth:`to_wire`. Raises :class:`NotationError` when malformed."""
        if not (isinstance(data, list) and len(data) == 3 and isinstance(data[2], list)):
            raise NotationError(f"not an action: {data!r}")
        return parse(" ".join([str(data[0]), str(data[1]), *map(str, data[2])]))


def labels(text: str) -> list[int]:
    """``"3,5"`` -> [3, 5] (ascending, no repeats). Raises :class:`NotationError`."""
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise NotationError(f"bad labels {text!r}") from None
    if any(x < 1 for x in out) or len(set(out)) != len(out):
        raise NotationError(f"bad labels {text!r}")
    return sorted(out)


def _path(text: str) -> str:
    hexes = text.split("-")
    if not all(HEX.match(h) for h in hexes):
        raise NotationError(f"bad hex path {text!r}")
    return text


def _block(text: str) -> str:
    """``7`` or ``P2.7``."""
    if re.match(r"^(P[1-4]\.)?[1-9][0-9]*$", text):
        return text
    raise NotationError(f"bad block {text!r}")


def parse(text: str) -> Action:
    """The action written ``text``. Raises :class:`NotationError` with the reason."""
    toks = str(text).split()
    if len(toks) < 2 or not PLAYER.match(toks[0]):
        raise NotationError(f"an action is 'P1 verb ...', not {text!r}")
    actor, verb, rest = toks[0], toks[1], toks[2:]
    if verb not in VERBS:
        raise NotationError(f"unknown verb {verb!r}: one of {', '.join(VERBS)}")
    words: list[str]
    if verb in ("end", "resign"):
        if rest:
            raise NotationError(f"{verb} takes nothing")
        words = []
    elif verb == "pass":
        if len(rest) > 1:
            raise NotationError("pass takes at most one label")
        words = [str(labels(rest[0])[0])] if rest else []
    elif verb in ("fire", "hit", "dispel", "eliminate"):
        if len(rest) > 1 or (verb != "fire" and not rest):
            raise NotationError(f"{verb} takes one label")
        words = [_block(rest[0]) if verb == "hit" else str(labels(rest[0])[0])] if rest else []
        if verb == "hit" and rest:
            words = [rest[0]]
    elif verb == "battle":
        if len(rest) != 1 or not HEX.match(rest[0]):
            raise NotationError("battle takes one hex")
        words = rest
    elif verb in ("move", "transport"):
        if len(rest) != 2:
            raise NotationError(f"{verb} takes labels and a path")
        words = [",".join(map(str, labels(rest[0]))), _path(rest[1])]
    elif verb in ("retreat", "regroup"):
        if len(rest) not in (2, 3):
            raise NotationError(f"{verb} takes a label and a hex (or path)")
        words = [str(labels(rest[0])[0]), _path(rest[1])]
        if len(rest) == 3:
            if verb != "retreat" or not rest[2].startswith("eliminate="):
                raise NotationError(f"unknown argument {rest[2]!r}")
            words.append("eliminate=" + ",".join(map(str, labels(rest[2][10:]))))
    elif verb == "cast":
        if len(rest) < 2:
            raise NotationError("cast takes a spell and a wizard")
        spell, wiz, more = rest[0], str(labels(rest[1])[0]), rest[2:]
        tgt = [m for m in more if m.startswith("@")]
        kws = sorted(m for m in more if not m.startswith("@"))
        if len(tgt) > 1 or any("=" not in k for k in kws):
            raise NotationError(f"bad cast arguments {' '.join(more)!r}")
        words = [spell, wiz]
        if tgt:
            words.append("@" + ",".join(sorted((_block(t) for t in tgt[0][1:].split(",")),
                                               key=lambda b: (len(b), b))))
        words += kws
    elif verb in ("deploy", "build"):
        words = _orders(verb, rest)
    elif verb == "reveal":
        words = [_reveal(rest)]
    elif verb == "commit":
        words = _commit(rest)
    else:  # pragma: no cover - VERBS is closed
        raise NotationError(verb)
    return Action(actor, verb, tuple(words))


BUILD_KEYS = ("castle", "disband", "merge", "new", "removed", "step")


def _commit(rest: list[str]) -> list[str]:
    """``label=digest,... [key=hex]`` (a block owner's commitments, R113), by label."""
    keys = [w for w in rest if w.startswith("key=")]
    items = [w for w in rest if not w.startswith("key=")]
    if len(items) != 1 or len(keys) > 1 or \
            not all(re.match(r"^key=[0-9a-f]{32}$", k) for k in keys):
        raise NotationError("commit takes label=digest,... and at most one key=hex")
    its = items[0].split(",")
    if not all(re.match(r"^[1-9][0-9]*=[0-9a-f]{64}$", i) for i in its):
        raise NotationError(f"bad commit items {items[0]!r}")
    labs = [int(i.split("=")[0]) for i in its]
    if len(set(labs)) != len(labs):
        raise NotationError(f"a commit names each block once: {items[0]!r}")
    return [",".join(sorted(its, key=lambda i: int(i.split("=")[0]))), *keys]


def _reveal(rest: list[str]) -> str:
    """``label=type:strength[:epoch:salt],...`` (a block owner's reveal, R114, opening its
    latest commitment on a LAN), by label."""
    if len(rest) != 1:
        raise NotationError("reveal takes label=type:strength,...")
    items = rest[0].split(",")
    if not all(re.match(r"^[1-9][0-9]*=[a-z-]+:[1-9](:[0-9]+:[0-9a-f]{32})?$", i)
               for i in items):
        raise NotationError(f"bad reveal items {rest[0]!r}")
    labs = [int(i.split("=")[0]) for i in items]
    if len(set(labs)) != len(labs):
        raise NotationError(f"a reveal names each block once: {rest[0]!r}")
    return ",".join(sorted(items, key=lambda i: int(i.split("=")[0])))


def is_public_form(a: Action) -> bool:
    """Whether ``a`` is the public part of sealed orders (R116): a deploy of
    ``label@hex`` items, or ``build sealed`` with ``new=hex,...`` and ``removed=labels``
    only (``sealed`` tells it from an empty order in full)."""
    if a.verb == "deploy":
        return bool(a.words) and "=" not in a.words[0] and a.words != ("standard",)
    return a.verb == "build" and a.words[:1] == ("sealed",)


def _orders(verb: str, rest: list[str]) -> list[str]:
    if verb == "deploy":
        if rest == ["standard"]:
            return rest
        if len(rest) != 1:
            raise NotationError("deploy takes 'standard' or label=type@hex:strength,...")
        items = rest[0].split(",")
        pat = re.compile(r"^([1-9][0-9]*)=([a-z-]+)@([1-4][a-h][1-9]):([1-9])$")
        part = re.compile(r"^([1-9][0-9]*)@([1-4][a-h][1-9])$")  # R116's public part
        if not (all(pat.match(i) for i in items) or all(part.match(i) for i in items)):
            raise NotationError(f"bad deploy items {rest[0]!r}")
        return [",".join(sorted(items, key=lambda i: int(re.split("[=@]", i)[0])))]
    public = rest[:1] == ["sealed"]  # the public part of sealed orders (R116)
    if public:
        rest = rest[1:]
    seen: dict[str, str] = {}
    for r in rest:
        k, eq, v = r.partition("=")
        if not eq or k not in BUILD_KEYS or k in seen or not v:
            raise NotationError(f"bad build order {r!r}: keys are {', '.join(BUILD_KEYS)}")
        seen[k] = v
    if ("removed" in seen and not public) or (public and set(seen) - {"new", "removed"}):
        raise NotationError("the public part of build orders (build sealed ...) holds "
                            "new=hexes and removed=labels only")
    out = ["sealed"] if public else []
    for k in BUILD_KEYS:
        if k not in seen:
            continue
        items = seen[k].split(",")
        if k in ("disband", "removed"):
            items = [str(x) for x in labels(seen[k])]
        elif k == "merge":
            if not all(re.match(r"^[1-9][0-9]*>[1-9][0-9]*:[1-9]$", i) for i in items):
                raise NotationError(f"bad merge {seen[k]!r}")
            items.sort(key=lambda i: (int(i.split(">")[0]), int(i.split(">")[1].split(":")[0])))
        elif k == "step":
            if not all(re.match(r"^(P[1-4]\.)?[1-9][0-9]*:[1-9]$", i) for i in items):
                raise NotationError(f"bad step {seen[k]!r}")
            items.sort(key=lambda i: ("." in i, i.split(":")[0].split(".")[0] if "." in i else "",
                                      int(i.split(":")[0].split(".")[-1])))
        elif k == "new":
            whole = all(re.match(r"^[a-z-]+@[1-4][a-h][1-9]:[1-9]$", i) for i in items)
            if not whole and not all(HEX.match(i) for i in items):  # hexes: a public part
                raise NotationError(f"bad new {seen[k]!r}")
            if not whole and not public:
                raise NotationError("new=hexes belongs to the public part of build orders "
                                    "(build sealed ...)")
            if whole and public:
                raise NotationError("the public part of build orders names hexes, not types")
            if not whole and set(seen) - {"new", "removed"}:
                raise NotationError("the public part of build orders holds new=hexes and "
                                    "removed=labels only")
        elif k == "castle":
            if not all(HEX.match(i) for i in items):
                raise NotationError(f"bad castle {seen[k]!r}")
        out.append(f"{k}={','.join(items)}")
    return out
