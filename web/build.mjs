// Builds the browser client into game/net/browser/: app.js and app.css (esbuild, minified),
// i18n/<lang>.json (the texts it uses, from the game's catalogues) and manifest.json (each file's
// SHA-256, for the server's cache-busting). Prints the gzipped size and fails past 150 KB.
// `node build.mjs --tests` bundles test/*.test.ts into .test-build/ for `node --test`.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { parsePo } from "./tools/po.mjs";
import { PREFIXES } from "./tools/prefixes.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const out = join(root, "game", "net", "browser");
export const LANGUAGES = ["en", "fr", "es", "de"];
const LIMIT = 150 * 1024;


function texts(lang) {
  const po = readFileSync(join(root, "game", "locale", lang, "LC_MESSAGES", "huit.po"), "utf8");
  const all = parsePo(po);
  return Object.fromEntries(Object.entries(all).filter(([k]) => PREFIXES.some((p) => k.startsWith(p))));
}

async function tests() {
  const dir = join(here, ".test-build");
  rmSync(dir, { recursive: true, force: true });
  const entries = readdirSync(join(here, "test")).filter((f) => f.endsWith(".test.ts")).map((f) => join(here, "test", f));
  await build({
    entryPoints: entries, bundle: true, platform: "node", format: "esm", outdir: dir,
    outExtension: { ".js": ".mjs" }, target: "node20", logLevel: "warning", packages: "external",
  });
}

async function client() {
  mkdirSync(join(out, "i18n"), { recursive: true });
  await build({
    entryPoints: [join(here, "src", "main.ts")], bundle: true, minify: true, format: "esm",
    target: ["es2020"], outfile: join(out, "app.js"),
    legalComments: "none", logLevel: "warning",
  });
  await build({
    entryPoints: [join(here, "src", "app.css")], bundle: true, minify: true, outfile: join(out, "app.css"),
    logLevel: "warning",
  });
  for (const lang of LANGUAGES) {
    writeFileSync(join(out, "i18n", `${lang}.json`), JSON.stringify(texts(lang)));
  }
  const sha = (f) => createHash("sha256").update(readFileSync(join(out, f))).digest("hex");
  const manifest = { "app.js": sha("app.js"), "app.css": sha("app.css"), built: new Date().toISOString() };
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
  const gz = (f) => gzipSync(readFileSync(join(out, f)), { level: 9 }).length;
  const js = gz("app.js");
  const css = gz("app.css");
  const lang = Math.max(...LANGUAGES.map((l) => gz(join("i18n", `${l}.json`))));
  const total = js + css;
  console.log(`web client: app.js ${(js / 1024).toFixed(1)} KB + app.css ${(css / 1024).toFixed(1)} KB gzipped = ` +
    `${(total / 1024).toFixed(1)} KB of ${LIMIT / 1024} KB (one language's texts: ${(lang / 1024).toFixed(1)} KB more) -> ${out}`);
  if (total > LIMIT) {
    console.error("web client: the built JS+CSS is over 150 KB gzipped");
    process.exit(1);
  }
}

if (process.argv.includes("--tests")) await tests();
else await client();
