"""The deal's score on the result screen: who scored how many points, and how they were counted.

"Il marque des points pour les cartes restées dans les autres mains": under the result's
headline, in every rule set and in a Quick game too, a block says the points the deal gave
and counts each opponent's cards one by one, ``Léa: 8♠ 50 + K♥ 10 + 3♣ 3 = 63`` (a colour
card's value in brackets, ``Blue 7 (7)``, so its number and its value are not read together).
A blocked deal scored as a difference shows each hand less the lowest; a tie shows every
hand and says nobody scores; rules that keep no score (the duel) count the hands all the
same and say so. In pair play the scorer's partner is not counted, and where the partners'
points add up the pair is named as the scorer. Everything comes from the shown seat's view
(`PlayerView.deal_score`, computed by the engine); this module only words and draws it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.engine import Card, DealScore, PlayerView

from . import ui
from .i18n import card_words, tr
from .layout import line_height
from .table_paint import pooled

ENTRY_LINES = 3  # lines a hand's counting may wrap onto, shrinking, when room is short
MOST_LINES = 6  # lines it may take at the block's own size when there is room (a big hand)
TITLE_LINES = 2  # lines the first line (the points, or why there are none) may wrap onto


def card_and_value(card: Card, value: int) -> str:
    """``8♠ 50``, ``Joker 2500``; a colour card's value in brackets: ``Blue 7 (7)``."""
    words = card_words(card)
    return f"{words} {value}" if card.is_standard or card.rank == "X" else f"{words} ({value})"


def title(view: PlayerView, score: DealScore, names: Sequence[str]) -> str:
    """The block's first line: the points the deal gave and to whom, or why it gave none."""
    if score.scorer is None:
        return tr("deal.none")
    if not score.scored:
        return tr("deal.unscored")
    scorer = names[score.scorer]
    winners = view.result.winners if view.result is not None else ()
    if len(winners) == 2 and pooled(view):  # the partners' points add up: the pair scored
        scorer = tr("table.pair", a=names[winners[0]], b=names[winners[1]])
    return tr("deal.scored", name=scorer, n=score.points)


def lines(view: PlayerView, names: Sequence[str]) -> list[str]:
    """The block's lines, title first (none while the deal is played)."""
    score = view.deal_score
    if score is None:
        return []
    out = [title(view, score, names)]
    if score.less:
        out.append(tr("deal.difference", n=score.less))
    for hand in score.hands:
        cards = " + ".join(card_and_value(card, value) for card, value in hand.cards) or "–"
        if score.less:
            out.append(tr("deal.hand_less", name=names[hand.seat], cards=cards, total=hand.total,
                          low=score.less, n=hand.gives))
        else:
            out.append(tr("deal.hand", name=names[hand.seat], cards=cards, total=hand.total))
    return out


def text_px(scale: float) -> int:
    """The size of the block's lines."""
    return max(13, int(18 * scale))


def height(texts: Sequence[str], width: int, scale: float, most: int) -> int:
    """The height the block takes in ``width`` px (at most ``most``); see `fitting`."""
    return fitting(texts, width, scale, most)[0]


def fitting(texts: Sequence[str], width: int, scale: float, most: int) -> tuple[int, int, int | None]:
    """How the block fits ``width`` × ``most`` px: its height, the lines each hand's counting may
    take, and the smallest size a line may shrink to. Every line at the block's size, wrapped
    onto up to `MOST_LINES` lines, where that fits; else up to `ENTRY_LINES`, then fewer,
    shrinking as needed."""
    px = text_px(scale)
    step = line_height(px)
    for lines_each, floor in ((MOST_LINES, px), *((n, None) for n in range(ENTRY_LINES, 0, -1))):
        total, whole = 0, True
        for i, text in enumerate(texts):
            each = TITLE_LINES if i == 0 else lines_each
            shown = ui.layout_text(text, pygame.Rect(0, 0, width, step * each), px, bold=i == 0,
                                   lines=each, min_px=floor)[1]
            whole = whole and " ".join(" ".join(shown).split()) == " ".join(text.split())
            total += step * len(shown)
        if (total <= most and whole) or lines_each == 1 and floor is None:
            return min(total, most), lines_each, floor
    return most, 1, None  # pragma: no cover (the last try returns)


def draw(surface: pygame.Surface, texts: Sequence[str], box: pygame.Rect, scale: float) -> pygame.Rect:
    """Draw the block's lines down ``box`` (the title in gold); return the area used."""
    if not texts:
        return pygame.Rect(box.left, box.top, box.width, 0)
    px = text_px(scale)
    step = line_height(px)
    _, lines_each, floor = fitting(texts, box.width, scale, box.height)
    y = box.top
    for i, text in enumerate(texts):
        each = TITLE_LINES if i == 0 else lines_each
        room = min(box.bottom - y, step * each)
        if room < step:
            break  # no room left: the rows beside still show every hand
        shown = ui.layout_text(text, pygame.Rect(0, 0, box.width, room), px, bold=i == 0,
                               lines=each, min_px=floor)[1]
        used = min(room, step * len(shown))
        ui.fit(surface, text, (box.left, y, box.width, used), px, bold=i == 0, align="left",
               lines=each, min_px=floor, color=ui.GOLD if i == 0 else ui.CREAM)
        y += used
    return pygame.Rect(box.left, box.top, box.width, y - box.top)
