"""Wizard Kings: the rules core (../shared/wizard-kings/rules.md). Built in steps; see docs/wizard-kings.md."""
