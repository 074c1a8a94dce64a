/**
 * The client's state machine, pure: what the server said so far (profile, seat, room status, the
 * seat's view and its legal actions, the move log, the quick-match wait, the last refusal) and the
 * phase the page shows (`phaseOf`: connecting, lobby, seat, waiting, playing, result, error, as
 * `#huit[data-state]` says). The controls come from the view's `legal` list: the client never
 * works the rules out itself.
 */
import type { ServerError, ServerMessage, ServerProfile, ServerQueued, ServerRoom, ServerUpdate } from "./generated/protocol.js";
import { observe, type Move } from "./movelog.js";
import { canonicalRoom } from "./storage.js";

export type Phase = "connecting" | "lobby" | "seat" | "waiting" | "playing" | "result" | "error";

/** Errors after which this page cannot go on in this room (it says so and offers a way out). */
export const FATAL = new Set(["unknown_room", "replaced", "abandoned", "version", "flooding", "too_many_connections"]);

/** Errors that mean the seat this page held (or tried to take back) is not ours any more. */
export const SEAT_LOST = new Set(["bad_key", "seat_freed", "abandoned", "unknown_room"]);

export interface Model {
  room: string;
  connected: boolean;
  everConnected: boolean;
  profile: ServerProfile | null;
  seat: number | null;
  status: ServerRoom | null;
  update: ServerUpdate | null;
  /** When the update came (ms, the page's clock): the turn timer counts from it. */
  updateAt: number;
  log: Move[];
  queued: ServerQueued | null;
  fatal: ServerError | null;
  notice: ServerError | null;
  noticeAt: number;
  /** This seat asked for the next deal (of `status.deal`). */
  accepted: boolean;
}

export function initial(room: string): Model {
  return {
    room: room ? canonicalRoom(room) : "", connected: false, everConnected: false, profile: null, seat: null,
    status: null, update: null, updateAt: 0, log: [], queued: null, fatal: null, notice: null, noticeAt: 0,
    accepted: false,
  };
}

export type Input =
  | { kind: "open" }
  | { kind: "closed" }
  | { kind: "server"; message: ServerMessage }
  | { kind: "accepted" }
  | { kind: "dismiss" }
  | { kind: "reset_seat" };

export function reduce(model: Model, input: Input, now: number): Model {
  switch (input.kind) {
    case "open":
      return { ...model, connected: true, everConnected: true };
    case "closed":
      return { ...model, connected: false, queued: null };
    case "accepted":
      return { ...model, accepted: true };
    case "dismiss":
      return { ...model, notice: null };
    case "reset_seat":
      return { ...model, seat: null, status: null, update: null, log: [], accepted: false };
    case "server":
      return serverMessage(model, input.message, now);
  }
}

function serverMessage(model: Model, m: ServerMessage, now: number): Model {
  switch (m.type) {
    case "profile":
      return { ...model, profile: m };
    case "joined":
      return { ...model, seat: m.seat, room: canonicalRoom(m.room), queued: null, notice: null, fatal: null };
    case "room": {
      if (model.seat === null) return model; // a late status of a room this page left
      const newDeal = model.status !== null && model.status.deal !== m.deal;
      const playingAgain = m.state === "playing" || m.state === "waiting";
      return { ...model, status: m, accepted: newDeal || playingAgain ? false : model.accepted };
    }
    case "update": {
      if (model.seat === null) return model;
      const base = m.earlier ? observe([], m.earlier) : model.log;
      return { ...model, update: m, updateAt: now, log: observe(base, m.events) };
    }
    case "error": {
      if (FATAL.has(m.code)) return { ...model, fatal: m, notice: null };
      const lost = SEAT_LOST.has(m.code);
      return {
        ...model, notice: m, noticeAt: now,
        ...(lost ? { seat: null, status: null, update: null, log: [], accepted: false } : {}),
      };
    }
    case "queued":
      return { ...model, queued: m };
    case "unqueued":
      return { ...model, queued: null };
    default:
      return model;
  }
}

export function phaseOf(model: Model): Phase {
  if (model.fatal) return "error";
  if (model.seat === null) {
    if (!model.everConnected) return "connecting";
    return model.room ? "seat" : "lobby";
  }
  const status = model.status;
  if (!status) return "connecting";
  switch (status.state) {
    case "waiting":
      return "waiting";
    case "playing":
      return model.update?.view && (model.update.view as Record<string, unknown>).result ? "result" : "playing";
    default:
      return "result";
  }
}

// ---- what the view of the seat offers ------------------------------------------------------------

/** The view's fields the page reads, each checked (a wrong one reads as a neutral value). */
export interface View {
  seat: number;
  players: number;
  preset: string;
  hand: string[];
  handCounts: number[];
  discard: string[];
  suit: string | null;
  drawCount: number;
  direction: number;
  toAct: number;
  phase: string;
  pending: number;
  legal: string[];
  called: boolean;
  scores: number[];
  target: number;
  roundNumber: number;
  result: Record<string, unknown> | null;
  turnSeconds: number;
}

const int = (v: unknown, d = 0): number => (typeof v === "number" && Number.isInteger(v) ? v : d);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const ints = (v: unknown): number[] => (Array.isArray(v) ? v.map((x) => int(x)) : []);

export function readView(update: ServerUpdate | null): View | null {
  const raw = update?.view;
  if (!raw || typeof raw !== "object") return null;
  const v = raw as Record<string, unknown>;
  const rules = (v.rules && typeof v.rules === "object" ? v.rules : {}) as Record<string, unknown>;
  const options = (rules.options && typeof rules.options === "object" ? rules.options : {}) as Record<string, unknown>;
  return {
    seat: int(v.seat), players: int(v.players, 2), preset: typeof rules.preset === "string" ? rules.preset : "",
    hand: strings(v.hand), handCounts: ints(v.hand_counts), discard: strings(v.discard),
    suit: typeof v.suit === "string" ? v.suit : null, drawCount: int(v.draw_count),
    direction: v.direction === -1 ? -1 : 1, toAct: int(v.to_act, -1), phase: typeof v.phase === "string" ? v.phase : "",
    pending: int(v.pending), legal: strings(v.legal), called: v.called === true, scores: ints(v.scores),
    target: int(v.target), roundNumber: int(v.round_number, 1),
    result: v.result && typeof v.result === "object" ? (v.result as Record<string, unknown>) : null,
    turnSeconds: int(options.turn_seconds),
  };
}

/** What the controls offer now, from `legal` alone. */
export interface Offers {
  play: Set<string>;
  draw: boolean;
  pass: boolean;
  end: boolean;
  card: boolean;
  challenge: boolean;
  accept: boolean;
  suits: string[];
  denounce: number[];
}

export function offers(legal: readonly string[]): Offers {
  const out: Offers = { play: new Set(), draw: false, pass: false, end: false, card: false, challenge: false, accept: false, suits: [], denounce: [] };
  for (const a of legal) {
    const [verb, arg] = a.split(" ", 2);
    switch (verb) {
      case "play": if (arg) out.play.add(arg); break;
      case "draw": out.draw = true; break;
      case "pass": out.pass = true; break;
      case "end": out.end = true; break;
      case "card": out.card = true; break;
      case "challenge": out.challenge = true; break;
      case "accept": out.accept = true; break;
      case "suit": if (arg) out.suits.push(arg); break;
      case "denounce": if (arg && /^\d$/.test(arg)) out.denounce.push(Number(arg)); break;
      default: break;
    }
  }
  return out;
}

/** Seconds left on the turn clock at `now`, or null without one. */
export function timeLeft(model: Model, now: number): number | null {
  const timer = model.update?.timer;
  if (typeof timer !== "number" || !Number.isFinite(timer)) return null;
  return Math.max(0, timer - (now - model.updateAt) / 1000);
}

/** Each seat's name as the room shows it: a player's with their tag (`Ana #3F2K9Q`); a computer, or
 * a seat without a name, by its number (`fallback`). */
export function seatNames(status: ServerRoom | null, fallback: (seat: number, computer: boolean) => string): string[] {
  if (!status) return [];
  return status.seats.map((raw, i) => {
    const s = raw as Record<string, unknown>;
    const computer = s.kind === "computer";
    const name = typeof s.name === "string" ? s.name.trim() : "";
    if (!name || computer) return fallback(i, computer);
    return typeof s.tag === "string" && s.tag ? `${name} #${s.tag}` : name;
  });
}

/** An abandoned seat this seat may still vote on penalising, if any (`RemoteController.vote_due`). */
export function voteDue(model: Model): number | null {
  const status = model.status;
  const me = model.seat;
  if (!status || me === null) return null;
  const electors = (status as { electors?: unknown }).electors;
  if (Array.isArray(electors) && !electors.includes(me)) return null;
  for (const raw of status.votes) {
    const v = raw as Record<string, unknown>;
    const seat = v.seat;
    if (typeof seat !== "number" || seat === me || v.penalised !== false) continue;
    if (!Array.isArray(v.voted) || v.voted.includes(me)) continue;
    return seat;
  }
  return null;
}

/** The seats whose people have not asked for the next deal (those the result waits for). */
export function notReady(status: ServerRoom | null, me: number | null): number[] {
  if (!status) return [];
  const out: number[] = [];
  status.seats.forEach((raw, i) => {
    const s = raw as Record<string, unknown>;
    if (s.kind === "human" && s.accepted !== true && i !== me) out.push(i);
  });
  return out;
}
