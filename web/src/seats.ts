/**
 * The seats of a room before joining it, as the server's `/play/ROOM/seats.json` lists them (the
 * seats its page `/r/ROOM` shows anyone: number, kind, public name and tag, a computer's level, and
 * free, here, away, waited, computer or seated), read checked, and each seat's words from the
 * catalogue.
 */
import type { Texts } from "./i18n.js";

/** One seat as the room lists it before joining. */
export interface SeatPreview {
  free: boolean;
  kind: "human" | "computer";
  name: string | null;
  tag: string | null;
  level: string | null;
  state: string;
}

const STATES = new Set(["free", "here", "away", "waited", "computer", "seated"]);
const LEVELS = new Set(["easy", "medium", "hard"]);
const MAX_SEATS = 8;
const text = (v: unknown, max: number): string | null => (typeof v === "string" && v.trim() ? v.slice(0, max) : null);

/** The seats of `data` (the route's JSON), or null when it lists none: a seat that is not one is
 * left out, a list longer than a room seats is cut. */
export function readSeats(data: unknown): SeatPreview[] | null {
  if (!data || typeof data !== "object") return null;
  const seats = (data as Record<string, unknown>).seats;
  if (!Array.isArray(seats) || seats.length === 0) return null;
  const out: SeatPreview[] = [];
  for (const raw of seats.slice(0, MAX_SEATS)) {
    if (!raw || typeof raw !== "object") continue;
    const s = raw as Record<string, unknown>;
    const kind = s.kind === "computer" ? "computer" : "human";
    const state = typeof s.state === "string" && STATES.has(s.state) ? s.state : kind === "computer" ? "computer" : "seated";
    out.push({
      free: kind === "human" && state === "free", kind, state,
      name: text(s.name, 64), tag: text(s.tag, 16),
      level: typeof s.level === "string" && LEVELS.has(s.level) ? s.level : kind === "computer" ? "medium" : null,
    });
  }
  return out.length ? out : null;
}

/** A seat's words, as the room's page says them (`Ana #3F2K9Q (here)`, `computer (Hard)`, free). */
export function seatLabel(t: Texts, seat: SeatPreview, index: number): string {
  if (seat.kind === "computer") return t.tr("web.computer", { level: t.tr(`level.${seat.level ?? "medium"}`) });
  if (seat.free) return t.tr("web.free");
  const who = `${seat.name ?? t.tr("web.player", { n: index + 1 })}${seat.tag ? ` #${seat.tag}` : ""}`;
  return ["here", "away", "waited"].includes(seat.state) ? `${who} (${t.tr(`web.${seat.state}`)})` : who;
}
