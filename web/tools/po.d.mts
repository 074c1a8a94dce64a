/** Types of po.mjs for the tests and the build. */
export function parsePo(text: string): Record<string, string>;
