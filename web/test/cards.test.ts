import assert from "node:assert/strict";
import { test } from "node:test";
import { cardWords, face, label, parseCard, suitColour } from "../src/cards.js";
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
