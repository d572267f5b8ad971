"""Per-block commitments with epochs (R113), reveals that open them (R114) and the audit
queue of checks on hidden values (R115), for a networked game (Part M). A local game holds
every block and never pauses for a commitment, so nothing here changes it.

Source: ../shared/wizard-kings/rules.md R113 (commitments: BLAKE2b-256 of the canonical
msgpack ``["wk-block", game_id, owner, label, epoch, type, strength, salt]``), R114 (a reveal
opens the latest commitment), R115 (the audit queue), R118 (commitments are public state).

State keys (networked game only): ``commits`` (public: block -> [epoch, digest hex]),
``opened`` (public: block -> [epoch, type, strength, salt] of the opening seen), ``audit``
(this peer's queue of checks waiting on hidden types: never hashed, it differs by peer),
``crossed`` (entries counted on a hexside, by block, for the queued hexside limits).
"""

from __future__ import annotations

import re
from hashlib import blake2b
from typing import Any

from core.codec import pack
from core.engine import Event, IllegalAction
from core.wizardkings import game as G
from core.wizardkings.actions import Action

Dict = dict[str, Any]
HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX32 = re.compile(r"^[0-9a-f]{32}$")


def game_id(g: Dict) -> str:
    """The game's id in a commitment (R113): its seed, the same on every peer."""
    return str(g["seed"])


def digest(g: Dict, owner: str, label: int, epoch: int, t: str, k: int, salt: str) -> str:
    """R113's commitment to block ``owner.label`` at ``epoch`` holding type ``t`` at
    strength ``k`` with the 16-byte ``salt`` (hex): BLAKE2b-256 of the canonical msgpack
    encoding of ``["wk-block", game_id, owner, label, epoch, type, strength, salt]``."""
    data = pack(["wk-block", game_id(g), owner, int(label), int(epoch), t, int(k),
                 bytes.fromhex(salt)])
    return blake2b(data, digest_size=32).hexdigest()


def salt(g: Dict, p: str, label: int, epoch: int) -> str:
    """The 16-byte salt (hex) of ``p``'s block ``label`` at ``epoch`` (R113): from ``p``'s
    own private randomness when this process holds it (a networked game:
    ``Ruleset.keep_private``), else from a private stream of the game seed with its own tag
    (never the dice stream, R117). Raises ``ValueError`` in a networked state without it."""
    key = (g.get("private") or {}).get(p)
    if key:
        src = pack(["wk-salt", bytes.fromhex(key), p, int(label), int(epoch)])
    elif G.net(g):
        raise ValueError(f"this process does not hold {p}'s private randomness")
    else:
        src = pack(["wk-salt-local", game_id(g), p, int(label), int(epoch)])
    return blake2b(src, digest_size=16).hexdigest()


def epoch_next(g: Dict, b: str) -> int:
    """The epoch of block ``b``'s next commitment: 0 for its first, else one more."""
    c = (g.get("commits") or {}).get(b)
    return 0 if c is None else int(c[0]) + 1


# ---- the commitment pauses (R113) -------------------------------------------------------
def ask(g: Dict, owners: list[str], then: str, blocks: list[str] | None = None) -> bool:
    """In a networked game, pause for fresh commitments (a ``reveal`` stage ``for:
    commit``): of every on-map block of each of ``owners`` (those with none are skipped),
    or of ``blocks`` only (a movement-phase Heal's targets). ``then``: what follows once all
    are in (``"start"``: the first turn; ``"end_turn"``: the turn's end; ``""``: play goes
    on). Returns False (nothing asked) in a local game or when nobody has a block to
    commit."""
    if not G.net(g):
        return False
    who = [p for p in owners if _due(g, p, blocks)]
    if not who:
        return False
    g["reveal"] = {"owners": who, "for": "commit", "then": then, "blocks": list(blocks or [])}
    return True


def _due(g: Dict, p: str, blocks: list[str] | None = None) -> list[str]:
    """``p``'s blocks a commitment pause awaits (``blocks`` named, else all on the map)."""
    mine = sorted((b for b, x in g["blocks"].items() if x["owner"] == p and x["state"] == "map"),
                  key=G.bkey)
    return [b for b in mine if b in blocks] if blocks else mine


def commit_answer(g: Dict, p: str) -> Action:
    """The commitments ``p``'s process owes now (R113): ``P1 commit 1=<digest>,...`` for
    every block awaited, from the values this state holds, and ``key=<hex>`` (his private
    randomness, from which every salt and the labels come) on his first commitment only:
    that action is sealed by its owner (:func:`sealed_public`), so only the end's audit
    opens the key. Raises ``ValueError`` when none is owed or the state lacks the values."""
    rv = g.get("reveal")
    if not rv or rv.get("for") != "commit" or rv["owners"][:1] != [p]:
        raise ValueError(f"no commitment of {p}'s is awaited")
    items = []
    for b in _due(g, p, rv.get("blocks")):
        x = g["blocks"][b]
        if not x["type"] or not x["strength"]:
            raise ValueError(f"this process does not hold {p}'s block {x['label']}")
        e = epoch_next(g, b)
        d = digest(g, p, x["label"], e, x["type"], x["strength"], salt(g, p, x["label"], e))
        items.append(f"{x['label']}={d}")
    words = [",".join(items)]
    key = (g.get("private") or {}).get(p)
    if key and not _has_committed(g, p):
        words.append(f"key={key}")
    return Action(p, "commit", tuple(words))


def _has_committed(g: Dict, p: str) -> bool:
    return any(b.split(".")[0] == p for b in (g.get("commits") or {}))


def sealed_public(a: Action) -> Action | None:
    """The public form of a commitment carrying its owner's key (the key left out), or
    ``None`` when ``a`` carries none."""
    if a.verb == "commit" and any(w.startswith("key=") for w in a.words):
        return Action(a.actor, "commit", tuple(w for w in a.words if not w.startswith("key=")))
    return None


def v_commit(st: G.State, a: Action, events: list[Event]) -> None:
    """``P1 commit 1=<digest>,...`` (R113): the owner's fresh commitments of the blocks
    awaited, each a 64-hex digest, stored with the block's next epoch (public: R118). The
    owner's own peer (and the audit, which opened his key) recomputes each from the block's
    values and refuses a wrong one. Once every owner committed, play goes on (the first
    turn, the turn's end, or the Movement Phase). Raises :class:`IllegalAction`."""
    g = st.d
    p = a.actor
    rv = g.get("reveal")
    if not rv or rv.get("for") != "commit" or rv["owners"][:1] != [p]:
        raise IllegalAction(f"no commitment of {p}'s is awaited")
    got: dict[int, str] = {}
    key = ""
    for w in a.words:
        if w.startswith("key="):
            key = w[4:]
            continue
        for it in w.split(","):
            lab, _, d = it.partition("=")
            got[int(lab)] = d
    due = _due(g, p, rv.get("blocks"))
    if sorted(got) != [g["blocks"][b]["label"] for b in due]:
        raise IllegalAction(f"{p} must commit exactly his blocks "
                            + ",".join(str(g["blocks"][b]["label"]) for b in due) + " (R113)")
    if key:
        if not HEX32.match(key):
            raise IllegalAction("a commitment's key is 16 bytes in hex")
        have = (g.get("private") or {}).get(p)
        if have and have != key:
            raise IllegalAction(f"{p}'s key is not the one this process holds")
        g.setdefault("private", {})[p] = key  # the audit's replay learns it (R115)
    commits = g.setdefault("commits", {})
    for b in due:
        x = g["blocks"][b]
        d = got[x["label"]]
        if not HEX64.match(d):
            raise IllegalAction(f"block {x['label']}: a commitment is 32 bytes in hex")
        e = epoch_next(g, b)
        if x["type"] and x["strength"] and (g.get("private") or {}).get(p):
            if d != digest(g, p, x["label"], e, x["type"], x["strength"],
                           salt(g, p, x["label"], e)):
                raise IllegalAction(f"{p}'s commitment of block {x['label']} (epoch {e}) does "
                                    "not commit its type and strength (R113)")
        commits[b] = [e, d]
    events.append(G.ev("commitments", player=p, blocks=[[b, commits[b][0]] for b in due]))
    rv["owners"].pop(0)
    _go_on(st, events)


def _go_on(st: G.State, events: list[Event]) -> None:
    """A commitment pause with nobody left to commit ends: the first turn, the turn's end,
    or play goes on."""
    g = st.d
    rv = g["reveal"]
    if rv["owners"]:
        return
    g["reveal"] = None
    if rv["then"] == "start":
        G.start_turn(st, events)
    elif rv["then"] == "end_turn":
        G.end_turn(st, events)


def resigned(st: G.State, p: str, events: list[Event]) -> bool:
    """``p`` resigned (R104) during a commitment pause: he owes none now (his blocks left
    the map); the pause goes on without him. Returns whether one was going on."""
    rv = st.d.get("reveal")
    if not rv or rv.get("for") != "commit":
        return False
    if p in rv["owners"]:
        rv["owners"].remove(p)
    _go_on(st, events)
    return True


# ---- reveals that open a commitment (R114) ----------------------------------------------
def reveal_item(g: Dict, b: str) -> str:
    """The one shape of a block's reveal (R114): ``label=type:strength`` and, when the
    block has a commitment (a networked game), ``:epoch:salt`` opening its latest one.
    Every reveal (a battle's start, a caster, a dispeller, an elimination) is made of
    these. Raises ``ValueError`` when this state does not hold the block's values."""
    x = g["blocks"][b]
    if not x["type"] or not x["strength"]:
        raise ValueError(f"this process does not hold {x['owner']}'s block {x['label']}")
    item = f"{x['label']}={x['type']}:{x['strength']}"
    c = (g.get("commits") or {}).get(b)
    if c is not None:
        e = int(c[0])
        item += f":{e}:{salt(g, x['owner'], x['label'], e)}"
    return item


def parse_reveal(text: str) -> dict[int, tuple[str, int, int, str]]:
    """A reveal's items: label -> (type, strength, epoch, salt); epoch -1 and salt ``""``
    when an item opens no commitment."""
    out: dict[int, tuple[str, int, int, str]] = {}
    for it in text.split(","):
        lab, _, rest = it.partition("=")
        parts = rest.split(":")
        if len(parts) == 4:
            out[int(lab)] = (parts[0], int(parts[1]), int(parts[2]), parts[3])
        else:
            out[int(lab)] = (parts[0], int(parts[1]), -1, "")
    return out


def check_opening(g: Dict, b: str, t: str, k: int, epoch: int, s: str) -> None:
    """R114: a reveal of block ``b`` as ``t:k`` opens its latest commitment. If it was
    already opened in this epoch (a caster that later fights), the same opening is given
    again (its strength then the public one, checked by the caller); else the commitment
    must be the digest of these values, this epoch and salt (no public change touches a
    block that is hidden). Raises :class:`IllegalAction` naming the player."""
    c = (g.get("commits") or {}).get(b)
    if c is None:
        return
    x = g["blocks"][b]
    who = f"{x['owner']}'s reveal of block {x['label']}"
    if epoch != int(c[0]):
        raise IllegalAction(f"{who} opens epoch {epoch}, not its latest commitment "
                            f"(epoch {c[0]}, R114)")
    o = (g.get("opened") or {}).get(b)
    if o is not None and int(o[0]) == epoch:
        if o[1] != t or o[3] != s:
            raise IllegalAction(f"{who} ({t}:{k}) does not match its opening of epoch "
                                f"{epoch} (R114)")
        return
    if not HEX32.match(s) or digest(g, x["owner"], x["label"], epoch, t, k, s) != c[1]:
        raise IllegalAction(f"{who} ({t}:{k}) does not open its commitment of epoch "
                            f"{epoch}: {x['owner']} lied (R114)")
    g.setdefault("opened", {})[b] = [epoch, t, k, s]


# ---- the audit queue (R115) ---------------------------------------------------------------
def queue_move(g: Dict, p: str, a: Action, ids: list[str], start: str, path: list[str]) -> None:
    """A move this peer checked only as far as hidden types allow (R115): queue its
    type-dependent checks (movement allowance with road and forced-march bonuses,
    passability, must-stop terrain and enemy hexes on the way, castles not moving, a Flyer
    ending at sea, the hexside limit into a battle hex) with the labels they depend on; run
    by :func:`run_queue` once all are opened. Call before the move is carried out."""
    if not G.net(g) or all(g["blocks"][x]["type"] for x in ids):
        return
    b = G.bd(g)
    s = G.side(g, p)
    seq = [start, *path]
    road = all(b.side_between(u, v) is not None and b.side_between(u, v).road  # type: ignore[union-attr]
               for u, v in zip(seq, seq[1:], strict=False))
    stops = [G.status(g, c, s) in ("enemy", "battle") for c in path[:-1]]
    dest, frm = path[-1], (path[-2] if len(path) > 1 else start)
    foes = [y for y in G.on_map(g, dest) if G.side(g, g["blocks"][y]["owner"]) != s]
    prior = list((g.get("crossed") or {}).get(f"{dest}|{frm}|{s}", [])) if foes else []
    g.setdefault("audit", []).append({
        "seq": g["seq"], "player": p, "action": str(a), "kind": "move", "ids": list(ids),
        "start": start, "path": list(path), "road": road, "stops": stops,
        "march": [bool(g["blocks"][x].get("march")) for x in ids], "foes": bool(foes),
        "prior": prior, "labels": sorted({*ids, *prior}, key=G.bkey)})


def queue_types(g: Dict, p: str, a: Action, blocks: list[str], forbid: tuple[str, ...],
                rule: str) -> None:
    """An action this peer accepted although it names blocks whose types it does not know,
    none of which may be of a kind in ``forbid`` (abilities, or ``"wizard"``): queue that
    check (R115: Aquatics and castles not using Sea Transport, R50; a movement-phase
    spell's targets, R83-R84, units.md §4) with their labels; ``rule`` says it."""
    hidden = [x for x in blocks if not g["blocks"][x]["type"]]
    if not G.net(g) or not hidden:
        return
    g.setdefault("audit", []).append({
        "seq": g["seq"], "player": p, "action": str(a), "kind": "types", "ids": hidden,
        "forbid": list(forbid), "rule": rule, "labels": sorted(hidden, key=G.bkey)})


def types_why(g: Dict, q: Dict) -> str:
    """Why the queued type check ``q`` fails for the types now known (``""``: it passes)."""
    for x in q["ids"]:
        ut = G.utype(g, x)
        if ut.ability in q["forbid"] or (ut.wizard and "wizard" in q["forbid"]):
            return f"block {g['blocks'][x]['label']} is a {ut.slug}: {q['rule']}"
    return ""


def move_why(g: Dict, q: Dict) -> str:
    """Why the queued move ``q`` was illegal for the types now known (``""``: it was
    legal). Source: R23-R36, R41-R46 (the checks of ``game.check_move`` that depend on
    types)."""
    b = G.bd(g)
    seq = [q["start"], *q["path"]]
    for x, march in zip(q["ids"], q["march"], strict=True):
        ut = G.utype(g, x)
        lab = g["blocks"][x]["label"]
        if ut.ability == "castle":
            return f"block {lab} is a castle, which never moves (R43)"
        road = q["road"] and ut.ability not in ("flyer", "aquatic")
        ma = ut.move + (1 if road else 0) + (1 if march else 0)
        if len(q["path"]) > ma:
            return f"block {lab} (a {ut.slug}) moves {ma}, not {len(q['path'])} (R41)"
        for i, (u, c) in enumerate(zip(seq, seq[1:], strict=False)):
            why = G.crossing(b, ut, u, c)
            if why:
                return f"block {lab} (a {ut.slug}): {why}"
            if i == len(q["path"]) - 1:
                break
            sd = b.side_between(u, c)
            assert sd is not None
            if ut.ability != "flyer":
                if q["stops"][i]:
                    return f"block {lab} (a {ut.slug}) had to stop in the enemy hex {c} (R41)"
                if G.must_stop(b, ut, sd, c, road):
                    return f"block {lab} (a {ut.slug}) had to stop in {c} (R23)"
        if b.hexes[q["path"][-1]].water and ut.ability == "flyer" and not q["foes"]:
            return f"block {lab}, a Flyer, may end at sea only to attack (R42)"
    if q["foes"]:
        dest, frm = q["path"][-1], seq[-2]
        sd = b.side_between(frm, dest)
        assert sd is not None
        used = sum(1 for y in q["prior"] if G.utype(g, y).ability != "flyer")
        for x in q["ids"]:
            lim = G.side_limit(G.utype(g, x), sd)
            if lim:
                if used >= lim:
                    return (f"the hexside {frm}-{dest} allowed {lim} entry(ies) into the "
                            "battle hex that turn (R46)")
                used += 1
    return ""


def run_queue(g: Dict) -> None:
    """Run every queued check whose blocks are all known now (R115: after a reveal). A
    failed one raises :class:`IllegalAction` naming the player and the action, so the
    reveal that opened them is refused and the game stops there."""
    left = []
    for q in g.get("audit") or []:
        if any(not g["blocks"][x]["type"] for x in q["labels"]):
            left.append(q)
            continue
        why = types_why(g, q) if q["kind"] == "types" else move_why(g, q)
        if why:
            raise IllegalAction(f"{q['player']}'s action {q['seq']} '{q['action']}' was "
                                f"illegal: {why} (R115, caught at this reveal)")
    if g.get("audit"):
        g["audit"] = left
