"""`python -m game.replay FILE`: scenarios from explicit decks, seeds and options.

Every scenario runs twice: as a real subprocess (``sys.executable -m game.replay``
from the repository root) and in-process through ``game.replay.main`` with capsys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game import replay
from game.engine import PRESETS, Match, deck_for, parse_action, parse_cards

ROOT = Path(__file__).resolve().parent.parent
FIELDS = {"status", "to_act", "legal", "hands", "top", "suit", "draw_pile", "direction",
          "scores", "result"}


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> dict[str, Any]:
        assert self.code == 0, f"exit {self.code}: {self.stderr}"
        assert self.stderr == ""
        data = json.loads(self.stdout)
        assert set(data) == FIELDS
        return data

    @property
    def error(self) -> str:
        """The one stderr line of a refused scenario."""
        assert self.code == 2, f"exit {self.code}, stdout {self.stdout!r}"
        assert self.stdout == ""
        assert "Traceback" not in self.stderr
        lines = self.stderr.strip().splitlines()
        assert len(lines) == 1, self.stderr
        return lines[0]


def _run(mode: str, path: Path, capsys: pytest.CaptureFixture[str]) -> Outcome:
    if mode == "subprocess":
        done = subprocess.run([sys.executable, "-m", "game.replay", str(path)], cwd=ROOT,
                              capture_output=True, encoding="utf-8", timeout=60,
                              env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        return Outcome(done.returncode, done.stdout, done.stderr)
    capsys.readouterr()
    code = replay.main([str(path)])
    out, err = capsys.readouterr()
    return Outcome(code, out, err)


@pytest.fixture(params=["subprocess", "in-process"])
def run(request, tmp_path, capsys):
    """Write a scenario (a dict, or raw text) to a file and replay it."""

    def go(scenario: Any = None, *, raw: str | None = None, path: Path | None = None) -> Outcome:
        if path is None:
            path = tmp_path / "scenario.json"
            path.write_text(raw if raw is not None else json.dumps(scenario), encoding="utf-8")
        return _run(request.param, path, capsys)

    return go


# ---- a duel from an explicit deck ------------------------------------------------------------
# Top first, dealt one at a time from the first player (seat 0 takes the even places):
# seat 0: 7H 8C 2C 3C 4C 5C 6C   seat 1: KD QS JD 3S 2D 3D 4D   start 9H   pile AS 5H 9C KC
DUEL_DECK = ["7H", "KD", "8C", "QS", "2C", "JD", "3C", "3S", "4C", "2D", "5C", "3D", "6C", "4D",
             "9H", "AS", "5H", "9C", "KC"]
SEAT0 = ["7H", "8C", "2C", "3C", "4C", "5C", "6C"]
SEAT1 = ["KD", "QS", "JD", "3S", "2D", "3D", "4D"]


def duel(*actions: str, **more: Any) -> dict[str, Any]:
    return {"preset": "duel", "deck": DUEL_DECK, "rest": "none", "actions": list(actions), **more}


def test_duel_deals_the_explicit_deck_round_the_table_from_the_first_player(run):
    assert run(duel()).output == {
        "status": "playing", "to_act": 0, "legal": ["play 7H", "play 8C"],
        "hands": [SEAT0, SEAT1], "top": "9H", "suit": "H", "draw_pile": 4, "direction": 1,
        "scores": [0, 0], "result": None,
    }


def test_duel_draws_until_a_card_plays_then_only_that_card(run):
    after_one = run(duel("play 7H", "draw")).output
    assert after_one["to_act"] == 1
    assert after_one["legal"] == ["draw"]  # AS does not follow 7H: draw on
    assert after_one["hands"][1] == SEAT1 + ["AS"]
    assert after_one["draw_pile"] == 3
    after_two = run(duel("play 7H", "draw", "draw")).output
    assert after_two["legal"] == ["play 5H"]  # no pass: draw until playable, then play it
    assert after_two["hands"][1] == SEAT1 + ["AS", "5H"]
    assert (after_two["top"], after_two["suit"], after_two["draw_pile"]) == ("7H", "H", 2)


def test_duel_eight_asks_for_a_suit(run):
    out = run(duel("play 7H", "draw", "draw", "play 5H", "play 8C")).output
    assert out["to_act"] == 0
    assert out["legal"] == ["suit C", "suit D", "suit H", "suit S"]
    assert (out["top"], out["suit"]) == ("8C", None)


def test_duel_play_draw_eight_and_suit_print_every_field(run):
    out = run(duel("play 7H", "draw", "draw", "play 5H", "play 8C", "suit S")).output
    assert out == {
        "status": "playing",
        "to_act": 1,
        "legal": ["play 3S", "play AS", "play QS"],
        "hands": [["2C", "3C", "4C", "5C", "6C"], SEAT1 + ["AS"]],
        "top": "8C",
        "suit": "S",
        "draw_pile": 2,
        "direction": 1,
        "scores": [0, 0],
        "result": None,
    }


def test_first_deals_from_the_chosen_seat_and_lets_it_start(run):
    out = run(duel(first=1)).output
    assert out["to_act"] == 1
    assert out["hands"] == [SEAT1, SEAT0]
    assert out["legal"] == ["play 7H", "play 8C"]


# ---- to the end of the round -----------------------------------------------------------------
# seat 0: 5H 6H 7H   seat 1: 2H 9C KS   start 4H   pile 3D TH AC 2C
SHORT_DECK = ["5H", "2H", "6H", "9C", "7H", "KS", "4H", "3D", "TH", "AC", "2C"]
TO_THE_END = ["play 5H", "play 2H", "play 6H", "draw", "draw", "play TH", "play 7H"]


@pytest.mark.parametrize(("name", "points"), [("classic", [22, 0]), ("duel", [0, 0])])
def test_a_round_played_to_the_end_reports_winner_and_points(run, name, points):
    out = run({"preset": name, "seats": 2, "options": {"hand_size": 3}, "deck": SHORT_DECK, "rest": "none",
               "actions": TO_THE_END}).output
    assert out == {
        "status": "match_over",
        "to_act": None,
        "legal": [],
        "hands": [[], ["9C", "KS", "3D"]],  # 9 + 10 + 3 = 22 for the winner of classic
        "top": "7H",
        "suit": "H",
        "draw_pile": 2,
        "direction": 1,
        "scores": points,
        "result": {"winner": 0, "blocked": False, "tie": False, "points": points},
    }


def test_actions_after_the_end_of_a_round_play_the_next_deal(run):
    rules = PRESETS["duel"].with_options({"hand_size": 3})
    match = Match(rules, 2, 5, deck=parse_cards(SHORT_DECK))
    for text in TO_THE_END:
        match.apply(parse_action(text))
    match.next_round()
    assert match.round.to_act == 1  # the duel's first player alternates
    extra = str(match.legal_actions()[0])
    match.apply(parse_action(extra))
    out = run({"preset": "duel", "options": {"hand_size": 3}, "deck": SHORT_DECK, "rest": "none", "seed": 5,
               "actions": TO_THE_END + [extra]}).output
    assert out["status"] == "playing"
    assert out["result"] is None
    assert out["hands"] == [[c.code for c in h] for h in match.round.hands]
    assert out["top"] == match.round.top.code
    assert out["to_act"] == match.round.to_act


# ---- options, seeds ---------------------------------------------------------------------------
# seat 0: JH 5H 9S   seat 1: 2C 3C 4C   start 7H   pile KD QD
JACK_DECK = ["JH", "2C", "5H", "3C", "9S", "4C", "7H", "KD", "QD"]


def test_options_override_the_preset(run):
    plain = run({"preset": "points", "options": {"hand_size": 3}, "deck": JACK_DECK, "rest": "none",
                 "actions": ["play JH"]}).output
    assert plain["hands"] == [["5H", "9S"], ["2C", "3C", "4C"]]
    assert (plain["to_act"], plain["legal"]) == (1, ["draw"])
    skipping = run({"preset": "points", "options": {"hand_size": 3, "jacks_skip": True},
                    "deck": JACK_DECK, "rest": "none", "actions": ["play JH"]}).output
    assert (skipping["to_act"], skipping["legal"]) == (0, ["play 5H"])  # seat 1 skipped
    assert skipping["draw_pile"] == 2 and skipping["top"] == "JH"


def test_option_draw_until_playable_off_lets_a_duel_keep_a_drawn_card(run):
    out = run(duel("play 7H", "draw", options={"draw_until_playable": False})).output
    assert out["legal"] == ["pass"]  # AS does not play; one draw only
    out = run(duel("play 7H", "draw", "pass", options={"draw_until_playable": False})).output
    assert out["to_act"] == 0 and out["hands"][1] == SEAT1 + ["AS"]


def _expected_from_seed(name: str, seats: int, seed: int) -> dict[str, Any]:
    r = Match(PRESETS[name], seats, seed).round
    return {"to_act": r.to_act, "hands": [[c.code for c in h] for h in r.hands],
            "top": r.top.code, "suit": r.suit, "draw_pile": len(r.pile)}


@pytest.mark.parametrize(("name", "seats"), [("duel", 2), ("colors", 3), ("action", 4)])
def test_seed_deals_the_same_game_as_the_engine(run, name, seats):
    for seed in (11, 12):
        out = run({"preset": name, "seats": seats, "seed": seed}).output
        assert {k: out[k] for k in ("to_act", "hands", "top", "suit", "draw_pile")} == \
            _expected_from_seed(name, seats, seed)
    assert run({"preset": name, "seats": seats, "seed": 11}).output["hands"] != \
        run({"preset": name, "seats": seats, "seed": 12}).output["hands"]


def test_same_seed_replays_identically(run):
    scenario = {"preset": "points", "seats": 4, "seed": 99}
    first = run(scenario).output
    scenario["actions"] = [first["legal"][0]]
    one = run(scenario).output
    two = run(scenario).output
    assert one == two
    assert one["to_act"] != first["to_act"] or one["hands"] != first["hands"]


# ---- colors: the last-card call ----------------------------------------------------------------
# seat 0: R5 R7   seat 1: B3 B5   seat 2: G1 G2   start R2   pile Y1 Y2 Y3 Y4
COLOR_DECK = ["R5", "B3", "G1", "R7", "B5", "G2", "R2", "Y1", "Y2", "Y3", "Y4"]


def colors(*actions: str, deck: list[str] = COLOR_DECK, clockwise: bool = True) -> dict[str, Any]:
    """A colours scenario at three seats; played clockwise (seat 0, 1, 2) unless told otherwise."""
    return {"preset": "colors", "seats": 3, "first": 0,
            "options": {"hand_size": 2, "counter_clockwise": not clockwise},
            "deck": deck, "rest": "none", "actions": list(actions)}


def test_colors_offers_the_card_call_with_two_cards(run):
    out = run(colors()).output
    assert out["legal"] == ["card", "draw", "play R5", "play R7"]
    assert out["hands"] == [["R5", "R7"], ["B3", "B5"], ["G1", "G2"]]
    assert (out["top"], out["suit"], out["draw_pile"], out["to_act"]) == ("R2", "R", 4, 0)


def test_colors_forgotten_card_call_can_be_denounced_out_of_turn(run):
    exposed = run(colors("play R5")).output
    assert exposed["to_act"] == 1
    assert exposed["legal"] == ["card", "denounce 0", "draw", "play B5"]
    out = run(colors("play R5", "2: denounce 0")).output
    assert out == {
        "status": "playing", "to_act": 1, "legal": ["card", "draw", "play B5"],
        "hands": [["R7", "Y1", "Y2"], ["B3", "B5"], ["G1", "G2"]],
        "top": "R5", "suit": "R", "draw_pile": 2, "direction": 1,
        "scores": [0, 0, 0], "result": None,
    }


def test_colors_card_called_cannot_be_denounced(run):
    out = run(colors("card", "play R5")).output
    assert out["hands"] == [["R7"], ["B3", "B5"], ["G1", "G2"]]
    assert out["legal"] == ["card", "draw", "play B5"]
    error = run(colors("card", "play R5", "2: denounce 0")).error
    assert error.startswith("action 2 ('2: denounce 0'): ")
    assert "Seat 0 cannot be denounced now." in error


def test_colors_card_call_is_offered_only_with_a_card_to_play(run):
    # Seat 1 holds B3 B4: nothing follows R5, so it draws; "card" is said before playing.
    deck = ["R5", "B3", "G1", "R7", "B4", "G2", "R2", "Y1", "Y2", "Y3", "Y4"]
    out = run(colors("play R5", deck=deck)).output
    assert out["to_act"] == 1
    assert out["legal"] == ["denounce 0", "draw"]


def test_colors_reverse_turns_the_direction(run):
    deck = ["Rrev", "B3", "G1", "R7", "B5", "R1", "R2", "Y1", "Y2"]
    out = run(colors("card", "play Rrev", deck=deck)).output
    assert (out["direction"], out["to_act"]) == (-1, 2)
    assert out["legal"] == ["card", "draw", "play R1"]


def test_colors_starts_counter_clockwise_unless_the_scenario_says_otherwise(run):
    scenario = colors("play R5")
    del scenario["options"]["counter_clockwise"]  # the preset's own rule
    out = run(scenario).output
    assert (out["direction"], out["to_act"]) == (-1, 2)
    out = run(colors("play R5")).output
    assert (out["direction"], out["to_act"]) == (1, 1)


def test_a_seat_not_at_the_table_cannot_act(run):
    error = run(colors("play R5", "3: denounce 0")).error
    assert error.startswith("action 1 ('3: denounce 0'): ")
    assert "no seat 3" in error


# ---- timeout -----------------------------------------------------------------------------------
# seat 0: 3H 4H 5S   seat 1: 2C 6C 9D   start 7D   pile AS 2S 3S
ACTION_DECK = ["3H", "2C", "4H", "6C", "5S", "9D", "7D", "AS", "2S", "3S"]


def test_timeout_is_accepted_by_the_action_preset_though_not_listed(run):
    scenario = {"preset": "action", "first": 0, "options": {"hand_size": 3},
                "deck": ACTION_DECK, "rest": "none"}
    before = run(scenario).output
    assert "timeout" not in before["legal"]
    assert before["to_act"] == 0
    out = run({**scenario, "actions": ["timeout"]}).output
    assert out["to_act"] == 1
    assert out["hands"] == [["3H", "4H", "5S", "AS"], ["2C", "6C", "9D"]]  # a penalty card
    assert out["legal"] == ["play 9D"]
    assert "timeout" not in out["legal"]
    assert out["draw_pile"] == 2


def test_timeout_is_refused_without_a_turn_timer(run):
    error = run(duel("timeout")).error
    assert error == "action 0 ('timeout'): These rules have no turn timer."


# ---- illegal actions ---------------------------------------------------------------------------
def test_an_illegal_action_exits_2_naming_its_index_and_the_reason(run):
    error = run(duel("play 7H", "play 2C")).error
    assert error == "action 1 ('play 2C'): You do not hold 2♣."


@pytest.mark.parametrize(("actions", "index", "reason"), [
    (["draw"], 0, "You may not draw while you hold a card that plays."),
    (["play 2C"], 0, "You must follow"),
    (["play 8C", "play 2C"], 1, "Choose the suit to announce first."),
    (["play 7H", "draw", "draw", "pass"], 3, "You cannot pass"),
    (["play 7H", "fly"], 1, "not an action"),
    (["play ZZ"], 0, "not a card"),
])
def test_illegal_actions_are_reported_with_index_and_reason(run, actions, index, reason):
    error = run(duel(*actions)).error
    assert error.startswith(f"action {index} ({actions[index]!r}): ")
    assert reason in error


# ---- malformed scenarios -----------------------------------------------------------------------
def test_a_file_that_is_not_json_is_refused(run):
    assert "is not valid JSON" in run(raw="{preset: duel").error


def test_a_missing_file_is_refused(run, tmp_path):
    error = run(path=tmp_path / "nowhere.json").error
    assert "cannot read" in error and "nowhere.json" in error


@pytest.mark.parametrize(("scenario", "message"), [
    ([1, 2], "must be a JSON object"),
    ({}, '"preset" must be a preset name'),
    ({"preset": 3}, '"preset" must be a preset name'),
    ({"preset": "duel", "moves": []}, "unknown keys ['moves']"),
    ({"preset": "duel", "seats": "two"}, '"seats" must be a whole number'),
    ({"preset": "duel", "seats": True}, '"seats" must be a whole number'),
    ({"preset": "duel", "seed": 1.5}, '"seed" must be a whole number'),
    ({"preset": "duel", "first": "0"}, '"first" must be a seat number'),
    ({"preset": "duel", "first": 2}, "first must be a seat from 0 to 1"),
    ({"preset": "duel", "seats": 3}, "seat 2 to 2 players, not 3"),
    ({"preset": "duel", "options": ["hand_size"]}, '"options" must be an object'),
    ({"preset": "duel", "actions": "play 7H"}, '"actions" must be a list'),
    ({"preset": "duel", "actions": [1]}, '"actions" must be a list'),
    ({"preset": "duel", "deck": "7H 8H"}, '"deck" must be a list'),
    ({"preset": "uno"}, "unknown preset 'uno'"),
    ({"preset": "duel", "options": {"turbo": True}}, "unknown option 'turbo'"),
    ({"preset": "duel", "options": {"runs": True}}, "does not apply to the duel rules"),
    ({"preset": "duel", "options": {"hand_size": "7"}}, "option hand_size must be a whole"),
    ({"preset": "duel", "deck": ["7H", "ZZ"] + DUEL_DECK[2:]}, "deck: not a card: 'ZZ'"),
    ({"preset": "duel", "deck": DUEL_DECK[:10], "rest": "none"}, "the explicit deck has 10 cards"),
    ({"preset": "duel", "deck": ["7H"] + DUEL_DECK, "rest": "none"}, "has 1 of 7H"),
    ({"preset": "duel", "deck": ["R5"] + DUEL_DECK, "rest": "none"}, "has 0 of R5"),
])
def test_malformed_scenarios_exit_2_with_a_message(run, scenario, message):
    error = run(scenario).error
    assert message in error


def test_the_scenario_may_come_from_standard_input():
    done = subprocess.run([sys.executable, "-m", "game.replay", "-"], cwd=ROOT,
                          input=json.dumps(duel("play 7H")), capture_output=True,
                          encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["to_act"] == 1


def test_a_reader_that_stops_early_ends_the_replay_quietly_with_exit_1(tmp_path):
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"preset": "points", "seats": 4, "seed": 99}), encoding="utf-8")
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written: the first write breaks the pipe
    try:
        done = subprocess.run([sys.executable, "-m", "game.replay", str(scenario)], cwd=ROOT, stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 1
    assert done.stderr == ""


# ---- one rule each: the byte-order mark, the notation, a short deck ---------------------------------
def standard_codes() -> list[str]:
    return [card.code for card in deck_for("standard")]


def test_a_utf8_byte_order_mark_is_ignored_and_said_on_standard_error(run, tmp_path):
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(duel("play 7H")).encode("utf-8"))
    with_bom = run(path=path)
    assert with_bom.code == 0
    assert with_bom.stderr == f"{path}: {replay.BOM_NOTE}\n"
    assert json.loads(with_bom.stdout) == run(duel("play 7H")).output


def test_a_utf16_file_is_refused_naming_its_encoding(run, tmp_path):
    path = tmp_path / "utf16.json"
    path.write_bytes(json.dumps(duel()).encode("utf-16"))
    assert run(path=path).error == f"{path} is UTF-16 text (its byte-order mark says so): save it as UTF-8"


@pytest.mark.parametrize(("code", "exact"), [("7h", "7H"), ("10H", "TH"), ("td", "TD"), (" 7H", "7H")])
def test_a_card_code_not_written_exactly_is_refused_with_the_code_to_write(run, code, exact):
    deck = DUEL_DECK.copy()
    place = deck.index(exact) if exact in deck else 0
    deck[place] = code
    error = run({"preset": "duel", "deck": deck, "rest": "none"}).error
    assert error.endswith(f"deck[{place}]: {code!r} is not a card code as the rules write it; write "
                          f"{exact!r} (codes are exact: see docs/rules.md)")


@pytest.mark.parametrize(("action", "exact"), [("play 7h", "play 7H"), ("Draw", "draw"),
                                                ("play  7H", "play 7H"), ("suit s", "suit S")])
def test_an_action_not_written_exactly_is_refused_with_the_action_to_write(run, action, exact):
    actions = ["play 7H"]  # the notation is checked before the rules: the seat or turn does not matter
    error = run(duel(*actions, action)).error
    assert error == f"action {len(actions)} ({action!r}): write it as the notation does: {exact!r}"


def test_a_short_deck_is_refused_naming_the_missing_cards_unless_rest_says_what_follows(run):
    error = run({"preset": "duel", "deck": DUEL_DECK}).error
    assert error.endswith("deck: the standard deck has 52 cards; this one lists 19 (missing 2S, 4S, 5S, "
                          '6S, 7S, 8S and 27 more): list them, or add "rest": "shuffled" or "none" '
                          "(docs/replay.md)")
    assert "missing 3D)" in run({"preset": "duel", "deck": [c for c in
                                                              standard_codes() if c != "3D"]}).error


def test_a_whole_deck_needs_no_rest_and_plays_as_listed(run):
    codes = standard_codes()[::-1]
    out = run({"preset": "duel", "deck": codes}).output
    assert out["hands"][0] == sorted(out["hands"][0], key=codes.index) and out["draw_pile"] == 52 - 15
    assert out["top"] == codes[14]


def test_rest_shuffled_deals_the_listed_top_then_the_missing_cards_shuffled_from_the_seed(run):
    shuffled = run(duel(rest="shuffled", seed=3)).output
    listed = run(duel()).output  # rest none
    assert shuffled["hands"] == listed["hands"] and shuffled["top"] == listed["top"]
    assert (listed["draw_pile"], shuffled["draw_pile"]) == (4, 52 - 15)
    piles = {seed: [c.code for c in replay.load_scenario(duel(rest="shuffled", seed=seed))[0].round.pile]
             for seed in (3, 4)}
    # the pile is drawn from its end: the listed cards (AS 5H 9C KC) first, then the missing ones
    assert [p[-4:] for p in piles.values()] == [["KC", "9C", "5H", "AS"]] * 2
    assert sorted(piles[3]) == sorted(piles[4]) and piles[3] != piles[4]  # the seed shuffles the rest
    assert piles[3] == [c.code for c in replay.load_scenario(duel(rest="shuffled", seed=3))[0].round.pile]


@pytest.mark.parametrize(("scenario", "message"), [
    ({"preset": "duel", "deck": ["7H"], "rest": "all"}, '"rest" must be "shuffled" or "none", not "all"'),
    ({"preset": "duel", "deck": ["7H"], "rest": None}, '"rest" must be "shuffled" or "none", not null'),
    ({"preset": "duel", "rest": "shuffled"}, '"rest" says what follows the cards of "deck": give "deck" too'),
])
def test_rest_is_one_of_two_words_and_goes_with_a_deck(run, scenario, message):
    assert run(scenario).error.endswith(message)
