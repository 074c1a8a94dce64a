/**
 * A refusal in words: the server's `error` carries the engine's `reason` key and its `values`
 * (seats as numbers, cards as codes, suits as letters); this turns them into the sentence the game
 * itself shows (`game.client.i18n.reason`), in the page's language, seats by their names.
 */
import { cardWords, parseCard, SUIT_SYMBOLS, type Card } from "./cards.js";
import type { Texts } from "./i18n.js";

type Raw = Readonly<Record<string, unknown>>;

function rankWords(t: Texts, card: Card): string {
  const key = `rank.a.${card.rank}`;
  if (t.has(key)) return t.tr(key);
  return t.tr("rank.a.other", { rank: card.rank === "T" ? "10" : card.rank });
}

function isWild(card: Card, wild: string): boolean {
  return card.code === "W" || card.code === "W+4" || card.rank === "X" || (card.rank === "8" && wild !== "wild");
}

/** The sentence for an engine refusal `reason` with its `values`, or null when the game has no words
 * for it (then the server's own `message` is shown). `colours`: the colour deck is in play. */
export function reasonText(t: Texts, reason: string, raw: Raw, names: readonly string[], colours = false): string | null {
  if (!reason || !t.has(`why.${reason}`)) return null;
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === "string" || typeof v === "number") values[k] = v;
  }
  const suit = typeof raw.suit === "string" ? raw.suit : null;
  if ("suit" in raw) {
    values.suit = suit ? (SUIT_SYMBOLS[suit] ?? t.tr(`suit.${suit}`).toLowerCase()) : t.tr("suit.none");
  }
  const wildRaw = typeof raw.wild === "string" ? raw.wild : "";
  if ("wild" in raw) values.wild = t.tr(`wild.${wildRaw}`);
  if (reason === "must_follow") return mustFollow(t, values, suit, colours ? "follow.none.colours" : "follow.none", raw.card, wildRaw);
  if (typeof raw.card === "string") values.card = cardWords(t, raw.card);
  for (const name of ["seat", "to_act"]) {
    const seat = raw[name];
    if (typeof seat === "number") {
      values[name] = names[seat] ?? t.tr("new.seat", { n: seat + 1 });
    }
  }
  if (colours && t.has(`why.${reason}.colours`)) return t.tr(`why.${reason}.colours`, values);
  return t.tr(`why.${reason}`, values);
}

function mustFollow(t: Texts, values: Record<string, string | number>, suit: string | null, noneKey: string,
  topCode: unknown, wild: string): string {
  let follow: string;
  if (!suit) follow = t.tr(noneKey);
  else if (t.has(`follow.colour.${suit}`)) follow = t.tr(`follow.colour.${suit}`);
  else follow = t.tr("follow.suit", { suit: values.suit ?? suit });
  const w = values.wild ?? "";
  const top = typeof topCode === "string" ? parseCard(topCode) : null;
  if (!top || isWild(top, wild)) return t.tr("why.must_follow_suit", { suit: follow, wild: w });
  return t.tr("why.must_follow", { suit: follow, rank: rankWords(t, top), wild: w });
}

/** The words for any `error` the server sends: an illegal move's reason, a name refused, or the
 * catalogue's sentence for the code; the server's own `message` when the game has none. */
export function errorText(t: Texts, error: { code: string; message: string; reason?: string; values?: Raw },
  names: readonly string[], colours = false): string {
  if (error.code === "illegal" && error.reason) {
    return reasonText(t, error.reason, error.values ?? {}, names, colours) ?? error.message;
  }
  if (error.code === "bad_name" && error.reason && t.has(`name.${error.reason}`)) {
    return t.tr("online.error.bad_name", { detail: t.tr(`name.${error.reason}`) });
  }
  if (error.code === "seat_freed" && error.reason && t.has(`online.error.seat_freed.${error.reason}`)) {
    return t.tr(`online.error.seat_freed.${error.reason}`);
  }
  const key = `online.error.${error.code}`;
  if (t.has(key)) return t.tr(key, { detail: error.message });
  return error.message;
}
