/**
 * What the browser keeps, in localStorage under keys that all start with `huit.`: the player key
 * (`huit.player`), the name (`huit.name`), the avatar (`huit.avatar`), each room's seat key
 * (`huit.seat.<ROOM>` = `{"seat": n, "key": "..."}`) and the settings (`huit.settings`).
 * "Clear my data" (`clearAll`) removes every `huit.` key and nothing else. Every read checks what it
 * finds: a damaged value is treated as missing.
 */

export const PREFIX = "huit.";

/** The part of the Web Storage API this module uses (a test passes a Map-backed one). */
export interface Store {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SeatKey {
  seat: number;
  key: string;
}

export interface Settings {
  fourColour: boolean;
  leftHanded: boolean;
  lang: string | null;
}

const KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const PLAYER_KEY = /^[A-Za-z0-9_-]{32,128}$/;
const SEAT_KEY = /^[A-Za-z0-9_-]{1,128}$/;

function get(store: Store, key: string): string | null {
  try {
    return store.getItem(key);
  } catch {
    return null; // storage turned off: as if empty
  }
}

function set(store: Store, key: string, value: string): void {
  try {
    store.setItem(key, value);
  } catch {
    /* full or turned off: the page works on, it only forgets */
  }
}

/** `n` random characters of the player key's alphabet (from the browser's CSPRNG). */
export function randomKey(n = 32, random: (n: number) => Uint8Array = (k) => crypto.getRandomValues(new Uint8Array(k))): string {
  const bytes = random(n);
  let out = "";
  for (const b of bytes) out += KEY_CHARS[b & 63];
  return out;
}

/** This browser's player key, made and kept on first use. */
export function playerKey(store: Store): string {
  const held = get(store, `${PREFIX}player`);
  if (held && PLAYER_KEY.test(held)) return held;
  const key = randomKey();
  set(store, `${PREFIX}player`, key);
  return key;
}

export function getName(store: Store): string {
  const name = get(store, `${PREFIX}name`);
  return name && name.length <= 64 ? name : "";
}

export function setName(store: Store, name: string): void {
  set(store, `${PREFIX}name`, name);
}

/** The avatar kept (a person's: 0 to 15), or null. */
export function getAvatar(store: Store): number | null {
  const raw = get(store, `${PREFIX}avatar`);
  const n = raw !== null && /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  return n >= 0 && n <= 15 ? n : null;
}

export function setAvatar(store: Store, avatar: number): void {
  set(store, `${PREFIX}avatar`, String(avatar));
}

/** The seat key kept for `room`, or null. */
export function getSeat(store: Store, room: string): SeatKey | null {
  const raw = get(store, `${PREFIX}seat.${room}`);
  if (!raw) return null;
  try {
    const data: unknown = JSON.parse(raw);
    if (data && typeof data === "object") {
      const { seat, key } = data as Record<string, unknown>;
      if (typeof seat === "number" && Number.isInteger(seat) && seat >= 0 && seat < 8 && typeof key === "string" && SEAT_KEY.test(key)) {
        return { seat, key };
      }
    }
  } catch {
    /* damaged: as if missing */
  }
  return null;
}

export function setSeat(store: Store, room: string, seat: SeatKey): void {
  set(store, `${PREFIX}seat.${room}`, JSON.stringify({ seat: seat.seat, key: seat.key }));
}

export function forgetSeat(store: Store, room: string): void {
  try {
    store.removeItem(`${PREFIX}seat.${room}`);
  } catch {
    /* nothing to do */
  }
}

export const DEFAULT_SETTINGS: Settings = { fourColour: false, leftHanded: false, lang: null };

export function getSettings(store: Store): Settings {
  const raw = get(store, `${PREFIX}settings`);
  if (!raw) return { ...DEFAULT_SETTINGS };
  try {
    const data = JSON.parse(raw) as Record<string, unknown>;
    return {
      fourColour: data.fourColour === true,
      leftHanded: data.leftHanded === true,
      lang: typeof data.lang === "string" && /^[a-z]{2}$/.test(data.lang) ? data.lang : null,
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function setSettings(store: Store, settings: Settings): void {
  set(store, `${PREFIX}settings`, JSON.stringify(settings));
}

/** Remove every `huit.` key (and only those); returns how many went. */
export function clearAll(store: Store): number {
  const keys: string[] = [];
  try {
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i);
      if (k !== null && k.startsWith(PREFIX)) keys.push(k);
    }
    for (const k of keys) store.removeItem(k);
  } catch {
    return 0;
  }
  return keys.length;
}

const CODE_ALPHABET = "3479ACEFHJKMPRTWXY";

/** A room id as the server names it: a room code (any case, with or without dashes or spaces) in its
 * grouped upper-case form `K7M-4AX-P9T-E3F-HWR`; any other id exactly as it is. */
export function canonicalRoom(room: string): string {
  const bare = room.replace(/[-\s]/g, "").toUpperCase();
  if (bare.length === 15 && [...bare].every((c) => CODE_ALPHABET.includes(c))) {
    return bare.match(/.{3}/g)!.join("-");
  }
  return room;
}
