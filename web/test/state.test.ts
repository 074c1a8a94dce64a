import assert from "node:assert/strict";
import { test } from "node:test";
import type { ServerMessage } from "../src/generated/protocol.js";
import * as state from "../src/state.js";

const T = 1_000_000;
const room = (s: string, extra: Record<string, unknown> = {}): ServerMessage => ({
  type: "room", room: "K7M-4AX-P9T-E3F-HWR", preset: "classic", options: {}, players: 2, state: s as "waiting",
  seats: [{ kind: "human", name: "Ana", tag: "3F2K9Q", connected: true, accepted: false }, { kind: "computer", level: "easy", name: "", connected: true }],
  waiting_for: [], results: [], deal: 1, kind: "private", ranked: false, votes: [], v: 2, ...extra,
});
const update = (view: Record<string, unknown>, events: Record<string, unknown>[] = [], timer: number | null = null, extra: Record<string, unknown> = {}): ServerMessage => ({
  type: "update", room: "K7M-4AX-P9T-E3F-HWR", view: { seat: 0, players: 2, legal: [], ...view }, events, timer, autopilot: false, v: 2, ...extra,
});
const error = (code: string, extra: Record<string, unknown> = {}): ServerMessage => ({ type: "error", code, message: code, v: 2, ...extra });

function run(start: state.Model, inputs: state.Input[]): state.Model {
  return inputs.reduce((m, i) => state.reduce(m, i, T), start);
}
const server = (message: ServerMessage): state.Input => ({ kind: "server", message });

test("a room's link goes connecting, seat, waiting, playing, result, and back to playing on the next deal", () => {
  let m = state.initial("k7m4axp9te3fhwr");
  assert.equal(m.room, "K7M-4AX-P9T-E3F-HWR");
  assert.equal(state.phaseOf(m), "connecting");
  m = run(m, [{ kind: "open" }]);
  assert.equal(state.phaseOf(m), "seat");
  m = run(m, [server({ type: "joined", room: "K7M-4AX-P9T-E3F-HWR", seat: 0, players: 2, key: "k", v: 2 })]);
  assert.equal(m.seat, 0);
  assert.equal(state.phaseOf(m), "connecting"); // joined, the room's status not there yet
  m = run(m, [server(room("waiting"))]);
  assert.equal(state.phaseOf(m), "waiting");
  m = run(m, [server(room("playing")), server(update({ hand: ["7H"], legal: ["play 7H", "draw"] }))]);
  assert.equal(state.phaseOf(m), "playing");
  m = run(m, [server(room("round_over")), { kind: "accepted" }]);
  assert.equal(state.phaseOf(m), "result");
  assert.equal(m.accepted, true);
  m = run(m, [server(room("round_over"))]);
  assert.equal(m.accepted, true, "the same deal's status keeps the request");
  m = run(m, [server(room("playing", { deal: 2 }))]);
  assert.equal(m.accepted, false);
  assert.equal(state.phaseOf(m), "playing");
});

test("the page without a room is the lobby; a quick match's wait and its end are kept", () => {
  let m = run(state.initial(""), [{ kind: "open" }]);
  assert.equal(state.phaseOf(m), "lobby");
  const queued: ServerMessage = { type: "queued", preset: "classic", options: {}, players: 2, waiting: 1, since: 1, now: 2, computers: true, wait: 20, v: 2 };
  m = run(m, [server(queued)]);
  assert.equal(m.queued?.waiting, 1);
  m = run(m, [server({ type: "unqueued", v: 2 })]);
  assert.equal(m.queued, null);
  m = run(m, [server(queued), server({ type: "joined", room: "abc", seat: 1, players: 2, key: "k", v: 2 })]);
  assert.equal(m.queued, null);
  assert.equal(m.room, "abc");
});

test("a refused move is a notice, the game goes on; a fatal error is the error page", () => {
  let m = run(state.initial("R"), [{ kind: "open" }, server({ type: "joined", room: "R", seat: 0, players: 2, v: 2 }), server(room("playing"))]);
  m = run(m, [server(error("illegal", { reason: "not_your_turn", values: { to_act: 1 } }))]);
  assert.equal(state.phaseOf(m), "playing");
  assert.equal(m.notice?.reason, "not_your_turn");
  m = run(m, [{ kind: "dismiss" }]);
  assert.equal(m.notice, null);
  for (const code of ["unknown_room", "replaced", "abandoned", "version", "flooding"]) {
    assert.equal(state.phaseOf(run(m, [server(error(code))])), "error", code);
  }
});

test("a key that no longer opens the seat sends the page back to the seats", () => {
  for (const code of ["bad_key", "seat_freed"]) {
    let m = run(state.initial("R"), [{ kind: "open" }, server({ type: "joined", room: "R", seat: 1, players: 2, v: 2 }), server(room("waiting"))]);
    m = run(m, [server(error(code))]);
    assert.equal(m.seat, null);
    assert.equal(state.phaseOf(m), "seat", code);
  }
});

test("the move log is rebuilt from earlier on rejoining, then grows with the events", () => {
  let m = run(state.initial("R"), [{ kind: "open" }, server({ type: "joined", room: "R", seat: 0, players: 2, v: 2 }), server(room("playing"))]);
  m = run(m, [server(update({}, [], null, { earlier: [{ type: "RoundStarted" }, { type: "StartCard", card: "7H" }, { type: "CardPlayed", seat: 1, card: "8H" }] }))]);
  assert.deepEqual(m.log.map((x) => x.kind), ["start", "played"]);
  m = run(m, [server(update({}, [{ type: "SuitChosen", seat: 1, suit: "S" }, { type: "Passed", seat: 0 }]))]);
  assert.deepEqual(m.log.map((x) => x.kind), ["start", "played", "passed"]);
  assert.equal(m.log[1]!.suit, "S");
});

test("updates and statuses of a room this page is not seated in are ignored", () => {
  const m = run(state.initial("R"), [{ kind: "open" }, server(room("playing")), server(update({ hand: ["7H"] }))]);
  assert.equal(m.status, null);
  assert.equal(m.update, null);
});

test("the controls come from legal alone", () => {
  const o = state.offers(["play 7H", "play R+2", "draw", "pass", "end", "card", "challenge", "accept", "suit S", "suit H", "denounce 2", "denounce x", "nonsense"]);
  assert.deepEqual([...o.play], ["7H", "R+2"]);
  assert.ok(o.draw && o.pass && o.end && o.card && o.challenge && o.accept);
  assert.deepEqual(o.suits, ["S", "H"]);
  assert.deepEqual(o.denounce, [2]);
  const none = state.offers([]);
  assert.ok(!none.draw && !none.pass && none.play.size === 0 && none.suits.length === 0);
});

test("the turn timer counts down from the update and never below zero", () => {
  let m = run(state.initial("R"), [{ kind: "open" }, server({ type: "joined", room: "R", seat: 0, players: 2, v: 2 }), server(room("playing"))]);
  assert.equal(state.timeLeft(m, T), null);
  m = run(m, [server(update({}, [], 30))]);
  assert.equal(state.timeLeft(m, T), 30);
  assert.equal(state.timeLeft(m, T + 12_500), 17.5);
  assert.equal(state.timeLeft(m, T + 60_000), 0);
});

test("a vote is due for an abandoned seat only to an elector who has not voted", () => {
  const votes = [{ seat: 1, yes: 0, no: 0, voters: 2, voted: [], penalised: false }];
  let m = run(state.initial("R"), [{ kind: "open" }, server({ type: "joined", room: "R", seat: 0, players: 3, v: 2 }), server(room("playing", { votes, electors: [0, 2] }))]);
  assert.equal(state.voteDue(m), 1);
  m = run(m, [server(room("playing", { votes: [{ ...votes[0], voted: [0] }], electors: [0, 2] }))]);
  assert.equal(state.voteDue(m), null);
  m = run(m, [server(room("playing", { votes, electors: [2] }))]);
  assert.equal(state.voteDue(m), null);
  m = run(m, [server(room("playing", { votes: [{ ...votes[0], penalised: true }] }))]);
  assert.equal(state.voteDue(m), null);
});

test("the view is read checked: a wrong field reads as a neutral value", () => {
  const v = state.readView({ type: "update", room: "R", view: { seat: "x", hand: ["7H", 3, null], direction: 5, legal: "draw", rules: { preset: "colors", options: { turn_seconds: 20 } } }, events: [], timer: null, autopilot: false, v: 2 })!;
  assert.equal(v.seat, 0);
  assert.deepEqual(v.hand, ["7H"]);
  assert.equal(v.direction, 1);
  assert.deepEqual(v.legal, []);
  assert.equal(v.preset, "colors");
  assert.equal(v.turnSeconds, 20);
});

test("seat names carry the tag; computers and nameless seats are named by number", () => {
  const status = room("playing") as Parameters<typeof state.seatNames>[0];
  assert.deepEqual(state.seatNames(status, (s, c) => (c ? `Computer ${s + 1}` : `Player ${s + 1}`)), ["Ana #3F2K9Q", "Computer 2"]);
});
