/** What the tests share: the repository's files, a Map-backed storage, a tiny JSON Schema checker. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Texts, type Lang } from "../src/i18n.js";
import type { Store } from "../src/storage.js";
import { parsePo } from "../tools/po.mjs";

/** web/ (the tests run bundled from web/.test-build/). */
export const WEB = fileURLToPath(new URL("..", import.meta.url));
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export function read(path: string): string {
  return readFileSync(ROOT + path, "utf8");
}

export function catalogue(lang: string): Record<string, string> {
  return parsePo(read(`game/locale/${lang}/LC_MESSAGES/huit.po`)) as Record<string, string>;
}

export function texts(lang: Lang = "en"): Texts {
  return new Texts(lang, catalogue(lang), catalogue("en"));
}

export class MapStore implements Store {
  data = new Map<string, string>();
  get length(): number { return this.data.size; }
  key(i: number): string | null { return [...this.data.keys()][i] ?? null; }
  getItem(k: string): string | null { return this.data.get(k) ?? null; }
  setItem(k: string, v: string): void { this.data.set(k, v); }
  removeItem(k: string): void { this.data.delete(k); }
}

type Schema = Record<string, unknown>;
export const SCHEMA = JSON.parse(read("docs/protocol.schema.json")) as { $defs: Record<string, Schema> };

/** The problems of `value` against `schema` (the keywords docs/protocol.schema.json uses). */
export function check(value: unknown, schema: Schema, path = "$"): string[] {
  if (typeof schema.$ref === "string") return check(value, SCHEMA.$defs[schema.$ref.split("/").pop()!]!, path);
  if (Array.isArray(schema.oneOf)) {
    const ok = (schema.oneOf as Schema[]).filter((s) => check(value, s, path).length === 0).length;
    return ok === 1 ? [] : [`${path}: matches ${ok} of oneOf`];
  }
  const out: string[] = [];
  if ("const" in schema && value !== schema.const) out.push(`${path}: not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) out.push(`${path}: not in enum`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    const ok = types.some((t) => t === kind || (t === "integer" && Number.isInteger(value)) || (t === "number" && kind === "number"));
    if (!ok) out.push(`${path}: ${kind} is not ${types.join("|")}`);
  }
  if (typeof value === "string") {
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) out.push(`${path}: too long`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) out.push(`${path}: pattern`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(`${path}: below minimum`);
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(`${path}: above maximum`);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) out.push(`${path}.${r}: missing`);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, v] of Object.entries(obj)) if (props[k]) out.push(...check(v, props[k]!, `${path}.${k}`));
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => out.push(...check(v, schema.items as Schema, `${path}[${i}]`)));
  return out;
}
