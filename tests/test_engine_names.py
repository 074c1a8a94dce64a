"""Names instead of strings: the engine's enums, the options declaration, the structural rule fields.

The enums keep the strings saves, the online protocol and replays have always used,
so an old save (plain strings, rules without the newer fields) loads and plays on.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

import pytest

from game.engine import (
    OPTION_NAMES,
    OPTIONS,
    PRESETS,
    CardsDrawn,
    DrawReason,
    Follow,
    Match,
    Phase,
    Rules,
    RulesError,
    Status,
    preset,
)
from game.engine import events as ev
from game.engine.options import Zero
from game.engine.snapshot import from_plain, to_plain
from game.net.wire import WireError, event_from_json, event_to_json, view_from_json, view_to_json
from game.saves import decode_game
from game.saves.document import pack


def test_the_enums_keep_the_strings_of_saves_replays_and_the_wire():
    assert [p.value for p in Phase] == ["play", "suit", "penalty", "challenge", "over"]
    assert [s.value for s in Status] == ["playing", "round_over", "match_over"]
    assert [f.value for f in Follow] == ["twin", "run", "again"]
    assert [r.value for r in DrawReason] == ["deal", "draw", "penalty", "challenge", "denounce", "timeout"]
    assert Phase.PENALTY == "penalty" and f"{Status.MATCH_OVER}" == "match_over"
    assert json.dumps({"phase": Phase.SUIT}) == '{"phase": "suit"}'


def play_until(match: Match, rng: random.Random, done, steps: int = 3000) -> list[ev.Event]:
    """Random legal actions until ``done(match)``; the events seen."""
    seen: list[ev.Event] = list(match.start_events)
    for _ in range(steps):
        if match.status != Status.PLAYING or done(match):
            break
        seen += match.apply(rng.choice(match.legal_actions()))
    return seen


def test_a_game_holds_members_of_the_enums_in_its_state_views_and_events():
    match = Match(PRESETS["action"], 3, 4)
    seen = play_until(match, random.Random(1), lambda m: m.round.follow is not None)
    assert type(match.status) is Status and type(match.round.phase) is Phase
    assert type(match.round.follow) is Follow
    view = match.view(0)
    assert (type(view.status), type(view.phase), type(view.follow)) == (Status, Phase, Follow)
    assert {type(e.reason) for e in seen if isinstance(e, CardsDrawn)} == {DrawReason}
    assert {type(e.why) for e in seen if isinstance(e, ev.PlayAgain)} == {Follow}


def test_saves_hold_the_enums_as_their_strings_and_read_back_members():
    match = Match(PRESETS["action"], 3, 4)
    seen = play_until(match, random.Random(1), lambda m: m.round.follow is not None)
    plain = to_plain(match, seen)  # what a save holds: the values, plain strings
    kinds = (type(plain["status"]), type(plain["round"]["phase"]), type(plain["round"]["follow"]))
    assert kinds == (str, str, str)
    events: list[ev.Event] = []
    back = from_plain(match.rules, 3, plain, events)
    assert (type(back.status), type(back.round.phase), type(back.round.follow)) == (Status, Phase, Follow)
    assert {type(e.reason) for e in events if isinstance(e, CardsDrawn)} == {DrawReason}
    assert {type(e.why) for e in events if isinstance(e, ev.PlayAgain)} == {Follow}


def as_written_before_the_enums(match: Match) -> None:
    """Make ``match`` what an older version saved: plain strings, rules without the newer fields."""
    match.status = str(match.status)  # type: ignore[assignment]
    r = match.round
    r.phase = str(r.phase)  # type: ignore[assignment]
    r.follow = None if r.follow is None else str(r.follow)  # type: ignore[assignment]
    rules = dataclasses.replace(match.rules)
    for name in ("ranking_xp", "card_markers"):
        object.__delattr__(rules, name)
    match.rules = r.rules = rules


def old_history(events: list[ev.Event]) -> list[ev.Event]:
    out: list[ev.Event] = []
    for event in events:
        if isinstance(event, CardsDrawn):
            event = dataclasses.replace(event, reason=str(event.reason))  # type: ignore[arg-type]
        elif isinstance(event, ev.PlayAgain):
            event = dataclasses.replace(event, why=str(event.why))  # type: ignore[arg-type]
        out.append(event)
    return out


@pytest.mark.parametrize("name", ["colors", "action"])
def test_a_save_written_with_plain_strings_loads_with_the_enums_and_plays_on(name):
    original = Match(PRESETS[name], 3, 9)
    history = play_until(original, random.Random(2), lambda m: m.round.turn_no > 12)
    old = pickle.loads(pickle.dumps(original))
    as_written_before_the_enums(old)
    payload = {"match": old, "seats": [{"kind": "human", "level": "", "name": ""}] * 3,
               "rng": random.Random(0).getstate(), "viewer": 0, "undo": [(pickle.dumps(old), 1, 0)],
               "history": old_history(history), "queue": [], "timer": None, "settled": False}
    loaded = decode_game(pack("game", 1, pickle.dumps(payload)))  # a format-1 save, upgraded
    match = loaded.match
    assert type(match.status) is Status and type(match.round.phase) is Phase
    assert match.rules == PRESETS[name]  # the newer fields come from the preset of that name
    assert {type(e.reason) for e in loaded.history if isinstance(e, CardsDrawn)} == {DrawReason}
    assert match == original
    a, b = random.Random(5), random.Random(5)
    play_until(match, a, lambda m: False)
    play_until(original, b, lambda m: False)
    assert match == original and match.status != Status.PLAYING


def test_rules_saved_as_a_custom_set_take_the_fields_defaults():
    rules = dataclasses.replace(PRESETS["colors"], name="custom")
    object.__delattr__(rules, "ranking_xp")
    assert pickle.loads(pickle.dumps(rules)).ranking_xp is False


def test_the_wire_sends_plain_strings_and_rebuilds_the_enums():
    match = Match(PRESETS["action"], 2, 4)
    events = play_until(match, random.Random(1), lambda m: m.round.follow is not None)
    view = match.view(0)
    sent = json.loads(json.dumps(view_to_json(view)))
    assert (sent["phase"], sent["status"], sent["follow"]) == (view.phase.value, "playing", view.follow)
    back = view_from_json(sent)
    assert back == view and type(back.phase) is Phase and type(back.follow) is Follow
    for event in events:
        again = event_from_json(json.loads(json.dumps(event_to_json(event))))
        assert again == event and type(again) is type(event)
        if isinstance(event, CardsDrawn):
            assert type(again.reason) is DrawReason


@pytest.mark.parametrize("field,value", [("phase", "dancing"), ("follow", "skip"), ("status", 3)])
def test_the_wire_refuses_a_view_with_an_unknown_name(field, value):
    sent = view_to_json(Match(PRESETS["duel"], 2, 1).view(0))
    sent[field] = value
    with pytest.raises(WireError):
        view_from_json(sent)


def test_the_wire_refuses_an_event_with_an_unknown_reason():
    with pytest.raises(WireError):
        event_from_json({"type": "CardsDrawn", "seat": 0, "count": 1, "reason": "gift"})
    with pytest.raises(WireError):
        event_from_json({"type": "PlayAgain", "seat": 0, "why": ["again"]})


# ---- the options declaration -------------------------------------------------------------------
def test_every_option_is_declared_once_as_a_rules_field_of_its_kind():
    names = [option.name for option in OPTIONS]
    assert len(names) == len(set(names)) and tuple(sorted(names)) == OPTION_NAMES
    defaults = {f.name: f.default for f in dataclasses.fields(Rules)}
    for option in OPTIONS:
        assert type(defaults[option.name]).__name__ == option.kind, option.name
        if option.kind == "int":
            assert isinstance(option.zero, Zero), option.name
            assert option.steps[0] == 0 and list(option.steps) == sorted(set(option.steps))
            assert all(option.low <= step <= option.high for step in option.steps), option.name
        else:
            assert option.zero is None and not option.steps


def test_rules_check_options_against_the_declaration():
    for option in OPTIONS:
        if option.kind == "int":
            assert getattr(Rules(**{option.name: option.high}), option.name) == option.high
            with pytest.raises(RulesError, match=f"option {option.name} must be a whole number "
                                                 f"from {option.low} to {option.high}"):
                Rules(**{option.name: option.high + 1})
            with pytest.raises(RulesError):
                Rules(**{option.name: True})
        else:
            with pytest.raises(RulesError, match=f"option {option.name} must be true or false"):
                Rules(**{option.name: 1})


# ---- structural fields instead of preset names ------------------------------------------------
def test_only_the_colors_rules_are_ranked_and_only_the_action_cards_carry_markers():
    assert [name for name, rules in PRESETS.items() if rules.ranking_xp] == ["colors"]
    assert [name for name, rules in PRESETS.items() if rules.card_markers] == ["action"]
    assert preset("colors", {"stacking": False}).ranking_xp  # house rules keep the structure

