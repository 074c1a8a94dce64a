// Which of the game's catalogue keys the browser client reads (by prefix): build.mjs exports these
// to game/net/browser/i18n/<lang>.json; a test checks every key the code names is among them.
export const PREFIXES = [
  "app.", "table.", "suit.", "why.", "wild.", "follow.", "card.", "rank.", "log.", "result.", "online.",
  "avatar.", "vote.", "name.", "deal.", "reaction.", "settings.four_color", "settings.left_handed",
  "settings.language", "settings.title", "new.preset", "new.players", "preset.", "level.", "who.", "competitive.", "browser.", "new.seat", "leave.",
  "clear.title", "clear.cancel", "clear.nothing", "stake.", "web.", "marker.",
];
