"""The position as text, in card notation: what ``str(round)``, ``str(view)`` and
``str(match)`` print.

A failing test or a REPL shows where a deal stands in a few lines: the rules, the
deal, whose turn and in which phase, the top card and the suit in force, a pending
penalty, the hands and the draw pile's size. A `Round` shows every hand; a
`PlayerView` shows its own hand, the other hands' sizes, its scores and its legal
actions, and nothing its seat may not know (never the draw pile's order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import Card
from .phases import RUN, Follow, Phase, Status
from .scoring import RoundResult

if TYPE_CHECKING:
    from .match import Match
    from .round import Round
    from .view import PlayerView


def cards_text(cards: Iterable[Card]) -> str:
    """Card codes separated by spaces; ``-`` for none."""
    return " ".join(card.code for card in cards) or "-"


def _header(name: str, number: int, dealer: int) -> str:
    return f"{name}, deal {number}, dealer seat {dealer}"


def _turn(to_act: int | None, phase: Phase) -> str:
    return f"seat {to_act} to act, phase {phase}"


def _table(top: Card, suit: str | None, draw_count: int, discard_count: int, direction: int) -> str:
    return (f"top {top.code}, suit {suit or '-'}, draw pile {draw_count}, "
            f"discard pile {discard_count}, direction {'+1' if direction == 1 else '-1'}")


def _turn_lines(pending: int, pending_by: Card | None, follow: Follow | None, follow_suit: str | None,
                run_next: int, drawn: int, called: bool, exposed: Sequence[int]) -> list[str]:
    lines = []
    if pending:
        lines.append(f"pending penalty {pending} ({pending_by.code if pending_by else '-'})")
    if follow is not None:
        goes_on = f"goes on: {follow}, suit {follow_suit or '-'}"
        lines.append(goes_on + (f", next number {run_next}" if follow == RUN else ""))
    done = []
    if drawn:
        done.append(f"drew {drawn}")
    if called:
        done.append('called "Card"')
    if done:
        lines.append("this turn: " + ", ".join(done))
    if exposed:
        lines.append('may be denounced: ' + ", ".join(f"seat {s}" for s in exposed))
    return lines


def _result(result: RoundResult) -> str:
    if result.tie:
        how = "blocked, a tie"
    elif result.blocked:
        how = f"blocked, seat {result.winner} holds the lowest hand"
    else:
        how = f"seat {result.winner} went out"
    return f"result: {how}; points {' '.join(map(str, result.points))}"


def _scores(scores: Sequence[int], target: int) -> str:
    return f"scores {' '.join(map(str, scores))}, " + (f"target {target}" if target else "one deal")


def describe_round(r: Round) -> str:
    """Every detail of a deal a referee sees (all hands), one fact per line."""
    over = r.phase == Phase.OVER
    lines = [f"{_header(r.rules.name, r.number, r.dealer)}: "
             + ("over" if over else _turn(r.to_act, r.phase))]
    lines.append(_table(r.top, r.suit, len(r.pile), len(r.discard), r.direction))
    if not over:
        exposed = sorted(s for s in r.exposed if len(r.hands[s]) == 1)
        lines += _turn_lines(r.pending, r.pending_by, r.follow, r.follow_suit, r.run_next, r.drawn,
                             r.called, exposed)
        if r.last_drawn is not None:
            lines.append(f"seat {r.to_act} drew {r.last_drawn.code} last")
    for seat, hand in enumerate(r.hands):
        mark = " (to act)" if seat == r.to_act and not over else ""
        lines.append(f"seat {seat}{mark}: {cards_text(hand)}")
    if r.result is not None:
        lines.append(_result(r.result))
    return "\n".join(lines)


def describe_match(m: Match) -> str:
    """The current deal (`describe_round`) and the match around it: scores, target, status."""
    return f"{describe_round(m.round)}\n{_scores(m.scores, m.target)}; {m.status}"


def describe_view(v: PlayerView) -> str:
    """What ``v.seat`` knows: its own hand, the others' counts, scores and its legal actions."""
    if v.status == Status.PLAYING:
        state = _turn(v.to_act, v.phase)
    elif v.status == Status.MATCH_OVER:
        state = "match over, won by " + (", ".join(f"seat {s}" for s in v.winners) or "nobody")
    else:
        state = "round over"
    lines = [f"{_header(v.rules.name, v.round_number, v.dealer)}: {state}; seen by seat {v.seat}"]
    lines.append(_table(v.top, v.suit, v.draw_count, len(v.discard), v.direction))
    if v.status == Status.PLAYING:
        lines += _turn_lines(v.pending, v.pending_by, v.follow, v.follow_suit, v.run_next, v.drawn,
                             v.called, v.exposed)
        if v.drawn_card is not None:
            lines.append(f"you drew {v.drawn_card.code} last")
    for seat, count in enumerate(v.hand_counts):
        mark = " (to act)" if seat == v.to_act else ""
        if seat == v.seat:
            lines.append(f"seat {seat} (you{', to act' if mark else ''}): {cards_text(v.hand)}")
        else:
            lines.append(f"seat {seat}{mark}: {count} card{'s' if count != 1 else ''}")
    lines.append(_scores(v.scores, v.target))
    if v.legal:
        lines.append("legal: " + ", ".join(str(action) for action in v.legal))
    if v.result is not None:
        lines.append(_result(v.result))
    return "\n".join(lines)
