/**
 * What the result and the table say beyond the controls, read from what the server sent (pure, for
 * the tests): whether the match is over (no next deal: the pygame result offers only Review and
 * Menu then), who the result waits for and who has left, each hand's cards and value, and the
 * latest moves shown on the table itself.
 */
import { cardValue } from "./cards.js";
import type { Move } from "./movelog.js";

type Loose = Readonly<Record<string, unknown>>;

/** The match is over: the room says so, or the seat's view does (`Status.MATCH_OVER`). */
export function matchOver(state: string | undefined, view: Loose | null | undefined): boolean {
  return state === "match_over" || view?.status === "match_over";
}

/** The result's title as the game's result screen has it: "Game over" (`result.match_over`) once a
 * match played to a target is over, else "Round over" (`result.title`; a game of one deal too, as
 * the pygame result says). */
export function resultTitle(over: boolean, target: number): "result.match_over" | "result.title" {
  return over && target > 0 ? "result.match_over" : "result.title";
}

/** Of the seats the result waits for, those whose person is not connected (they left the table). */
export function gone(seats: readonly unknown[], waited: readonly number[]): number[] {
  return waited.filter((i) => {
    const s = seats[i] as Loose | undefined;
    return s !== undefined && s.kind === "human" && s.connected === false;
  });
}

/** Each seat's cards left and the value the server counted for them (the result's `hands` and
 * `totals`): the cards in the game's notation, the value null when the server sent none. */
export function handsCounted(result: Loose): { cards: string[]; total: number | null }[] {
  const hands = Array.isArray(result.hands) ? (result.hands as unknown[]) : [];
  const totals = Array.isArray(result.totals) ? (result.totals as unknown[]) : [];
  return hands.map((h, i) => ({
    cards: Array.isArray(h) ? h.filter((c): c is string => typeof c === "string") : [],
    total: typeof totals[i] === "number" ? (totals[i] as number) : null,
  }));
}

/** The moves the table shows without the panel: the last `count`, and the latest one that
 * concerns `me` (drawn, skipped, a call on me) kept among them even when others came after it. */
export function latestMoves(log: readonly Move[], me: number | null, count = 2): Move[] {
  const shown = log.filter((m) => m.kind !== "start");
  const last = shown.slice(-count);
  const recent = shown.slice(-(count + 3));
  const mine = [...recent].reverse().find((m) => m.seat === me || m.other === me);
  if (mine && !last.includes(mine)) return [mine, ...last.slice(1 - count)].slice(-count);
  return last;
}

/** Each card's value in a hand of `preset`, when every one is known and they add up to the total the
 * server counted (else null: the total alone is shown, the server being the authority). */
export function cardValues(cards: readonly string[], preset: string, total: number | null): number[] | null {
  const values = cards.map((c) => cardValue(c, preset));
  if (values.some((v) => v === null)) return null;
  const known = values as number[];
  return total === null || known.reduce((a, b) => a + b, 0) === total ? known : null;
}
