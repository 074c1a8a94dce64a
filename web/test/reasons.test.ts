import assert from "node:assert/strict";
import { test } from "node:test";
import { errorText, reasonText } from "../src/reasons.js";
import { texts } from "./support.js";

const en = texts("en");
const fr = texts("fr");
const names = ["Ana #3F2K9Q", "Computer 2"];

test("a refusal is the game's sentence, seats by their names", () => {
  assert.equal(reasonText(en, "not_your_turn", { to_act: 1 }, names), "It is not your turn: Computer 2 plays.");
  assert.equal(reasonText(fr, "not_your_turn", { to_act: 0 }, names), "Ce n'est pas votre tour : Ana #3F2K9Q joue.");
  assert.equal(reasonText(en, "not_held", { card: "TH" }, names), "You do not hold 10♥.");
  assert.equal(reasonText(en, "not_held", { card: "Rskip" }, names), "You do not hold Red Skip.");
});

test("must follow names the suit and the rank of the top card, or the suit alone over a wild", () => {
  assert.equal(reasonText(en, "must_follow", { suit: "H", card: "9H", wild: "eight" }, names),
    "You must follow with a ♥ card or a 9, or play an eight.");
  assert.equal(reasonText(en, "must_follow", { suit: "S", card: "8S", wild: "eight" }, names),
    "You must follow with a ♠ card, or play an eight.");
  assert.equal(reasonText(en, "must_follow", { suit: "R", card: "R5", wild: "wild" }, names, true),
    "You must follow with a red card or a 5, or play a wild card.");
  assert.equal(reasonText(en, "must_follow", { suit: null, card: "W", wild: "wild" }, names, true),
    "You must follow with a card of the announced colour, or play a wild card.");
});

test("the colour deck has its own words where the game has them", () => {
  assert.equal(reasonText(en, "choose_suit_first", {}, names, true), "Choose the colour to announce first.");
  assert.equal(reasonText(en, "choose_suit_first", {}, names, false), "Choose the suit to announce first.");
});

test("a reason the game has no words for gives null (the server's message is shown)", () => {
  assert.equal(reasonText(en, "no_such_reason", {}, names), null);
  assert.equal(errorText(en, { code: "illegal", message: "server words", reason: "no_such_reason" }, names), "server words");
});

test("every error code is said in the catalogue's words, an unknown one in the server's", () => {
  assert.equal(errorText(en, { code: "seat_taken", message: "x" }, names), "That seat is taken.");
  assert.equal(errorText(en, { code: "bad_name", message: "x", reason: "tag" }, names),
    "The server refused your name: a name cannot hold # (it marks a player's tag)");
  assert.equal(errorText(en, { code: "seat_freed", message: "x", reason: "owner" }, names),
    "The room's owner freed your seat: find another game in the lobby.");
  assert.equal(errorText(en, { code: "brand_new", message: "the server's sentence" }, names), "the server's sentence");
  assert.equal(errorText(en, { code: "illegal", message: "m", reason: "not_your_turn", values: { to_act: 1 } }, names),
    "It is not your turn: Computer 2 plays.");
});
