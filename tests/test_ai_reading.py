"""Reading the opponents' choices, and what the guesses make of it: a hand fits the cards and
suits its player chose when Medium's tips would have made those choices from it (`game.ai.reading`);
the sampler deals hands that fit, gives up on a player who fits none, and at a "Liar" decision
fits the Wild +4's player to the +4 itself (`game.ai.sampler`)."""

import random

import pytest

from game.ai import sampler as sampler_module
from game.ai.knowledge import Knowledge
from game.ai.players import Medium
from game.ai.playout import policy
from game.ai.reading import CHECKED
from game.ai.sampler import Guesser
from game.engine import PRESETS, Match
from game.engine import events as ev
from game.engine.cards import parse_card, parse_cards
from tests.support import act, make_match
from tools.inference import WAYS, measure


class Origins:
    """The true draw each card in every hand came with, numbered as `Knowledge` numbers them."""

    def __init__(self, players):
        self.held = [[] for _ in range(players)]
        self.draws = 0

    def observe(self, event):
        if isinstance(event, ev.RoundStarted):
            self.held = [[] for _ in self.held]
            self.draws = 0
        elif isinstance(event, ev.CardsDrawn):
            self.held[event.seat] += [(card, self.draws) for card in event.cards]
            self.draws += 1
        elif isinstance(event, ev.CardPlayed):
            held = self.held[event.seat]
            held.remove(max((c for c in held if c[0] == event.card), key=lambda c: c[1]))

    def hand(self, seat):
        return [c for c, _ in self.held[seat]], [o for _, o in self.held[seat]]


@pytest.mark.parametrize(("name", "players"), [("classic", 4), ("duel", 2), ("points", 3), ("colors", 4),
                                               ("action", 4)])
def test_the_hands_medium_players_hold_fit_their_reading(name, players):
    # Reading replays Medium's own tips: the real hand of a Medium player must fit what
    # it was seen to choose, or the sampler would steer away from the truth. (Which draw a
    # played card came from is a guess where two could have held it: rarely, that misleads.)
    rules = PRESETS[name]
    checked = misfits = 0
    for seed in range(4):
        match = Match(rules, players, seed)
        seats = [Medium() for _ in range(players)]
        origins = Origins(players)

        def tell(events, seats=seats, origins=origins):
            for event in events:
                origins.observe(event)
                for seat, player in enumerate(seats):
                    player.observe(seat, event.for_seat(seat), rules, players)

        tell(match.start_events)
        rng = random.Random(seed)
        while match.status == "playing":
            seat = match.to_act
            reading = seats[seat].knowledge[seat].reading
            for other in range(players):
                if other != seat and reading.read(other):
                    checked += 1
                    misfits += not reading.fits(other, match.round.hands[other])
            tell(match.apply(seats[seat].choose(match.view(seat), rng), seat))
    assert checked > 50
    assert misfits == 0, (misfits, checked)


def read(*events, seat=0, players=2, name="duel"):
    """The Reading of ``seat`` in a game where every seat was dealt four cards and 7H turned."""
    knowledge = Knowledge(seat, PRESETS[name], players)
    for event in (ev.RoundStarted(1, 0, 0, 1, 4), *(ev.CardsDrawn(s, 4, "deal") for s in range(players)),
                  ev.StartCard(parse_card("7H")), *events):
        knowledge.observe(event)
    return knowledge.reading


def test_a_play_that_left_a_longer_suit_in_hand_does_not_fit():
    # Seat 1 followed with 9H; holding 7C and two more clubs, Medium would have switched to clubs.
    reading = read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H")))
    assert reading.read(1)
    assert not reading.fits(1, parse_cards("7C 2C 3C"))
    assert reading.fits(1, parse_cards("7C 2S 3D"))


def test_a_low_card_played_while_points_count_says_no_higher_card_of_that_suit():
    reading = read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("3H")), name="classic")
    assert not reading.fits(1, parse_cards("KH 2S 4D"))
    assert reading.fits(1, parse_cards("2H 5S 4D"))
    assert read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("3H"))).fits(1, parse_cards("KH 2S 4D"))


def test_a_suit_named_after_an_eight_reads_the_longest_suit():
    reading = read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("8C")), ev.SuitChosen(1, "S"))
    assert reading.fits(1, parse_cards("2S 3S 4D"))
    assert not reading.fits(1, parse_cards("2D 3D 4S"))


def test_a_card_kept_from_a_draw_ends_the_reading():
    # Which card of the hand came in with that draw is unknown: the 9H choice cannot be checked.
    reading = read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H")), ev.TurnStarted(1),
                   ev.CardsDrawn(1, 1, "draw"), ev.Passed(1))
    assert not reading.read(1)
    assert reading.fits(1, parse_cards("7C 2C 3C 4S"))


def test_a_card_drawn_and_played_at_once_keeps_the_reading():
    reading = read(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H")), ev.TurnStarted(1),
                   ev.CardsDrawn(1, 1, "draw"), ev.CardPlayed(1, parse_card("5H")))
    assert reading.read(1)
    assert not reading.fits(1, parse_cards("7C 2C 3C"))  # 9H was chosen over a long club suit
    assert reading.fits(1, parse_cards("7C 2S 3D"))


def test_a_choice_owed_to_a_penalty_is_not_read():
    reading = read(ev.PenaltyPending(1, 2), ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H")))
    assert not reading.read(1)


def colors_draw(pile_top, *, penalty=False):
    """Seat 0's knowledge after, in ``colors``, seat 0 plays R1 and seat 1 (holding W B6 Y9 G8:
    no red, and a wild it keeps, its suits too short to name one) draws ``pile_top`` and keeps
    it; ``penalty``: seat 1 first owed a draw (its draw is then no choice)."""
    m = make_match("colors", ["R1 R2 B3 B4", "W B6 Y9 G8"], "R7", f"{pile_top} Y2 Y3 Y4 Y5 G1 G3")
    knowledge = Knowledge(0, m.rules, 2)
    events = [*m.start_events, *act(m, "play R1", "draw", "pass")]
    if penalty:
        events.insert(len(m.start_events) + 1, ev.PenaltyPending(1, 1))
    for event in events:
        knowledge.observe(event.for_seat(0))
    return knowledge


def test_a_draw_chosen_rather_than_play_says_the_hand_held_nothing_it_would_play():
    # Where a player may draw while holding a card that plays, Medium draws rather than play a wild it
    # keeps (it sheds a wild's 50 points unless no suit of its hand is worth naming): the real
    # hand fits; a red card, or a wild beside three blues, would have been played.
    reading = colors_draw("G2").reading
    assert reading.read(1)
    assert reading.fits(1, parse_cards("B6 Y9 G8 G2 Y3"))
    assert not reading.fits(1, parse_cards("R9 B6 Y9 G8 G2"))
    assert not reading.fits(1, parse_cards("W B6 B7 B8 G2"))
    # The card drawn is among the five, unknown: with G2 the wild now scores above the line (two
    # greens to name), but the hand that drew held one green only.
    assert reading.fits(1, parse_cards("W B6 Y9 G8 G2"))


def test_a_draw_owed_to_a_penalty_or_forced_by_the_rules_is_not_read_as_a_choice():
    assert not colors_draw("G2", penalty=True).reading.read(1)
    m = make_match("classic", ["7D 3D 4D 5D", "9S 2C 6S 2S"], "7H", "KS QS JS TS 5C 3C 4C")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play 7D", "draw")]:
        knowledge.observe(event.for_seat(0))
    assert not knowledge.reading.read(1)  # a forced draw: the marks say what it lacked, for certain


def test_the_sampler_deals_hands_that_fit_what_the_opponent_chose():
    # Seat 1 followed 7D with 9D: Medium holding 7C and more clubs would have switched to clubs.
    m = make_match("duel", ["7D 3D 4D 5D", "9D 7C 6S 9S"], "7H", "KS QS JS TS 2C 3C 4C 5C 6C 9C TC")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play 7D", "play 9D")]:
        knowledge.observe(event.for_seat(0))
    guesser = Guesser(m.view(0), knowledge)
    assert guesser.readable == [1]
    rng = random.Random(3)
    hands = [guesser.sample(rng).hands[1] for _ in range(300)]
    assert all(knowledge.reading.fits(1, hand) for hand in hands)
    assert not any(parse_card("7C") in hand and sum(c.suit == "C" for c in hand) >= 2 for hand in hands)


def test_a_player_whose_choices_fit_no_hand_is_no_longer_read(monkeypatch):
    m = make_match("duel", ["7D 3D 4D 5D", "9D 7C 6S 9S"], "7H", "KS QS JS TS 2C 3C 4C 5C 6C 9C TC")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play 7D", "play 9D")]:
        knowledge.observe(event.for_seat(0))
    calls = []
    monkeypatch.setattr(knowledge.reading, "fits", lambda seat, hand: calls.append(seat) or False)
    guesser = Guesser(m.view(0), knowledge)
    rng = random.Random(0)
    for _ in range(sampler_module.GIVE_UP):
        guesser.sample(rng)
    assert guesser.readable == []
    assert len(calls) == sampler_module.GIVE_UP * (sampler_module.FIT_TRIES + 1)
    guesser.sample(rng)
    assert len(calls) == sampler_module.GIVE_UP * (sampler_module.FIT_TRIES + 1)


def test_the_marks_and_the_reading_bring_the_guesses_closer_to_the_real_hands():
    results = measure("classic", 4, deals=5, guesses=10, seed=12345)
    view_only, marks, reading = (results[way][0] for way in WAYS)
    assert reading < marks < view_only


def test_a_wild_four_from_a_big_hand_is_called_a_bluff_by_medium_and_the_playouts():
    from game.ai.tips import bluff_likely

    # A hand of four or more (the +4 included) probably held the colour: 1 - 0.75**4 > 0.6.
    assert [bluff_likely(n) for n in (1, 2, 3, 4, 7)] == [False, False, False, True, True]
    for offender, victim, expected in (("W+4 R1 R2 B4", "G1 G2 G3 G4", "challenge"),
                                       ("W+4 R1 R2", "G1 G2 G3", "accept")):
        m = make_match("colors", [offender, victim], "Y4", "Y1 Y2 Y3 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B6")
        act(m, "play W+4", "suit B")
        assert str(Medium().choose(m.view(1), random.Random(0))) == expected
        assert str(policy(m.round, random.Random(0), noise=0.0)) == expected


def test_naming_the_suit_after_its_own_wild_four_the_searcher_knows_whether_it_bluffed():
    # Seat 0 plays its Wild +4 holding a yellow card (the colour in force): a bluff, which only
    # it knows; every guess it searches must say so, or a challenge would look harmless.
    for hand, bluffed in (("W+4 Y1 R2 B4", True), ("W+4 G1 R2 B4", False)):
        m = make_match("colors", [hand, "G5 G2 G3 G4"], "Y4", "Y2 Y3 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B6")
        knowledge = Knowledge(0, m.rules, 2)
        for event in [*m.start_events, *act(m, "play W+4")]:
            knowledge.observe(event.for_seat(0))
        assert (m.round.bluff_by == 0) is bluffed
        guesser = Guesser(m.view(0), knowledge)
        rng = random.Random(1)
        assert {guesser.sample(rng).bluff_by for _ in range(20)} == {0 if bluffed else None}


def test_at_a_liar_decision_every_guess_fits_the_wild_four_even_of_a_player_no_longer_read(monkeypatch):
    # Seat 1 plays its Wild +4 on B2 while seat 0 holds five cards: by Medium's tips a blue card,
    # a 2 or a plain wild would have scored higher, so a hand that fits the choice never held the
    # colour. Its older choices are made to fit no hand (a player the reading gives up on): the
    # guesses must still fit the +4 and the colour it named, and so never call it a bluff.
    m = make_match("colors", ["B2 G3 G4 G5 G6", "W+4 R3 Y6 Y7 Y8"], "B5",
                   "B1 B3 B4 B6 B7 B8 B9 R1 R6 G1")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play B2", "play W+4", "suit Y")]:
        knowledge.observe(event.for_seat(0))
    assert m.view(0).phase.name == "CHALLENGE"
    real_fits = knowledge.reading.fits
    newest = sampler_module.WILD_FOUR_CHOICES
    monkeypatch.setattr(knowledge.reading, "fits",
                        lambda seat, hand, limit=CHECKED: limit <= newest and real_fits(seat, hand, limit))
    guesser = Guesser(m.view(0), knowledge)
    rng = random.Random(5)
    guesses = [guesser.sample(rng) for _ in range(200)]
    assert guesser.readable == []  # given up: its choices fit no hand
    assert all(real_fits(1, g.hands[1], newest) for g in guesses)
    assert not any(g.bluff_by is not None for g in guesses)
    assert not any(c.suit == "B" for g in guesses for c in g.hands[1])
