/**
 * Cards in the game's fixed notation (`7H`, `TD`, `XJ`, `R+2`, `Rskip`, `Grev`, `W`, `W+4`):
 * parsing, the words the table uses for them, their colours (the two- or four-colour deck) and
 * what a face shows. Drawing them is `card_svg.ts`'s.
 */
import type { Texts } from "./i18n.js";

export const STANDARD_SUITS = ["S", "H", "D", "C"] as const;
export const COLOR_SUITS = ["R", "B", "G", "Y"] as const;
export const SUIT_SYMBOLS: Readonly<Record<string, string>> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const STANDARD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const COLOR_RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+2", "skip", "rev"];

export interface Card {
  code: string;
  rank: string; // A 2 … T J Q K, X (joker), 0–9 +2 skip rev (colour deck), W, W+4
  suit: string | null; // S H D C, R B G Y, or null (joker, wilds)
  standard: boolean;
}

/** The card written exactly `code`, or null when no Huit deck has it. */
export function parseCard(code: string): Card | null {
  if (code === "XJ") return { code, rank: "X", suit: null, standard: true };
  if (code === "W" || code === "W+4") return { code, rank: code, suit: null, standard: false };
  if (code.length === 2 && STANDARD_RANKS.includes(code[0]!) && (STANDARD_SUITS as readonly string[]).includes(code[1]!)) {
    return { code, rank: code[0]!, suit: code[1]!, standard: true };
  }
  const colour = code[0] ?? "";
  const rank = code.slice(1);
  if ((COLOR_SUITS as readonly string[]).includes(colour) && COLOR_RANKS.includes(rank)) {
    return { code, rank, suit: colour, standard: false };
  }
  return null;
}

/** The game's short label: `10♥`, `A♠`, `Joker`, `R+2`, `Wild +4` (`Card.label`). */
export function label(card: Card): string {
  if (card.rank === "X") return "Joker";
  if (card.code === "W") return "Wild";
  if (card.code === "W+4") return "Wild +4";
  if (card.standard && card.suit) return (card.rank === "T" ? "10" : card.rank) + SUIT_SYMBOLS[card.suit];
  return card.code;
}

/** A card as the table names it, in the language: `10♥`, `Joker`, `Red Skip`, `Wild +4` (`card_words`). */
export function cardWords(t: Texts, code: string): string {
  const card = parseCard(code);
  if (!card) return code;
  if (card.code === "W") return t.tr("card.wild");
  if (card.code === "W+4") return t.tr("card.wild4");
  if (card.rank === "X") return t.tr("card.joker");
  if (card.standard || card.suit === null) return label(card);
  const rank = card.rank === "skip" ? t.tr("card.skip") : card.rank === "rev" ? t.tr("card.rev") : card.rank;
  return t.tr("card.colour", { colour: t.tr(`card.colour.${card.suit}`), rank });
}

/** `♥ Hearts` or `Red`: a suit or colour as the move log names it. */
export function suitWords(t: Texts, suit: string): string {
  const symbol = SUIT_SYMBOLS[suit];
  return symbol ? `${symbol} ${t.tr(`suit.${suit}`)}` : t.tr(`suit.${suit}`);
}

export const DARK = "#1c1c22";
export const RED = "#c81e2d";
const FOUR: Readonly<Record<string, string>> = { S: DARK, H: RED, D: "#1858c8", C: "#16803a" };
const TWO: Readonly<Record<string, string>> = { S: DARK, H: RED, D: RED, C: DARK };
export const DECK_COLORS: Readonly<Record<string, string>> = { R: "#ce322e", B: "#1e66c2", G: "#2a944c", Y: "#ecb81e" };

/** The ink of a suit: spades and clubs dark, hearts and diamonds red; with the four-colour deck
 * diamonds blue and clubs green (the game's `FOUR_COLOR`). A colour of the colour deck is its fill. */
export function suitColour(suit: string, fourColour: boolean): string {
  return DECK_COLORS[suit] ?? (fourColour ? FOUR : TWO)[suit] ?? DARK;
}

/** What a face shows: its fill, its ink, the corner index and the big centre mark. */
export interface Face {
  fill: string;
  ink: string;
  corner: string;
  centre: string;
  /** A second line under the centre mark (the action preset's badges, a colour card's kind). */
  badge: string;
  wild: boolean;
}

const COLOR_MARKS: Readonly<Record<string, string>> = { "+2": "+2", skip: "⊘", rev: "⇄", "W+4": "+4", W: "W" };

/** The face of `card`; `action`: the Action eights preset, whose J Q K and joker carry a badge. */
export function face(card: Card, fourColour: boolean, action = false): Face {
  if (card.rank === "X") return { fill: "#fcfbf6", ink: DARK, corner: "★", centre: "★", badge: action ? "+4" : "", wild: true };
  if (card.standard && card.suit) {
    const rank = card.rank === "T" ? "10" : card.rank;
    const symbol = SUIT_SYMBOLS[card.suit]!;
    const badge = action ? ({ J: "⊘", Q: "⇄", K: "+2" } as Record<string, string>)[card.rank] ?? "" : "";
    return { fill: "#fcfbf6", ink: suitColour(card.suit, fourColour), corner: rank + symbol, centre: symbol, badge, wild: card.rank === "8" };
  }
  if (card.suit === null) {
    return { fill: "#26262c", ink: "#ffffff", corner: COLOR_MARKS[card.code]!, centre: COLOR_MARKS[card.code]!, badge: "", wild: true };
  }
  const mark = COLOR_MARKS[card.rank] ?? card.rank;
  return {
    fill: DECK_COLORS[card.suit]!, ink: "#ffffff", corner: mark, centre: mark,
    badge: card.rank === "6" || card.rank === "9" ? "_" : "", wild: false,
  };
}

/** How the hand is laid out (`HAND_SORTS`): as dealt (the server's order), by suit, by rank. */
export const HAND_SORTS = ["dealt", "suit", "rank"] as const;
export type HandSort = (typeof HAND_SORTS)[number];

const SUIT_ORDER = [...STANDARD_SUITS, ...COLOR_SUITS] as string[];
const WILD_RANK = 100;

function suitIndex(card: Card): number {
  const i = card.suit === null ? -1 : SUIT_ORDER.indexOf(card.suit);
  return i < 0 ? SUIT_ORDER.length : i;
}

function rankIndex(card: Card): number {
  if (card.suit === null) return WILD_RANK + card.code.length;
  const i = (card.standard ? STANDARD_RANKS : COLOR_RANKS).indexOf(card.rank);
  return i < 0 ? WILD_RANK : i;
}

/** `hand` laid out by `sort` as the game's `hand_order.sorted_hand` does (suit then rank, or rank
 * then suit; jokers and colour wilds last; stable); `dealt` keeps the server's order. */
export function sortedHand(hand: readonly string[], sort: HandSort): string[] {
  if (sort === "dealt") return [...hand];
  const key = (code: string): [number, number] => {
    const card = parseCard(code);
    if (!card) return [SUIT_ORDER.length + 1, WILD_RANK * 2];
    return sort === "rank" ? [rankIndex(card), suitIndex(card)] : [suitIndex(card), rankIndex(card)];
  };
  return hand.map((code, i) => ({ code, i, k: key(code) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.code);
}

/** The sort after `sort` (the S key and the Sort button step through them). */
export function nextSort(sort: HandSort): HandSort {
  return HAND_SORTS[(HAND_SORTS.indexOf(sort) + 1) % HAND_SORTS.length]!;
}

/** Each preset's card values by rank (the engine's `Rules.card_values`; tests/test_browser_constants.py
 * ties the two): a rank not listed counts its face number (A 1 … K 13, a colour card's digit, else 0). */
export const CARD_VALUES = {"duel":{"8":50,"T":10,"J":10,"Q":10,"K":10,"X":50},"classic":{"8":50,"T":10,"J":10,"Q":10,"K":10,"X":50},"points":{"8":50,"T":10,"J":10,"Q":10,"K":10,"X":50},"colors":{"+2":20,"skip":20,"rev":20,"W":50,"W+4":50},"action":{"A":10,"2":20,"3":30,"4":40,"5":50,"6":60,"7":70,"8":5000,"9":90,"T":200,"Q":500,"J":750,"K":1250,"X":2500}};

/** What `code` counts in a hand left at the end of a deal of `preset` (null: a preset or card this
 * client does not know). */
export function cardValue(code: string, preset: string): number | null {
  const table = (CARD_VALUES as Record<string, Record<string, number>>)[preset];
  const card = parseCard(code);
  if (!table || !card) return null;
  const listed = table[card.rank];
  if (listed !== undefined) return listed;
  if (card.standard) return card.rank === "X" ? 0 : STANDARD_RANKS.indexOf(card.rank) + 1;
  return /^\d$/.test(card.rank) ? Number(card.rank) : 0;
}
