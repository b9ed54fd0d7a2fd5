/** Writes an isolated copy of the Wrangler configuration at `sourcePath` (no .dev.vars or .env beside it) and returns its path. */
export function isolatedWranglerConfig(sourcePath: string): string;
