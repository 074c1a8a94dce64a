import assert from "node:assert/strict";
import { test } from "node:test";
import { cardWords, face, label, nextSort, parseCard, sortedHand, suitColour } from "../src/cards.js";
import { texts } from "./support.js";

const STANDARD = [..."SHDC"].flatMap((s) => [..."A23456789TJQK"].map((r) => r + s));
const COLOUR = [..."RBGY"].flatMap((c) => ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+2", "skip", "rev"].map((r) => c + r));

test("every card of every deck is read from its code, and nothing else is", () => {
  for (const code of [...STANDARD, ...COLOUR, "XJ", "W", "W+4"]) assert.equal(parseCard(code)?.code, code);
  for (const bad of ["", "1H", "10H", "7h", "ZZ", "R10", "Wild", "X", "W+2", "<b>"]) assert.equal(parseCard(bad), null, bad);
});

test("labels and words are the game's", () => {
  assert.equal(label(parseCard("TH")!), "10♥");
  assert.equal(label(parseCard("XJ")!), "Joker");
  const en = texts("en");
  const fr = texts("fr");
  assert.equal(cardWords(en, "Rskip"), "Red Skip");
  assert.equal(cardWords(en, "W+4"), "Wild +4");
  assert.equal(cardWords(fr, "AS"), "A♠");
  assert.notEqual(cardWords(fr, "Grev"), cardWords(en, "Grev"));
});

test("the four-colour deck paints diamonds blue and clubs green; the two-colour deck red and black", () => {
  assert.equal(suitColour("D", false), suitColour("H", false));
  assert.equal(suitColour("C", false), suitColour("S", false));
  assert.notEqual(suitColour("D", true), suitColour("H", true));
  assert.notEqual(suitColour("C", true), suitColour("S", true));
  assert.equal(face(parseCard("7D")!, true).ink, suitColour("D", true));
  assert.equal(face(parseCard("8C")!, false).wild, true);
  assert.equal(face(parseCard("KS")!, false, true).badge, "+2");
  assert.equal(face(parseCard("Y6")!, false).badge, "_", "6 and 9 are underlined");
});

test("the hand is laid out as the game lays it: by suit, by rank, or as dealt", () => {
  const hand = ["KH", "XJ", "2S", "TH", "AS", "8C", "2H"];
  assert.deepEqual(sortedHand(hand, "dealt"), hand);
  assert.deepEqual(sortedHand(hand, "suit"), ["AS", "2S", "2H", "TH", "KH", "8C", "XJ"]);
  assert.deepEqual(sortedHand(hand, "rank"), ["AS", "2S", "2H", "8C", "TH", "KH", "XJ"]);
  assert.deepEqual(sortedHand(["W+4", "R+2", "B0", "W", "Rskip", "R0"], "suit"), ["R0", "R+2", "Rskip", "B0", "W", "W+4"]);
  assert.deepEqual(sortedHand(["G+2", "B3", "G+2"], "rank"), ["B3", "G+2", "G+2"], "a double deck's twins stay");
  assert.equal(nextSort("dealt"), "suit");
  assert.equal(nextSort("rank"), "dealt");
});
