/**
 * The texts of the browser client: the game's own catalogues (game/locale/<lang>/LC_MESSAGES/huit.po),
 * exported at build time to /web/i18n/<lang>.json. `tr(key, values)` looks a key up in the
 * current language, then in English, then gives the key itself (a gap never breaks the page), and
 * fills `{name}` placeholders as the game's `str.format` does.
 */

export type Catalogue = Readonly<Record<string, string>>;
export type Values = Readonly<Record<string, string | number>>;

export const LANGUAGES = ["en", "fr", "es", "de"] as const;
export type Lang = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = {
  en: "English", fr: "Français", es: "Español", de: "Deutsch",
};

/** A language the client speaks from a tag (`fr-CA`, `de`, `ES`), or English. */
export function supported(tag: string | null | undefined): Lang {
  const lang = (tag ?? "").slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(lang) ? (lang as Lang) : "en";
}

/** Fill `{name}` placeholders; `{{` and `}}` are braces; an unknown placeholder leaves the text as it is
 * (the game's `tr` returns the raw text when formatting fails). */
export function format(text: string, values?: Values): string {
  if (!values) return text;
  let failed = false;
  const out = text.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = values[name as string];
    if (value === undefined) {
      failed = true;
      return whole;
    }
    return String(value);
  });
  return failed ? text : out;
}

/** The texts of one language with English beneath it. */
export class Texts {
  constructor(
    readonly lang: Lang,
    private readonly own: Catalogue,
    private readonly english: Catalogue,
  ) {}

  /** Whether English has the key (the game's test for an optional key: `why.X.colours`). */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.english, key);
  }

  tr(key: string, values?: Values): string {
    const own = Object.prototype.hasOwnProperty.call(this.own, key) ? this.own[key] : undefined;
    const en = this.has(key) ? this.english[key] : undefined;
    return format(own || en || key, values);
  }
}

/** Read a catalogue as the server sends it: only string values are kept. */
export function readCatalogue(data: unknown): Catalogue {
  const out: Record<string, string> = {};
  if (data && typeof data === "object" && !Array.isArray(data)) {
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
      if (typeof v === "string") out[k] = v;
    }
  }
  return out;
}
