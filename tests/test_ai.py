"""Computer players: legal moves on every preset, no peeking, Medium beats Easy, Hard searches
(reading the opponents' choices: tests/test_ai_reading.py)."""

import random

import pytest

from game.ai import player_for
from game.ai import playout as playout_module
from game.ai.hard import Hard
from game.ai.knowledge import Knowledge
from game.ai.players import Easy, Medium
from game.ai.playout import HORIZON, Lacks, playout, policy, reward
from game.ai.sampler import Guesser
from game.engine import PRESETS, Match
from game.engine import events as ev
from game.engine.actions import parse_action
from game.engine.cards import parse_card
from game.engine.determinize import round_from_view, unseen_cards
from tests.support import act, make_match, mid_game
from tools import arena as arena_module
from tools.arena import play_match, run, wilson

CASES = [(name, n) for name, rules in PRESETS.items()
         for n in sorted({rules.min_players, 4, rules.max_players})
         if rules.min_players <= n <= rules.max_players]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_level_plays_only_legal_moves_to_the_end(name, players):
    rules = PRESETS[name]
    levels = ["easy", "medium", "hard"]
    seats = [Hard(None, max_playouts=8, min_playouts=1) if levels[s % 3] == "hard"
             else player_for(levels[s % 3]) for s in range(players)]
    match = play_match(rules, seats, seed=players)
    assert match.status in ("round_over", "match_over")


def shuffled_hidden(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with every card ``seat`` cannot see dealt again at random."""
    view = match.view(seat)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands = []
    for s, count in enumerate(view.hand_counts):
        if s == seat:
            hands.append(list(view.hand))
        else:
            hands.append([pool.pop() for _ in range(count)])
    other = Match(match.rules, match.players, 0)
    other.__dict__.update(match.__dict__)
    other.round = round_from_view(view, hands, pool, random.Random(0), bluff_by=match.round.bluff_by)
    return other


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_a_computer_never_peeks_at_cards_it_cannot_see(level, name):
    rules = PRESETS[name]
    rng = random.Random(11)
    for match in mid_game(rules, rng):
        seat = match.to_act
        player = Hard(None, max_playouts=30, min_playouts=1) if level == "hard" else player_for(level)
        choice = player.choose(match.view(seat), random.Random(5))
        for trial in range(3):
            other = shuffled_hidden(match, seat, random.Random(trial))
            assert other.view(seat) == match.view(seat)
            again = Hard(None, max_playouts=30, min_playouts=1) if level == "hard" else player_for(level)
            assert again.choose(other.view(seat), random.Random(5)) == choice


def test_medium_beats_easy_at_duel_beyond_luck():
    side_a, _ = run("duel", 2, "medium", "easy", games=400, budget=0.0, seed=0, jobs=1)
    low, _ = wilson(side_a.wins, side_a.games)
    assert side_a.games == 400
    assert low > 0.5


@pytest.mark.parametrize("name", ["classic", "points"])
def test_the_arena_calls_a_round_that_goes_on_for_ever_a_tie(monkeypatch, name):
    monkeypatch.setattr(arena_module, "MAX_ACTIONS", 3)
    side_a, side_b = arena_module.play_deal(
        (name, 4, "medium", "easy", 0, 0.0, None, None, 0, 0.0, None, None))
    assert (side_a.games, side_a.wins, side_b.wins) == (4, 1.0, 3.0)  # every rotation shared four ways


def test_wilson_interval_brackets_the_rate():
    low, high = wilson(60, 100)
    assert low < 0.6 < high
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691


def test_hard_skips_search_with_one_legal_action():
    m = make_match("duel", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    hard = Hard(None, max_playouts=50)
    assert [str(a) for a in m.view(0).legal] == ["play 3H"]
    assert str(hard.choose(m.view(0), random.Random(1))) == "play 3H"
    assert hard.last_playouts == 0


def test_hard_falls_back_to_medium_rules_without_enough_playouts():
    m = make_match("duel", ["3H 8C 5S", "5D 6S 2D"], "7H", "KD QD JD")
    hard = Hard(None, max_playouts=2, min_playouts=10)
    assert hard.choose(m.view(0), random.Random(1)) == Medium().choose(m.view(0), random.Random(1))
    assert hard.last_playouts == 2


def test_hard_finds_the_winning_last_two_cards():
    # Playing the 3H leaves 3C: a rank switch the opponent cannot stop; the eight is kept.
    m = make_match("duel", ["3H 3C 8S", "KD QD JD"], "7H", "2S 4S 5S 6S 9S TS")
    hard = Hard(None, max_playouts=300)
    assert str(hard.choose(m.view(0), random.Random(2))) == "play 3H"


def test_a_forced_draw_shows_what_the_opponent_lacks():
    m = make_match("duel", ["3H 9C 4D", "5S 6S 2D"], "7H", "KS QD JD TD")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events:
        knowledge.observe(event.for_seat(0))
    for event in act(m, "play 3H", "draw"):
        knowledge.observe(event.for_seat(0))
    cohorts = knowledge.hand_cohorts(1, len(m.round.hands[1]))
    assert "H" in cohorts[0].no_suits and "3" in cohorts[0].no_ranks and cohorts[0].no_wild


def test_easy_picks_among_the_legal_actions_at_random():
    m = make_match("duel", ["3H 7C 4H", "5S 6S 2D"], "7H", "KD QD JD")
    seen = {str(Easy().choose(m.view(0), random.Random(i))) for i in range(40)}
    assert seen == {str(a) for a in m.view(0).legal}


def test_medium_keeps_its_eight_and_names_its_long_suit():
    m = make_match("duel", ["8C 4H 5S 6S", "KD QD JD TD"], "7H", "2C 3C 9C")
    assert str(Medium().choose(m.view(0), random.Random(0))) == "play 4H"
    m = make_match("duel", ["8C 5S 6S 2S", "KD QD JD TD"], "7H", "2C 3C 9C")
    act(m, "play 8C")
    assert str(Medium().choose(m.view(0), random.Random(0))) == "suit S"


def test_every_level_plays_pair_games_to_the_end():
    rules = PRESETS["colors"].with_options(pairs=True, turn_seconds=10)
    seats = [Hard(None, max_playouts=8, min_playouts=1), player_for("medium"), player_for("medium"),
             player_for("easy")]
    match = play_match(rules, seats, seed=3)
    assert match.status == "match_over"
    assert len(match.winners) == 2 and match.winners in ((0, 2), (1, 3))


def test_a_computer_never_denounces_its_partner():
    from game.client.controller import MatchController, SeatConfig

    m = make_match("colors", ["R5 B5", "G1 G2", "R7 B7", "Y3 Y4"], "R4", "R1 R2 R3 R6 R8 R9",
                   options={"pairs": True})
    seats = [SeatConfig("human"), SeatConfig("human"), SeatConfig("computer"), SeatConfig("human")]
    c = MatchController(m, seats, rng=random.Random(0), speed=0)
    act(m, "play R5")  # seat 0 goes down to one card without calling "Card"
    assert "denounce 0" in [str(a) for a in m.legal_actions(2)]
    for _ in range(600):
        c.update(1 / 60)
    assert len(m.round.hands[0]) == 1  # its partner at seat 2 stayed quiet


def test_the_search_drops_candidates_shown_worse_and_keeps_close_ones():
    from game.ai.hard import survivors

    lead = [1.0, 1.0, 0.0, 1.0] * 10
    close = [1.0, 0.0, 1.0, 1.0] * 10
    clearly_worse = [0.0, 0.0, 0.0, 1.0] * 10
    assert survivors([lead, close, clearly_worse], [0, 1, 2]) == [0, 1]


def test_a_voluntary_colors_draw_only_suggests_what_the_hand_lacks():

    m = make_match("colors", ["R5 B5 G7", "R1 Y2 Y3"], "R4", "G1 G2 G3 G4 G5 G6")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events + act(m, "play R5", "draw", "pass"):
        knowledge.observe(event.for_seat(0))
    old = knowledge.hand_cohorts(1, 4)[0]
    assert not old.no_suits and old.soft_suits == {"R"} and old.soft_ranks == {"5"}
    view = m.view(0)
    guesser = Guesser(view, knowledge)
    rng = random.Random(3)
    misses = 0
    for _ in range(200):
        hand = guesser.sample(rng).hands[1][:3]
        misses += any(c.suit == "R" or c.rank == "5" for c in hand)
    assert 0 < misses < 80  # mostly honoured, never taken as certain


def test_a_drawn_card_kept_suggests_it_could_not_be_played():
    m = make_match("colors", ["R5 B5 G7", "R1 Y2 Y3"], "R4", "G1 G2 G3 G4 G5 G6")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events + act(m, "play R5", "draw", "pass"):
        knowledge.observe(event.for_seat(0))
    old, kept = knowledge.hand_cohorts(1, 4)
    assert (kept.count, kept.soft_suits, kept.soft_ranks, kept.soft_wild) == (1, {"R"}, {"5"}, True)
    assert not kept.no_suits and not kept.no_wild  # only suggested: a drawn card may be kept
    assert not old.soft_wild  # a voluntary draw says nothing of the wilds held before
    assert not kept.hardened().admits(parse_card("W"), m.rules.wild_ranks)


def test_a_drawn_card_kept_after_a_ten_suggests_only_it_was_not_of_the_asked_suit():
    m = make_match("action", ["4H 2C 6D", "TH 3C 7D"], "5H", "2S 9S 9C 9D")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events + act(m, "play 4H", "play TH", "draw", "pass"):
        knowledge.observe(event.for_seat(0))
    old, kept = knowledge.hand_cohorts(1, 3)
    assert old.no_suits == {"H"}  # drawing after the 10 proved it held no heart
    assert (kept.count, kept.soft_suits, kept.soft_ranks, kept.soft_wild) == (1, {"H"}, set(), False)


def test_a_drawn_card_played_at_once_marks_nothing():
    m = make_match("colors", ["R5 B5 G7", "R1 Y2 Y3"], "R4", "R9 G2 G3 G4 G5 G6")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events + act(m, "play R5", "draw", "play R9"):
        knowledge.observe(event.for_seat(0))
    assert not any(c.soft_wild for c in knowledge.hand_cohorts(1, 3))  # (the draw still hints at R, 5)
    assert knowledge.drawing is None


def test_a_forced_draw_in_a_playout_shows_what_the_drawer_lacks():
    m = make_match("duel", ["3H 5C 5S 9D", "KS QS JS TS"], "7H", "2D 4D 6D 9C")
    r = m.round.clone(random.Random(0))
    lacks = Lacks(r)
    assert lacks.active
    r.apply(parse_action("play 3H"), events=False)
    lacks.before(r, parse_action("draw"))  # seat 1 holds no heart, no 3, no eight
    assert lacks.suits == [set(), {"H"}]


def test_playout_players_lead_the_next_player_into_a_suit_it_lacks():
    m = make_match("duel", ["5C 5S 9D", "KH QH JH"], "5D", "2D 4D 6D 9C")
    r = m.round
    # 5C and 5S score the same: without a mark a coin flip decides, with one the lacked suit wins.
    unmarked = str(policy(r, random.Random(0), Lacks(r), noise=0.0))
    other = "S" if unmarked == "play 5C" else "C"
    assert unmarked in ("play 5C", "play 5S")
    assert str(policy(r, random.Random(0), Lacks(r, [set(), {other}]), noise=0.0)) == f"play 5{other}"


def test_playouts_shed_high_cards_where_points_count_as_medium_does():
    m = make_match("classic", ["3S KS 9D", "2C 4C 5C"], "7S", "2D 4D 6D 9C TD")
    medium = Medium()
    for event in m.start_events:
        medium.observe(0, event.for_seat(0), m.rules, 2)
    assert str(medium.choose(m.view(0), random.Random(0))) == "play KS"
    assert str(policy(m.round, random.Random(0), Lacks(m.round), noise=0.0)) == "play KS"


def test_playouts_make_mediums_choices_in_its_own_games():
    # Over whole Medium games, the playout policy (no noise) picks what Medium picked, but
    # for its coin-flip tie-breaks between cards it scores alike.
    for name in ("classic", "colors", "action"):
        rules = PRESETS[name]
        same = total = 0
        for deal in range(4):
            match = Match(rules, 4, 500 + deal)
            seats = [Medium() for _ in range(4)]
            events = list(match.start_events)
            rng = random.Random(deal)
            while match.status == "playing" and total < 4000:
                for s, player in enumerate(seats):
                    for event in events:
                        player.observe(s, event.for_seat(s), rules, 4)
                seat = match.to_act
                view = match.view(seat)
                chosen = seats[seat].choose(view, rng)
                if len(view.legal) > 1:
                    known = [seats[seat].lacking(view, s) for s in range(4)]
                    mine = policy(match.round, random.Random(1), Lacks(match.round, known), noise=0.0)
                    same += mine == chosen
                    total += 1
                events = match.apply(chosen, seat)
        assert same >= 0.95 * total, (name, same, total)


def test_lacks_are_not_inferred_where_drawing_proves_nothing():
    m = make_match("colors", ["R3 G5 B7", "Y1 Y2 Y3"], "R9", "G1 G2 G3")
    assert not Lacks(m.round).active


def test_without_a_target_only_the_rounds_win_counts():
    m = make_match("classic", ["3H", "KS", "2C"], "7H", "2D 4D 6D 9C")
    r = m.round.clone(random.Random(0))
    r.apply(parse_action("play 3H"), events=False)
    assert r.over and reward(r, (0,)) == 1.0
    assert reward(r, (2,)) == 0.0


def test_a_playout_cut_short_is_judged_by_the_hand_sizes():
    m = make_match("classic", ["3H 4H 5H 6H 7C", "KS QS JS TS 9S", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"],
                   "7H", "2S 3S 4S 5S 6S 7S 8D 9D TD JD QD KD AD AS AC")
    r = m.round.clone(random.Random(0))
    assert playout(r, random.Random(0), horizon=3) == 3 and not r.over
    sizes = [len(h) for h in r.hands]
    shares = [reward(r, (s,)) for s in range(4)]
    assert abs(sum(shares) - 1.0) < 1e-9
    best, worst = sizes.index(min(sizes)), sizes.index(max(sizes))
    assert min(sizes) < max(sizes) and shares[best] > shares[worst]
    assert reward(r, (0, 2)) == pytest.approx(shares[0] + shares[2])  # partners share their chances
    whole = m.round.clone(random.Random(0))
    playout(whole, random.Random(0), horizon=None)
    assert whole.over


def watched(seat: int, *events: ev.Event) -> Knowledge:
    """A duel Knowledge of ``seat`` fed ``events`` (seat 1 was dealt four cards)."""
    knowledge = Knowledge(seat, PRESETS["duel"], 2)
    for event in (ev.RoundStarted(1, 0, 0, 1, 4), ev.CardsDrawn(1, 4, "deal"),
                  ev.StartCard(parse_card("7H")), *events):
        knowledge.observe(event)
    return knowledge


def test_a_wild_played_suggests_the_hand_could_not_follow():
    knowledge = watched(0, ev.CardPlayed(1, parse_card("8S")))
    [cohort] = knowledge.hand_cohorts(1, 3)
    assert "H" in cohort.soft_suits and "7" in cohort.soft_ranks
    assert not cohort.no_suits  # only suggested: Easy plays its eights on a whim


def test_a_player_caught_holding_what_its_wild_denied_is_no_longer_read():
    knowledge = watched(0, ev.CardPlayed(1, parse_card("8S")), ev.SuitChosen(1, "D"),
                        ev.CardPlayed(0, parse_card("9D")), ev.CardPlayed(1, parse_card("9H")))
    assert 1 in knowledge.erratic
    [cohort] = knowledge.hand_cohorts(1, 2)
    assert not cohort.soft_suits and not cohort.soft_ranks
    knowledge.observe(ev.CardPlayed(1, parse_card("8C")))
    [cohort] = knowledge.hand_cohorts(1, 1)
    assert not cohort.soft_suits


def test_only_a_broken_suggestion_makes_a_player_erratic():
    # Seat 1's draw on a heart marked its dealt cards "no heart" (a proof, not a suggestion);
    # a heart played later breaks that proof (cards can change hands unseen), but says
    # nothing about how it plays its wilds.
    knowledge = watched(0, ev.CardsDrawn(1, 1, "draw"), ev.CardPlayed(1, parse_card("7C")),
                        ev.CardPlayed(0, parse_card("9C")), ev.CardPlayed(1, parse_card("9H")))
    assert 1 not in knowledge.erratic


@pytest.mark.parametrize(("name", "horizon"), [("points", None), ("classic", HORIZON), ("duel", HORIZON)])
def test_hard_plays_out_to_the_round_end_only_in_a_match_to_a_target(monkeypatch, name, horizon):
    seen: set[int | None] = set()

    def recording(r, rng, seeded=None, horizon=HORIZON):
        seen.add(horizon)
        return playout(r, rng, seeded, horizon)

    monkeypatch.setattr(playout_module, "playout", recording)
    m = make_match(name, ["3H 3C 5H 9D", "KS QS JS TS"], "7H", "2S 4S 5S 6S 9S")
    Hard(None, max_playouts=40).choose(m.view(0), random.Random(0))
    assert seen == {horizon}


def test_playout_players_denounce_a_missed_card_call_before_answering_a_wild_four():
    # Seat 0 plays its Wild +4 down to one card without calling "Card": Medium, asked to challenge
    # or accept, denounces first, and the playouts' players must do as it does.
    m = make_match("colors", ["W+4 R1", "G1 G2"], "Y4", "Y1 Y2 Y3 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B6")
    act(m, "play W+4", "suit B")
    assert "denounce 0" in {str(a) for a in m.legal_actions(1)}
    assert str(Medium().choose(m.view(1), random.Random(0))) == "denounce 0"
    assert str(policy(m.round, random.Random(0), noise=0.0)) == "denounce 0"


def test_the_regret_benchmark_prices_a_winning_play_at_a_whole_round():
    from game.engine import Draw, Play
    from tools.regret import Decision, regrets, worth

    # Seat 0 can go out with R5 or draw instead (the colors rules allow drawing a playable hand).
    m = make_match("colors", ["R5", "G1"], "R3", "Y1 Y2 Y3 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B6")
    view = m.view(0)
    assert set(view.legal) == {Play(parse_card("R5")), Draw()}
    play, draw = Play(parse_card("R5")), Draw()
    assert worth(m.round, play, (0,), [set(), set()], None, 20, 0) == 1.0
    assert worth(m.round, draw, (0,), [set(), set()], None, 20, 0) < 1.0
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events:
        knowledge.observe(event.for_seat(0))
    decision = Decision(view, knowledge, m.round, [play, draw], [1.0, 0.4], [1.0, 0.5])
    assert decision.regret(draw) == pytest.approx(0.6)
    for level in ("medium", "hard", "oracle", "again"):
        assert regrets([decision], level, playouts=40, seed=0) == [0.0]


def test_the_regret_benchmark_prints_each_level_and_kind_of_decision(capsys):
    from tools.regret import main

    main(["--preset", "duel", "--players", "2", "--deals", "1", "--rollouts", "4", "--playouts", "24"])
    out = capsys.readouterr().out
    assert "decisions of seat 0" in out
    for name in ("Medium", "Hard told the cards", "worths again", "by kind"):
        assert name in out


def test_the_regret_oracle_guesses_the_real_hands_and_a_shuffled_pile():
    from tools.regret import Oracle

    m = make_match("colors", ["R5 R6", "G1 G2"], "R3", "Y1 Y2 Y3 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B6")
    guesses = Oracle(m.round, 40).guesser(m.view(0), None)
    piles = set()
    for k in range(5):
        guess = guesses.sample(random.Random(k))
        assert guess.hands == m.round.hands
        assert sorted(map(str, guess.pile)) == sorted(map(str, m.round.pile))
        piles.add(tuple(map(str, guess.pile)))
    assert len(piles) > 1
