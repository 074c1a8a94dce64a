import assert from "node:assert/strict";
import { test } from "node:test";
import * as storage from "../src/storage.js";
import { MapStore } from "./support.js";

test("the player key is made once, shaped as the server wants, and kept", () => {
  const store = new MapStore();
  const key = storage.playerKey(store);
  assert.match(key, /^[A-Za-z0-9_-]{32}$/);
  assert.equal(storage.playerKey(store), key);
  assert.equal(store.getItem("huit.player"), key);
  store.setItem("huit.player", "not a key!");
  assert.notEqual(storage.playerKey(store), "not a key!");
});

test("a seat key is kept per room and a damaged one reads as missing", () => {
  const store = new MapStore();
  storage.setSeat(store, "K7M-4AX-P9T-E3F-HWR", { seat: 2, key: "abc_DEF-1" });
  assert.deepEqual(JSON.parse(store.getItem("huit.seat.K7M-4AX-P9T-E3F-HWR")!), { seat: 2, key: "abc_DEF-1" });
  assert.deepEqual(storage.getSeat(store, "K7M-4AX-P9T-E3F-HWR"), { seat: 2, key: "abc_DEF-1" });
  assert.equal(storage.getSeat(store, "OTHER"), null);
  for (const bad of ["{", "[]", '{"seat": -1, "key": "k"}', '{"seat": 1}', '{"seat": 1, "key": "<b>"}', '{"seat": 1.5, "key": "k"}']) {
    store.setItem("huit.seat.X", bad);
    assert.equal(storage.getSeat(store, "X"), null, bad);
  }
  storage.forgetSeat(store, "K7M-4AX-P9T-E3F-HWR");
  assert.equal(storage.getSeat(store, "K7M-4AX-P9T-E3F-HWR"), null);
});

test("clear my data removes every huit. key and nothing else", () => {
  const store = new MapStore();
  storage.playerKey(store);
  storage.setName(store, "Zoé");
  storage.setAvatar(store, 7);
  storage.setSeat(store, "R1", { seat: 0, key: "k" });
  storage.setSettings(store, { fourColour: true, leftHanded: true, lang: "fr" });
  store.setItem("other.app", "keep");
  store.setItem("huitish", "keep too");
  assert.equal(storage.clearAll(store), 5);
  assert.deepEqual([...store.data.keys()].sort(), ["huitish", "other.app"]);
  assert.equal(storage.getName(store), "");
  assert.equal(storage.getAvatar(store), null);
  assert.deepEqual(storage.getSettings(store), storage.DEFAULT_SETTINGS);
});

test("settings and the avatar are read back checked", () => {
  const store = new MapStore();
  storage.setSettings(store, { fourColour: true, leftHanded: false, lang: "de" });
  assert.deepEqual(storage.getSettings(store), { fourColour: true, leftHanded: false, lang: "de" });
  store.setItem("huit.settings", '{"fourColour": "yes", "lang": "<script>"}');
  assert.deepEqual(storage.getSettings(store), { fourColour: false, leftHanded: false, lang: null });
  storage.setAvatar(store, 15);
  assert.equal(storage.getAvatar(store), 15);
  store.setItem("huit.avatar", "16"); // a robot: the computers'
  assert.equal(storage.getAvatar(store), null);
});

test("a room code is read in any case, with or without dashes; another id is kept as it is", () => {
  assert.equal(storage.canonicalRoom("k7m4axp9te3fhwr"), "K7M-4AX-P9T-E3F-HWR");
  assert.equal(storage.canonicalRoom("K7M 4AX P9T E3F HWR"), "K7M-4AX-P9T-E3F-HWR");
  assert.equal(storage.canonicalRoom("Ab_cdEF-gh12"), "Ab_cdEF-gh12");
  assert.equal(storage.canonicalRoom("k7m4axp9te3fhw0"), "k7m4axp9te3fhw0"); // 0 is no code character
});

test("a storage that throws reads as empty and writes nothing", () => {
  const broken: storage.Store = {
    length: 0, key: () => { throw new Error("off"); }, getItem: () => { throw new Error("off"); },
    setItem: () => { throw new Error("off"); }, removeItem: () => { throw new Error("off"); },
  };
  assert.match(storage.playerKey(broken), /^[A-Za-z0-9_-]{32}$/);
  assert.equal(storage.getSeat(broken, "R"), null);
  assert.equal(storage.clearAll(broken), 0);
});
