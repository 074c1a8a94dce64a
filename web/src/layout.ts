/**
 * The hand's layout maths: how wide a card is and how far apart the cards of a hand sit in the width
 * the page gives it, overlapping when they must and wrapping to a second row rather than hiding
 * more than 60 % of a card (so every card stays a target a finger can hit: at least 44 px of it
 * showing, the table's MIN_TOUCH).
 */

export const CARD_RATIO = 1.4; // height over width, as the game's cards
export const MIN_TOUCH = 44;

export interface HandLayout {
  cardW: number;
  cardH: number;
  /** From one card's left edge to the next's (≤ cardW + gap). */
  step: number;
  /** Cards per row. */
  perRow: number;
  rows: number;
}

/** Whether the viewport is a large screen (app.css's `min-width: 1600px and min-height: 900px`):
 * the page is wider there, its cards and text larger. */
export function largeScreen(viewW: number, viewH: number): boolean {
  return viewW >= 1600 && viewH >= 900;
}

/** The card size for a viewport: a fifth or so of the narrow side, never so tall that a short
 * landscape screen loses the hand, 56 to 150 px. A large screen gives the hand its height: a card
 * is a 4.5th of it (the rest of the table holds there: the pile takes what is left), to 240 px. */
export function cardWidth(viewW: number, viewH: number): number {
  const short = Math.min(viewW, viewH * 1.3);
  const large = largeScreen(viewW, viewH);
  const most = large ? 240 : 150;
  return Math.round(Math.max(56, Math.min(most, short / 5.6, viewH / (large ? 4.5 : 5.4))));
}

/** Lay `count` cards of width `cardW` in `width` px with `gap` px between them when they fit. */
export function layoutHand(count: number, width: number, cardW: number, gap = 6): HandLayout {
  const cardH = Math.round(cardW * CARD_RATIO);
  if (count <= 0) return { cardW, cardH, step: cardW + gap, perRow: 0, rows: 0 };
  const minStep = Math.max(MIN_TOUCH, Math.round(cardW * 0.4));
  const usable = Math.max(width, cardW);
  // How many fit in a row at the smallest step.
  const fit = Math.max(1, Math.floor((usable - cardW) / minStep) + 1);
  const rows = Math.ceil(count / fit);
  const perRow = Math.ceil(count / rows);
  const step = perRow <= 1 ? cardW + gap : Math.min(cardW + gap, (usable - cardW) / (perRow - 1));
  return { cardW, cardH, step: Math.floor(step * 100) / 100, perRow, rows };
}

/** The left offset and row of card `index` in a layout, the rows centred in `width`. */
export function cardPosition(layout: HandLayout, count: number, index: number, width: number): { x: number; row: number } {
  const row = Math.floor(index / layout.perRow);
  const inRow = row < layout.rows - 1 ? layout.perRow : count - row * layout.perRow;
  const span = layout.cardW + layout.step * (inRow - 1);
  const left = Math.max(0, (width - span) / 2);
  return { x: Math.round(left + layout.step * (index % layout.perRow)), row };
}

/** Whether the controls stand beside the hand rather than under it (landscape phones, wide screens:
 * the same conditions as app.css's media queries), and so how wide the hand may be. */
export function controlsBeside(viewW: number, viewH: number): boolean {
  return (viewW / viewH >= 4 / 3 && viewH <= 500) || (viewW >= 1000 && viewH >= 600);
}

/** The width the hand has in a viewport (the page is at most 1400 px wide, 1800 px on a large
 * screen, 8 px padding each side; the controls beside it as app.css sizes them). */
export function handWidth(viewW: number, viewH: number): number {
  const large = largeScreen(viewW, viewH);
  const page = Math.min(viewW, large ? 1800 : 1400) - 16;
  return Math.max(120, page - (controlsBeside(viewW, viewH) ? (viewH <= 500 ? 228 : large ? 238 : 188) : 0));
}

/** Whether the viewport is a phone upright (app.css's `max-aspect-ratio: 3/4`). */
export function upright(viewW: number, viewH: number): boolean {
  return viewW * 4 <= viewH * 3;
}

/** From one row of the hand's top to the next's: 78 % of a card (its face mostly seen); on a phone
 * upright with three rows or more, or in a hand squeezed to fit its screen (`tight`), 60 % (the
 * corner and at least MIN_TOUCH px of each card still showing), so that a hand of 20 leaves the
 * controls, the pile and the discard on its screen. */
export function rowPitch(layout: HandLayout, viewW: number, viewH: number, tight = false): number {
  const close = tight || (upright(viewW, viewH) && layout.rows >= 3);
  return close ? Math.max(layout.cardH * 0.6, Math.min(MIN_TOUCH + 6, layout.cardH * 0.78)) : layout.cardH * 0.78;
}

/** The height the hand takes: its rows at their pitch, the last card whole, room for a lifted card. */
export function handHeight(layout: HandLayout, viewW: number, viewH: number, tight = false): number {
  if (layout.rows <= 0) return layout.cardH * 0.22 + 12;
  return (layout.rows - 1) * rowPitch(layout, viewW, viewH, tight) + layout.cardH + 12;
}

export const SMALLEST_CARD = 56;

/** A hand squeezed into `most` px of height (the page was taller than the screen by the difference):
 * its rows closer first (`tight`), then its cards narrower, a pixel at a time, to SMALLEST_CARD (what
 * it then takes, if still more than `most`, is the least it can). A hand that already fits keeps
 * `cardW`'s layout and pitch. */
export function squeezeHand(count: number, width: number, cardW: number, most: number, viewW: number, viewH: number):
  { layout: HandLayout; pitch: number; height: number } {
  let w = Math.max(cardW, SMALLEST_CARD);
  const at = (tight: boolean) => {
    const layout = layoutHand(count, width, w);
    return { layout, pitch: rowPitch(layout, viewW, viewH, tight), height: handHeight(layout, viewW, viewH, tight) };
  };
  const loose = at(false);
  if (loose.height <= most) return loose;
  for (;; w--) {
    const tight = at(true);
    if (tight.height <= most || w <= SMALLEST_CARD) return tight;
  }
}
