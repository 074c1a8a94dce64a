import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import * as proto from "../src/protocol.js";
import { generate } from "../tools/gen-protocol.mjs";
import { check, SCHEMA, WEB } from "./support.js";

const client = SCHEMA.$defs.client!;
const server = SCHEMA.$defs.server!;

test("every message the browser builds is valid against the protocol schema", () => {
  const key = "A".repeat(32);
  const messages = [
    proto.hello(key, "Zoé", 3), proto.hello(key), proto.profile("Zoé", 7), proto.rejoin("K7M-4AX-P9T-E3F-HWR", 1, "abc_DEF-123"),
    proto.claim("ROOM", 2, "Zoé", "r".repeat(24)), proto.claim("ROOM", null, "", "r".repeat(24)), proto.action("play 7H"),
    proto.action("suit S", 4), proto.acceptRound(), proto.leave(), proto.ping(), proto.unqueue(), proto.lobby(true),
    proto.autopilot(false), proto.vote(1, true), proto.queue("classic", 2, true, 20),
  ];
  for (const m of messages) assert.deepEqual(check(m, client), [], JSON.stringify(m));
});

test("a message the schema refuses is caught by the schema check (the check can fail)", () => {
  assert.notDeepEqual(check({ type: "hello", player: "short", v: 2 }, client), []);
  assert.notDeepEqual(check({ ...proto.vote(1, true), v: 1 }, client), []);
  assert.notDeepEqual(check({ ...proto.queue("classic", 9, true), v: 2 }, client), []);
});

test("the committed protocol types are what the schema gives", () => {
  const committed = readFileSync(`${WEB}src/generated/protocol.ts`, "utf8");
  assert.equal(committed, generate(SCHEMA));
});

const captured = [
  '{"type": "profile", "name": "Ana", "tag": "428RWE", "avatar": 3, "xp": {}, "created": true, "tokens": 100, "v": 2}',
  '{"type": "joined", "room": "Y4E-HWJ-KJJ-R34-MHC", "seat": 0, "players": 2, "key": "gvVnrwI4dj4Cmy52bb8gMp8auqMOAU6_", "v": 2}',
  '{"type": "error", "code": "illegal", "message": "It is not your turn: seat 1 plays.", "reason": "not_your_turn", "values": {"to_act": 1}, "v": 2}',
  '{"type": "update", "room": "R", "view": {"seat": 0}, "events": [], "timer": null, "autopilot": false, "v": 2}',
];

test("real server messages are read, and valid against the schema", () => {
  for (const text of captured) {
    const m = proto.parse(text);
    assert.ok(m, text);
    assert.deepEqual(check(m, server), []);
  }
});

test("a frame that is not a version-2 server message is dropped", () => {
  for (const bad of [
    "", "nope", "[]", "null", "42", '"text"', '{"type": "profile"}', '{"type": "joined", "v": 2}',
    '{"type": "hello", "v": 2, "player": "x"}', '{"type": "pong", "v": 1}', '{"type": "pong", "v": "2"}',
    '{"type": "pong", "v": 2.5}', '{"v": 2}',
  ]) assert.equal(proto.parse(bad), null, bad);
  assert.equal(proto.parse(42), null);
  assert.deepEqual(proto.parse('{"type": "pong", "v": 2}'), { type: "pong", v: 2 });
});
