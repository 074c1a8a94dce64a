import assert from "node:assert/strict";
import { test } from "node:test";
import { describe, observe } from "../src/movelog.js";
import { texts } from "./support.js";

const en = texts("en");
const fr = texts("fr");
const names = ["Ana", "Bob", "Computer 3"];

test("the log says what each seat did, the suit named joining its eight, and the seat of this page as You", () => {
  const log = observe([], [
    { type: "RoundStarted" }, { type: "CardsDrawn", seat: 0, count: 7, reason: "deal", cards: ["7H"] },
    { type: "StartCard", card: "9C" }, { type: "CardPlayed", seat: 1, card: "8C" }, { type: "SuitChosen", seat: 1, suit: "H" },
    { type: "CardsDrawn", seat: 0, count: 1, reason: "draw", cards: ["2S"] }, { type: "CardsDrawn", seat: 0, count: 1, reason: "draw", cards: null },
    { type: "Passed", seat: 0 }, { type: "CardsDrawn", seat: 2, count: 2, reason: "penalty", cards: null },
    { type: "Denounced", by: 2, seat: 1 }, { type: "Challenged", by: 0, seat: 2, bluff: true }, { type: "DirectionChanged", direction: -1 },
    { type: "RoundEnded", result: { winner: 1 } },
  ]);
  assert.deepEqual(log.map((m) => describe(en, m, names, 0)), [
    "Starting card: 9♣", "Bob played 8♣, named ♥ Hearts", "You drew 2 cards", "You passed",
    "Computer 3 drew 2 cards (penalty)", "Computer 3 denounced Bob", "You called Liar on Computer 3: a bluff",
    "Direction reversed", "Bob won the round",
  ]);
  assert.equal(describe(fr, log[2]!, names, 0), "Vous avez pioché 2 cartes");
});

test("a new deal starts a new log", () => {
  const log = observe(observe([], [{ type: "Passed", seat: 0 }]), [{ type: "RoundStarted" }, { type: "TurnSkipped", seat: 1 }]);
  assert.deepEqual(log.map((m) => m.kind), ["skipped"]);
});

test("an event the log does not know, or with wrong fields, adds nothing that breaks it", () => {
  const log = observe([], [{ type: "Mystery" }, { type: "CardPlayed", seat: "x", card: 7 }]);
  assert.equal(log.length, 1);
  assert.equal(describe(en, log[0]!, names, null), "Player 0 played ?".replace("Player 0", en.tr("new.seat", { n: 0 })));
});
