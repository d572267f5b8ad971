"""ArcoMage's actions and their notation (``../shared/arcomage/notation.md`` §1-§2).

An :class:`Action` is ``actor verb [slug] [targets] [key=value...]``; ``str()`` is the
canonical text, :func:`parse` reads any accepted spelling, ``to_wire()`` is the msgpack list
``[actor, verb, slug or "", [targets...], [[key, value]...]]``. A malformed text raises
:class:`NotationError` (a ``ValueError``) saying why; whether the rules accept a well-formed
action is the rules' question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.arcomage.data import BUILDINGS, POSTS, SPELLS
from core.arcomage.field import ORDER, is_hex

PLAYERS = ("P1", "P2")
VERBS = ("cast", "move", "end", "attack", "block", "pass", "choose", "reveal", "timeout",
         "concede")
_SLUG = re.compile(r"^[a-z][a-z0-9-]*$")
_HEX32 = re.compile(r"^[0-9a-f]{32}$")


class NotationError(ValueError):
    """A text or wire form that is not an ArcoMage action; the message says why."""


@dataclass(frozen=True)
class Action:
    """One action. ``targets``: the cast's targets (``P2``, ``b2``, ``P2:fireball``,
    ``b2/levitate``, ``P2.altar``), a move's hexes, or the ``a>b`` pairs of an attack or a
    block; ``args``: sorted ``(key, value)`` pairs (``to``, ``moves``, ``at``, ``commit``,
    ``n``, ``salt``)."""

    actor: str
    verb: str
    slug: str = ""
    targets: tuple[str, ...] = ()
    args: tuple[tuple[str, str], ...] = ()

    def arg(self, key: str) -> str:
        """The value of ``key`` (``""`` when absent)."""
        for k, v in self.args:
            if k == key:
                return v
        return ""

    def __str__(self) -> str:
        parts = [self.actor, self.verb]
        if self.verb == "cast":
            parts.append(self.slug)
            if self.targets:
                parts.append("@" + ",".join(self.targets))
            parts += [f"{k}={v}" for k, v in self.args]
        elif self.verb == "move":
            parts.append("-".join(self.targets))
        elif self.verb in ("attack", "block"):
            if self.targets:
                parts.append(",".join(self.targets))
        elif self.verb == "choose":
            parts += list(self.targets)
        elif self.verb == "reveal" and self.slug:
            parts += [self.slug, f"n={self.arg('n')}"]
            if self.arg("salt"):
                parts.append(f"salt={self.arg('salt')}")
        return " ".join(parts)

    def to_wire(self) -> list[Any]:
        """``[actor, verb, slug, [targets], [[key, value]...]]``."""
        return [self.actor, self.verb, self.slug, list(self.targets),
                [[k, v] for k, v in self.args]]

    @classmethod
    def from_wire(cls, data: Any) -> Action:
        """From :meth:`to_wire`. Raises :class:`NotationError`."""
        if not (isinstance(data, list) and len(data) == 5 and all(
                isinstance(x, str) for x in data[:3]) and isinstance(data[3], list)
                and isinstance(data[4], list)):
            raise NotationError("an action's wire form is [actor, verb, slug, targets, args]")
        if not all(isinstance(t, str) for t in data[3]) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                for p in data[4]):
            raise NotationError("an action's targets and arguments are text")
        a = cls(data[0], data[1], data[2], tuple(data[3]), tuple((k, v) for k, v in data[4]))
        b = parse(str(a))
        if b != a:
            raise NotationError(f"the wire form of {a} is not canonical")
        return a


def _pair_key(p: str) -> tuple[int, str]:
    return ORDER.get(p.split(">")[0], 99), p


def is_piece(t: str) -> bool:
    """A player's name (his wizard) or a hex."""
    return t in PLAYERS or is_hex(t)


def target_shape(word: str, t: str) -> bool:
    """Whether text ``t`` has the shape target word ``word`` needs (R55); the rules check the
    rest (what stands there, whose it is)."""
    if word in ("piece",):
        return is_piece(t)
    if word in ("creature", "enemy-creature", "own-creature", "hex"):
        return is_hex(t)
    if word == "enemy-wizard":
        return t in PLAYERS
    if word in ("rival-spell", "own-locked-spell", "stack-spell"):
        p, _, s = t.partition(":")
        return p in PLAYERS and (s in SPELLS or (word == "rival-spell" and s == "?"))
    if word == "effect":
        if ":" in t:
            p, _, s = t.partition(":")
            return p in PLAYERS and s in SPELLS
        p, _, s = t.partition("/")
        return is_piece(p) and bool(_SLUG.match(s))
    if word in ("rival-worker-building", "own-destroyed-building"):
        p, _, b = t.partition(".")
        return p in PLAYERS and b in BUILDINGS
    return False


def parse(text: str) -> Action:
    """An action from its notation (notation.md §2). Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError("an action is a line of text")
    words = text.split()
    if len(words) < 2:
        raise NotationError(f"{text!r}: an action is '<player> <verb> ...'")
    actor, verb, rest = words[0], words[1], words[2:]
    if actor not in PLAYERS:
        raise NotationError(f"{actor!r} is not a player (P1 or P2)")
    if verb not in VERBS:
        raise NotationError(f"{verb!r} is not a verb ({', '.join(VERBS)})")
    if verb in ("end", "pass", "timeout", "concede"):
        if rest:
            raise NotationError(f"'{verb}' takes nothing after it")
        return Action(actor, verb)
    if verb == "cast":
        return _parse_cast(actor, rest)
    if verb == "move":
        if len(rest) != 1:
            raise NotationError("a move is 'move <hex>-<hex>[-<hex>...]'")
        hexes = tuple(rest[0].split("-"))
        if len(hexes) < 2 or not all(is_hex(h) for h in hexes):
            raise NotationError(f"{rest[0]!r} is not a walk of hexes joined by '-'")
        return Action(actor, "move", "", hexes)
    if verb in ("attack", "block"):
        if len(rest) > 1:
            raise NotationError(f"'{verb}' lists its pairs in one comma-separated word")
        pairs = rest[0].split(",") if rest else []
        for p in pairs:
            a, sep, b = p.partition(">")
            if not sep or not is_hex(a) or not (is_hex(b) or (verb == "attack" and b in PLAYERS)):
                raise NotationError(f"{p!r} is not a pair '<hex>><{'target' if verb == 'attack' else 'hex'}>'")
        return Action(actor, verb, "", tuple(sorted(pairs, key=_pair_key)))
    if verb == "choose":
        if len(rest) != 1 or not is_hex(rest[0]):
            raise NotationError("a choice is 'choose <hex>'")
        return Action(actor, "choose", "", (rest[0],))
    # reveal
    if not rest:
        return Action(actor, "reveal")
    slug, kv = rest[0], rest[1:]
    if slug not in SPELLS:
        raise NotationError(f"{slug!r} is not a spell")
    args = dict(_kv(w) for w in kv)
    if sorted(args) not in (["n", "salt"], ["n"]) or len(kv) != len(args):
        raise NotationError("a trap opening is 'reveal <spell> n=<number> [salt=<32 hex "
                            "digits>]'")
    if not re.match(r"^[1-9][0-9]{0,8}$", args["n"]) or not _HEX32.match(
            args.get("salt", "0" * 32)):
        raise NotationError("n= is a trap number, salt= 32 lower-case hex digits")
    return Action(actor, "reveal", slug, (), tuple(sorted(args.items())))


def _kv(w: str) -> tuple[str, str]:
    k, sep, v = w.partition("=")
    if not sep or not k or not v:
        raise NotationError(f"{w!r} is not 'key=value'")
    return k, v


def _parse_cast(actor: str, rest: list[str]) -> Action:
    if not rest:
        raise NotationError("'cast' needs a spell")
    slug = rest[0]
    spell = SPELLS.get(slug)
    if spell is None:
        raise NotationError(f"{slug!r} is not a spell of the pool")
    targets: list[str] = []
    args: dict[str, str] = {}
    for w in rest[1:]:
        if w.startswith("@"):
            if targets:
                raise NotationError("the targets are one '@' word, comma-separated")
            targets = w[1:].split(",")
        else:
            k, v = _kv(w)
            if k in args:
                raise NotationError(f"{k}= is given twice")
            args[k] = v
    if len(targets) != len(spell.targets):
        raise NotationError(f"{slug} takes {len(spell.targets) or 'no'} target"
                            f"{'' if len(spell.targets) == 1 else 's'}")
    for word, t in zip(spell.targets, targets, strict=True):
        if not target_shape(word, t):
            raise NotationError(f"{t!r} is not a {word} target for {slug}")
    keys = set(spell.keys)
    hidden = slug == "magic-trap" and targets and targets[0].endswith(":?")
    if hidden:
        keys.add("commit")
    for k in sorted(args):
        if k not in keys:
            raise NotationError(f"{slug} takes no {k}=")
    for k in sorted(keys):
        if k not in args and k != "commit":  # a networked peer's redacted cast has none
            raise NotationError(f"{slug} needs {k}=")
    if "to" in args and not is_hex(args["to"]):
        raise NotationError(f"to={args['to']} is not a hex")
    if "at" in args and args["at"] not in POSTS:
        raise NotationError(f"at={args['at']} is not a worker post ({', '.join(POSTS)})")
    if "commit" in args and not _HEX32.match(args["commit"]):
        raise NotationError("commit= is 32 lower-case hex digits")
    if "moves" in args:
        pairs = args["moves"].split(",")
        if not 1 <= len(pairs) <= 2:
            raise NotationError("moves= is one or two 'from>to' worker moves")
        for p in pairs:
            a, sep, b = p.partition(">")
            if not sep or a not in POSTS or b not in POSTS or a == b:
                raise NotationError(f"{p!r} is not a move between two different posts")
        args["moves"] = ",".join(sorted(pairs))
    return Action(actor, "cast", slug, tuple(targets), tuple(sorted(args.items())))
