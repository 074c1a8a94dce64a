"""The avatars' pictures, drawn with pygame when first asked for (no image files).

Each avatar of `game.play.avatars` is a round badge: a coloured disc, a figure drawn
on it with pygame's shapes in a 100 × 100 space, and a cream rim. Pictures are drawn
larger than asked (supersampled) and smoothed down, so the edges are clean at any
size; each (avatar, size, dimmed) is drawn once and kept (`avatar_image`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

import pygame

from game.play.avatars import AVATARS, CATALOGUE

Color = tuple[int, int, int]
Point = tuple[float, float]

RIM: Final = (244, 241, 230)
RIM_DARK: Final = (30, 40, 34)
INK: Final = (40, 30, 34)
WHITE: Final = (250, 250, 246)
PINK: Final = (240, 150, 160)
METAL: Final = (196, 204, 214)
METAL_DARK: Final = (120, 130, 146)


class Pen:
    """Draws on a square surface in a 100 × 100 space (so every figure is sized once)."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.k = surface.get_width() / 100

    def _p(self, point: Point) -> tuple[int, int]:
        return (round(point[0] * self.k), round(point[1] * self.k))

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k)) if width else 0

    def circle(self, color: Color, centre: Point, radius: float, width: float = 0) -> None:
        """A disc (or a ring ``width`` thick)."""
        radius_px = max(1, round(radius * self.k))
        pygame.draw.circle(self.surface, color, self._p(centre), radius_px, self._w(width))

    def ellipse(self, color: Color, centre: Point, size: Point, width: float = 0) -> None:
        """An ellipse ``size`` wide and high around ``centre``."""
        pygame.draw.ellipse(self.surface, color, self._box(centre, size), self._w(width))

    def box(self, color: Color, centre: Point, size: Point, radius: float = 0, width: float = 0) -> None:
        """A rectangle around ``centre``, its corners rounded by ``radius``."""
        pygame.draw.rect(self.surface, color, self._box(centre, size), self._w(width),
                         border_radius=round(radius * self.k))

    def poly(self, color: Color, points: Sequence[Point], width: float = 0) -> None:
        """A polygon."""
        pygame.draw.polygon(self.surface, color, [self._p(p) for p in points], self._w(width))

    def line(self, color: Color, start: Point, end: Point, width: float) -> None:
        """A line with round ends."""
        a, b, w = self._p(start), self._p(end), self._w(width)
        pygame.draw.line(self.surface, color, a, b, w)
        for end_point in (a, b):
            pygame.draw.circle(self.surface, color, end_point, max(1, w // 2))

    def lines(self, color: Color, points: Sequence[Point], width: float) -> None:
        """A polyline with round joints."""
        for a, b in zip(points, points[1:], strict=False):
            self.line(color, a, b, width)

    def arc(self, color: Color, centre: Point, size: Point, start: float, stop: float, width: float) -> None:
        """Part of an ellipse, from ``start`` to ``stop`` degrees (counter-clockwise from the right)."""
        a, b = size[0] / 2, size[1] / 2
        steps = max(6, int(abs(stop - start) / 8))
        points = [(centre[0] + a * math.cos(math.radians(start + (stop - start) * i / steps)),
                   centre[1] - b * math.sin(math.radians(start + (stop - start) * i / steps)))
                  for i in range(steps + 1)]
        self.lines(color, points, width)

    def tilted_ellipse(self, color: Color, centre: Point, size: Point, degrees: float) -> None:
        """An ellipse ``size`` wide and high around ``centre``, turned by ``degrees`` (clockwise)."""
        a, b, t = size[0] / 2, size[1] / 2, math.radians(degrees)
        points = []
        for i in range(36):
            u = math.tau * i / 36
            x, y = a * math.cos(u), b * math.sin(u)
            points.append((centre[0] + x * math.cos(t) - y * math.sin(t),
                           centre[1] + x * math.sin(t) + y * math.cos(t)))
        self.poly(color, points)

    def star(self, color: Color, centre: Point, outer: float, inner: float, points: int = 5,
             turn: float = -90, width: float = 0) -> None:
        """A star of ``points`` points."""
        corners = []
        for i in range(points * 2):
            radius = outer if i % 2 == 0 else inner
            angle = math.radians(turn + i * 180 / points)
            corners.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
        self.poly(color, corners, width)

    def _box(self, centre: Point, size: Point) -> pygame.Rect:
        w, h = size[0] * self.k, size[1] * self.k
        left, top = round(centre[0] * self.k - w / 2), round(centre[1] * self.k - h / 2)
        return pygame.Rect(left, top, round(w), round(h))


def _mirror(points: Sequence[Point]) -> list[Point]:
    return [(100 - x, y) for x, y in points]


# ---- people's faces ------------------------------------------------------------------------------
def _shoulders(p: Pen, shirt: Color, skin: Color) -> None:
    p.box(_shade(skin, 0.85), (50, 80), (16, 16))
    p.ellipse(shirt, (50, 100), (78, 44))
    p.poly(_shade(shirt, 0.8), [(42, 80), (50, 90), (58, 80)])


def _face(p: Pen, skin: Color, *, smile: bool = True, cheeks: bool = True) -> None:
    p.circle(skin, (27, 55), 5.5)
    p.circle(skin, (73, 55), 5.5)
    p.ellipse(skin, (50, 53), (44, 50))
    p.circle(INK, (41, 54), 3.2)
    p.circle(INK, (59, 54), 3.2)
    p.circle(WHITE, (42, 53), 1)
    p.circle(WHITE, (60, 53), 1)
    if cheeks:
        p.circle(_mix(skin, PINK, 0.45), (36, 62), 3.8)
        p.circle(_mix(skin, PINK, 0.45), (64, 62), 3.8)
    if smile:
        p.arc(_shade(skin, 0.45), (50, 62), (16, 10), 200, 340, 2.2)


def _curls(p: Pen) -> None:
    hair, skin = (70, 44, 30), (224, 172, 125)
    _shoulders(p, (220, 90, 70), skin)
    for x, y, r in ((28, 46, 10), (31, 34, 10), (40, 25, 11), (52, 22, 11), (63, 26, 11), (70, 36, 10),
                    (72, 48, 9), (50, 36, 16)):
        p.circle(hair, (x, y), r)
    _face(p, skin)
    for x, y, r in ((35, 33, 7), (44, 30, 7), (54, 29, 7), (63, 32, 7)):
        p.circle(hair, (x, y), r)
        p.circle(_shade(hair, 1.35), (x - 2, y - 2), 2)


def _glasses(p: Pen) -> None:
    hair, skin = (236, 196, 96), (243, 205, 176)
    _shoulders(p, (60, 120, 200), skin)
    p.ellipse(hair, (50, 46), (54, 50))
    _face(p, skin)
    p.poly(hair, [(26, 50), (27, 34), (38, 24), (56, 22), (70, 28), (75, 44), (72, 50), (66, 36), (48, 38),
                  (36, 36), (30, 46)])
    frame = (60, 50, 60)
    p.circle(frame, (40, 54), 7.5, 2)
    p.circle(frame, (60, 54), 7.5, 2)
    p.line(frame, (47.5, 53), (52.5, 53), 2)


def _beard(p: Pen) -> None:
    hair, skin = (30, 26, 28), (150, 96, 60)
    _shoulders(p, (70, 150, 110), skin)
    p.ellipse(hair, (50, 42), (46, 38))
    _face(p, skin, smile=False, cheeks=False)
    p.poly(hair, [(28, 50), (28, 38), (40, 30), (60, 30), (72, 38), (72, 50), (64, 40), (36, 40)])
    p.poly(hair, [(28, 56), (34, 70), (42, 78), (50, 80), (58, 78), (66, 70), (72, 56), (64, 64), (36, 64)])
    p.ellipse(hair, (50, 63), (22, 7))
    p.arc(WHITE, (50, 68), (10, 6), 200, 340, 2)


def _bun(p: Pen) -> None:
    hair, skin = (36, 24, 22), (198, 134, 86)
    _shoulders(p, (240, 180, 60), skin)
    p.circle(hair, (50, 19), 11)
    p.ellipse(hair, (50, 48), (52, 52))
    _face(p, skin)
    p.poly(hair, [(26, 52), (28, 34), (42, 26), (60, 26), (72, 34), (74, 52), (68, 40), (52, 34), (40, 40),
                  (32, 46)])
    p.circle((250, 214, 90), (27, 64), 2.6)
    p.circle((250, 214, 90), (73, 64), 2.6)


# ---- animals -------------------------------------------------------------------------------------
def _fox(p: Pen) -> None:
    fur, dark = (232, 118, 44), (90, 40, 20)
    for side in (lambda pts: pts, _mirror):
        p.poly(fur, side([(20, 16), (44, 34), (24, 50)]))
        p.poly(dark, side([(24, 24), (38, 35), (27, 44)]))
    p.poly(fur, [(16, 48), (30, 32), (50, 28), (70, 32), (84, 48), (74, 66), (50, 86), (26, 66)])
    p.poly(WHITE, [(16, 48), (30, 58), (44, 64), (50, 86), (26, 66)])
    p.poly(WHITE, _mirror([(16, 48), (30, 58), (44, 64), (50, 86), (26, 66)]))
    p.ellipse(INK, (38, 50), (6, 8))
    p.ellipse(INK, (62, 50), (6, 8))
    p.circle(WHITE, (39, 48.5), 1.2)
    p.circle(WHITE, (63, 48.5), 1.2)
    p.ellipse(INK, (50, 80), (10, 7))


def _cat(p: Pen) -> None:
    fur = (150, 152, 166)
    for side in (lambda pts: pts, _mirror):
        p.poly(fur, side([(22, 44), (26, 12), (48, 32)]))
        p.poly(PINK, side([(27, 38), (29, 20), (42, 32)]))
    p.ellipse(fur, (50, 58), (60, 52))
    p.ellipse(WHITE, (50, 70), (30, 20))
    for x in (38, 62):
        p.ellipse((140, 200, 90), (x, 54), (12, 12))
        p.ellipse(INK, (x, 54), (3.5, 10))
    p.poly(PINK, [(45, 64), (55, 64), (50, 69)])
    p.arc(INK, (46, 70), (8, 6), 200, 340, 1.6)
    p.arc(INK, (54, 70), (8, 6), 200, 340, 1.6)
    for y in (64, 70):
        p.line(WHITE, (34, 68), (10, y), 1.4)
        p.line(WHITE, (66, 68), (90, y), 1.4)


def _bear(p: Pen) -> None:
    fur, light = (140, 88, 52), (214, 172, 122)
    for x in (27, 73):
        p.circle(fur, (x, 30), 12)
        p.circle(light, (x, 30), 6)
    p.circle(fur, (50, 56), 30)
    p.ellipse(light, (50, 68), (30, 22))
    p.ellipse(INK, (50, 62), (12, 8))
    p.line(INK, (50, 64), (50, 70), 1.8)
    p.arc(INK, (50, 70), (12, 6), 200, 340, 1.8)
    p.circle(INK, (39, 50), 3.6)
    p.circle(INK, (61, 50), 3.6)
    p.circle(WHITE, (40, 49), 1.1)
    p.circle(WHITE, (62, 49), 1.1)


def _owl(p: Pen) -> None:
    feather, light = (150, 100, 62), (226, 196, 150)
    p.poly(feather, [(22, 34), (26, 12), (42, 28)])
    p.poly(feather, _mirror([(22, 34), (26, 12), (42, 28)]))
    p.ellipse(feather, (50, 62), (64, 78))
    p.ellipse(light, (50, 78), (36, 34))
    for x in (36, 64):
        p.circle((240, 160, 50), (x, 48), 13.5)
        p.circle(WHITE, (x, 48), 10.5)
        p.circle(INK, (x, 49), 5.5)
        p.circle(WHITE, (x + 2, 47), 1.6)
    p.poly((240, 160, 50), [(45, 58), (55, 58), (50, 69)])
    for x, y in ((42, 78), (50, 82), (58, 78)):
        p.arc(feather, (x, y), (8, 6), 200, 340, 1.6)


def _frog(p: Pen) -> None:
    skin, dark = (112, 190, 84), (60, 120, 50)
    p.ellipse(skin, (50, 64), (76, 50))
    for x in (31, 69):
        p.circle(skin, (x, 40), 14)
        p.circle(WHITE, (x, 40), 9.5)
        p.circle(INK, (x, 41), 5)
        p.circle(WHITE, (x + 2, 39), 1.5)
    p.arc(dark, (50, 64), (44, 22), 200, 340, 2.4)
    p.circle((240, 140, 140), (24, 70), 4.5)
    p.circle((240, 140, 140), (76, 70), 4.5)
    p.circle(dark, (46, 58), 1.3)
    p.circle(dark, (54, 58), 1.3)


def _panda(p: Pen) -> None:
    black = (34, 34, 40)
    p.circle(black, (26, 32), 11)
    p.circle(black, (74, 32), 11)
    p.circle(WHITE, (50, 56), 30)
    p.tilted_ellipse(black, (38, 53), (13, 19), -35)
    p.tilted_ellipse(black, (62, 53), (13, 19), 35)
    p.circle(WHITE, (39, 51), 3.4)
    p.circle(WHITE, (61, 51), 3.4)
    p.circle(INK, (39.5, 51.5), 1.8)
    p.circle(INK, (60.5, 51.5), 1.8)
    p.ellipse(black, (50, 64), (10, 7))
    p.arc(black, (46, 70), (8, 6), 200, 340, 1.6)
    p.arc(black, (54, 70), (8, 6), 200, 340, 1.6)


def _rabbit(p: Pen) -> None:
    fur = (246, 244, 240)
    for x, tilt in ((38, -1), (62, 1)):
        p.ellipse(fur, (x + tilt * 2, 24), (15, 46))
        p.ellipse(PINK, (x + tilt * 2, 26), (7, 32))
    p.circle(fur, (50, 64), 26)
    p.circle(INK, (41, 60), 3.4)
    p.circle(INK, (59, 60), 3.4)
    p.circle(WHITE, (42, 59), 1)
    p.circle(WHITE, (60, 59), 1)
    p.poly(PINK, [(46, 67), (54, 67), (50, 71)])
    p.box(WHITE, (50, 77), (8, 7), 1.5)
    p.box((190, 180, 180), (50, 77), (8, 7), 1.5, 1)
    p.line((190, 180, 180), (50, 74), (50, 80), 1)
    p.circle(_mix(fur, PINK, 0.5), (34, 70), 4)
    p.circle(_mix(fur, PINK, 0.5), (66, 70), 4)


def _penguin(p: Pen) -> None:
    black = (34, 40, 52)
    p.ellipse(black, (50, 60), (66, 72))
    p.circle(WHITE, (40, 56), 14)
    p.circle(WHITE, (60, 56), 14)
    p.ellipse(WHITE, (50, 72), (40, 34))
    p.circle(INK, (41, 54), 3.6)
    p.circle(INK, (59, 54), 3.6)
    p.circle(WHITE, (42, 53), 1.1)
    p.circle(WHITE, (60, 53), 1.1)
    p.poly((246, 160, 40), [(43, 62), (57, 62), (50, 71)])
    p.circle((246, 170, 180), (33, 66), 3.6)
    p.circle((246, 170, 180), (67, 66), 3.6)


# ---- emblems -------------------------------------------------------------------------------------
def _sun(p: Pen) -> None:
    for i in range(12):
        a = math.radians(i * 30)
        mid, side = (50 + 22 * math.cos(a), 50 + 22 * math.sin(a)), math.radians(11)
        p.poly((250, 160, 50), [(50 + 22 * math.cos(a - side), 50 + 22 * math.sin(a - side)),
                                (50 + 40 * math.cos(a), 50 + 40 * math.sin(a)),
                                (50 + 22 * math.cos(a + side), 50 + 22 * math.sin(a + side)), mid])
    p.circle((252, 204, 60), (50, 50), 22)
    p.circle((254, 226, 120), (46, 46), 12)


def _moon(p: Pen) -> None:
    p.circle((246, 226, 140), (46, 52), 28)
    p.circle(_BACKGROUNDS[13], (60, 42), 24)
    p.star((250, 236, 170), (72, 66), 6, 2.4)
    p.star((250, 236, 170), (70, 22), 3.6, 1.5)
    p.star((250, 236, 170), (84, 44), 3, 1.2)


def _star(p: Pen) -> None:
    p.star((200, 140, 30), (50, 53), 38, 16)
    p.star((252, 210, 70), (50, 53), 33, 13.5)
    p.star((254, 232, 140), (47, 49), 12, 5)


def _flower(p: Pen) -> None:
    p.ellipse((90, 170, 80), (28, 80), (26, 12))
    p.ellipse((90, 170, 80), (72, 80), (26, 12))
    for i in range(6):
        a = math.radians(i * 60 - 90)
        p.circle((248, 140, 176), (50 + 19 * math.cos(a), 48 + 19 * math.sin(a)), 13)
    for i in range(6):
        a = math.radians(i * 60 - 90)
        p.circle((252, 184, 206), (50 + 19 * math.cos(a), 48 + 19 * math.sin(a)), 7)
    p.circle((250, 200, 60), (50, 48), 12)
    p.circle((230, 160, 40), (50, 48), 12, 1.6)


# ---- the computers' robots -----------------------------------------------------------------------
def _robot_body(p: Pen) -> None:
    p.box(METAL_DARK, (50, 82), (14, 12))
    p.box(METAL, (50, 100), (70, 34), 12)
    p.box(METAL_DARK, (50, 100), (70, 34), 12, 1.6)


def _rivet(p: Pen) -> None:
    _robot_body(p)
    p.line(METAL_DARK, (50, 34), (50, 18), 2.4)
    p.circle((230, 70, 70), (50, 16), 5)
    p.box(METAL, (50, 54), (54, 44), 7)
    p.box(METAL_DARK, (50, 54), (54, 44), 7, 1.6)
    for x in (38, 62):
        p.circle(WHITE, (x, 50), 8)
        p.circle(INK, (x, 50), 4)
    p.box(INK, (50, 67), (26, 8), 2)
    for x in (44, 50, 56):
        p.line(METAL, (x, 64), (x, 70), 1.2)
    for x, y in ((27, 36), (73, 36), (27, 72), (73, 72)):
        p.circle(METAL_DARK, (x, y), 1.8)


def _visor(p: Pen) -> None:
    _robot_body(p)
    p.box(METAL_DARK, (23, 54), (7, 16), 2)
    p.box(METAL_DARK, (77, 54), (7, 16), 2)
    p.box(METAL, (50, 54), (52, 48), 18)
    p.box(INK, (50, 50), (44, 15), 7)
    p.ellipse((90, 230, 250), (40, 50), (9, 6))
    p.ellipse((90, 230, 250), (60, 50), (9, 6))
    p.line(METAL_DARK, (42, 68), (58, 68), 2.4)


def _cyclops(p: Pen) -> None:
    _robot_body(p)
    p.line(METAL_DARK, (36, 34), (28, 18), 2)
    p.line(METAL_DARK, (64, 34), (72, 18), 2)
    p.circle((250, 210, 80), (28, 18), 3.6)
    p.circle((250, 210, 80), (72, 18), 3.6)
    p.circle(METAL, (50, 54), 26)
    p.circle(METAL_DARK, (50, 54), 26, 1.6)
    p.circle(WHITE, (50, 50), 13)
    p.circle((150, 90, 200), (50, 50), 8)
    p.circle(INK, (50, 50), 3.6)
    p.circle(WHITE, (53, 47), 1.6)
    p.arc(METAL_DARK, (50, 66), (18, 8), 200, 340, 2.2)


def _dome(p: Pen) -> None:
    _robot_body(p)
    p.line(METAL_DARK, (50, 30), (50, 22), 2.4)
    p.circle((250, 230, 120), (50, 18), 5)
    p.ellipse(METAL, (50, 46), (52, 34))
    p.box(METAL, (50, 60), (52, 28), 4)
    p.box((250, 220, 90), (39, 52), (11, 10), 2)
    p.box((250, 220, 90), (61, 52), (11, 10), 2)
    p.box(INK, (50, 67), (22, 9), 2)
    for x in (44, 50, 56):
        p.line((250, 220, 90), (x, 65), (x, 69), 1.4)


def _gear(p: Pen) -> None:
    _robot_body(p)
    teeth = []
    for i in range(20):
        a = math.radians(i * 18 + 9)
        radius = 31 if i % 2 == 0 else 25
        teeth.append((50 + radius * math.cos(a), 52 + radius * math.sin(a)))
    p.poly(METAL_DARK, teeth)
    p.circle(METAL, (50, 52), 24)
    p.line(INK, (37, 50), (45, 50), 3)
    p.line(INK, (55, 50), (63, 50), 3)
    p.circle((90, 200, 250), (41, 46), 1.6)
    p.circle((90, 200, 250), (59, 46), 1.6)
    p.arc(INK, (50, 60), (16, 8), 200, 340, 2.2)


def _bolt(p: Pen) -> None:
    _robot_body(p)
    p.box(METAL, (50, 54), (50, 48), 11)
    p.box(METAL_DARK, (50, 54), (50, 48), 11, 1.6)
    p.poly((250, 190, 40), [(52, 30), (42, 44), (49, 44), (45, 54), (58, 39), (51, 39), (55, 30)])
    p.ellipse((60, 120, 220), (39, 57), (9, 9))
    p.ellipse((60, 120, 220), (61, 57), (9, 9))
    p.lines(INK, [(40, 69), (44, 66), (48, 69), (52, 66), (56, 69), (60, 66)], 1.8)


def _screen(p: Pen) -> None:
    _robot_body(p)
    p.line(METAL_DARK, (50, 32), (38, 16), 2)
    p.line(METAL_DARK, (50, 32), (62, 16), 2)
    p.box(METAL, (50, 54), (58, 44), 6)
    p.box((24, 50, 36), (50, 54), (46, 34), 4)
    glow = (120, 240, 140)
    for x, y in ((40, 48), (60, 48), (38, 60), (42, 63), (46, 64), (50, 64), (54, 64), (58, 63), (62, 60)):
        p.box(glow, (x, y), (4, 4))


def _hex(p: Pen) -> None:
    _robot_body(p)
    p.poly(METAL, [(50 + 30 * math.cos(math.radians(a)), 53 + 28 * math.sin(math.radians(a)))
                   for a in range(0, 360, 60)])
    p.poly(METAL_DARK, [(50 + 30 * math.cos(math.radians(a)), 53 + 28 * math.sin(math.radians(a)))
                        for a in range(0, 360, 60)], 1.6)
    p.poly((240, 90, 160), [(34, 46), (46, 46), (40, 55)])
    p.poly((240, 90, 160), [(54, 46), (66, 46), (60, 55)])
    for x in (40, 45, 50, 55, 60):
        p.circle(INK, (x, 65), 1.6)


_BACKGROUNDS: Final[tuple[Color, ...]] = (
    (120, 180, 232), (250, 186, 140), (150, 204, 160), (192, 164, 228),
    (56, 150, 150), (238, 170, 192), (176, 214, 126), (52, 62, 112),
    (250, 222, 112), (120, 190, 112), (140, 196, 240), (176, 222, 240),
    (40, 92, 172), (42, 36, 84), (196, 54, 64), (112, 72, 152),
    (86, 106, 130), (236, 142, 62), (142, 92, 192), (212, 72, 72),
    (62, 112, 202), (242, 202, 62), (82, 170, 92), (222, 102, 162),
)
"""Each avatar's disc, by id."""

_FIGURES: Final[dict[str, Callable[[Pen], None]]] = {
    "curls": _curls, "glasses": _glasses, "beard": _beard, "bun": _bun,
    "fox": _fox, "cat": _cat, "bear": _bear, "owl": _owl, "frog": _frog, "panda": _panda,
    "rabbit": _rabbit, "penguin": _penguin, "sun": _sun, "moon": _moon, "star": _star, "flower": _flower,
    "rivet": _rivet, "visor": _visor, "cyclops": _cyclops, "dome": _dome, "gear": _gear, "bolt": _bolt,
    "screen": _screen, "hex": _hex,
}


def _shade(color: Color, factor: float) -> Color:
    r, g, b = (max(0, min(255, int(c * factor))) for c in color)
    return (r, g, b)


def _mix(a: Color, b: Color, t: float) -> Color:
    r, g, bl = (int(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


@lru_cache(maxsize=256)
def avatar_image(avatar: int, size: int, dimmed: bool = False) -> pygame.Surface:
    """The round picture of ``avatar`` (an id of `game.play.avatars`), ``size`` pixels across;
    ``dimmed``: greyed, for one that cannot be chosen. An unknown id draws a plain disc."""
    size = max(8, size)
    big = min(512, size * 4)
    layer = pygame.Surface((big, big), pygame.SRCALPHA)
    pen = Pen(layer)
    known = type(avatar) is int and 0 <= avatar < AVATARS
    pen.circle(_BACKGROUNDS[avatar] if known else (90, 110, 100), (50, 50), 50)
    if known:
        _FIGURES[CATALOGUE[avatar].name](pen)
    mask = pygame.Surface((big, big), pygame.SRCALPHA)
    Pen(mask).circle((255, 255, 255), (50, 50), 47)
    layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)  # the figure stays inside the disc
    pen.circle(RIM_DARK, (50, 50), 49.5, 3.5)
    pen.circle(RIM, (50, 50), 48, 3)
    image = pygame.transform.smoothscale(layer, (size, size))
    if dimmed:
        grey = pygame.Surface((size, size), pygame.SRCALPHA)
        grey.fill((120, 120, 120, 255))
        image.blit(grey, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return image
