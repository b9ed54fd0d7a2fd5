/** ISO 8601 UTC timestamp for now; one place so tests and jobs agree on the format. */
export const nowIso = (): string => new Date().toISOString();
