"""The scenes, one module per screen, each registered by name in `game.client.registry`: menu, new
game (with its avatar picker and the question before a save is replaced), table, suit picker,
handoff, result, pause, move log, vote, settings (with clear data), rules, statistics, a kiosk's
attract game, and online the lobby, the waiting room, a server's lobby, its leaderboard and the
quick reactions' palette. No scene module imports another:
they open each other by name through the App (`game.client.scene.SceneApp`)."""
