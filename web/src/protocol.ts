/**
 * Protocol 2 as the browser speaks it: the messages it sends, built with the types generated from
 * docs/protocol.schema.json (`generated/protocol.ts`), and a strict reader of what the server sends
 * (a frame that is not a JSON object of version 2 with a known `type` and its required fields is
 * dropped, as the pygame client drops it).
 */
import {
  PROTOCOL_VERSION, SERVER_REQUIRED, SERVER_TYPES,
  type ClientAcceptRound, type ClientAction, type ClientAutopilot, type ClientHello, type ClientJoin,
  type ClientLeave, type ClientMessage, type ClientPing, type ClientProfile, type ClientQueue,
  type ClientUnqueue, type ClientVote, type ClientLobby, type ServerMessage,
} from "./generated/protocol.js";

export const V = PROTOCOL_VERSION as 2;

export function hello(player: string, name?: string, avatar?: number | null): ClientHello {
  const m: ClientHello = { type: "hello", player, v: V };
  if (name) m.name = name;
  if (avatar !== undefined && avatar !== null) m.avatar = avatar;
  return m;
}

export function profile(name?: string, avatar?: number | null): ClientProfile {
  const m: ClientProfile = { type: "profile", v: V, ref: "profile-sync" };
  if (name) m.name = name;
  if (avatar !== undefined && avatar !== null) m.avatar = avatar;
  return m;
}

/** Take back `seat` with its `key`. */
export function rejoin(room: string, seat: number, key: string): ClientJoin {
  return { type: "join", room, seat, key, v: V };
}

/** Claim a free seat (`seat`, or the first free one), with a `request` id so a lost answer is safe. */
export function claim(room: string, seat: number | null, name: string, request: string): ClientJoin {
  const m: ClientJoin = { type: "join", room, v: V, request };
  if (seat !== null) m.seat = seat;
  if (name) m.name = name;
  return m;
}

export function action(notation: string, ref?: string | number): ClientAction {
  const m: ClientAction = { type: "action", action: notation, v: V };
  if (ref !== undefined) m.ref = ref;
  return m;
}

export const acceptRound = (): ClientAcceptRound => ({ type: "accept_round", v: V });
export const leave = (): ClientLeave => ({ type: "leave", v: V });
export const ping = (): ClientPing => ({ type: "ping", v: V });
export const unqueue = (): ClientUnqueue => ({ type: "unqueue", v: V });
export const lobby = (watch: boolean): ClientLobby => ({ type: "lobby", watch, v: V });
export const autopilot = (on: boolean): ClientAutopilot => ({ type: "autopilot", on, v: V });
export const vote = (seat: number, penalise: boolean): ClientVote => ({ type: "vote", seat, penalise, v: V });

export function queue(preset: string, players: number, computers: boolean, wait = 30): ClientQueue {
  return { type: "queue", preset, options: {}, players, computers, wait, v: V };
}

export function encode(message: ClientMessage): string {
  return JSON.stringify(message);
}

/** A server frame as a message, or null when it is not one (dropped as if it never came). */
export function parse(text: unknown): ServerMessage | null {
  if (typeof text !== "string" || text.length > 4_000_000) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const m = data as Record<string, unknown>;
  if (m.v !== V || typeof m.type !== "string") return null;
  if (!(SERVER_TYPES as readonly string[]).includes(m.type)) return null;
  const required = SERVER_REQUIRED[m.type as ServerMessage["type"]];
  if (required.some((field) => !(field in m))) return null;
  return m as unknown as ServerMessage;
}
