"""The result screen's score chart: each seat's (or pair's) running total, deal after deal, toward
the target.

Every line has a colour of its own (`CHART_COLORS`: seven, as many as a table has seats,
chosen apart on the dark felt and from the target line's), the target line is labelled
("Target 500") and, while the match goes on, a line over the chart says how far the leader
is from it ("Leader: Léa · 58 points to the target").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import pygame

from . import ui
from .i18n import tr
from .layout import line_height

CHART_COLORS: Final = [(240, 208, 96), (110, 190, 255), (255, 120, 110), (150, 235, 130),
                       (200, 140, 255), (240, 240, 240), (255, 120, 210)]
"""One colour per line: gold, sky blue, coral, green, violet, white, pink (seven seats at most)."""
TARGET_COLOR: Final = (235, 60, 60)
"""The target line and its label: a red no seat has."""


def leader_gap(totals: Sequence[int], legends: Sequence[str], target: int) -> str:
    """"Leader: Léa · 58 points to the target" (leaders level: "Léa & Tom"), or ``""`` when nobody
    has scored yet or the target is reached."""
    best = max(totals, default=0)
    if not target or best <= 0 or best >= target:
        return ""
    leaders = " & ".join(legends[i] for i, total in enumerate(totals) if total == best)
    return tr("result.leader_gap", name=leaders, n=target - best)


def draw_chart(surface: pygame.Surface, box: pygame.Rect, scale: float, series: Sequence[Sequence[int]],
               legends: Sequence[str], target: int, *, final: bool = False) -> None:
    """The chart in ``box`` (its legend below it, one line per series): ``series`` are the running
    totals after each deal; ``final``: the match is won (no distance to the target is said)."""
    top = max([target] + [max(s) for s in series if s] + [1])
    pygame.draw.rect(surface, (10, 40, 30), box, border_radius=int(10 * scale))
    inner = box.inflate(-int(40 * scale), -int(40 * scale))
    small = max(12, int(15 * scale))
    gap = "" if final else leader_gap([s[-1] if s else 0 for s in series], legends, target)
    if gap:  # over the lines, on two lines at most (a pair's names in German are long)
        line = pygame.Rect(box.left + int(8 * scale), box.top + int(4 * scale), box.width - int(16 * scale),
                           2 * line_height(small))
        used = ui.fit(surface, gap, line, small, color=ui.GOLD, align="left", valign="top", lines=2)
        below = max(inner.top, used.bottom + int(4 * scale))  # the lines start under it
        inner = pygame.Rect(inner.left, below, inner.width, max(1, inner.bottom - below))
    if target:
        ty = inner.bottom - int(inner.height * target / top)
        width = max(1, int(2 * scale))
        dash = max(4, int(10 * scale))
        for x in range(inner.left, inner.right, 2 * dash):  # dashed: it is a goal, not a seat's line
            pygame.draw.line(surface, TARGET_COLOR, (x, ty), (min(x + dash, inner.right), ty), width)
        label = tr("table.target", n=target)
        label_w = ui.font(small).size(label)[0] + int(6 * scale)
        # under its line, at the right: clear of the leader's line over the chart
        box_below = (inner.right - label_w, ty + int(3 * scale), label_w, line_height(small))
        ui.fit(surface, label, box_below, small, color=TARGET_COLOR, align="right")
    for seat, values in enumerate(series):
        color = CHART_COLORS[seat % len(CHART_COLORS)]
        points = [(inner.left + int(inner.width * i / max(1, len(values))),
                   inner.bottom - int(inner.height * v / top)) for i, v in enumerate([0, *values])]
        if len(points) > 1:
            pygame.draw.lines(surface, color, False, points, max(2, int(3 * scale)))
        for p in points:
            pygame.draw.circle(surface, color, p, max(3, int(4 * scale)))
        step = int(22 * scale)
        legend = (box.left + int(12 * scale), box.bottom + int(8 * scale) + seat * step,
                  box.width - int(12 * scale), step)
        ui.fit(surface, legends[seat], legend, int(16 * scale), color=color, align="left")
