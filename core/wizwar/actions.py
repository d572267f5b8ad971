"""Wiz-War actions: small immutable values with one text form and one msgpack form.

The text form is ``notation.md``'s: ``<actor> <verb> [slug] [@t1,t2] [+N] [key=value ...]``.
``parse(str(a)) == a`` always; the canonical text is what ``str()`` prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.wizwar.board import edge_name, parse_edge, parse_square, square_name

VERBS = (
    "move", "boost", "punch", "play", "pass", "pickup", "drop", "discard", "end", "choose",
)
_PLAYER = re.compile(r"^P([1-6])$")
_TREASURE = re.compile(r"^P([1-6])\.t([12])$")
_ANY_TREASURE = re.compile(r"^[Pp]([1-6])\.[Tt]([12])$")
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class NotationError(ValueError):
    """Raised when text is not a well-formed action."""


def canonical_target(text: str) -> str:
    """Canonical spelling of one target: ``P2``, ``P2.t1``, a square ``c3``, a side ``c3:e``.

    A side is written with ``:e``/``:s`` where a square lies on both sides (``b2:n`` -> ``b1:s``).
    Object slugs (``dagger``) are allowed for drop/pickup. Any case is read (``C4``, ``C3:E``,
    ``p2.T1``, ``DAGGER``) and the canonical spelling given; ``P2`` is a player, while ``p2``
    stays the square of column ``p`` (the case is what tells them apart). Raises
    ``NotationError``.
    """
    t = text.strip()
    if _PLAYER.match(t) or _TREASURE.match(t):
        return t
    m = _ANY_TREASURE.match(t)
    if m:
        return f"P{m.group(1)}.t{m.group(2)}"
    t = t.lower()
    try:
        if ":" in t:
            return edge_name(parse_edge(t))
        if re.match(r"^[a-z]+[0-9]+$", t):
            return square_name(parse_square(t))
    except ValueError as exc:
        raise NotationError(str(exc)) from exc
    if _SLUG.match(t) and not t.isdigit():
        return t
    raise NotationError(f"not a target: {text!r}")


@dataclass(frozen=True)
class Action:
    """One action of one player.

    Attributes:
        actor: ``"P1"``..``"P6"``.
        verb: one of :data:`VERBS`.
        card: the card slug for ``play``/``discard``/``choose``; ``""`` otherwise.
        targets: canonical target strings (``@`` list; for ``move`` the path squares; for
            ``punch``/``pickup``/``drop`` the one thing acted on).
        number: the number card value (``+N``; for ``boost`` the card played; for ``end`` the
            cards to draw; for ``choose`` without a card, the card instance taken: the form
            a networked game's other peers are sent, ``P3 choose +31``), or ``None``.
        args: card-specific ``key=value`` pairs sorted by key (values canonical text).
    """

    actor: str
    verb: str
    card: str = ""
    targets: tuple[str, ...] = ()
    number: int | None = None
    args: tuple[tuple[str, str], ...] = ()

    def arg(self, key: str, default: str = "") -> str:
        """The value of argument ``key``, or ``default``."""
        for k, v in self.args:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        # the text is kept with the (immutable) action once made: bots index and sort the
        # candidates by it (issue 14, eighth round); not a field, so not in ==, hash or wire
        text = self.__dict__.get("_text")
        if text is None:
            text = self._text_of()
            object.__setattr__(self, "_text", text)
        return text

    def _text_of(self) -> str:
        """The canonical notation (:meth:`__str__`, made once)."""
        parts = [self.actor, self.verb]
        if self.verb == "move":
            parts.append("-".join(self.targets))
            return " ".join(parts)
        if self.verb == "boost":
            parts.append(str(self.number))
            return " ".join(parts)
        if self.verb == "end":
            if self.number is not None and self.number != 2:
                parts += ["draw", str(self.number)]
            return " ".join(parts)
        if self.verb in ("punch", "pickup", "drop"):
            parts.append(",".join(self.targets))
            return " ".join(parts)
        if self.card:
            parts.append(self.card)
        if self.targets:
            parts.append("@" + ",".join(self.targets))
        if self.number is not None:
            parts.append(f"+{self.number}")
        for k, v in self.args:
            parts.append(f"{k}={v}")
        return " ".join(parts)

    def to_wire(self) -> list[Any]:
        """The canonical msgpack form: ``[actor, verb, card, targets, number, args]``."""
        return [self.actor, self.verb, self.card, list(self.targets), self.number,
                [[k, v] for k, v in self.args]]

    @classmethod
    def from_wire(cls, data: object) -> Action:
        """Rebuild an action from :meth:`to_wire` output. Raises ``NotationError`` if malformed."""
        actor: Any
        verb: Any
        card: Any
        targets: Any
        number: Any
        args: Any
        try:
            actor, verb, card, targets, number, args = data  # type: ignore[misc]
            ok = (isinstance(actor, str) and isinstance(verb, str) and isinstance(card, str)
                  and isinstance(targets, list) and all(isinstance(t, str) for t in targets)
                  and (number is None or (isinstance(number, int) and not isinstance(number, bool)))
                  and isinstance(args, list)
                  and all(isinstance(p, list) and len(p) == 2
                          and all(isinstance(x, str) for x in p) for p in args))
        except (TypeError, ValueError) as exc:
            raise NotationError(f"malformed action: {data!r}") from exc
        if not ok:
            raise NotationError(f"malformed action: {data!r}")
        pairs = tuple((k, v) for k, v in args)
        key = (actor, verb, card, tuple(targets), number, pairs)
        got = _FROM_WIRE.get(key)
        if got is not None:
            return got
        # Re-parse the text so a wire action is held to exactly the notation's rules.
        got = parse(str(cls(actor, verb, card, key[3], number, pairs)))
        if len(_FROM_WIRE) >= _FROM_WIRE_LIMIT:
            _FROM_WIRE.clear()
        _FROM_WIRE[key] = got
        return got


#: Actions rebuilt by :meth:`Action.from_wire`, by their checked wire fields: the re-parse
#: (about 30 us) is done once per distinct action (an ``Action`` is immutable and ``parse`` a
#: pure function, so the kept value is the very one a new parse would give; a LAN peer decodes
#: every commit, the host every proposal: docs/performance.md, eighth round). Bounded.
_FROM_WIRE: dict[tuple[Any, ...], Action] = {}
_FROM_WIRE_LIMIT = 4096


def _split_list(text: str) -> tuple[str, ...]:
    items = [t for t in text.split(",")]
    if any(not t for t in items):
        raise NotationError(f"empty item in list {text!r}")
    return tuple(items)


def parse(text: str) -> Action:
    """Parse one line of notation into an :class:`Action`. Raises ``NotationError``.

    Accepts any order of the parts after the slug, any spelling of a side (notation.md) and
    any case (``p1 MOVE C4``, ``P1 Play Fireball @p2.T1``): the action is the canonical one,
    whose ``str()`` is the lower-case notation with ``P1`` seats.
    """
    words = text.split("#", 1)[0].split()
    if len(words) < 2:
        raise NotationError(f"an action needs an actor and a verb: {text!r}")
    actor, verb = words[0].upper(), words[1].lower()
    rest = words[2:]  # targets keep their case for canonical_target (P2 the seat, p2 a square)
    if not _PLAYER.match(actor):
        raise NotationError(f"unknown actor {actor!r} (P1..P6)")
    if verb not in VERBS:
        raise NotationError(f"unknown verb {verb!r}")
    if verb == "pass":
        if rest:
            raise NotationError("pass takes no arguments")
        return Action(actor, verb)
    if verb == "move":
        if len(rest) != 1:
            raise NotationError("move takes one path, e.g. c4-d4-d5")
        path = tuple(canonical_target(s) for s in rest[0].split("-"))
        if any(":" in p or p.startswith("P") for p in path):
            raise NotationError("a move path lists squares")
        return Action(actor, verb, targets=path)
    if verb == "boost":
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError("boost takes one number card, e.g. boost 4")
        return Action(actor, verb, number=int(rest[0]))
    if verb == "end":
        if not rest:
            return Action(actor, verb)
        if len(rest) == 2 and rest[0].lower() == "draw" and rest[1] in ("0", "1", "2"):
            n = int(rest[1])
            return Action(actor, verb, number=None if n == 2 else n)
        raise NotationError("end takes nothing or 'draw 0|1|2'")
    if verb in ("punch", "pickup", "drop"):
        if len(rest) != 1:
            raise NotationError(f"{verb} takes one target")
        return Action(actor, verb, targets=(canonical_target(rest[0]),))
    if verb == "choose" and len(rest) == 1 and rest[0].startswith("+") and \
            rest[0][1:].isdigit() and len(rest[0]) <= 5:
        # the public form of a Telepath choice: the card instance taken, not its face
        return Action(actor, verb, number=int(rest[0][1:]))
    if verb in ("discard", "choose"):
        if len(rest) != 1 or not _SLUG.match(rest[0].lower()):
            raise NotationError(f"{verb} takes one card slug")
        return Action(actor, verb, card=rest[0].lower())
    # play
    if not rest or not _SLUG.match(rest[0].lower()) or rest[0].isdigit():
        raise NotationError("play needs a card slug")
    card = rest[0].lower()
    targets: tuple[str, ...] = ()
    number: int | None = None
    args: dict[str, str] = {}
    for w in rest[1:]:
        if w.startswith("@"):
            if targets:
                raise NotationError("targets given twice")
            targets = tuple(canonical_target(t) for t in _split_list(w[1:]))
        elif w.startswith("+"):
            if number is not None or not w[1:].isdigit():
                raise NotationError(f"bad number card {w!r}")
            number = int(w[1:])
        elif "=" in w:
            k, v = w.split("=", 1)
            k = k.lower()
            if k not in ("path", "to", "drop"):
                v = v.lower()
            if not re.match(r"^[a-z]+$", k) or not v or k in args:
                raise NotationError(f"bad argument {w!r}")
            if k in ("path",):
                v = "-".join(canonical_target(s) for s in v.split("-"))
            elif k == "to":
                v = ",".join(canonical_target(s) for s in _split_list(v))
            elif k == "drop":  # a set of names: canonical text lists them sorted (notation.md)
                v = ",".join(sorted(canonical_target(s) for s in _split_list(v)))
            args[k] = v
        else:
            raise NotationError(f"unexpected {w!r} in {text!r}")
    return Action(actor, "play", card, targets, number, tuple(sorted(args.items())))
