"""The new-game form: rules, number of players, who sits where, and the house rules.

Every option the preset exposes is shown with its current value and changes with
a tap (or Left/Right), in the order, steps and words for 0 that `game.engine.OPTIONS`
declares. A rule set that scores but plays one round unless given a target offers a
**Quick game** and a **Points game** by name above them, with the target right under the
choice (`game_kind`). The choice is checked by the engine before the game starts; a
seating the rules cannot play gets the engine's message, not a crash.

In its online mode (``online=(host, port, tls)``, from the lobby) the same form creates
a room on that server: human seats are for friends (the creator takes the first),
computer seats play on the server. The room is private (reachable by its link) or
public (listed in the server's lobby, where anyone may take a free seat): a choice
of the online mode, public at first when the form comes from the server's lobby.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.engine import OPTIONS, PRESETS, Match, Option, Rules, RulesError, preset
from game.engine.options import OPTION_BY_NAME

from .. import game_kind
from ..controller import MatchController, SeatConfig
from ..i18n import option_label, tr, zero_text
from ..settings import SEAT_KINDS
from .gui import GuiScene

if TYPE_CHECKING:
    from ..app import App


def start_match(app: App, rules: Rules, seats: list[SeatConfig], seed: int | None = None) -> None:
    """Deal a new match, show its table, and save it in its mode from now on.

    The mode's previous save is replaced (an unreadable one is kept aside as
    ``*.corrupt`` by the first save).

    Raises:
        RulesError: the rules cannot seat these players.
    """
    from ..saving import abandon, mode_of, save_game, watch
    from .table import TableScene

    rng = random.Random(seed)
    first = None
    if rules.first_player == "seat0":  # "the human always starts": the first human seat
        first = next((i for i, s in enumerate(seats) if s.is_human), 0)
    match = Match(rules, len(seats), rng.randrange(1 << 62), first=first)
    controller = MatchController(match, list(seats), rng=random.Random(rng.randrange(1 << 62)),
                                 speed=app.settings.speed_factor, undo_allowed=app.settings.undo_allowed)
    abandon(app, mode_of(controller))
    watch(app, controller)
    save_game(app, controller)
    app.stack.replace(TableScene(app, controller))


class NewGameScene(GuiScene):
    """Choose and start a game."""

    def __init__(self, app: App, online: tuple[str, int] | tuple[str, int, bool] | None = None, *,
                 public: bool = False) -> None:
        self.online = online
        self.public = public  # online: a room listed in the server's lobby
        self.from_server_lobby = public
        name = app.settings.last_preset if app.settings.last_preset in PRESETS else "classic"
        self.preset_name = name
        self.options: dict[str, Any] = dict(app.settings.last_options.get(name, {}))
        players = app.settings.last_players.get(name, 2)
        self.players = max(PRESETS[name].min_players, min(players, PRESETS[name].max_players))
        self.kinds = list(app.settings.default_levels)
        self.points_target = 0  # the target of a Points game switched to Quick, to bring back
        self.error = ""
        super().__init__(app)

    @property
    def rules(self) -> Rules:
        """The preset with the options chosen so far (invalid ones dropped)."""
        try:
            return preset(self.preset_name, self.options)
        except RulesError:
            self.options = {}
            return PRESETS[self.preset_name]

    # ---- widgets -----------------------------------------------------------------------------
    def build(self) -> None:
        """Left column: rules, players, seats. Right column: house rules. Bottom: start/back."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(44 * s))
        gap = int(bh * 0.22)
        rules = self.rules
        title = tr("online.create_title") if self.online else tr("new.title")
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), title, "#heading")
        col_w = int(w * 0.35)  # the house rules get the rest: their French labels are long
        x, y = m, int(80 * s)
        self.button(pygame.Rect(x, y, col_w, bh),
                    tr("fmt.pair", label=tr("new.preset"),
                       value=tr("preset." + self.preset_name)) + "  ◂ ▸",
                    lambda: self.step_preset(1), self.step_preset)
        y += bh + gap // 2
        pygame_gui.elements.UITextBox(tr(f"preset.{self.preset_name}.line"),
                                      pygame.Rect(x, y, col_w, int(bh * 1.3)), self.manager,
                                      object_id="#desc")
        y += int(bh * 1.3) + gap
        players = tr("fmt.pair", label=tr("new.players"), value=self.players) + "  ◂ ▸"
        self.button(pygame.Rect(x, y, col_w, bh), players,
                    lambda: self.step_players(1), self.step_players)
        y += bh + gap
        for seat in range(self.players):
            kind = self.kinds[seat]
            text = tr("fmt.pair", label=tr("new.seat", n=seat + 1), value=tr("new." + kind))
            self.button(pygame.Rect(x + int(20 * s), y, col_w - int(20 * s), bh), text,
                        partial(self.step_seat, seat, 1), partial(self.step_seat, seat))
            y += bh + gap
        # House rules, in two columns if needed; first the kind of game where there is a choice.
        exposed = rules.options()
        names = game_kind.shown_options([o.name for o in OPTIONS if o.name in exposed], rules, self.players)
        entries: list[tuple[str, Callable[[], None], Callable[[int], None]]] = [
            (self.option_text(OPTION_BY_NAME[name], rules), partial(self.step_option, name, 1),
             partial(self.step_option, name)) for name in names]
        if game_kind.offers_choice(rules):
            entries.insert(0, (tr(game_kind.kind_key(rules, self.players)), self.switch_kind,
                               lambda _delta: self.switch_kind()))
        ox = x + col_w + m
        ow = w - ox - m
        self.label(pygame.Rect(ox, int(80 * s), ow, bh), tr("new.options"), "#heading")
        top = int(80 * s) + bh + gap
        bottom = h - bh * 2 - m * 2
        per_col = max(1, (bottom - top) // (bh + gap))
        cols = 1 if len(entries) <= per_col else 2
        cw = (ow - (cols - 1) * gap) // cols
        obh = bh
        if cols == 2 and len(entries) > per_col * 2:
            obh = max(32, (bottom - top) // ((len(entries) + 1) // 2) - gap)
        rows = (len(entries) + cols - 1) // cols
        for i, (text, action, step) in enumerate(entries):
            col, row = divmod(i, rows)
            rect = pygame.Rect(ox + col * (cw + gap), top + row * (obh + gap), cw, obh)
            self.button(rect, text, action, step, object_id="#option")
        bw = int(220 * s)
        by = h - bh - m
        if self.error:
            self.label(pygame.Rect(m, by - bh - gap, w - 2 * m, bh), self.error, "#small")
        if self.online is not None:
            kind = tr("new.public" if self.public else "new.private")
            self.button(pygame.Rect(m + bw + gap * 2, by, w - 2 * m - 2 * bw - gap * 4, bh),
                        tr("fmt.pair", label=tr("new.room"), value=kind) + "  ◂ ▸",
                        self.toggle_public, lambda delta: self.toggle_public())
        start = tr("online.create") if self.online else tr("new.start")
        self.button(pygame.Rect(w - m - bw, by, bw, bh), start, self.start)
        self.button(pygame.Rect(m, by, bw, bh), tr("new.back"), self.back)
        self.focus = len(self.controls) - 2 if not getattr(self, "_built", False) else self.focus
        self._built = True

    def option_text(self, option: Option, rules: Rules) -> str:
        """``Jacks skip: on``."""
        name = option.name
        value = getattr(rules, name)
        if option.kind == "bool":
            shown = tr("new.on") if value else tr("new.off")
        elif value:
            shown = str(value)
        else:
            shown = zero_text(option)
            if name == "max_draws" and not rules.draw_until_playable:
                shown = "1"  # no limit set: one card, as "draw until you can play" is off
        if name == "target" and not value and rules.target_per_player:
            shown = f"{rules.target_per_player} × {self.players}"
        return tr("fmt.pair", label=option_label(option), value=shown)

    # ---- changes -----------------------------------------------------------------------------
    def step_preset(self, delta: int) -> None:
        """Next or previous preset."""
        names = list(PRESETS)
        self.preset_name = names[(names.index(self.preset_name) + delta) % len(names)]
        self.options = dict(self.app.settings.last_options.get(self.preset_name, {}))
        self.points_target = 0
        rules = PRESETS[self.preset_name]
        players = self.app.settings.last_players.get(self.preset_name, self.players)
        self.players = min(max(players, rules.min_players), rules.max_players)
        self.error = ""
        self.rebuild()

    def step_players(self, delta: int) -> None:
        """One more or one fewer player, within the preset's range."""
        rules = PRESETS[self.preset_name]
        span = rules.max_players - rules.min_players + 1
        self.players = rules.min_players + (self.players - rules.min_players + delta) % span
        self.error = ""
        self.rebuild()

    def step_seat(self, seat: int, delta: int) -> None:
        """Cycle a seat through human and the computer levels."""
        self.kinds[seat] = SEAT_KINDS[(SEAT_KINDS.index(self.kinds[seat]) + delta) % len(SEAT_KINDS)]
        self.rebuild()

    def switch_kind(self) -> None:
        """Quick game ⇄ Points game (`game_kind`); the target chosen before comes back with Points."""
        rules = self.rules
        if game_kind.is_points_game(rules, self.players):
            self.points_target = rules.target
        last = self.app.settings.last_options.get(self.preset_name, {}).get("target", 0)
        remembered = self.points_target or (last if type(last) is int else 0)
        self.options = game_kind.switched(self.options, rules, self.players, remembered)
        self.error = ""
        self.rebuild()

    def step_option(self, name: str, delta: int) -> None:
        """Toggle a boolean option or step a number through its declared steps."""
        option = OPTION_BY_NAME[name]
        value = getattr(self.rules, name)
        if option.kind == "bool":
            self.options[name] = not value
        else:
            choices = option.steps or (value,)
            index = choices.index(value) if value in choices else 0
            self.options[name] = choices[(index + delta) % len(choices)]
        self.error = ""
        self.rebuild()

    def seats(self) -> list[SeatConfig]:
        """The seat list for the chosen players."""
        out = []
        for kind in self.kinds[: self.players]:
            out.append(SeatConfig("human") if kind == "human" else SeatConfig("computer", kind))
        return out

    def start(self) -> None:
        """Check the choice with the engine and deal."""
        rules = self.rules
        try:
            rules.check_players(self.players)
        except RulesError as exc:
            self.error = str(exc)
            self.rebuild()
            return
        if self.online is not None and not any(s.is_human for s in self.seats()):
            self.error = tr("online.need_human")  # the creator takes the first human seat
            self.rebuild()
            return
        settings = self.app.settings
        settings.last_preset = self.preset_name
        settings.last_options[self.preset_name] = dict(self.options)
        settings.last_players[self.preset_name] = self.players
        settings.default_levels = list(self.kinds)
        self.app.save_settings()
        if self.online is not None:
            from .lobby import create_room

            create_room(self.app, self.online, rules, self.seats(), public=self.public)
            return
        start_match(self.app, rules, self.seats())

    def toggle_public(self) -> None:
        """Online: a private room (by link) or a public one (in the server's lobby)."""
        self.public = not self.public
        self.rebuild()

    def back(self) -> None:
        """Back to the menu (to the lobby in the online mode)."""
        if self.online is not None and self.from_server_lobby:
            from game.net.client import Server

            from .server_lobby import ServerLobbyScene

            self.app.stack.replace(ServerLobbyScene(self.app, Server(*self.online)))
            return
        if self.online is not None:
            from .lobby import LobbyScene

            self.app.stack.replace(LobbyScene(self.app))
            return
        self.app.go_to_menu()
