"""The scenes: menu, new game (with its avatar picker and the question before a save is replaced),
table, suit picker, handoff, result, pause, move log, settings, rules."""
