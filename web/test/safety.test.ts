import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { test } from "node:test";
import { AVATAR_NAMES } from "../src/avatars.js";
import { htmlText, readRoomPage } from "../src/app.js";
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

test("a room page's seats are read as text, markup and entities undone", () => {
  const html = '<ul><li><span class="seat">Seat 1</span><span class="who"><bdi>&lt;b&gt;Ana&amp;Co</bdi> #3F2K9Q</span> <span class="state">(here)</span></li>'
    + '<li><span class="seat">Seat 2</span><span class="free">free: this seat is for you</span></li>'
    + '<li><span class="seat">Seat 3</span><span class="who">computer (Easy)</span></li></ul>';
  assert.deepEqual(readRoomPage(html), [
    { free: false, label: "<b>Ana&Co #3F2K9Q (here)" },
    { free: true, label: "free: this seat is for you" },
    { free: false, label: "computer (Easy)" },
  ]);
  assert.equal(readRoomPage("<p>404</p>"), null);
  assert.equal(htmlText("&#x41;&#66;&bogus;"), "AB&bogus;");
});
