"""A terminal game: ``python main.py --text`` plays any preset against random computer seats.

It is the way to try the rules before (and beside) the graphical client: seat 0 is
you, the other seats play a random legal move (preferring to play a card). It reads
only your seat's view and the events redacted for you, as the table will.
Input and output are injectable so tests can drive it.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from game.engine import (
    PRESETS,
    Action,
    DrawReason,
    IllegalAction,
    Match,
    Play,
    PlayerView,
    RulesError,
    Status,
    parse_action,
    preset,
)
from game.engine import events as ev
from game.engine.cards import SUIT_NAMES, SUIT_SYMBOLS

HUMAN = 0


def _suit(suit: str | None) -> str:
    if suit is None:
        return "-"
    return f"{SUIT_SYMBOLS.get(suit, suit)} ({SUIT_NAMES[suit]})"


def describe_event(event: ev.Event, me: int) -> str | None:
    """One line for an event as seat ``me`` sees it, or None for events not worth a line."""

    def who(seat: int) -> str:
        return "You" if seat == me else f"Seat {seat}"

    match event:
        case ev.CardPlayed(seat=s, card=c):
            return f"{who(s)} played {c.label}."
        case ev.CardsDrawn(reason=DrawReason.DEAL):
            return None
        case ev.CardsDrawn(seat=s, count=n, cards=cards, reason=reason):
            shown = f": {' '.join(c.label for c in cards)}" if cards else ""
            why = "" if reason == DrawReason.DRAW else f" ({reason})"
            return f"{who(s)} drew {n} card{'s' if n != 1 else ''}{why}{shown}."
        case ev.SuitChosen(seat=s, suit=suit):
            return f"{who(s)} announced {_suit(suit)}."
        case ev.StartCard(card=c):
            return f"The starting card is {c.label}."
        case ev.StartCardReturned(card=c):
            return f"{c.label} may not start the pile; it goes back."
        case ev.Reshuffled(count=n):
            return f"The discards were shuffled into a new draw pile of {n}."
        case ev.Passed(seat=s):
            return f"{who(s)} passed."
        case ev.TurnSkipped(seat=s):
            return f"{who(s)} lost the turn."
        case ev.DirectionChanged(direction=d):
            return f"Play now goes {'clockwise' if d == 1 else 'the other way'}."
        case ev.PenaltyPending(seat=s, amount=n):
            return f"{who(s)} must draw {n} unless answered."
        case ev.LastCardCalled(seat=s):
            return f"{who(s)} called: Card!"
        case ev.Denounced(by=b, seat=s):
            return f"{who(b)} denounced {who(s).lower() if s == me else who(s)}: two cards!"
        case ev.Challenged(by=b, seat=s, bluff=bluff):
            return f"{who(b)} called Liar on {who(s)}: {'a bluff!' if bluff else 'it was honest.'}"
        case ev.TimedOut(seat=s):
            return f"{who(s)} ran out of time."
        case ev.PlayAgain(seat=s, why=why):
            return f"{who(s)} may play again ({why})."
        case ev.RoundEnded(result=r):
            if r.tie:
                return "The round is blocked: a tie."
            how = "blocked; the lowest hand wins" if r.blocked else "went out"
            return f"Round over: {who(r.winner) if r.winner is not None else '?'} {how}."
        case ev.MatchEnded(winners=w, scores=s):
            return f"Match over. Winners: {', '.join(map(str, w))}. Scores: {list(s)}."
    return None


def score_lines(view: PlayerView) -> list[str]:
    """How the finished deal was scored, as seat ``view.seat`` sees it: the points and to whom,
    then each counted hand card by card (``Seat 1: 8♦ 50 + K♥ 10 = 60``)."""
    score = view.deal_score
    if score is None:
        return []

    def who(seat: int) -> str:
        return "You" if seat == view.seat else f"Seat {seat}"

    if score.scorer is None:
        lines = ["No points for this round: equal lowest hands."]
    elif not score.scored:
        lines = ["These rules keep no score; the cards left:"]
    else:
        partner = [s for s in (view.result.winners if view.result else ()) if s != score.scorer]
        pair = f" (with {who(partner[0]).lower() if partner[0] == view.seat else who(partner[0])})" \
            if partner else ""
        verb = "score" if score.scorer == view.seat else "scores"
        lines = [f"{who(score.scorer)}{pair} {verb} {score.points} point{'s' if score.points != 1 else ''} "
                 "for the round:"]
    if score.less:
        lines.append(f"  (blocked: each hand counts minus the lowest, {score.less})")
    for hand in score.hands:
        cards = " + ".join(f"{card.label} {value}" for card, value in hand.cards) or "-"
        less = f" - {score.less} = {hand.gives}" if score.less else ""
        lines.append(f"  {who(hand.seat)}: {cards} = {hand.total}{less}")
    return lines


def render(view: PlayerView) -> str:
    """The table as seat ``view.seat`` sees it, in a few lines."""
    others = ", ".join(f"seat {s}: {n} cards" for s, n in enumerate(view.hand_counts)
                       if s != view.seat)
    lines = [
        f"Top: {view.top.label}   suit in force: {_suit(view.suit)}   draw pile: "
        f"{view.draw_count}   direction: {'→' if view.direction == 1 else '←'}",
        f"Others: {others}",
    ]
    if view.pending:
        lines.append(f"Pending penalty: {view.pending} cards")
    if view.target or any(view.scores):
        lines.append(f"Scores: {list(view.scores)}" + (f" (target {view.target})" if view.target else ""))
    lines.append("Your hand: " + " ".join(c.label for c in view.hand))
    return "\n".join(lines)


def computer_move(view: PlayerView, rng: random.Random) -> Action:
    """A simple computer: a random legal action, preferring to play a card."""
    plays = [a for a in view.legal if isinstance(a, Play)]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(view.legal)


def play(
    rules_name: str = "classic", players: int = 2, seed: int | None = None,
    options: dict[str, Any] | None = None, *, read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Match:
    """Play a match in the terminal; returns it when it is over or the player quits."""
    rng = random.Random(seed)
    match = Match(preset(rules_name, options), players, rng.randrange(1 << 30))
    write(f"Huit — {match.rules.describe()}")
    write(f"You are seat {HUMAN}; seats 1 to {players - 1} are computers. "
          "Type a number, or an action like 'play 7H', 'draw', 'suit S'; 'q' quits.")
    pending_events = [e.for_seat(HUMAN) for e in match.start_events]
    while True:
        for event in pending_events:
            line = describe_event(event, HUMAN)
            if line:
                write(line)
        pending_events = []
        if match.status != Status.PLAYING:
            if match.round.result is not None:
                for line in score_lines(match.view(HUMAN)):
                    write(line)
                write(f"Points this round: {list(match.round.result.points)}; "
                      f"scores: {list(match.scores)}")
            if match.status == Status.MATCH_OVER and match.target:
                return match
            answer = read("Another round? [y/n] ").strip().lower()
            if answer not in ("y", "yes", "o", "oui"):
                return match
            pending_events = [e.for_seat(HUMAN) for e in match.next_round()]
            continue
        seat = match.to_act
        assert seat is not None
        if seat != HUMAN:
            action = computer_move(match.view(seat), rng)
            pending_events = [e.for_seat(HUMAN) for e in match.apply(action, seat)]
            continue
        view = match.view(HUMAN)
        write("")
        write(render(view))
        for i, action in enumerate(view.legal, 1):
            write(f"  {i}. {action}")
        try:
            answer = read("Your move: ").strip()
        except EOFError:
            write("")
            return match
        if answer.lower() in ("q", "quit", "exit"):
            return match
        if answer.isdigit():
            if not 1 <= int(answer) <= len(view.legal):
                write(f"Choose a number from 1 to {len(view.legal)}.")
                continue
            chosen = view.legal[int(answer) - 1]
        else:
            try:
                chosen = parse_action(answer)
            except ValueError as exc:
                write(str(exc))
                continue
        try:
            pending_events = [e.for_seat(HUMAN) for e in match.apply(chosen, HUMAN)]
        except IllegalAction as exc:
            write(str(exc))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the terminal game."""
    parser = argparse.ArgumentParser(prog="python main.py --text")
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule, e.g. --option jacks_skip=true (repeatable)")
    args = parser.parse_args(argv)
    try:
        options = dict(parse_option(o) for o in args.option)
        play(args.preset, args.players, args.seed, options)
    except (RulesError, ValueError) as exc:
        print(f"Cannot start: {exc}")
        return 2
    except (KeyboardInterrupt, EOFError):
        print()
    return 0


def parse_option(text: str) -> tuple[str, bool | int]:
    """Read ``name=value`` (true/false/on/off or a whole number).

    Raises:
        ValueError: no ``=``, or a value that is neither a boolean nor a number.
    """
    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"option {text!r} must be NAME=VALUE")
    low = value.strip().lower()
    if low in ("true", "on", "yes"):
        return name.strip(), True
    if low in ("false", "off", "no"):
        return name.strip(), False
    if low.isdigit():
        return name.strip(), int(low)
    raise ValueError(f"option {name!r}: {value!r} is not true/false or a number")
