import type { FixtureContext } from "./fixtures";
import { insertAsset } from "./rows";

/*
 * Security-suite fixtures of the sessions module (registered in fixtures.ts): an active session
 * holding a known asset, an item of that session, a schedule.
 */

const sessionAssets = new Map<string, string>();

function id(res: { status: number; body: unknown }, expected = 201): string {
  const value = (res.body as { id?: unknown } | null)?.id;
  if (res.status !== expected || typeof value !== "string")
    throw new Error(`fixture call answered ${res.status}: ${JSON.stringify(res.body)}`);
  return value;
}

/** An active session; the asset inserted just before the start is in its expected set. */
export async function activeSession(ctx: FixtureContext): Promise<string> {
  const asset = await insertAsset(ctx.tenant);
  const sessionId = id(await ctx.api("/sessions", { body: { name: ctx.unique("Session"), status: "active" } }));
  sessionAssets.set(sessionId, asset.id);
  return sessionId;
}

/** An asset; under /sessions/{sessionId}/items it is included in that session first. */
export async function sessionItem(ctx: FixtureContext): Promise<string> {
  const asset = await insertAsset(ctx.tenant);
  const sessionId = ctx.params.sessionId;
  if (sessionId) {
    const res = await ctx.api(`/sessions/${sessionId}/items/${asset.id}/include`, { method: "POST" });
    if (res.status !== 200) throw new Error(`include answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return asset.id;
}

export const sessionSchedule = async (ctx: FixtureContext) =>
  id(
    await ctx.api("/session-schedules", {
      body: { name: ctx.unique("Schedule"), recurrence: { every: 1, unit: "week" }, nextRunAt: "2030-01-07T08:00:00Z" },
    }),
  );

/** Unscan needs an item of the session (any other code is a 400). */
export const unscanBody = (ctx: FixtureContext) => ({ itemId: sessionAssets.get(ctx.params.sessionId ?? "") });
