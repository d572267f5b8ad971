"""``wizwar bench wizard-kings``: Wizard Kings' speed figures (docs/wizard-kings.md): random
games per second (every action drawn at random among the listed ones, seeded; 2 players, the
default options: a cities game is a draw after turn 30), captain-bot games per second (one a
run: a captain game takes some 40 s), and the time of one ``legal_actions`` (or one bot
choice) and one ``apply`` in those games (:mod:`wizwar_tui.gamebench`)."""

from __future__ import annotations

from wizwar_tui.gamebench import GameBench

BENCH = GameBench("wizard-kings", "Wizard Kings", ("random", "captain"), bot_games=1)
PARTS = BENCH.parts
run = BENCH.run
