"""This device's player on the servers it visits: the hello it says, what it keeps of the answers.

Every connection the game opens says ``hello`` first with the device's player key for
that server (`game.saves.player`: made from the device's secret and the server's
address, so each server knows the device by a different key and none can speak for it
on another), its name (the settings' ``player_name``, when it is a name the
servers accept) and its avatar (the first person's of the settings' ``people_avatars``:
the solo player's); the server answers with the player's profile there
(``profile``: name, tag, avatar, ranking points), which is kept per server for the
Statistics screen. A name the servers would refuse is never sent: the player is told
why, in their language (`name_refusal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from game.net.client import Server, server_text
from game.net.messages import Hello, PlayerProfile
from game.net.profiles import MAX_WIDTH, name_problem, tagged
from game.play.avatars import is_person_avatar, person_default

from . import ui
from .i18n import tr

if TYPE_CHECKING:
    from .scene import SceneApp


def hello(app: SceneApp, server: Server | tuple[str, int] | tuple[str, int, bool]) -> Hello:
    """The ``hello`` message of this device's player to ``server`` (its host and port; the player
    is made on first use). The key in it is that server's alone, and a secret."""
    host, port = server[0], server[1]
    player = app.store.player.player()
    name = app.settings.player_name.strip()
    return Hello(player=player.key_for(host, port), avatar=avatar(app),
                 name=name if name and name_problem(name) is None else None)


def avatar(app: SceneApp) -> int:
    """This device's player's avatar: the one the solo player chose, else the first default."""
    chosen = app.settings.people_avatars[:1]
    return chosen[0] if chosen and is_person_avatar(chosen[0]) else person_default(0)


def set_avatar(app: SceneApp, chosen: int) -> None:
    """Choose this device's player's avatar (the solo player's too), kept in the settings."""
    if not is_person_avatar(chosen):
        return
    avatars = list(app.settings.people_avatars) or [chosen]
    avatars[0] = chosen
    app.settings.people_avatars = avatars
    app.save_settings()


MEASURE_PX: Final = 40
"""The size at which a name is measured in the game's font (`drawn_too_wide`)."""


def drawn_too_wide(name: str) -> bool:
    """Whether ``name``, drawn in the game's bold font, is wider than `profiles.MAX_WIDTH` of its
    widest Latin letter (W): the servers count columns (an East Asian wide letter two), and this
    holds the same bound to what the game really draws, so a letter far wider than its column
    (a Canadian syllabic, an Ogham letter) cannot stretch a name past the room the game gives it."""
    face = ui.font(MEASURE_PX, True)
    return face.size(name)[0] > face.size("W" * MAX_WIDTH)[0]


def name_refusal(name: str) -> str | None:
    """Why the servers would refuse ``name`` (or the game would not draw it in a name's room), in
    the player's language, or None (an empty name is no refusal: the server calls the player
    "Player")."""
    if not name.strip():
        return None
    problem = name_problem(name)
    if problem is None and drawn_too_wide(name.strip()):
        problem = ("too_wide", "")
    return None if problem is None else tr("name." + problem[0])


def remember(app: SceneApp, server: Server, profile: PlayerProfile) -> None:
    """Keep what ``server`` said of this player (its tag, name and points)."""
    app.store.player.remember(server_text(server), profile.source or profile.to_json())


class Tagged(Protocol):
    """A player as a server names them: a ``profile`` message, a leaderboard's row."""

    @property
    def name(self) -> str | None: ...
    @property
    def tag(self) -> str | None: ...


def label(player: Tagged | None, fallback: str) -> str:
    """``Ana #3F2K9Q`` from a ``profile`` message or a leaderboard's row (``fallback`` when there is
    none yet, or the server left its name or tag out)."""
    if player is None or player.name is None or player.tag is None:
        return fallback
    return tagged(player.name[:24], player.tag[:8])
