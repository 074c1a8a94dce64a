"""The scenes: menu, new game, table, suit picker, handoff, result, pause, move log, settings, rules."""
