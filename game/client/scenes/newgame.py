"""The new-game form: rules, number of players, who sits where, and the house rules.

It opens in the mode the menu chose (``mode``): ``solo`` seats one person (seat 1,
"You") against computers; ``hotseat`` (Same device) seats two or more people, each of
whom names their seat in a text field. Every person picks an avatar (a tap on it opens
the picker, Left/Right step through the free ones); a computer's avatar comes with its
seat. Names, avatars and the seating are remembered in the settings for next time.
Starting a game when that mode already has a saved game first asks whether to replace
it (`replace_save.ReplaceSaveScene`), naming what would be lost.

Every option the preset exposes is shown with its current value and changes with
a tap (or Left/Right), in the order, steps and words for 0 that `game.engine.OPTIONS`
declares; the one-line explanation of the house rule under the pointer (or the keyboard's
focus) is shown above Start (`house_rules`). A rule set that scores but plays one round
unless given a target offers a **Quick game** and a **Points game** by name above them,
with the target right under the choice (`game_kind`). The choice is checked by the engine
before the game starts; a seating the rules cannot play gets the engine's message, not a crash.

In its online mode (``online=(host, port, tls)``, from the lobby) the same form creates
a room on that server: human seats are for friends (the creator takes the first),
computer seats play on the server. The room is private (reachable by its link) or
public (listed in the server's lobby, where anyone may take a free seat): a choice
of the online mode, public at first when the form comes from the server's lobby. Its
seats all wait for people at first (a computer seat is still a tap away). House rules
an online room cannot have (Undo) are not offered there, nor Undo at a same-device table
(only a solo game takes turns back). A seat button a tap steps through ends in ◂ ▸.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

import pygame
import pygame_gui

from game.engine import OPTIONS, PRESETS, Option, Rules, RulesError, preset
from game.engine.options import OPTION_BY_NAME
from game.play.avatars import PEOPLE, computer_avatar, is_person_avatar, person_default
from game.saves import SavedTable, SaveError

from .. import game_kind, ui
from ..avatar_art import avatar_image
from ..controller import SeatConfig
from ..gui import Control, GuiScene, step_through
from ..house_rules import KIND_HELP, help_key
from ..i18n import option_label, tr, zero_text
from ..saving import start_match
from ..settings import NAME_LENGTH, SEAT_KINDS, clean_name

if TYPE_CHECKING:
    from ..scene import SceneApp

ONLINE_NEVER: Final = frozenset({"undo"})
CYCLES: Final = "  ◂ ▸"  # after the label of a button a tap steps through its choices
SHARED_NEVER: Final = frozenset({"undo"})  # a same-device game takes no turn back (undo is solo play's)
"""House rules an online room cannot have (the server decides the game: nothing is taken back),
so its form does not offer them and a room is created with them off."""


def _distinct(chosen: list[int], seats: int) -> list[int]:
    """An avatar for each person who may sit at the form: the one kept for them when it is a
    person's and nobody before them has it, else the first default nobody has."""
    out: list[int] = []
    for person in range(seats):
        avatar = chosen[person] if person < len(chosen) else None
        if avatar is None or not is_person_avatar(avatar) or avatar in out:
            avatar = next(a for a in (*(person_default(i) for i in range(len(PEOPLE))), *PEOPLE)
                          if a not in out and a not in chosen[person + 1:])
        out.append(avatar)
    return out


class NewGameScene(GuiScene):
    """Choose and start a game."""

    def __init__(self, app: SceneApp, online: tuple[str, int] | tuple[str, int, bool] | None = None,
                 mode: str = "solo", *, public: bool = False) -> None:
        self.online = online
        self.mode = None if online is not None else mode  # the online form seats no names or avatars
        self.public = public  # online: a room listed in the server's lobby
        self.from_server_lobby = public
        name = app.settings.last_preset if app.settings.last_preset in PRESETS else "classic"
        self.preset_name = name
        self.options: dict[str, Any] = dict(app.settings.last_options.get(name, {}))
        players = app.settings.last_players.get(name, 2)
        self.players = max(PRESETS[name].min_players, min(players, PRESETS[name].max_players))
        settings = app.settings
        if self.mode == "hotseat":
            self.kinds = list(settings.hotseat_levels)
        elif self.mode == "solo":  # one person, at seat 1; computers everywhere else
            self.kinds = ["human"] + [k if k != "human" else "medium" for k in settings.default_levels[1:]]
        elif online is not None:  # a room for friends or strangers: every seat waits for a person at
            # first (a computer seat is still a tap away)
            self.kinds = ["human"] * len(settings.default_levels)
        else:
            self.kinds = list(settings.default_levels)
        self.people_names = list(settings.people_names)  # by person, the first person's first
        self.people_avatars = _distinct(settings.people_avatars, len(self.kinds))
        self.entries: dict[int, pygame_gui.elements.UITextEntryLine] = {}  # a person's name field
        self.pictures: list[tuple[pygame.Rect, int]] = []  # avatars drawn over the form
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
        title = tr("online.create_title") if self.online else tr(f"new.title.{self.mode}")
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
        self.entries, self.pictures = {}, []
        first = len(self.controls)
        for seat in range(self.players):
            self.seat_row(seat, pygame.Rect(x + int(20 * s), y, col_w - int(20 * s), bh))
            y += bh + gap
        self.same_face([c.element for c in self.controls[first:]  # the seats in one size of text
                        if isinstance(c.element, pygame_gui.elements.UIButton) and c.element.text])
        # House rules, in two columns if needed; first the kind of game where there is a choice.
        exposed = rules.options()
        names = game_kind.shown_options([o.name for o in OPTIONS if o.name in exposed], rules, self.players)
        if self.online is not None:
            names = [name for name in names if name not in ONLINE_NEVER]
        elif self.mode == "hotseat":
            names = [name for name in names if name not in SHARED_NEVER]
        entries: list[tuple[str, Callable[[], None], Callable[[int], None]]] = [
            (self.option_text(OPTION_BY_NAME[name], rules), partial(self.step_option, name, 1),
             partial(self.step_option, name)) for name in names]
        helps = [help_key(name) for name in names]
        if game_kind.offers_choice(rules):
            entries.insert(0, (tr(game_kind.kind_key(rules, self.players)), self.switch_kind,
                               lambda _delta: self.switch_kind()))
            helps.insert(0, KIND_HELP)
        ox = x + col_w + m
        ow = w - ox - m
        self.label(pygame.Rect(ox, int(80 * s), ow, bh), tr("new.options"), "#heading")
        self.helps: dict[int, str] = {}  # an option's button (by id) → the key of its explanation
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
            self.helps[id(self.button(rect, text, action, step, object_id="#option"))] = helps[i]
        bw = int(220 * s)
        by = h - bh - m
        self.help_box = pygame.Rect(m, by - bh - gap, w - 2 * m, bh)
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

    def seat_row(self, seat: int, row: pygame.Rect) -> None:
        """One seat: who sits there (a tap steps it); with a mode, the seat's avatar first and, for
        a person at a same-device table, the name field last."""
        kind = self.kinds[seat]
        value = tr("new.you") if self.mode == "solo" and seat == 0 else tr("new." + kind)
        text = tr("fmt.pair", label=tr("new.seat", n=seat + 1), value=value)
        if not (self.mode == "solo" and seat == 0):  # a tap steps through the choices: shown as such
            text += CYCLES
        if self.mode is None:
            self.button(row, text, partial(self.step_seat, seat, 1), partial(self.step_seat, seat))
            return
        gap = max(4, row.height // 6)
        picture = pygame.Rect(row.x, row.y, row.height, row.height)
        rest = pygame.Rect(picture.right + gap, row.y, row.right - picture.right - gap, row.height)
        person = self.person_of(seat)
        if person is None:
            self.pictures.append((picture, computer_avatar(seat)))
            self.button(rest, text, partial(self.step_seat, seat, 1), partial(self.step_seat, seat))
            return
        self.pictures.append((picture, self.people_avatars[person]))
        self.button(picture, "", partial(self.pick_avatar, seat), partial(self.step_avatar, person))
        if self.mode == "solo":
            self.button(rest, text, partial(self.pick_avatar, seat))
            return
        kind_w = int(rest.width * 0.6)  # "Asiento 1: Humano  ◂ ▸"; the name field keeps the rest
        self.button(pygame.Rect(rest.x, rest.y, kind_w, rest.height), text,
                    partial(self.step_seat, seat, 1), partial(self.step_seat, seat))
        entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(rest.x + kind_w + gap, rest.y, rest.width - kind_w - gap, rest.height), self.manager,
            placeholder_text=self.default_name(seat))
        entry.set_text_length_limit(NAME_LENGTH)
        entry.set_text(self.people_names[person] if person < len(self.people_names) else "")
        self.entries[person] = entry
        self.controls.append(Control(entry, partial(self.start_typing, entry)))  # type: ignore[arg-type]

    def person_of(self, seat: int) -> int | None:
        """Which person (counting from 0, in seat order) sits at ``seat``; None for a computer."""
        if self.kinds[seat] != "human":
            return None
        return sum(1 for k in self.kinds[:seat] if k == "human")

    def default_name(self, seat: int) -> str:
        """The name a person's seat gets when the field is left empty: "Player 3"."""
        return tr("table.player", n=seat + 1)

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
        self.preset_name = step_through(list(PRESETS), self.preset_name, delta)
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
        """Cycle a seat through human and the computer levels (solo: seat 1 is the person, the
        others step through the levels only)."""
        kinds: tuple[str, ...] = SEAT_KINDS
        if self.mode == "solo":
            if seat == 0:
                return
            kinds = tuple(k for k in SEAT_KINDS if k != "human")
        current = self.kinds[seat] if self.kinds[seat] in kinds else kinds[0]
        self.kinds[seat] = kinds[(kinds.index(current) + delta) % len(kinds)]
        self.error = ""
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

    # ---- people's names and avatars ----------------------------------------------------------
    def rebuild(self) -> None:
        """Keep the names typed so far across a rebuild."""
        self.keep_names()
        super().rebuild()

    def keep_names(self) -> None:
        """Read the name fields back into `people_names` (an empty field: the seat's default)."""
        for person, entry in getattr(self, "entries", {}).items():
            while len(self.people_names) <= person:
                self.people_names.append("")
            self.people_names[person] = clean_name(entry.get_text())

    def taken(self, person: int) -> dict[int, str]:
        """The avatars the other people at this table have, with the seat names they go by."""
        out = {}
        for seat in range(self.players):
            other = self.person_of(seat)
            if other is not None and other != person:
                out[self.people_avatars[other]] = self.seat_name(seat)
        return out

    def seat_name(self, seat: int) -> str:
        """The name a person's seat goes by in the form: as typed, else its default (solo: "You")."""
        person = self.person_of(seat)
        if self.mode == "solo" or person is None:
            return tr("new.you") if person is not None else tr("table.computer", n=seat + 1)
        typed = self.people_names[person] if person < len(self.people_names) else ""
        return typed or self.default_name(seat)

    def step_avatar(self, person: int, delta: int) -> None:
        """The next (or previous) avatar nobody else at the table has."""
        taken = self.taken(person)
        index = PEOPLE.index(self.people_avatars[person])
        for step in range(1, len(PEOPLE) + 1):
            avatar = PEOPLE[(index + delta * step) % len(PEOPLE)]
            if avatar not in taken:
                self.choose_avatar(person, avatar)
                return

    def choose_avatar(self, person: int, avatar: int) -> None:
        """Give ``person`` this avatar."""
        self.people_avatars[person] = avatar
        self.rebuild()

    def pick_avatar(self, seat: int) -> None:
        """Open the avatar picker for the person at ``seat``."""
        person = self.person_of(seat)
        if person is None:
            return
        self.keep_names()
        self.app.push("AvatarPicker", name=self.seat_name(seat), current=self.people_avatars[person],
                      taken=self.taken(person), choose=partial(self.choose_avatar, person))

    def typing_done(self, entry: pygame_gui.elements.UITextEntryLine, *, entered: bool) -> None:
        """A name field left (Enter, Esc, Tab, the arrows): its name is kept."""
        self.keep_names()

    def draw(self, surface: pygame.Surface) -> None:
        """The form, and each seat's avatar over its button (or alone, for a computer)."""
        super().draw(surface)
        explanation = self.help_text()
        if explanation and not self.error:
            px = max(13, int(18 * self.scale))
            ui.fit(surface, explanation, self.help_box, px, lines=2, color=ui.CREAM)
        for rect, avatar in self.pictures:
            side = rect.height - max(6, rect.height // 6)
            surface.blit(avatar_image(avatar, side), avatar_image(avatar, side).get_rect(center=rect.center))

    def help_text(self) -> str:
        """The explanation of the house rule under the pointer, else of the one the keyboard's focus
        is on, else nothing."""
        hovered = [c.element for c in self.controls if getattr(c.element, "hovered", False)]
        focused = [self.controls[self.focus].element] if self.controls else []
        for element in hovered + focused:
            key = self.helps.get(id(element))
            if key is not None:
                return tr(key)
        return ""

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
        """The seat list for the chosen players (with a mode, the people's avatars, and at a
        same-device table their names)."""
        out = []
        for seat, kind in enumerate(self.kinds[: self.players]):
            person = self.person_of(seat)
            if person is None:
                out.append(SeatConfig("computer", kind))
            elif self.mode is None:
                out.append(SeatConfig("human"))
            elif self.mode == "solo":
                out.append(SeatConfig("human", avatar=self.people_avatars[person]))
            else:
                out.append(SeatConfig("human", name=self.seat_name(seat), avatar=self.people_avatars[person]))
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
        self.keep_names()
        seats = self.seats()
        if self.online is not None and not any(s.is_human for s in seats):
            self.error = tr("online.need_human")  # the creator takes the first human seat
            self.rebuild()
            return
        if self.mode == "hotseat" and sum(s.is_human for s in seats) < 2:
            self.error = tr("new.need_people")
            self.rebuild()
            return
        self.remember(seats)
        if self.online is not None:
            from ..joining import create_room  # the network's code loads for an online game only

            off = {name: False for name in ONLINE_NEVER if name in rules.options()}
            rules = rules.with_options(off) if off else rules
            create_room(self.app, self.online, rules, seats, public=self.public)
            return
        slot = "hotseat" if self.mode == "hotseat" else "solo"
        saved = self.saved_game(slot)
        if saved is not None:  # ask before that game is lost
            self.app.push("ReplaceSave", mode=slot, saved=saved,
                          replace=partial(start_match, self.app, rules, seats))
            return
        start_match(self.app, rules, seats)

    def remember(self, seats: list[SeatConfig]) -> None:
        """Keep the form's choices in the settings for next time: the rules, the seating, and the
        people's names (same device) and avatars."""
        settings = self.app.settings
        settings.last_preset = self.preset_name
        settings.last_options[self.preset_name] = dict(self.options)
        settings.last_players[self.preset_name] = self.players
        if self.mode == "hotseat":
            settings.hotseat_levels = list(self.kinds)
        else:
            settings.default_levels = list(self.kinds)
        if self.mode is not None:
            people = [s for s in seats if s.is_human]
            avatars = [s.avatar for s in people if s.avatar is not None]
            settings.people_avatars = (avatars + settings.people_avatars[len(avatars):])[:len(self.kinds)]
            if self.mode == "hotseat":
                names = [s.name for s in people]
                settings.people_names = (names + settings.people_names[len(names):])[:len(self.kinds)]
        self.app.save_settings()

    def saved_game(self, slot: str) -> SavedTable | None:
        """The game saved in ``slot``, if it can be read (an unreadable one has nothing to lose:
        the new game keeps it aside)."""
        try:
            return self.app.store.games.read(slot)
        except SaveError:
            return None

    def toggle_public(self) -> None:
        """Online: a private room (by link) or a public one (in the server's lobby)."""
        self.public = not self.public
        self.rebuild()

    def back(self) -> None:
        """Back to the menu (to the lobby in the online mode)."""
        if self.online is not None and self.from_server_lobby:
            self.app.replace("ServerLobby", server=self.online)
            return
        if self.online is not None:
            self.app.replace("Lobby")
            return
        self.app.go_to_menu()
