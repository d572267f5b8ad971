"""One canonical msgpack codec for actions, states, logs and the wire.

Canonical means: maps with sorted string keys, tuples and lists both as arrays, no floats,
no sets. The same value always packs to the same bytes, which is what the state hash and
the network compare (research/ecosystem.md, msgpack traps).
"""

from __future__ import annotations

from typing import Any

import msgpack


class CodecError(ValueError):
    """Raised when a value cannot be encoded canonically or bytes cannot be decoded."""


_PLAIN = frozenset((str, int, bool, bytes, type(None)))


def _canon(value: Any) -> Any:
    # fast paths on the exact built-in types (the state hash packs thousands of values);
    # anything else, subclasses included, goes the general way below: the same result
    t = type(value)
    if t in _PLAIN:
        return value
    if t is list or t is tuple:
        out = []
        for v in value:
            tv = type(v)
            if tv in _PLAIN:
                out.append(v)
            elif tv is list and not v:
                out.append([])
            else:
                out.append(_canon(v))
        return out
    if t is dict and all(type(k) is str for k in value):
        return {k: (v if type(v) in _PLAIN else _canon(v))
                for k, v in sorted(value.items(), key=_first)}
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, float):
        raise CodecError("floats are not allowed in canonical data")
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    if isinstance(value, dict):
        m: dict[str, Any] = {}
        for k in sorted(value, key=_key_order):
            if not isinstance(k, str):
                raise CodecError(f"map keys must be str, got {type(k).__name__}")
            m[k] = _canon(value[k])
        return m
    raise CodecError(f"cannot encode {type(value).__name__}")


def _first(kv: tuple[str, Any]) -> str:
    return kv[0]


def _key_order(k: Any) -> str:
    if not isinstance(k, str):
        raise CodecError(f"map keys must be str, got {type(k).__name__}")
    return k


def canonical(value: Any) -> Any:
    """The canonical form of ``value`` that :func:`pack` writes: maps rebuilt with their keys
    in sorted order, tuples as lists. Raises ``CodecError`` like :func:`pack`."""
    return _canon(value)


def pack(value: Any) -> bytes:
    """Encode ``value`` (None, bool, int, str, bytes, list/tuple, dict with str keys) canonically.

    Raises ``CodecError`` for floats, sets, non-str keys or other types.
    """
    return msgpack.packb(_canon(value), use_bin_type=True)


def unpack(data: bytes, max_len: int = 1 << 24) -> Any:
    """Decode one canonical msgpack value. Raises ``CodecError`` on malformed or oversized data."""
    if len(data) > max_len:
        raise CodecError(f"data of {len(data)} bytes exceeds the {max_len}-byte limit")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise CodecError(f"malformed msgpack: {exc}") from exc
