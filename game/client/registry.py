"""Every scene by name: how scenes open each other without importing one another.

A scene asks the App for another by the name registered here (as Tuxemon's
``push_state("Name", ...)`` does): ``app.push("Pause", table=self)`` puts the pause menu
over the table, ``app.replace("Lobby", message=...)`` shows the lobby alone. The App
builds the scene with itself and those keyword arguments (`make`). The table is the
one place that knows which module holds which scene; a scene's module is imported the
first time that scene opens (so starting the game loads the menu, not the online
lobby and its network code).

To add a scene: write its module in ``game/client/scenes``, add its name here, and open
it by that name (CONTRIBUTING.md, "Add a scene"). ``tests/test_scene_seams.py`` holds
every scene module to the table and every name a scene opens to it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .scene import Scene, SceneApp

PACKAGE: Final = "game.client.scenes"

SCENES: Final[dict[str, tuple[str, str]]] = {
    # name: (module in game.client.scenes, class)
    "Menu": ("menu", "MenuScene"),
    "NewGame": ("newgame", "NewGameScene"),
    "ReplaceSave": ("replace_save", "ReplaceSaveScene"),
    "AvatarPicker": ("avatar_picker", "AvatarPickerScene"),
    "Settings": ("settings_scene", "SettingsScene"),
    "ClearData": ("clear_data", "ClearDataScene"),
    "Statistics": ("statistics", "StatisticsScene"),
    "Rules": ("rules_scene", "RulesScene"),
    "Lobby": ("lobby", "LobbyScene"),
    "WaitingRoom": ("waiting_room", "WaitingRoomScene"),
    "ServerLobby": ("server_lobby", "ServerLobbyScene"),
    "Leaderboard": ("leaderboard", "LeaderboardScene"),
    "Table": ("table", "TableScene"),
    "Attract": ("attract", "AttractScene"),
    "Pause": ("pause", "PauseScene"),
    "RulesInPlay": ("rules_in_play", "RulesInPlayScene"),
    "Moves": ("moves", "MovesScene"),
    "Reactions": ("reactions", "ReactionsScene"),
    "SuitPicker": ("suit_picker", "SuitPickerScene"),
    "Handoff": ("handoff", "HandoffScene"),
    "Vote": ("vote", "VoteScene"),
    "LeaveRanked": ("leave_ranked", "LeaveRankedScene"),
    "WhoAreYou": ("who_are_you", "WhoAreYouScene"),
    "Result": ("result", "ResultScene"),
    "Review": ("review", "ReviewScene"),
}
"""Each scene's name, with the module (in `PACKAGE`) and the class that draw it."""


class UnknownScene(LookupError):
    """A scene was asked for by a name nobody registered (a programming error, said by name)."""


def scene_class(name: str) -> type[Scene]:
    """The class registered as ``name`` (its module imported on first use).

    Raises:
        UnknownScene: no scene has that name.
    """
    try:
        module, cls = SCENES[name]
    except KeyError:
        raise UnknownScene(f"no scene is registered as {name!r} (see game.client.registry)") from None
    found: type[Scene] = getattr(importlib.import_module(f"{PACKAGE}.{module}"), cls)
    return found


def make(app: SceneApp, name: str, arguments: dict[str, Any]) -> Scene:
    """The scene registered as ``name``, built for ``app`` with ``arguments`` (keywords)."""
    return scene_class(name)(app, **arguments)
