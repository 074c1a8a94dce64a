/** Types of dev-server.mjs for the tests. */
export function builtFile(root: string, pathname: string): string | null;
