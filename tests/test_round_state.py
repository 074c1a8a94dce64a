"""A round's state is declared once (`game.engine.state`): clone, positions, views and
determinizations all follow the declaration."""

import dataclasses
import random

import pytest

from game.engine import PRESETS, Match, PlayerView, Round
from game.engine.round import ROUND_STATE, restored_round
from game.engine.snapshot import ROUND_FIELDS, from_plain, to_plain
from game.engine.state import Copy, Plain, declared, restored, saved_state, state, state_of


def played(name: str = "action", players: int = 3, seed: int = 5, moves: int = 30) -> Match:
    match = Match(PRESETS[name], players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.status != "playing":
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


SAVED_SO_FAR = (
    "number", "dealer", "first", "hands", "pile", "discard", "suit", "direction", "to_act", "phase",
    "drawn", "last_drawn", "played", "follow", "follow_suit", "run_next", "pending", "pending_by",
    "bluff_by", "called", "exposed", "turn_no", "passes", "result", "start_choice", "explicit",
)
"""The round's fields as every save holds them, in order (a new field comes after them)."""


def test_a_position_writes_the_round_fields_in_the_order_saves_always_held():
    assert ROUND_FIELDS[:len(SAVED_SO_FAR)] == SAVED_SO_FAR
    newer = [f for f in ROUND_STATE if f.name in ROUND_FIELDS[len(SAVED_SO_FAR):]]
    assert all(f.before is not dataclasses.MISSING for f in newer), "saved rounds lack a newer field"


def test_every_field_a_view_shows_as_it_is_is_a_field_of_the_view():
    view_fields = {f.name for f in dataclasses.fields(PlayerView)}
    names = [f.view for f in state_of(Round) if f.view is not None]
    assert names and set(names) <= view_fields
    assert len(set(names)) == len(names)


def test_the_round_is_its_declared_fields_and_nothing_else():
    assert Round.__slots__ == tuple(f.name for f in ROUND_STATE)
    match = played()
    assert set(saved_state(match.round)) == {f.name for f in ROUND_STATE} - {"table", "_legal"}


def test_a_clone_copies_every_list_and_table_the_round_changes_and_shares_the_rest():
    r = played().round
    r.legal_actions()  # fills the cache a clone must not share
    rng = random.Random(1)
    clone = r.clone(rng)
    for f in ROUND_STATE:
        mine, theirs = getattr(r, f.name), getattr(clone, f.name)
        if f.copy in (Copy.LIST, Copy.MAP):
            assert theirs == mine and theirs is not mine, f.name
        elif f.copy is Copy.PER_SEAT:
            assert theirs == mine and all(a is not b for a, b in zip(theirs, mine, strict=True)), f.name
        elif f.copy is Copy.GENERATOR:
            assert theirs is rng
        elif f.copy is Copy.CACHE:
            assert theirs is None
        else:
            assert theirs is mine, f.name


def test_a_round_saved_before_a_field_existed_reads_it_as_the_declared_value():
    match = played("points", 4, 2)
    older = [f for f in ROUND_STATE if f.name in ("start_choice", "explicit")]  # format 1 lacked them
    assert [f.before for f in older] == [False, False]
    plain = to_plain(match)
    for f in older:
        assert plain["round"][f.name] == f.before  # this position's values are the older ones
        del plain["round"][f.name]
    assert from_plain(match.rules, match.players, plain).round == match.round


def test_a_position_missing_a_field_every_round_has_is_still_refused():
    match = played()
    plain = to_plain(match)
    del plain["round"]["passes"]
    with pytest.raises(ValueError, match="passes"):
        from_plain(match.rules, match.players, plain)


def test_a_round_rebuilt_from_fields_needs_every_one_of_them():
    r = played().round
    values = saved_state(r)
    assert restored_round(values) == r
    del values["turn_no"]
    with pytest.raises(TypeError, match="turn_no"):
        restored_round(values)
    with pytest.raises(TypeError, match="colour"):
        restored_round({**saved_state(r), "colour": "red"})


def test_every_field_a_position_holds_has_a_kind_and_every_kind_is_used():
    kinds = {f.plain for f in ROUND_STATE if f.plain is not None}
    assert kinds == set(Plain)
    assert {f.name for f in ROUND_STATE if f.plain is None} == {"rules", "players", "rng", "table", "_legal"}


# ---- the declaration itself, on a class of its own -----------------------------------------------
def _doubled(obj):
    return {"twice": obj.count * 2}


@declared(_doubled)
class Tally:
    """A small declared class: a clone and a restore follow its declaration as the round's do."""

    count: int = state(plain=Plain.TURN, start=0)
    marks: list = state(Copy.LIST, plain=Plain.CARDS, start=[])
    per_seat: list = state(Copy.PER_SEAT, plain=Plain.HANDS)
    seen: dict = state(Copy.MAP, plain=Plain.EXPOSED, start={})
    rng: random.Random = state(Copy.GENERATOR)
    twice: int = state(Copy.DERIVED)
    memo: object = state(Copy.CACHE)


def test_a_declared_class_clones_restores_and_derives_from_its_declaration():
    tally = restored(Tally, {"count": 3, "marks": [1], "per_seat": [[1], [2]], "seen": {0: 1},
                             "rng": random.Random(0)})
    assert tally.twice == 6 and tally.memo is None
    tally.memo = "remembered"
    copy = tally.clone()
    copy.marks.append(2)
    copy.per_seat[0].append(9)
    copy.seen[1] = 2
    assert (tally.marks, tally.per_seat, tally.seen) == ([1], [[1], [2]], {0: 1})
    assert copy.count == 3 and copy.twice == 6 and copy.memo is None
    assert copy.rng is not tally.rng
    assert saved_state(copy).keys() == {"count", "marks", "per_seat", "seen", "rng"}


def test_a_list_or_a_table_may_only_start_empty_and_a_view_field_is_a_name():
    with pytest.raises(ValueError, match="starts empty"):
        state(Copy.LIST, start=[1])
    with pytest.raises(ValueError, match="view field"):
        state(view="hand counts")
