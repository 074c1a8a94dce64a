"""A match's position as plain data (`game.engine.snapshot`): written, read back, and checked."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from game.engine import PRESETS, Match, RulesError, Status, preset
from game.engine.snapshot import from_plain, rules_from_plain, rules_to_plain, to_plain

PLAIN = (dict, list, tuple, str, int, float, bool, type(None))


def is_plain(value) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and is_plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(is_plain(v) for v in value)
    return type(value) in PLAIN


def played(name: str, players: int, seed: int, steps: int) -> tuple[Match, list]:
    """A match after ``steps`` random steps (new deals as they end), and its deal's events."""
    m = Match(PRESETS[name], players, seed)
    rng = random.Random(seed)
    events = list(m.start_events)
    for _ in range(steps):
        if m.status != Status.PLAYING:
            if m.status == Status.MATCH_OVER and m.target:
                break
            events = m.next_round()
        else:
            events += m.apply(rng.choice(m.legal_actions()))
    return m, events


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_position_of_a_game_reads_back_as_the_same_match(name):
    rules = PRESETS[name]
    for players in sorted({rules.min_players, rules.max_players}):
        m = Match(rules, players, 11)
        rng = random.Random(players)
        events = list(m.start_events)
        for step in range(400):
            if m.status != Status.PLAYING:
                if m.status == Status.MATCH_OVER and m.target:
                    break
                events = m.next_round()
            else:
                events += m.apply(rng.choice(m.legal_actions()))
            if step % 5:
                continue
            data = to_plain(m, events)
            assert is_plain(data)
            told: list = []
            back = from_plain(m.rules, players, copy.deepcopy(data), told)
            assert back == m and told == events
            assert back.round.pile == m.round.pile and back.rng.getstate() == m.rng.getstate()


def test_a_match_set_up_from_a_position_plays_on_replays_and_rewinds():
    original, events = played("points", 4, 3, 150)
    told: list = []
    m = from_plain(original.rules, 4, to_plain(original, events), told)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(80):
        for match, rng in ((original, rng_a), (m, rng_b)):
            if match.status == Status.PLAYING:
                match.apply(rng.choice(match.legal_actions()))
            elif match.status == Status.ROUND_OVER:
                match.next_round()
    assert m == original  # the same draws, the same deals
    again: list = []
    assert m.rewound(0, again) == from_plain(original.rules, 4, m.position) and again == told
    assert m.rewound(len(m.log)) == m


def test_the_position_keeps_the_first_seat_of_a_classic_match():
    m = Match(PRESETS["classic"], 3, 5, first=2)
    back = from_plain(m.rules, 3, to_plain(m))
    assert back.first_seat == 2 and back == m


def damaged(change) -> dict:
    """A real position (points, 4 seats, mid-deal) with ``change`` applied to it."""
    m, events = played("points", 4, 2, 40)
    data = to_plain(m, events)
    change(data)
    return data


def set_round(field, value):
    return lambda data: data["round"].__setitem__(field, value)


DAMAGE = {
    "pending = -5": set_round("pending", -5),
    "a pile that is a dict": set_round("pile", {"7H": 1}),
    "a hand of 1M cards": lambda d: d["round"]["hands"].__setitem__(0, ["7H"] * 1_000_000),
    "a card of another deck": lambda d: d["round"]["hands"][0].__setitem__(0, "R5"),
    "a card twice": lambda d: d["round"]["hands"][0].__setitem__(0, d["round"]["discard"][-1]),
    "a card missing": lambda d: d["round"]["pile"].pop(),
    "not a card": lambda d: d["round"]["pile"].__setitem__(0, 7),
    "a missing field": lambda d: d["round"].pop("turn_no"),
    "an unknown field": lambda d: d["round"].__setitem__("cheat", True),
    "a penalty phase without a penalty": set_round("phase", "penalty"),
    "an unknown phase": set_round("phase", "dancing"),
    "round over but playing": lambda d: d.__setitem__("status", "round_over"),
    "scores that are not the deals' points": lambda d: d["scores"].__setitem__(1, 500),
    "the seat to act out of range": set_round("to_act", 4),
    "a bool for a seat": set_round("to_act", True),
    "a float for a number": set_round("turn_no", 3.0),
    "direction 2": set_round("direction", 2),
    "a generator number too large": lambda d: d.__setitem__("rng", (3, (1 << 40,) * 624 + (624,), None)),
    "a generator state cut short": lambda d: d.__setitem__("rng", (3, (1,) * 10, None)),
    "a pending draw card that draws nothing": lambda d: (set_round("pending", 2)(d),
                                                         set_round("pending_by", "3C")(d)),
    "events that do not tell these hands": lambda d: d["events"].pop(),
    "an unknown event": lambda d: d["events"].append(("Cheated", 0)),
    "an event field of the wrong kind": lambda d: d["events"].append(("CardPlayed", 0, "R5")),
    "events of another deal": lambda d: d["events"].__setitem__(0, ("RoundStarted", 9, 0, 1, 1, 5)),
    "no discard pile": lambda d: (d["round"]["pile"].extend(d["round"]["discard"]),
                                  d["round"]["discard"].clear()),
    "a seat exposed twice": set_round("exposed", [[0, 1], [0, 2]]),
    "not a table": lambda d: d.__setitem__("round", [1, 2, 3]),
}


@pytest.mark.parametrize("what", sorted(DAMAGE))
def test_a_position_the_game_could_not_reach_is_refused_with_the_field(what):
    data = damaged(DAMAGE[what])
    with pytest.raises(RulesError) as caught:
        from_plain(PRESETS["points"], 4, data)
    assert str(caught.value)


def test_a_position_for_other_seats_is_refused():
    m, _ = played("points", 4, 2, 40)
    with pytest.raises(RulesError):
        from_plain(PRESETS["points"], 3, to_plain(m))
    with pytest.raises(RulesError):
        from_plain(PRESETS["colors"], 4, to_plain(m))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_are_written_as_their_preset_and_options(name):
    rules = preset(name, {"undo": True}) if "undo" in PRESETS[name].exposed else PRESETS[name]
    plain = rules_to_plain(rules)
    assert is_plain(plain) and plain["preset"] == name
    assert rules_from_plain(plain) == rules


def test_rules_that_are_no_preset_or_options_that_do_not_exist_are_refused():
    with pytest.raises(RulesError):
        rules_to_plain(dataclasses.replace(PRESETS["classic"], name="custom"))
    with pytest.raises(RulesError):
        rules_to_plain(dataclasses.replace(PRESETS["classic"], wild_ranks=frozenset({"7"})))
    for bad in ({"preset": "poker", "options": {}}, {"preset": "duel", "options": {"cheat": True}},
                {"preset": "duel", "options": {"hand_size": "7"}}, {"preset": "duel"}, ["duel"],
                {"preset": "duel", "options": {"hand_size": 99}}):
        with pytest.raises(RulesError):
            rules_from_plain(bad)


def test_every_event_of_the_engine_can_be_written_as_plain_data():
    from game.engine import events as ev
    from game.engine.snapshot import EVENT_NAMES

    kinds = {cls.__name__ for cls in vars(ev).values()
             if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event}
    assert kinds == set(EVENT_NAMES)
