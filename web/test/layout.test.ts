import assert from "node:assert/strict";
import { test } from "node:test";
import { cardPosition, cardWidth, controlsBeside, handHeight, handWidth, layoutHand, MIN_TOUCH, rowPitch, SMALLEST_CARD, squeezeHand, upright } from "../src/layout.js";

const VIEWPORTS: [number, number][] = [[390, 844], [844, 390], [1024, 768], [1920, 1080], [320, 568]];

test("every card of any hand stays inside the hand's width, at least a finger's width showing", () => {
  for (const [w, h] of VIEWPORTS) {
    const width = handWidth(w, h);
    const cw = cardWidth(w, h);
    for (let count = 1; count <= 40; count++) {
      const l = layoutHand(count, width, cw);
      assert.ok(l.perRow * l.rows >= count);
      for (let i = 0; i < count; i++) {
        const p = cardPosition(l, count, i, width);
        assert.ok(p.x >= 0 && p.x + l.cardW <= width + 1, `${w}x${h} ${count} cards: card ${i} at ${p.x}`);
        assert.ok(p.row < l.rows);
      }
      if (l.perRow > 1) assert.ok(l.step >= Math.min(MIN_TOUCH, l.cardW) - 0.01, `${w}x${h} ${count}: step ${l.step}`);
      assert.ok(l.step <= l.cardW + 6);
    }
  }
});

test("a small hand sits in one row with gaps, centred; a big one overlaps, then wraps", () => {
  const l = layoutHand(5, 1000, 100);
  assert.equal(l.rows, 1);
  assert.equal(l.step, 106);
  const first = cardPosition(l, 5, 0, 1000).x;
  const last = cardPosition(l, 5, 4, 1000).x + 100;
  assert.equal(first, 1000 - last);
  const tight = layoutHand(8, 500, 80);
  assert.equal(tight.rows, 1);
  assert.ok(tight.step < 80);
  const wrapped = layoutHand(30, 360, 60);
  assert.ok(wrapped.rows >= 2);
});

test("cards are sized for the viewport, and controls stand beside the hand on wide screens", () => {
  assert.ok(cardWidth(390, 844) >= 56 && cardWidth(1280, 800) <= 150);
  assert.ok(cardWidth(844, 390) * 1.4 <= 390 / 3.5, "a short landscape screen keeps room for the rest");
  assert.equal(controlsBeside(390, 844), false);
  assert.equal(controlsBeside(844, 390), true);
  assert.equal(controlsBeside(1920, 1080), true);
  assert.ok(handWidth(1280, 800) <= 1400);
});

test("a large screen gets larger cards and a wider hand (the felt used, trial 35 finding 12)", () => {
  // 1920×1080: a card is a 4.5th of the height (the pile takes what the rest leaves: app.css).
  assert.equal(cardWidth(1920, 1080), 240);
  assert.ok(cardWidth(1920, 1080) * 1.4 <= 1080 / 3, "the hand leaves two thirds of the height to the rest");
  assert.ok(cardWidth(1600, 900) < cardWidth(1920, 1080) && cardWidth(1600, 900) > cardWidth(1280, 800));
  assert.ok(cardWidth(1920, 1080) > cardWidth(1024, 768));
  assert.ok(handWidth(1920, 1080) > 1400 && handWidth(1920, 1080) <= 1800 - 16);
  assert.equal(cardWidth(1024, 768), Math.round(Math.min(150, 768 / 5.4, 1024 / 5.6)));
  assert.equal(cardWidth(1280, 800), Math.round(800 / 5.4)); // laptops: by the height too, to 150 px
});

test("upright, a hand of three rows or more packs its rows closer; elsewhere its rows keep their pitch", () => {
  const hand = (count: number, w: number, h: number) => layoutHand(count, handWidth(w, h), cardWidth(w, h));
  for (const [w, h] of [[360, 740], [390, 844], [412, 915]] as [number, number][]) {
    assert.ok(upright(w, h));
    const big = hand(20, w, h);
    assert.equal(big.rows, 3, `${w}x${h}`);
    // 20 cards take at least 30 px less height than at the old pitch, each row still a finger's target showing.
    assert.ok(handHeight(big, w, h) <= (big.rows * big.cardH * 0.78 + big.cardH * 0.22 + 12) - 30, `${w}x${h}`);
    assert.ok(rowPitch(big, w, h) >= MIN_TOUCH, `${w}x${h}`);
    const small = hand(8, w, h); // two rows (or one): as before
    assert.equal(rowPitch(small, w, h), small.cardH * 0.78);
  }
  for (const [w, h] of [[844, 390], [1024, 768], [1920, 1080]] as [number, number][]) {
    assert.ok(!upright(w, h));
    const l = hand(40, w, h);
    assert.equal(rowPitch(l, w, h), l.cardH * 0.78);
    assert.equal(handHeight(l, w, h), l.rows * (l.cardH * 0.78) + l.cardH * 0.22 + 12);
  }
});

test("a hand squeezed into less height: as it was when it fits, its rows closer first, then its cards smaller", () => {
  for (const [w, h] of [[1024, 768], [800, 600], [360, 740], [1920, 1080]] as [number, number][]) {
    const width = handWidth(w, h), cardW = cardWidth(w, h);
    const natural = layoutHand(20, width, cardW);
    const tall = handHeight(natural, w, h);
    const same = squeezeHand(20, width, cardW, tall, w, h); // room enough: nothing changes
    assert.deepEqual(same.layout, natural);
    assert.equal(same.pitch, rowPitch(natural, w, h));
    assert.equal(same.height, tall);
    for (const less of [10, 40, 80]) {
      const s = squeezeHand(20, width, cardW, tall - less, w, h);
      assert.ok(s.height <= tall - less || s.layout.cardW === SMALLEST_CARD, `${w}x${h} -${less}`);
      assert.ok(s.layout.cardW <= cardW && s.layout.cardW >= SMALLEST_CARD);
      assert.ok(s.pitch >= MIN_TOUCH, `${w}x${h}: a row still a finger's target`);
      // No wider card would have fitted at the tight pitch.
      const wider = layoutHand(20, width, s.layout.cardW + 1);
      if (s.layout.cardW < cardW) assert.ok(handHeight(wider, w, h, true) > tall - less, `${w}x${h} -${less}`);
    }
  }
  // Two rows at 1024x768 give up 40 px by their pitch alone: the cards keep their size.
  const width = handWidth(1024, 768), cardW = cardWidth(1024, 768);
  const natural = layoutHand(20, width, cardW);
  assert.equal(natural.rows, 2);
  assert.equal(squeezeHand(20, width, cardW, handHeight(natural, 1024, 768) - 30, 1024, 768).layout.cardW, cardW);
  // Nothing fits in 10 px: the least it can, the smallest cards.
  assert.equal(squeezeHand(20, width, cardW, 10, 1024, 768).layout.cardW, SMALLEST_CARD);
});
