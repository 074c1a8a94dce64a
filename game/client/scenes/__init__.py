"""The scenes: menu, new game, table, suit picker, handoff, result, pause, settings, rules."""
