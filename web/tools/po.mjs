// A small reader of the game's gettext catalogues (game/locale/<lang>/LC_MESSAGES/huit.po):
// key → text, fuzzy and untranslated entries left out (the game shows English for them too).

/** Undo a .po string's escapes (\" \\ \n \t). */
function unescape(s) {
  return s.replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

/** The entries of a .po text as a plain object, key → text. */
export function parsePo(text) {
  const out = {};
  let fuzzy = false;
  let field = null;
  let id = "";
  let str = "";
  const flush = () => {
    if (id && str && !fuzzy) out[id] = str;
    id = "";
    str = "";
    field = null;
    fuzzy = false;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("#,")) {
      if (field === "str") flush();
      if (line.includes("fuzzy")) fuzzy = true;
      continue;
    }
    if (line.startsWith("#") || line === "") {
      if (field === "str") flush();
      continue;
    }
    let m = /^msgid "(.*)"$/.exec(line);
    if (m) {
      if (field === "str") { const f = fuzzy; flush(); fuzzy = f; }
      field = "id";
      id = unescape(m[1]);
      continue;
    }
    m = /^msgstr "(.*)"$/.exec(line);
    if (m) {
      field = "str";
      str = unescape(m[1]);
      continue;
    }
    m = /^"(.*)"$/.exec(line);
    if (m) {
      if (field === "id") id += unescape(m[1]);
      else if (field === "str") str += unescape(m[1]);
    }
  }
  flush();
  return out;
}
