"""One runner for the scenario files of every game (``../shared/notation.md``, scenario files).

A scenario file is TOML; its top-level ``ruleset`` key names the game (default ``wizwar``,
the registry's default), and the rest of the document is that ruleset's to read:
:meth:`core.engine.Ruleset.run_scenario` runs it. ``wizwar scenario PATHS`` prints a
``PASS``/``FAIL`` line per file and ``N passed, N failed``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import registry
from core.engine import UnknownRuleset


@dataclass(frozen=True)
class Result:
    """One file's result: ``ruleset`` ("" when unknown), ``ok``, and why it failed."""

    path: str
    title: str
    ruleset: str
    ok: bool
    detail: str = ""

    def line(self) -> str:
        """``PASS title`` or ``FAIL title (the file): what differed`` (the file named, so a
        failure is found: several files may share a title)."""
        if self.ok:
            return f"PASS {self.title}"
        where = f" ({self.path})" if self.path and self.path != self.title else ""
        return f"FAIL {self.title}{where}: {self.detail}"


def run_doc(doc: dict[str, Any], path: str = "") -> Result:
    """Run one parsed scenario document with the ruleset its ``ruleset`` key names (the key
    itself is not handed on). Never raises: an unknown ruleset or a crash is a failure that
    says so."""
    doc = dict(doc)
    name = doc.pop("ruleset", registry.DEFAULT)
    title = str(doc.get("title") or os.path.basename(path) or "scenario")
    try:
        rs = registry.get(str(name))
    except UnknownRuleset as exc:
        return Result(path, title, "", False, f"cannot load: {exc}")
    try:
        ok, why = rs.run_scenario(doc, path)
    except Exception as exc:  # noqa: BLE001 - a crash in a ruleset's runner is a FAIL
        return Result(path, title, rs.name, False, f"engine error {type(exc).__name__}: {exc}")
    return Result(path, title, rs.name, bool(ok), "" if ok else why)


def run_file(path: str) -> Result:
    """Load and run one scenario file; never raises."""
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return Result(path, os.path.basename(path), "", False, f"cannot load: {exc}")
    return run_doc(doc, path)


def collect(paths: list[str]) -> list[str]:
    """Scenario files under ``paths`` (files as given; folders searched for ``*.toml``),
    sorted within each folder."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in sorted(os.walk(p)):
                out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".toml")]
        else:
            out.append(p)
    return out


def run_paths(paths: list[str], echo: Callable[[str], None] = print) -> tuple[int, int]:
    """Run every scenario under ``paths``, print a line per file and ``N passed, N failed``
    (a path that does not exist is one failure, said so). Returns (passed, failed)."""
    passed = failed = 0
    missing = [p for p in paths if not os.path.exists(p)]
    for p in missing:  # in words, not an OSError's text
        echo(f"FAIL {p}: no such file or folder")
        failed += 1
    files = collect([p for p in paths if p not in missing])
    if not files and not missing:
        echo(f"FAIL no scenario files found in {', '.join(paths)}")
        failed += 1
    for f in files:
        r = run_file(f)
        echo(r.line())
        if r.ok:
            passed += 1
        else:
            failed += 1
    echo(f"{passed} passed, {failed} failed")
    return passed, failed
