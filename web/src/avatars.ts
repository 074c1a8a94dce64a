/**
 * The game's avatars by id (`game/play/avatars.py`, whose order never changes: a test reads that file
 * and compares): 0–15 are people's, 16–23 the computers' robots. The pictures are the game's own art,
 * exported by `python -m tools.web_assets` to /web/avatars/<name>.png.
 */
export const AVATAR_NAMES = [
  "curls", "glasses", "beard", "bun", "fox", "cat", "bear", "owl",
  "frog", "panda", "rabbit", "penguin", "sun", "moon", "star", "flower",
  "rivet", "visor", "cyclops", "dome", "gear", "bolt", "screen", "hex",
] as const;

/** The avatars a person may choose. */
export const PEOPLE = AVATAR_NAMES.slice(0, 16).map((_, i) => i);
const COMPUTERS = AVATAR_NAMES.slice(16).map((_, i) => i + 16);
const DEFAULTS = [4, 10, 7, 0, 5, 13, 9, 2];

/** The picture of avatar `id` (null for an id the game does not have). */
export function avatarUrl(id: number): string | null {
  const name = AVATAR_NAMES[id];
  return Number.isInteger(id) && name ? `/web/avatars/${name}.png` : null;
}

/** The avatar shown at each seat (`seat_avatars`): a person's own, else the n-th person's default; a
 * computer's from its seat. */
export function seatAvatars(seats: readonly { kind?: unknown; avatar?: unknown }[]): number[] {
  let person = 0;
  return seats.map((s, i) => {
    if (s.kind === "computer") return COMPUTERS[i % COMPUTERS.length]!;
    const own = s.avatar;
    const id = typeof own === "number" && Number.isInteger(own) && own >= 0 && own < 16 ? own : DEFAULTS[person % DEFAULTS.length]!;
    person++;
    return id;
  });
}
