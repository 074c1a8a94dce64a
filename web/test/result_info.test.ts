import assert from "node:assert/strict";
import { test } from "node:test";
import { gone, handsCounted, latestMoves, matchOver, resultTitle } from "../src/result_info.js";
import type { Move } from "../src/movelog.js";

test("the match is over when the room or the seat's view says so, not after an ordinary deal", () => {
  assert.equal(matchOver("match_over", null), true);
  assert.equal(matchOver("round_over", { status: "match_over" }), true);
  assert.equal(matchOver("round_over", { status: "round_over" }), false);
  assert.equal(matchOver("playing", undefined), false);
});

test("the result's title is the game's: Game over once a match to a target is over, else Round over", () => {
  assert.equal(resultTitle(true, 100), "result.match_over");
  assert.equal(resultTitle(true, 0), "result.title"); // a game of one deal: the pygame result says "Round over"
  assert.equal(resultTitle(false, 100), "result.title");
});

test("of the seats a result waits for, the people no longer connected have left", () => {
  const seats = [{ kind: "human", connected: true }, { kind: "human", connected: false }, { kind: "computer" }, { kind: "human", connected: true }];
  assert.deepEqual(gone(seats, [1, 3]), [1]);
  assert.deepEqual(gone(seats, [2, 3]), []);
  assert.deepEqual(gone(seats, [9]), []);
});

test("each hand's cards and the value the server counted, a wrong entry read as nothing", () => {
  assert.deepEqual(handsCounted({ hands: [[], ["3B", "W+4"], "x"], totals: [0, 53, "?"] }), [
    { cards: [], total: 0 }, { cards: ["3B", "W+4"], total: 53 }, { cards: [], total: null }]);
  assert.deepEqual(handsCounted({}), []);
});

test("the table's latest moves keep what happened to me even when someone moved after it", () => {
  const log: Move[] = [
    { kind: "start", seat: -1, card: "9C" },
    { kind: "played", seat: 2, card: "W+4" },
    { kind: "challenged", seat: 1, other: 2, reason: "bluff" },
    { kind: "drew", seat: 2, count: 4, reason: "challenge" },
    { kind: "played", seat: 1, card: "5B" },
    { kind: "played", seat: 0, card: "5R" },
  ];
  assert.deepEqual(latestMoves(log, 2), [log[3], log[5]]);
  assert.deepEqual(latestMoves(log, 0), [log[4], log[5]]);
  assert.deepEqual(latestMoves(log.slice(0, 1), 0), []); // the starting card alone is no move
  assert.deepEqual(latestMoves(log, null), [log[4], log[5]]);
});

test("a person who chose no avatar gets one nobody at the table shows, the earlier seat keeping its own", async () => {
  const { avatarToAvoid, seatAvatars } = await import("../src/avatars.js");
  const fox = 4;
  const seats = [{ kind: "human", avatar: fox }, { kind: "human", avatar: fox }, { kind: "computer" }];
  const other = avatarToAvoid(seats, 1);
  assert.ok(other !== null && other !== fox && other < 16);
  assert.ok(!seatAvatars(seats).includes(other!));
  assert.equal(avatarToAvoid(seats, 0), null); // the first seat keeps the fox
  assert.equal(avatarToAvoid([{ kind: "human", avatar: fox }, { kind: "human", avatar: 7 }], 1), null);
  assert.equal(avatarToAvoid([{ kind: "human", avatar: 10 }, { kind: "human" }], 1), 4); // default of the 2nd person is 10: taken
});

test("each card's value in a counted hand, as the engine counts it, only when they add up to the server's total", async () => {
  const { cardValues } = await import("../src/result_info.js");
  assert.deepEqual(cardValues(["3S", "KD", "8H"], "classic", 63), [3, 10, 50]);
  assert.deepEqual(cardValues(["B3", "Rskip", "W+4"], "colors", 73), [3, 20, 50]);
  assert.deepEqual(cardValues(["8S", "AH", "XJ"], "action", 7510), [5000, 10, 2500]);
  assert.equal(cardValues(["3S"], "classic", 4), null); // the server's total disagrees: the total alone
  assert.equal(cardValues(["3S"], "house", 3), null); // a preset this client does not know
});
