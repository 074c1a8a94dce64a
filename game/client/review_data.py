"""A deal's review data as the device keeps it: a seat's story as JSON, and the record of a deal.

The story (`game.review.story.Story`: the seat's views and the events redacted for it) is
written with the online protocol's own encoding (`game.net.wire`: what a server sends a
seat), the rules once for the whole story. `record_of_table` makes the records of a finished
deal at a table: on this device one per person's seat, from the match's record (so a
resumed game gives what the uninterrupted one would); online the player's own seat, from
what the server sent it. `story_from_json` reads a kept story back, checking everything
(`ReviewDataError` names what is wrong: that record alone is left out).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Final

from game.engine import Match, RulesError, parse_action
from game.engine.match import NEXT
from game.net.wire import (
    WireError,
    event_from_json,
    event_to_json,
    rules_from_json,
    rules_to_json,
    view_from_json,
    view_to_json,
)
from game.review.story import MAX_MOMENTS, Moment, Story, story_of_deal
from game.saves.reviews import ReviewRecord

from .controller import MatchController
from .remote import RemoteController

if TYPE_CHECKING:
    from .table_control import TableControl

MAX_EVENTS: Final = 400
"""Events in one moment (a deal's opening is the longest: its deals and its first card)."""


class ReviewDataError(ValueError):
    """A kept story that cannot be read (the message says what is wrong)."""


def story_to_json(story: Story) -> dict[str, Any]:
    """``story`` as JSON: the rules once, then each moment's events, view and action; a view
    after the first holds only the fields that changed since the moment before."""
    moments = []
    before: dict[str, Any] = {}
    for moment in story.moments:
        whole = view_to_json(moment.view)
        del whole["rules"]  # the same in every moment: written once
        view = {k: v for k, v in whole.items() if k not in before or before[k] != v}
        before = whole
        moments.append({"events": [event_to_json(e) for e in moment.events], "view": view,
                        "action": None if moment.action is None else str(moment.action)})
    return {"rules": rules_to_json(story.moments[0].view.rules), "complete": story.complete,
            "moments": moments}


def story_from_json(value: object) -> Story:
    """The story `story_to_json` wrote.

    Raises:
        ReviewDataError: anything missing, of the wrong type, or not a story of one seat.
    """
    if not isinstance(value, dict) or set(value) != {"rules", "complete", "moments"}:
        raise ReviewDataError("a story holds its rules, whether it is complete, and its moments")
    moments, complete = value["moments"], value["complete"]
    if not isinstance(moments, list) or not 1 <= len(moments) <= MAX_MOMENTS or type(complete) is not bool:
        raise ReviewDataError("a story's moments are a list")
    try:
        rules_json = value["rules"]
        rules_from_json(rules_json)
        read = []
        before: dict[str, Any] = {}
        for raw in moments:
            if not isinstance(raw, dict) or set(raw) != {"events", "view", "action"}:
                raise ReviewDataError("a moment holds its events, view and action")
            events, view, action = raw["events"], raw["view"], raw["action"]
            if not isinstance(events, list) or len(events) > MAX_EVENTS or not isinstance(view, dict):
                raise ReviewDataError("a moment's events are a list and its view a table")
            if action is not None and (type(action) is not str or len(action) > 40):
                raise ReviewDataError("a moment's action is written in its notation")
            before = {**before, **view}
            seen = view_from_json({**before, "rules": rules_json})
            done = None if action is None else parse_action(action)
            if done is not None and done not in seen.legal:
                raise ReviewDataError(f"{action!r} was not legal in its moment")
            read.append(Moment(tuple(event_from_json(e) for e in events), seen, done))
        return Story(read[0].view.seat, tuple(read), complete)
    except (WireError, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, ReviewDataError):
            raise
        raise ReviewDataError(str(exc)[:160]) from None


def deal_key(match: Match) -> str:
    """A name for the match's current deal, the same however the match was rebuilt (resumed,
    undone): how it began and its log up to this deal's start."""
    log = list(match.log)
    begin = max([0] + [i + 1 for i, entry in enumerate(log) if entry[0] == NEXT])
    deck = None if match.first_deck is None else [c.code for c in match.first_deck]
    beginning = repr((match.rules.name, match.players, match.seed, match.start_state, match.first_seat, deck,
                      match.position, log[:begin]))
    return "deal:" + hashlib.sha256(beginning.encode()).hexdigest()[:24] + f":{match.round.number}"


def records_of_table(controller: TableControl, names: list[str]) -> list[ReviewRecord]:
    """The review records of the deal a table just finished: on this device one per seat a
    person plays here, online this player's seat (from what the server sent it). None when
    there is nobody to review for (computers alone), or nothing to review."""
    view = controller.view()
    preset = view.rules.name
    if isinstance(controller, RemoteController):
        story = controller.recorder.story()
        room = controller.room_id or "room"
        if story is None or story.moments[-1].view.round_number != view.round_number:
            return []
        return [ReviewRecord(f"online:{room}:{view.round_number}"[:200], "online", story.seat, tuple(names),
                             preset, view.round_number, story_to_json(story.slim()))]
    if not isinstance(controller, MatchController):
        return []
    match = controller.match
    people = [s for s in controller.local_seats if controller.seats[s].is_human]
    mode = "hotseat" if len(people) >= 2 else "solo"
    key = deal_key(match)
    out = []
    for seat in people:
        try:
            story = story_of_deal(match, seat)
        except RulesError:
            continue
        out.append(ReviewRecord(key, mode, seat, tuple(names), preset, match.round.number,
                                story_to_json(story.slim())))
    return out
