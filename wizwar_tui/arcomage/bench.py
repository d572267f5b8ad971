"""``wizwar bench arcomage``: ArcoMage's speed figures (docs/performance.md): random games per
second (every action drawn at random among the listed ones, seeded), apprentice games per
second, and the time of one ``legal_actions`` (or one bot choice) and one ``apply`` in those
games (:mod:`wizwar_tui.gamebench`)."""

from __future__ import annotations

from wizwar_tui.gamebench import GameBench

BENCH = GameBench("arcomage", "ArcoMage", ("random", "apprentice"))
PARTS = BENCH.parts
run = BENCH.run
