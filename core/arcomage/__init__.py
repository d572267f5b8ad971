"""ArcoMage: the two-player wizards' duel (``../shared/arcomage/rules.md``), a ruleset of the
engine (``core.engine.Ruleset``); :data:`core.arcomage.ruleset.RULESET` is its one object."""
