"""The table's contract: the same scenes driven by a local game or an online room.

The online side is a `RemoteController` on a scripted connection that plays the
server for one seat: it applies the seat's actions to a real `Match` and answers
with the messages a room server sends (the seat's view, its redacted events, the
room status).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.intents import ChangeLevel, PauseChoice, TableCommand
from game.client.remote import RemoteController
from game.client.scenes.table import TableScene
from game.client.table_control import TableControl
from game.engine import (
    PRESETS,
    Accept,
    CallLastCard,
    Challenge,
    Denounce,
    Draw,
    EndTurn,
    Match,
    Pass,
    parse_action,
)
from game.net.messages import ClientMessage, from_server
from game.net.wire import event_to_json, result_to_json, view_to_json
from tests.client_support import click, make_app, press, run_until, top_name
from tests.support import act, make_match

SCENES = Path(__file__).resolve().parent.parent / "game" / "client" / "scenes"


class ScriptedRoom:
    """A connection whose far end is a one-seat room server over a real `Match`.

    Seat 0 is this device; the other seats are people who answer when told to
    (`others_accept`). Messages sent by the controller are answered at the next poll.
    """

    host, port, room, seat, status, problem = "127.0.0.1", 8765, "r00m", 0, "connected", None

    def __init__(self, match: Match) -> None:
        self.match = match
        self.sent: list[dict[str, Any]] = []
        self.inbox: list[dict[str, Any]] = [{"type": "joined", "room": self.room, "seat": 0}]
        self.accepted = False
        self._room_status()
        self._update(match.start_events)

    @property
    def connected(self) -> bool:
        return True

    def poll(self) -> list[dict[str, Any]]:
        out, self.inbox = self.inbox, []
        return out

    def poll_messages(self) -> list:  # what RemoteController reads: the inbox as types
        return [message for message in map(from_server, self.poll()) if message is not None]

    def send(self, message: ClientMessage | dict[str, Any]) -> None:
        if isinstance(message, ClientMessage):  # what the controller sends, as the JSON it is on the wire
            message = message.to_json(version=False)
        self.sent.append(message)
        if message["type"] == "action":
            self._update(self.match.apply(parse_action(message["action"]), 0))
            self._room_status()
        elif message["type"] == "accept_round":
            self.accepted = True
            self._room_status()

    def close(self, *, leave: bool = False) -> None:
        self.status = "closed"

    def others_accept(self) -> None:
        """The other players ask for the next deal too: the server deals it."""
        assert self.accepted
        self.accepted = False
        self._update(self.match.next_round())
        self._room_status()

    def _update(self, events) -> None:
        self.inbox.append({"type": "update", "room": self.room, "view": view_to_json(self.match.view(0)),
                           "events": [event_to_json(e.for_seat(0)) for e in events], "timer": None})

    def _room_status(self) -> None:
        state = "playing" if self.match.status == "playing" else self.match.status
        seats = [{"kind": "human", "level": None, "name": name, "connected": True,
                  "accepted": self.accepted and i == 0} for i, name in enumerate(("Ana", "Ben"))]
        self.inbox.append({"type": "room", "room": self.room, "state": state, "seats": seats,
                           "waiting_for": [], "results": [result_to_json(r) for r in self.match.results]})


def local(match: Match) -> tuple[TableControl, None]:
    seats = [SeatConfig("human", name="Ana"), SeatConfig("computer", "easy")]
    return MatchController(match, seats, rng=random.Random(1), speed=1.0), None


def online(match: Match) -> tuple[TableControl, ScriptedRoom]:
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=1.0)  # type: ignore[arg-type]
    controller.update(0.0)  # joined, the room, the deal
    assert controller.ready
    return controller, room


@pytest.fixture
def app():
    application = make_app(speed="normal")  # cards fly: the deal is animated
    yield application
    pygame.display.quit()


def test_both_controllers_keep_the_table_contract():
    assert isinstance(local(Match(PRESETS["duel"], 2, seed=1))[0], TableControl)
    assert isinstance(online(Match(PRESETS["duel"], 2, seed=1))[0], TableControl)
    assert not isinstance(object(), TableControl)


def test_no_scene_asks_which_controller_it_has_or_reaches_into_the_match_or_the_table():
    forbidden = re.compile(r"isinstance\([^)]*Controller|controller\.match\b|RemoteMatch|RemoteRound"
                           r"|table\._|table\.result_shown|table\.selected\s*=")
    offences = [f"{path.name}:{n}: {line.strip()}" for path in sorted(SCENES.glob("*.py"))
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if forbidden.search(line)]
    assert offences == []


@pytest.mark.parametrize("drive", [local, online], ids=["local", "online"])
def test_a_finished_deal_shows_the_result_once_and_the_next_deal_goes_back_to_the_table(app, drive):
    # One card each; in a duel the first player rotates, so seat 1 starts the second deal. Played to
    # a target no deal reaches: online, a game of one deal offers no next deal.
    match = make_match("duel", ["3H", "5S"], "7H", "KD QD JD TD 2C 3C 4D 5D", options={"target": 500})
    controller, room = drive(match)
    table = TableScene(app, controller)
    app.start(table)
    assert run_until(app, lambda: not table.animator.busy, 600)
    view = table.view
    assert view.my_turn and len(view.hand) == 1
    press(app, pygame.K_RETURN)  # the first Enter picks the only playable card
    press(app, pygame.K_RETURN)  # the second plays it: the deal is over
    assert run_until(app, lambda: top_name(app) == "ResultScene", 600)
    result = app.stack.top
    assert result.view.result is not None and result.view.result.winner == 0
    assert len(controller.results) == 1
    assert result.headline() == "Ana wins!"
    press(app, pygame.K_RETURN)  # New round
    if room is not None:  # online: this seat asked; the room waits for the other player
        assert {"type": "accept_round"} in room.sent and controller.awaiting_deal
        assert [b.label for b in result.buttons][0] == "Waiting for the others…"
        for _ in range(30):
            app.frame(1 / 60)
        assert top_name(app) == "ResultScene"
        room.others_accept()
    assert run_until(app, lambda: top_name(app) == "TableScene", 120)
    assert table.view.round_number == 2 and table.view.status == "playing"
    assert table.animator.busy  # the new deal is being dealt on the table...
    assert table.view.to_act == 1 and controller.thinking is None  # ...and nobody plays before it is
    assert run_until(app, lambda: not table.animator.busy, 600)
    for _ in range(10):
        app.frame(1 / 60)
    assert [type(s).__name__ for s in app.stack.scenes].count("ResultScene") == 0


def denounce_table(app) -> TableScene:
    """Seat 1's turn in ``colors``; the computer at seat 0 went down to one card without calling."""
    match = make_match("colors", ["R5 R6", "Y4 Y6"], "R3", "R9 B2 G3 Y4 B6 G7 Y8 B9")
    act(match, "play R5")
    controller = MatchController(match, [SeatConfig("computer"), SeatConfig("human")],
                                 rng=random.Random(1), speed=0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(1 / 60)
    return table


def spy(table: TableScene) -> list[tuple[object, int | None]]:
    """Record what the table submits (and keep it from the game)."""
    submitted: list[tuple[object, int | None]] = []
    table.controller.submit = lambda action, seat=None: submitted.append((action, seat))  # type: ignore
    return submitted


def test_keys_reach_the_controller_as_the_actions_they_stand_for():
    app = make_app()
    try:
        table = denounce_table(app)
        submitted = spy(table)
        for key in (pygame.K_d, pygame.K_p, pygame.K_e, pygame.K_c, pygame.K_l, pygame.K_a, pygame.K_n):
            press(app, key)
        assert submitted == [(Draw(), 1), (Pass(), 1), (EndTurn(), 1), (CallLastCard(), 1), (Challenge(), 1),
                             (Accept(), 1), (Denounce(0), 1)]
    finally:
        pygame.display.quit()


def test_buttons_carry_their_action_and_a_tap_sends_it():
    app = make_app()
    try:
        table = denounce_table(app)
        intents = [b.intent for b in table.buttons]
        assert set(intents) == {Draw(), Denounce(0), TableCommand.HINT}
        assert [b.hot for b in table.buttons] == [isinstance(i, Draw) for i in intents]
        submitted = spy(table)
        for button in list(table.buttons):
            click(app, button.rect.center)
        assert submitted == [(intent, 1) for intent in intents if intent is not TableCommand.HINT]
        assert table.toast.startswith("Suggestion")  # the hint is the table's own
    finally:
        pygame.display.quit()


def test_taking_the_device_starts_a_fresh_keyboard_selection(app):
    match = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    seats = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")]
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=1.0))
    app.start(table)
    assert run_until(app, lambda: not table.animator.busy, 600)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN, frames=1)  # plays 3H; the card flies to the pile
    assert table.animator.busy and table.view.to_act == 1
    press(app, pygame.K_RIGHT, frames=1)  # Ana's keys still move her selection while it flies
    assert table.selected is not None and top_name(app) == "TableScene"
    assert run_until(app, lambda: top_name(app) == "HandoffScene", 600)
    for _ in range(30):  # the cover ignores input at first
        app.frame(1 / 60)
    press(app, pygame.K_SPACE)
    assert top_name(app) == "TableScene" and table.view.seat == 1
    assert table.selected is None


def test_the_pause_menu_changes_a_computers_level_and_resumes():
    app = make_app()
    try:
        match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
        table = TableScene(app, MatchController(match, [SeatConfig("human"), SeatConfig("computer", "easy")],
                                                rng=random.Random(1), speed=0))
        app.start(table)
        press(app, pygame.K_ESCAPE)
        pause = app.stack.top
        assert top_name(app) == "PauseScene"
        assert [b.intent for b in pause.buttons] == [
            PauseChoice.RESUME, ChangeLevel(1), PauseChoice.SETTINGS, PauseChoice.RULES, PauseChoice.NEW_GAME,
            PauseChoice.MENU]
        press(app, pygame.K_DOWN)
        press(app, pygame.K_RETURN)
        assert table.controller.seats[1].level == "medium"
        assert "Medium" in pause.buttons[1].label
        press(app, pygame.K_ESCAPE)
        assert top_name(app) == "TableScene"
    finally:
        pygame.display.quit()


def test_a_servers_overlong_words_are_cut_before_anything_lays_them_out():
    from game.client.remote import MAX_SERVER_TEXT

    controller, room = online(make_match("duel", ["3H 9H", "5S 6S"], "7H", "KD QD JD TD"))
    room.inbox += [{"type": "error", "code": "seat_taken" + "x" * 100_000, "message": "y" * 100_000},
                   {"type": "error", "code": "replaced", "message": "z" * 100_000},
                   {"type": "error", "code": "illegal", "reason": "r" * 100_000, "message": "w" * 100_000}]
    controller.update(0.0)
    assert controller.refusal is not None and len(controller.refusal) <= MAX_SERVER_TEXT + 200
    assert controller.refusal_code == "replaced"
    assert controller.error is not None and len(str(controller.error)) <= MAX_SERVER_TEXT
    assert len(controller.error.key) <= 40
