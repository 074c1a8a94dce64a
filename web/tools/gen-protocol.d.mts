/** Types of gen-protocol.mjs for the tests. */
export function typeName(def: string): string;
export function tsType(schema: unknown): string;
export function generate(schema: unknown): string;
