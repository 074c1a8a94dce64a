"""Generated card art: every face, the back, the table felt and small markers, drawn at runtime.

Nothing is fetched and no image file is needed: cards are drawn with pygame primitives
and the shipped DejaVu fonts (the default pygame font has no suit symbols), at twice the
size and smoothly scaled down, which anti-aliases every edge. ``CardArt`` caches what it
draws, so a table asks it for surfaces every frame without cost.

To look at the art: ``python -m tools.art_sheets OUTDIR [--width 120] [--four-color]``
writes the contact sheets ``standard.png``, ``action_markers.png`` and ``colors.png``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from game.engine.cards import Card

from . import assets
from .felt import felt as felt  # re-exported: the table and menus take the felt from here
from .felt import mix

HEIGHT_RATIO = 1.4
"""Card height over card width."""

_SS = 2  # supersampling factor: draw at twice the size, then smoothscale down

RGB = tuple[int, int, int]
PAPER: RGB = (252, 251, 246)
EDGE: RGB = (128, 128, 134)
GOLD: RGB = (222, 178, 72)
DARK: RGB = (28, 28, 34)
RED: RGB = (200, 30, 45)
TWO_COLOR: dict[str, RGB] = {"S": DARK, "H": RED, "D": RED, "C": DARK}
FOUR_COLOR: dict[str, RGB] = {"S": DARK, "H": RED, "D": (24, 88, 200), "C": (22, 128, 58)}
DECK_COLORS: dict[str, RGB] = {
    "R": (206, 50, 46), "B": (30, 102, 194), "G": (42, 148, 76), "Y": (236, 184, 30),
}
"""Fills of the colour deck, keyed by colour letter: readable, not neon."""

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ACTION_MARKERS: dict[str, tuple[str, str]] = {
    "J": ("SKIP ⊘", "⊘"), "Q": ("REV ⇄", "⇄"), "K": ("+2", "+2"), "X": ("+4 WILD", "+4"),
}
"""Badges of the ``action`` preset, by rank: (centre badge text, corner mark)."""

def marker_text(rank: str) -> str:
    """The centre badge of an ``action`` card in the player's language (``SKIP ⊘``, ``PASSE ⊘``)."""
    from .i18n import tr

    symbol = ACTION_MARKERS[rank][1]
    return tr(f"marker.{rank}", symbol=symbol)


_COLOR_SYMBOLS = {"+2": "+2", "skip": "⊘", "rev": "⇄", "W+4": "+4"}
_COURT_FIGURES = {"J": "♞", "Q": "♛", "K": "♚"}
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0, 0), (0, 1)],
    3: [(0, 0), (0, 0.5), (0, 1)],
    4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    6: [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    7: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    8: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    9: [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    10: [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6),
         (-1, 1), (1, 1)],
}
"""Pip positions: column -1/0/1, row 0 (top) … 1 (bottom), as printed on real cards."""

_fonts: dict[tuple[bool, int], pygame.font.Font] = {}
_ink_ratios: dict[tuple[str, bool], tuple[float, float]] = {}


def _font(bold: bool, size: int) -> pygame.font.Font:
    """The DejaVu font at ``size`` px (fonts are shared by all ``CardArt`` instances)."""
    key = (bold, max(4, size))
    font = _fonts.get(key)
    if font is None:
        if not pygame.font.get_init():
            pygame.font.init()
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"  # it has ♠♥♦♣, ⊘ and ⇄
        font = _fonts[key] = pygame.font.Font(str(assets.path("fonts", name)), key[1])
    return font


def _crop(surface: pygame.Surface) -> pygame.Surface:
    """The part of ``surface`` that has ink."""
    box = surface.get_bounding_rect()
    if box.width == 0 or box.height == 0:
        return surface
    return surface.subsurface(box).copy()


def _ink_ratio(text: str, bold: bool) -> tuple[float, float]:
    """Ink height and width of ``text`` per px of font size."""
    key = (text, bold)
    if key not in _ink_ratios:
        ink = _crop(_font(bold, 200).render(text, True, (0, 0, 0)))
        _ink_ratios[key] = (ink.get_height() / 200, ink.get_width() / 200)
    return _ink_ratios[key]


def _display_ready(surface: pygame.Surface) -> pygame.Surface:
    """``surface`` converted for fast blits when a display exists, else as it is."""
    return surface.convert_alpha() if pygame.display.get_surface() is not None else surface


def _canvas(size: tuple[int, int], clear: RGB) -> pygame.Surface:
    """A transparent surface whose hidden colour is ``clear`` (no dark fringes when scaled)."""
    surface = pygame.Surface(size, pygame.SRCALPHA)
    surface.fill((*clear, 0))
    return surface


def _blit_center(dst: pygame.Surface, src: pygame.Surface, center: tuple[float, float]) -> None:
    dst.blit(src, src.get_rect(center=(round(center[0]), round(center[1]))))


def _clip_rounded(surface: pygame.Surface, rect: pygame.Rect, radius: int) -> None:
    """Make everything outside the rounded ``rect`` transparent."""
    mask = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    mask.fill((255, 255, 255, 0))
    pygame.draw.rect(mask, (255, 255, 255, 255), rect, border_radius=radius)
    surface.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)


def _silhouette(surface: pygame.Surface, color: RGB) -> pygame.Surface:
    """``surface`` recoloured to ``color``, keeping its alpha."""
    out = surface.copy()
    out.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MIN)
    out.fill((*color, 0), special_flags=pygame.BLEND_RGBA_ADD)
    return out


def _outlined(surface: pygame.Surface, color: RGB, thickness: int) -> pygame.Surface:
    """``surface`` on a ``thickness`` px outline of ``color`` (its ink dilated by a disc)."""
    t = max(1, thickness)
    disc_surface = _canvas((2 * t + 1, 2 * t + 1), color)
    pygame.draw.circle(disc_surface, (*color, 255), (t, t), t)
    disc = pygame.mask.from_surface(disc_surface)
    grown = pygame.mask.from_surface(surface, 60).convolve(disc)
    out = grown.to_surface(setcolor=(*color, 255), unsetcolor=(*color, 0))
    out.blit(surface, (t, t))
    return out



class CardArt:
    """Card surfaces of one width for all Huit decks, drawn on first use and cached.

    ``width`` is the card width in px (40–400 look right); the height is
    ``round(width * 1.4)``. ``four_color`` paints diamonds blue and clubs green.
    """

    def __init__(self, width: int, *, four_color: bool = False) -> None:
        """Prepare art for cards ``width`` px wide.

        Raises:
            ValueError: ``width`` is below 16 px.
        """
        if width < 16:
            raise ValueError(f"card width must be at least 16 px, got {width}")
        self.width = width
        self.height = round(width * HEIGHT_RATIO)
        self.four_color = four_color
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}
        self._glyphs: dict[tuple[object, ...], pygame.Surface] = {}
        self._W = width * _SS
        self._H = self.height * _SS
        # Small cards get proportionally larger corner indices, so they stay readable.
        self._index = self._W * (0.14 + 0.1 * min(1.0, max(0.0, (110 - width) / 70)))
        self._compact = width < 80  # court panels and the joker drop their finest details

    @property
    def size(self) -> tuple[int, int]:
        """Card size in px, (width, height)."""
        return (self.width, self.height)

    @property
    def glow_margin(self) -> int:
        """How far the glow reaches beyond the card on every side, in px."""
        return max(3, round(self.width * 0.08))

    # -- public surfaces -------------------------------------------------------------------------

    def face(self, card: Card, *, markers: bool = False) -> pygame.Surface:
        """The face of ``card``; ``markers`` adds the ``action`` badges to J, Q, K and the joker."""
        markers = markers and card.is_standard and card.rank in ACTION_MARKERS
        key = ("face", card.code, marker_text(card.rank) if markers else "")  # badges follow the language
        return self._cached(key, lambda: self._draw_face(card, markers))

    def back(self) -> pygame.Surface:
        """The card back: a deep red diamond lattice in a border, with an "8" emblem."""
        return self._cached(("back",), lambda: self._finish(self._draw_back(), self.size))

    def glow(self) -> pygame.Surface:
        """A soft golden halo ``glow_margin`` px larger than a card on every side."""
        return self._cached(("glow",), self._draw_glow)

    def blank(self) -> pygame.Surface:
        """The outline of an empty card slot, for an empty pile."""
        return self._cached(("blank",), self._draw_blank)

    def suit_badge(self, suit: str, size: int) -> pygame.Surface:
        """A round badge ``size`` px wide showing a suit (S H D C) or a colour (R B G Y).

        Raises:
            ValueError: ``suit`` is not a suit or colour letter.
        """
        if suit not in SYMBOLS and suit not in DECK_COLORS:
            raise ValueError(f"not a suit or colour: {suit!r} (expected one of S H D C R B G Y)")
        return self._cached(("badge", suit, size), lambda: self._draw_badge(suit, max(8, size)))

    # -- shared pieces ---------------------------------------------------------------------------

    def _cached(self, key: tuple[object, ...], draw: Callable[[], pygame.Surface]) -> pygame.Surface:
        surface = self._cache.get(key)
        if surface is None:
            surface = self._cache[key] = draw()
        return surface

    def _draw_face(self, card: Card, markers: bool) -> pygame.Surface:
        if card.rank == "X":
            big = self._joker_face(markers)
        elif card.is_standard:
            big = self._standard_face(card, markers)
        else:
            big = self._color_face(card)
        return self._finish(big, self.size)

    def _draw_blank(self) -> pygame.Surface:
        big = _canvas((self._W, self._H), (255, 255, 255))
        rect = big.get_rect().inflate(-2 * _SS, -2 * _SS)
        radius = self._radius()
        pygame.draw.rect(big, (255, 255, 255, 26), rect, border_radius=radius)
        pygame.draw.rect(big, (255, 255, 255, 130), rect, max(2, round(self._W * 0.02)), border_radius=radius)
        inner = rect.inflate(-round(self._W * 0.12), -round(self._W * 0.12))
        pygame.draw.rect(big, (255, 255, 255, 50), inner, max(1, round(self._W * 0.01)),
                         border_radius=max(1, radius // 2))
        return self._finish(big, self.size)

    def _draw_badge(self, suit: str, size: int) -> pygame.Surface:
        d = size * _SS
        c = d / 2
        big = _canvas((d, d), GOLD)
        pygame.draw.circle(big, GOLD, (c, c), c)
        pygame.draw.circle(big, PAPER, (c, c), c * 0.88)
        if suit in SYMBOLS:
            _blit_center(big, self._glyph(SYMBOLS[suit], d * 0.52, self._ink(suit)), (c, c * 1.02))
        else:
            pygame.draw.circle(big, DECK_COLORS[suit], (c, c), c * 0.78)
            shine = _canvas((d, d), PAPER)
            pygame.draw.ellipse(shine, (255, 255, 255, 70), (c * 0.5, c * 0.34, c, c * 0.6))
            big.blit(shine, (0, 0))
        return self._finish(big, (size, size))

    def _finish(self, big: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        return _display_ready(pygame.transform.smoothscale(big, size))

    def _radius(self) -> int:
        return round(self._W * 0.075)

    def _ink(self, suit: str) -> RGB:
        return (FOUR_COLOR if self.four_color else TWO_COLOR)[suit]

    def _glyph(self, text: str, height: float, color: RGB, bold: bool = False) -> pygame.Surface:
        """``text`` whose ink is ``height`` px tall, cropped to its ink (cached)."""
        key = (text, round(height), color, bold)
        glyph = self._glyphs.get(key)
        if glyph is None:
            ratio = _ink_ratio(text, bold)[0]
            glyph = _crop(_font(bold, round(height / ratio)).render(text, True, color))
            self._glyphs[key] = glyph
        return glyph

    def _rank_text(self, rank: str, height: float, color: RGB, bold: bool = True) -> pygame.Surface:
        """A rank as printed: the ten is a narrow "10"."""
        if rank != "T":
            return self._glyph(rank, height, color, bold)
        key = ("10", round(height), color, bold)
        glyph = self._glyphs.get(key)
        if glyph is None:
            wide = self._glyph("10", height, color, bold)
            size = (max(1, round(wide.get_width() * 0.78)), wide.get_height())
            glyph = self._glyphs[key] = pygame.transform.smoothscale(wide, size)
        return glyph

    def _card_base(self, fill: RGB, edge: RGB = EDGE) -> pygame.Surface:
        big = _canvas((self._W, self._H), edge)
        rect = big.get_rect()
        radius = self._radius()
        pygame.draw.rect(big, edge, rect, border_radius=radius)
        border = max(2, round(self._W * 0.011))
        pygame.draw.rect(big, fill, rect.inflate(-2 * border, -2 * border), border_radius=radius - border)
        return big

    def _corners(self, big: pygame.Surface, index: pygame.Surface, pad: float | None = None) -> None:
        """Put ``index`` in the top-left corner and, turned round, in the bottom-right one."""
        pad = self._W * 0.055 if pad is None else pad
        x = round(pad + max(0.0, self._index * 0.45 - index.get_width() / 2))
        y = round(pad)
        big.blit(index, (x, y))
        turned = pygame.transform.flip(index, True, True)
        big.blit(turned, (self._W - x - index.get_width(), self._H - y - index.get_height()))

    def _stack(self, parts: Sequence[pygame.Surface], gap: float) -> pygame.Surface:
        """``parts`` one above the other, centred on a column."""
        width = max(p.get_width() for p in parts)
        height = sum(p.get_height() for p in parts) + round(gap) * (len(parts) - 1)
        out = _canvas((width, height), (255, 255, 255))
        y = 0
        for part in parts:
            out.blit(part, ((width - part.get_width()) // 2, y))
            y += part.get_height() + round(gap)
        return out

    def _index_right(self) -> float:
        return self._W * 0.055 + self._index * 0.95

    # -- standard deck ---------------------------------------------------------------------------

    def _standard_face(self, card: Card, markers: bool) -> pygame.Surface:
        assert card.suit is not None
        big = self._card_base(PAPER)
        ink = self._ink(card.suit)
        symbol = SYMBOLS[card.suit]
        h = self._index
        suit_h = h * (0.9 if self._compact else 0.8)
        parts = [self._rank_text(card.rank, h, ink), self._glyph(symbol, suit_h, ink)]
        if markers:
            mark = ACTION_MARKERS[card.rank][1]
            parts.append(self._glyph(mark, h * (0.5 if mark.startswith("+") else 0.62), DARK, bold=True))
        self._corners(big, self._stack(parts, h * 0.16))
        if card.rank == "A":
            size = self._W * (0.42 if card.suit == "S" else 0.34)
            _blit_center(big, self._glyph(symbol, size, ink), (self._W / 2, self._H / 2))
        elif card.rank in _COURT_FIGURES:
            self._court(big, card.rank, card.suit, ink)
        else:
            self._pips(big, card.number, symbol, ink)
        if markers:
            self._marker_badge(big, marker_text(card.rank))
        return big

    def _pips(self, big: pygame.Surface, count: int, symbol: str, ink: RGB) -> None:
        W, H = self._W, self._H
        left = self._index_right() + W * 0.025
        span = W - 2 * left  # the pip columns live between the two index columns
        ratio_h, ratio_w = _ink_ratio(symbol, False)
        # One pip size for the whole suit, small enough for the middle column of the 10.
        pip_w = min(W * 0.16, span / (3.3 if self._compact else 3.0))
        pip = self._glyph(symbol, pip_w * ratio_h / ratio_w, ink)
        turned = pygame.transform.flip(pip, True, True)
        dx = (span - pip_w) / 2
        top = H * 0.2
        bottom = H - top
        for col, row in _PIPS[count]:
            center = (W / 2 + col * dx, top + row * (bottom - top))
            _blit_center(big, turned if row > 0.5 else pip, center)

    def _court(self, big: pygame.Surface, rank: str, suit: str, ink: RGB) -> None:
        W, H = self._W, self._H
        x = round(self._index_right() + W * 0.02)
        y = round(H * 0.1)
        panel = pygame.Rect(x, y, W - 2 * x, H - 2 * y)
        radius = round(W * 0.03)
        pygame.draw.rect(big, mix(PAPER, GOLD, 0.18), panel, border_radius=radius)
        # One half is drawn, the other is the same half turned round, as on real court cards.
        half = _canvas((panel.width, panel.height // 2), PAPER)
        hw, hh = half.get_size()
        if self._compact:
            _blit_center(half, self._glyph(_COURT_FIGURES[rank], hh * 0.62, ink), (hw / 2, hh * 0.5))
        else:
            _blit_center(half, self._glyph(_COURT_FIGURES[rank], hh * 0.56, ink), (hw * 0.64, hh * 0.5))
            letter = self._glyph(rank, hh * 0.32, mix(ink, GOLD, 0.25), bold=True)
            _blit_center(half, letter, (hw * 0.24, hh * 0.34))
            _blit_center(half, self._glyph(SYMBOLS[suit], hh * 0.16, ink), (hw * 0.24, hh * 0.68))
        big.blit(half, panel.topleft)
        big.blit(pygame.transform.flip(half, True, True), (panel.x, panel.bottom - hh))
        line = max(2, round(W * 0.012))
        cx, cy = panel.center
        pygame.draw.line(big, GOLD, (panel.x, cy), (panel.right - 1, cy), line)
        d = W * 0.035
        for color, k in ((GOLD, 1.0), (ink, 0.5)):  # a jewel on the fold
            pygame.draw.polygon(big, color, [(cx - d * 1.6 * k, cy), (cx, cy - d * k),
                                             (cx + d * 1.6 * k, cy), (cx, cy + d * k)])
        pygame.draw.rect(big, ink, panel, line, border_radius=radius)
        pygame.draw.rect(big, GOLD, panel.inflate(-3 * line, -3 * line), max(1, line // 2),
                         border_radius=max(1, radius - line))

    def _marker_badge(self, big: pygame.Surface, text: str) -> None:
        """A dark pill with a gold rim across the middle of the card, naming the action."""
        W, H = self._W, self._H
        label = self._glyph(text, max(W * 0.1, self._index * 0.55), (255, 255, 255), bold=True)
        if label.get_width() > W * 0.8:
            scale = W * 0.8 / label.get_width()
            label = pygame.transform.smoothscale(
                label, (round(label.get_width() * scale), round(label.get_height() * scale)))
        pill = pygame.Rect(0, 0, label.get_width() + W * 0.12, label.get_height() * 1.9)
        pill.center = (W // 2, H // 2)
        rim = max(2, round(W * 0.014))
        pygame.draw.rect(big, GOLD, pill, border_radius=pill.height // 2)
        pygame.draw.rect(big, (36, 30, 48), pill.inflate(-2 * rim, -2 * rim), border_radius=pill.height // 2)
        _blit_center(big, label, pill.center)

    def _joker_face(self, markers: bool) -> pygame.Surface:
        W, H = self._W, self._H
        big = self._card_base(PAPER)
        purple, crimson = (84, 36, 124), (168, 28, 48)
        h = self._index
        parts = [self._glyph("★", h * 0.95, crimson), self._glyph("JK", h * 0.5, purple, bold=True)]
        if markers:
            parts.append(self._glyph("+4", h * 0.5, DARK, bold=True))
        self._corners(big, self._stack(parts, h * 0.16))
        x = round(self._index_right() + W * 0.02)
        panel = pygame.Rect(x, round(H * 0.1), W - 2 * x, H - 2 * round(H * 0.1))
        radius = round(W * 0.03)
        # A harlequin of purple and crimson diamonds with gold seams.
        pattern = _canvas(panel.size, GOLD)
        pattern.fill((*GOLD, 255))
        cell = panel.width / 2.5
        seam = max(1, round(W * 0.008))
        for row in range(-1, round(panel.height / cell * 2) + 2):
            for col in range(-1, 4):
                cx = col * cell + (cell / 2 if row % 2 else 0)
                cy = row * cell / 2
                r = cell / 2 - seam
                points = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
                pygame.draw.polygon(pattern, purple if (col + row) % 2 else crimson, points)
        _clip_rounded(pattern, pattern.get_rect(), radius)
        big.blit(pattern, panel.topleft)
        pygame.draw.rect(big, DARK, panel, max(2, round(W * 0.012)), border_radius=radius)
        star = _outlined(self._glyph("★", panel.width * 0.42, GOLD), DARK, round(W * 0.012))
        if not markers:
            _blit_center(big, star, (panel.centerx, panel.top + panel.height * 0.22))
        _blit_center(big, pygame.transform.flip(star, True, True),
                     (panel.centerx, panel.bottom - panel.height * 0.22))
        word = self._glyph("JOKER", panel.width * 0.17, PAPER, bold=True)
        if word.get_width() > panel.width * 0.8:
            word = pygame.transform.smoothscale(word, (round(panel.width * 0.8), word.get_height()))
        plate = word.get_rect().inflate(W * 0.06, W * 0.07)
        # With markers the badge takes the middle (clear of the corner indices), the word moves up.
        plate.center = (panel.centerx, round(panel.top + panel.height * (0.24 if markers else 0.5)))
        pygame.draw.rect(big, DARK, plate, border_radius=round(W * 0.02))
        pygame.draw.rect(big, GOLD, plate, max(2, round(W * 0.01)), border_radius=round(W * 0.02))
        _blit_center(big, word, plate.center)
        if markers:
            self._marker_badge(big, marker_text("X"))
        return big

    # -- colour deck -----------------------------------------------------------------------------

    def _color_symbol(self, rank: str, height: float, color: RGB) -> pygame.Surface:
        """The symbol of a colour-deck rank; 6 and 9 are underlined."""
        text = _COLOR_SYMBOLS.get(rank, rank)
        glyph = self._glyph(text, height, color, bold=True)
        if rank not in ("6", "9"):
            return glyph
        w, h = glyph.get_size()
        bar = max(2, round(h * 0.09))
        out = _canvas((w, h + 3 * bar), color)
        out.blit(glyph, (0, 0))
        pygame.draw.rect(out, color, (round(w * 0.1), h + 2 * bar, round(w * 0.8), bar))
        return out

    def _wheel(self, size: tuple[int, int]) -> pygame.Surface:
        """An oval in four colour quarters."""
        w, h = size
        out = _canvas(size, PAPER)
        out.fill((*DECK_COLORS["R"], 255), (0, 0, w // 2, h // 2))
        out.fill((*DECK_COLORS["B"], 255), (w // 2, 0, w - w // 2, h // 2))
        out.fill((*DECK_COLORS["Y"], 255), (0, h // 2, w // 2, h - h // 2))
        out.fill((*DECK_COLORS["G"], 255), (w // 2, h // 2, w - w // 2, h - h // 2))
        mask = _canvas(size, PAPER)
        pygame.draw.ellipse(mask, (255, 255, 255, 255), mask.get_rect())
        out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        return out

    def _color_face(self, card: Card) -> pygame.Surface:
        W, H = self._W, self._H
        wild = card.suit is None
        fill = (24, 24, 28) if wild else DECK_COLORS[card.suit or "R"]
        big = self._card_base(PAPER, (90, 90, 96))
        margin = round(W * 0.05)
        inner = big.get_rect().inflate(-2 * margin, -2 * margin)
        pygame.draw.rect(big, fill, inner, border_radius=self._radius() - margin // 2)
        # The tilted oval: white for number and action cards, a colour wheel for wilds.
        ow, oh = round(W * 0.62), round(H * 0.74)
        oval = _canvas((ow, oh), PAPER)
        pygame.draw.ellipse(oval, PAPER, oval.get_rect())
        if wild:
            ring = round(W * 0.035)
            oval.blit(self._wheel((ow - 2 * ring, oh - 2 * ring)), (ring, ring))
        _blit_center(big, pygame.transform.rotozoom(oval, -24, 1.0), (W / 2, H / 2))
        outline = max(2, round(W * 0.018))
        if card.rank == "W+4":
            symbol = _outlined(self._glyph("+4", W * 0.34, PAPER, bold=True), DARK, outline * 2)
            _blit_center(big, symbol, (W / 2, H / 2))
        elif not wild:
            height = W * (0.4 if card.rank.isdigit() else 0.34)
            symbol = _outlined(self._color_symbol(card.rank, height, fill), DARK, outline)
            shadow = _silhouette(symbol, DARK)
            shadow.set_alpha(90)
            _blit_center(big, shadow, (W / 2 + outline * 1.5, H / 2 + outline * 1.5))
            _blit_center(big, symbol, (W / 2, H / 2))
        # Corner indices sit on the colour, in white with a dark rim.
        h = self._index * (1.05 if self._compact else 0.92)
        pad = margin + W * 0.02
        if card.rank == "W":
            d = round(h * 1.1)
            index = _canvas((d, d), PAPER)
            r = d / 2
            for flag, color in (("draw_top_left", "R"), ("draw_top_right", "B"),
                                ("draw_bottom_left", "Y"), ("draw_bottom_right", "G")):
                pygame.draw.circle(index, DECK_COLORS[color], (r, r), r - 1, **{flag: True})
        else:
            rank = "W+4" if card.rank == "W+4" else card.rank
            index = _outlined(self._color_symbol(rank, h, PAPER), DARK, max(1, round(W * 0.01)))
        self._corners(big, index, pad)
        return big

    # -- back, glow ------------------------------------------------------------------------------

    def _draw_back(self) -> pygame.Surface:
        W, H = self._W, self._H
        deep, lattice = (120, 18, 34), (168, 48, 62)
        big = self._card_base(PAPER)
        margin = round(W * 0.06)
        field = _canvas((W - 2 * margin, H - 2 * margin), deep)
        field.fill((*deep, 255))
        fw, fh = field.get_size()
        cell = max(6.0, W * 0.12)
        line = max(1, round(W * 0.008))
        slope = 1.4
        n = int((fw + fh) / cell) + 2
        for i in range(-n, n + 1):
            x0 = i * cell
            pygame.draw.line(field, lattice, (x0, 0), (x0 + fh / slope, fh), line)
            pygame.draw.line(field, lattice, (x0, 0), (x0 - fh / slope, fh), line)
        for i in range(-n, n + 1):  # a small gold dot at every crossing
            for j in range(0, int(fh / (cell * slope / 2)) + 2):
                x = i * cell + (cell / 2 if j % 2 else 0)
                pygame.draw.circle(field, mix(deep, GOLD, 0.55), (x, j * cell * slope / 2), line * 1.2)
        radius = self._radius() - margin // 2
        _clip_rounded(field, field.get_rect(), radius)
        big.blit(field, (margin, margin))
        frame = big.get_rect().inflate(-2 * margin - W * 0.05, -2 * margin - W * 0.05)
        pygame.draw.rect(big, GOLD, frame, max(1, round(W * 0.012)),
                         border_radius=max(1, radius - margin // 2))
        c = (W / 2, H / 2)
        r = W * 0.22
        pygame.draw.circle(big, deep, c, r * 1.22)
        pygame.draw.circle(big, GOLD, c, r * 1.1)
        pygame.draw.circle(big, PAPER, c, r)
        pygame.draw.circle(big, GOLD, c, r * 0.9, max(1, round(W * 0.008)))
        _blit_center(big, self._glyph("8", r * 1.15, deep, bold=True), c)
        return big

    def _draw_glow(self) -> pygame.Surface:
        m = self.glow_margin * _SS
        big = _canvas((self._W + 2 * m, self._H + 2 * m), GOLD)
        card = pygame.Rect(m, m, self._W, self._H)
        radius = self._radius()
        # Filled rects from the outside in, each replacing the last: a smooth falloff.
        for d in range(m, 0, -1):
            alpha = round(240 * (1 - d / m))
            pygame.draw.rect(big, (*GOLD, alpha), card.inflate(2 * d, 2 * d), border_radius=radius + d)
        pygame.draw.rect(big, (*GOLD, 230), card, border_radius=radius)
        pygame.draw.rect(big, (255, 226, 140, 255), card.inflate(2 * _SS, 2 * _SS), 2 * _SS,
                         border_radius=radius + _SS)
        return self._finish(big, (self.width + 2 * self.glow_margin, self.height + 2 * self.glow_margin))
