import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { test } from "node:test";
import { AVATAR_NAMES } from "../src/avatars.js";
import { Texts } from "../src/i18n.js";
import { readSeats, seatLabel } from "../src/seats.js";
import { read, WEB } from "./support.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = `${dir}/${f}`;
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

test("no source of the client writes HTML: names and server texts are text nodes", () => {
  const banned = /\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(|setAttribute\(\s*["']style|setAttribute\(\s*["']on/;
  const offenders = sources(`${WEB}src`).filter((p) => banned.test(readFileSync(p, "utf8")));
  assert.deepEqual(offenders, []);
  assert.ok(banned.test("x.innerHTML = y"), "the check itself catches one");
});

test("the avatars are the game's, in the game's order", () => {
  const py = read("game/play/avatars.py");
  const names = [...py.matchAll(/\("([a-z]+)", "(?:face|animal|emblem|robot)"\)/g)].map((m) => m[1]);
  assert.deepEqual(names, [...AVATAR_NAMES]);
});

test("a room's seats are read from its seats.json checked, and said in the catalogue's words", () => {
  const t = new Texts("en", {}, {
    "web.computer": "computer ({level})", "level.hard": "Hard", "level.medium": "Medium", "web.free": "free: this seat is for you",
    "web.here": "here", "web.away": "away", "web.player": "Player {n}",
  });
  // As the server answers it (tests/test_net_browser.py: test_the_seats_json_lists_what_the_room_page_shows...).
  const seats = readSeats({ room: "K7M-4AX-P9T-E3F-HWR", seats: [
    { seat: 0, kind: "human", name: "<b>Ana&Co", tag: "3F2K9Q", level: null, state: "here" },
    { seat: 1, kind: "human", name: null, tag: null, level: null, state: "free" },
    { seat: 2, kind: "computer", name: null, tag: null, level: "hard", state: "computer" },
    { seat: 3, kind: "human", name: null, tag: null, level: null, state: "away" },
  ] })!;
  assert.deepEqual(seats.map((s) => s.free), [false, true, false, false]);
  assert.deepEqual(seats.map((s, i) => seatLabel(t, s, i)), ["<b>Ana&Co #3F2K9Q (here)", "free: this seat is for you", "computer (Hard)", "Player 4 (away)"]);
  for (const hostile of [null, 5, "x", {}, { seats: {} }, { seats: [] }, { seats: [null, 7, "x"] }]) assert.equal(readSeats(hostile), null, JSON.stringify(hostile));
  const odd = readSeats({ seats: [{ kind: "robot", state: "<script>", name: 5, level: "godlike" }, ...Array(20).fill({ kind: "computer" })] })!;
  assert.equal(odd.length, 8, "no more seats than a room has");
  assert.deepEqual(odd[0], { free: false, kind: "human", state: "seated", name: null, tag: null, level: null });
  assert.equal(odd[1]!.level, "medium");
});
