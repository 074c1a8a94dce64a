"""The terminal game plays whole matches through injected input and output."""

import subprocess
import sys
from pathlib import Path

from game import text
from game.engine import Status

ROOT = Path(__file__).resolve().parent.parent


def scripted(answers):
    """An input function that answers from a list, then raises EOFError."""
    queue = list(answers)

    def read(prompt):
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_text_game_plays_a_duel_to_the_end_by_always_choosing_the_first_action():
    out = []
    match = text.play("duel", 2, seed=3, read=scripted(["1"] * 500 + ["n"]), write=out.append)
    assert match.status == Status.MATCH_OVER
    assert any(line.startswith("Round over") or "blocked" in line for line in out)


def test_text_game_points_match_reaches_its_target():
    out = []
    answers = (["1"] * 300 + ["y"]) * 30
    match = text.play("points", 3, seed=5, read=scripted(answers), write=out.append)
    assert match.status in (Status.MATCH_OVER, Status.ROUND_OVER)
    assert match.results, "at least one deal was finished"


def test_text_game_explains_a_refused_move_and_keeps_the_game():
    out = []
    match = text.play("classic", 2, seed=1, read=scripted(["play ZZ", "99", "q"]), write=out.append)
    assert any("not a card" in line for line in out)
    assert any("Choose a number from 1 to" in line for line in out)
    assert match.status == "playing"


def test_text_game_hides_the_computer_hand():
    out = []
    match = text.play("classic", 2, seed=2, read=scripted(["q"]), write=out.append)
    shown = "\n".join(out)
    mine = set(match.round.hands[0]) | {match.round.top}
    hidden = [c for c in match.round.hands[1] if c not in mine]
    assert hidden
    for card in hidden:
        assert card.label not in shown
    assert "Others: seat 1: 7 cards" in shown


def test_parse_option_reads_booleans_and_numbers():
    assert text.parse_option("jacks_skip=on") == ("jacks_skip", True)
    assert text.parse_option("stacking=false") == ("stacking", False)
    assert text.parse_option("target=200") == ("target", 200)


def test_main_text_refuses_a_bad_option_with_a_message():
    proc = subprocess.run(
        [sys.executable, "main.py", "--text", "--preset", "duel", "--option", "runs=true"],
        cwd=ROOT, capture_output=True, text=True, input="", timeout=60)
    assert proc.returncode == 2
    assert "runs" in proc.stdout and "does not apply" in proc.stdout


def test_main_text_ends_cleanly_when_input_closes():
    proc = subprocess.run([sys.executable, "main.py", "--text", "--seed", "1"], cwd=ROOT,
                          capture_output=True, text=True, input="", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Your hand:" in proc.stdout


# main.py run with pygame hidden, as on a machine where only the standard library is installed.
WITHOUT_PYGAME = ("import runpy, sys\n"
                  "sys.modules['pygame'] = None  # find_spec says it is missing; importing it fails\n"
                  "sys.argv = ['main.py', *sys.argv[1:]]\n"
                  "runpy.run_path('main.py', run_name='__main__')\n")


def test_main_without_pygame_says_how_to_install_it():
    proc = subprocess.run([sys.executable, "-c", WITHOUT_PYGAME], cwd=ROOT, capture_output=True,
                          text=True, input="", timeout=60)
    assert proc.returncode == 1
    assert "pygame-ce" in proc.stderr and "make play" in proc.stderr and "--text" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_text_game_needs_no_pygame():
    proc = subprocess.run([sys.executable, "-c", WITHOUT_PYGAME, "--text", "--seed", "1"], cwd=ROOT,
                          capture_output=True, text=True, input="", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Your hand:" in proc.stdout


def test_text_game_shows_how_the_deal_was_scored_card_by_card():
    from tests.support import act, make_match

    match = make_match("classic", ["7H", "8D", "3C"], "4H", "KS QS JS TS")
    act(match, "play 7H")
    assert text.score_lines(match.view(0)) == [
        "You score 53 points for the round:", "  Seat 1: 8♦ 50 = 50", "  Seat 2: 3♣ 3 = 3"]
    assert text.score_lines(match.view(1))[0] == "Seat 0 scores 53 points for the round:"


def test_text_game_prints_the_counting_at_the_end_of_a_deal():
    out = []
    text.play("classic", 3, seed=4, read=scripted(["1"] * 500 + ["n"]), write=out.append)
    at = next(i for i, line in enumerate(out) if line.startswith("Points this round"))
    assert out[at - 1].startswith("  Seat ") or out[at - 1].startswith("  You")
    assert "points for the round:" in " ".join(out[:at]) or "No points" in " ".join(out[:at])
