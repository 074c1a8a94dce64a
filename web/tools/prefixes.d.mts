/** Types of prefixes.mjs. */
export const PREFIXES: string[];
