import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { format, readCatalogue, supported, Texts } from "../src/i18n.js";
import { PREFIXES } from "../tools/prefixes.mjs";
import { catalogue, texts, WEB } from "./support.js";

test("a key missing from a language falls back to English, then to the key itself", () => {
  const t = new Texts("fr", { "a.own": "le mien", "a.empty": "" }, { "a.own": "mine", "a.en": "English {n}", "a.empty": "was empty" });
  assert.equal(t.tr("a.own"), "le mien");
  assert.equal(t.tr("a.en", { n: 3 }), "English 3");
  assert.equal(t.tr("a.empty"), "was empty");
  assert.equal(t.tr("a.none"), "a.none");
  assert.ok(t.has("a.en") && !t.has("a.none"));
});

test("placeholders are filled as the game's str.format fills them", () => {
  assert.equal(format("{name} drew {cards}", { name: "Ana", cards: "2 cards" }), "Ana drew 2 cards");
  assert.equal(format("{{literal}} {n}", { n: 1 }), "{literal} 1");
  assert.equal(format("{missing} stays", { n: 1 }), "{missing} stays");
  assert.equal(format("no values {n}"), "no values {n}");
  assert.equal(format("{n}", { n: "<b>" }), "<b>", "a value is text: nothing is escaped or parsed");
});

test("the page's language comes from its tag, else English", () => {
  assert.equal(supported("fr"), "fr");
  assert.equal(supported("de-AT"), "de");
  assert.equal(supported("ES"), "es");
  assert.equal(supported("it"), "en");
  assert.equal(supported(null), "en");
});

test("a catalogue from the server keeps only its strings", () => {
  assert.deepEqual(readCatalogue({ a: "x", b: 3, c: null }), { a: "x" });
  assert.deepEqual(readCatalogue([1, 2]), {});
  assert.deepEqual(readCatalogue(null), {});
});

test("every key the client's code names is in English's catalogue and exported with the build", () => {
  const english = catalogue("en");
  const keys = new Set<string>();
  for (const file of readdirSync(`${WEB}src`).filter((f) => f.endsWith(".ts"))) {
    const code = readFileSync(`${WEB}src/${file}`, "utf8");
    for (const m of code.matchAll(/\btr\(\s*"([a-z_]+\.[A-Za-z0-9_.]+)"/g)) keys.add(m[1]!);
  }
  assert.ok(keys.size > 40, `found ${keys.size} keys`);
  const missing = [...keys].filter((k) => !(k in english));
  assert.deepEqual(missing, []);
  const unexported = [...keys].filter((k) => !PREFIXES.some((p: string) => k.startsWith(p)));
  assert.deepEqual(unexported, []);
});

test("the browser's own texts are translated in all four languages", () => {
  const english = catalogue("en");
  const own = Object.keys(english).filter((k) => k.startsWith("browser."));
  assert.ok(own.length >= 10);
  for (const lang of ["fr", "es", "de"]) {
    const c = catalogue(lang);
    for (const k of own) assert.ok(c[k] && c[k] !== english[k], `${lang} ${k}`);
  }
  assert.equal(texts("de").tr("browser.clear_data"), "Meine Daten löschen");
});
