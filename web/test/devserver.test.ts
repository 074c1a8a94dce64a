import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { builtFile } from "../tools/dev-server.mjs";

test("the dev server serves files of the built folder only, and never throws on a path", () => {
  const top = mkdtempSync(join(tmpdir(), "huit-dev-"));
  const root = join(top, "browser");
  mkdirSync(join(root, "i18n"), { recursive: true });
  mkdirSync(join(top, "browser-x"));
  writeFileSync(join(root, "app.js"), "1");
  writeFileSync(join(top, "browser-x", "secret.js"), "2");
  assert.equal(builtFile(root, "app.js"), join(root, "app.js"));
  assert.equal(builtFile(root, "%E0%A4%A"), null, "a malformed escape");
  assert.equal(builtFile(root, "../browser-x/secret.js"), null, "a sibling folder with the same start");
  assert.equal(builtFile(root, "%2e%2e/browser-x/secret.js"), null);
  assert.equal(builtFile(root, "i18n"), null, "a folder");
  assert.equal(builtFile(root, "i18n/"), null);
  assert.equal(builtFile(root, ""), null);
  assert.equal(builtFile(root, "nothing.js"), null);
});
