import { asc, sql } from "drizzle-orm";
import { webhookEndpoints } from "../../db/tenant/webhooks";
import type { WebhookCtx } from "./context";

interface WindowStats {
  endpoint_id: string;
  attempts: number;
  successes: number;
  p50: number | null;
  p95: number | null;
}

/**
 * Per endpoint, over the last `windowMinutes`: attempts, successes, failures, success rate and
 * latency percentiles (nearest rank, one query with window functions over the attempts index),
 * next to the endpoint's failure streak and disabled state.
 */
export async function endpointHealth(ctx: WebhookCtx, windowMinutes: number) {
  const to = ctx.deps.now();
  const from = new Date(to.getTime() - windowMinutes * 60_000).toISOString();
  const stats = await ctx.db.all<WindowStats>(sql`
    WITH w AS (
      SELECT endpoint_id, ok, latency_ms,
        ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY latency_ms) AS rn,
        COUNT(*) OVER (PARTITION BY endpoint_id) AS n
      FROM webhook_attempts WHERE at >= ${from}
    )
    SELECT endpoint_id, COUNT(*) AS attempts, SUM(ok) AS successes,
      MIN(CASE WHEN rn * 100 >= n * 50 THEN latency_ms END) AS p50,
      MIN(CASE WHEN rn * 100 >= n * 95 THEN latency_ms END) AS p95
    FROM w GROUP BY endpoint_id`);
  const byEndpoint = new Map(stats.map((s) => [s.endpoint_id, s]));
  const endpoints = await ctx.db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.id)).all();
  return {
    windowMinutes,
    from,
    to: to.toISOString(),
    endpoints: endpoints.map((e) => {
      const s = byEndpoint.get(e.id);
      const attempts = Number(s?.attempts ?? 0);
      const successes = Number(s?.successes ?? 0);
      return {
        endpointId: e.id,
        url: e.url,
        enabled: e.enabled,
        disabledReason: e.disabledReason,
        attempts,
        successes,
        failures: attempts - successes,
        successRate: attempts > 0 ? successes / attempts : null,
        p50LatencyMs: s?.p50 ?? null,
        p95LatencyMs: s?.p95 ?? null,
        lastError: e.lastError,
        consecutiveFailures: e.consecutiveFailures,
        failingSince: e.failingSince,
      };
    }),
  };
}
