/**
 * The move log: what each seat did this deal, from the events the server sends (already redacted
 * for this seat), in words only when shown (`game.client.move_log`'s rules: a suit named after a
 * wild joins its card, drawing until a card plays is one line, a new deal starts a new log).
 */
import { cardWords, suitWords } from "./cards.js";
import type { Texts } from "./i18n.js";

export interface Move {
  kind: string; // played chose drew passed skipped reversed called denounced challenged timed_out reshuffled start won
  seat: number;
  card?: string;
  suit?: string;
  count?: number;
  reason?: string;
  other?: number;
}

type Ev = Readonly<Record<string, unknown>>;
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : -1);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The log after `events`. */
export function observe(moves: readonly Move[], events: readonly Ev[]): Move[] {
  let out = [...moves];
  for (const e of events) {
    const last = out[out.length - 1];
    switch (e.type) {
      case "RoundStarted":
        out = [];
        break;
      case "StartCard":
        out.push({ kind: "start", seat: -1, card: str(e.card) });
        break;
      case "CardPlayed":
        out.push({ kind: "played", seat: num(e.seat), card: str(e.card) });
        break;
      case "SuitChosen":
        if (last && last.kind === "played" && last.seat === num(e.seat) && last.suit === undefined) {
          out[out.length - 1] = { ...last, suit: str(e.suit) };
        } else out.push({ kind: "chose", seat: num(e.seat), suit: str(e.suit) });
        break;
      case "CardsDrawn": {
        const reason = str(e.reason) ?? "draw";
        if (reason === "deal") break;
        if (last && last.kind === "drew" && last.seat === num(e.seat) && last.reason === "draw" && reason === "draw") {
          out[out.length - 1] = { ...last, count: (last.count ?? 0) + num(e.count) };
        } else out.push({ kind: "drew", seat: num(e.seat), count: num(e.count), reason });
        break;
      }
      case "Passed":
        out.push({ kind: "passed", seat: num(e.seat) });
        break;
      case "TurnSkipped":
        out.push({ kind: "skipped", seat: num(e.seat) });
        break;
      case "DirectionChanged":
        out.push({ kind: "reversed", seat: -1 });
        break;
      case "Reshuffled":
        out.push({ kind: "reshuffled", seat: -1, count: num(e.count) });
        break;
      case "LastCardCalled":
        out.push({ kind: "called", seat: num(e.seat) });
        break;
      case "Denounced":
        out.push({ kind: "denounced", seat: num(e.by), other: num(e.seat) });
        break;
      case "Challenged":
        out.push({ kind: "challenged", seat: num(e.by), other: num(e.seat), reason: e.bluff === true ? "bluff" : "fair" });
        break;
      case "TimedOut":
        out.push({ kind: "timed_out", seat: num(e.seat) });
        break;
      case "RoundEnded": {
        const result = e.result as Ev | null | undefined;
        const winner = result && typeof result === "object" ? result.winner : null;
        if (typeof winner === "number") out.push({ kind: "won", seat: winner });
        break;
      }
      default:
        break;
    }
  }
  return out.slice(-200);
}

/** A move as a short sentence; `you`: the seat of this browser, which gets its own grammar. */
export function describe(t: Texts, move: Move, names: readonly string[], you: number | null): string {
  const name = (seat: number): string =>
    seat === you ? t.tr("log.you") : names[seat] ?? t.tr("new.seat", { n: seat + 1 });
  const say = (key: string, values: Record<string, string | number> = {}): string => {
    const mine = `log.you.${key}`;
    if (move.seat === you && t.has(mine)) return t.tr(mine, values);
    return t.tr(`log.${key}`, { name: name(move.seat), ...values });
  };
  switch (move.kind) {
    case "played": {
      const card = move.card ? cardWords(t, move.card) : "?";
      return move.suit ? say("played_suit", { card, suit: suitWords(t, move.suit) }) : say("played", { card });
    }
    case "chose":
      return say("chose", { suit: suitWords(t, move.suit ?? "") });
    case "drew": {
      const cards = move.count === 1 ? t.tr("log.one_card") : t.tr("log.cards", { n: move.count ?? 0 });
      return move.reason && move.reason !== "draw" ? say(`drew_${move.reason}`, { cards }) : say("drew", { cards });
    }
    case "passed": case "skipped": case "called": case "timed_out": case "won":
      return say(move.kind);
    case "reversed":
      return t.tr("log.reversed");
    case "reshuffled":
      return t.tr("log.reshuffled", { n: move.count ?? 0 });
    case "start":
      return t.tr("log.start", { card: move.card ? cardWords(t, move.card) : "?" });
    case "denounced":
      return say("denounced", { other: name(move.other ?? -1) });
    case "challenged":
      return say(move.reason === "bluff" ? "challenged_bluff" : "challenged_fair", { other: name(move.other ?? -1) });
    default:
      return "";
  }
}
