import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { webhookDeliveries } from "../../src/db/tenant/webhooks";
import { webhookFanOut } from "../../src/domain/webhook-delivery";
import { consumeEvent } from "../../src/events/consumer";
import { findTenantById } from "../../src/tenancy/registry";
import { created, type FixtureContext } from "./fixtures";
import { eventually, outboxRows } from "./outbox";
import { dbOf } from "./tenant-db";

/**
 * Security-suite fixtures of the webhooks module. Endpoints point at a public-looking https name;
 * nothing is ever sent there: the test harness's outbound transport refuses every send.
 */
export const webhookEndpoint = async (ctx: FixtureContext) =>
  created(await ctx.api("/webhooks/endpoints", { body: { url: `https://hooks.example.com/${ctx.unique("in")}` } }));

/** An outbox event of the workspace (a category creation). */
export async function webhookEvent(ctx: FixtureContext): Promise<string> {
  const categoryId = created(await ctx.api("/categories", { body: { name: ctx.unique("Category") } }));
  const [event] = await outboxRows(ctx.tenant, { subjectId: categoryId });
  if (!event) throw new Error("no outbox row for the fixture category");
  return event.id;
}

/**
 * A delivery of a fresh event to a fresh endpoint, made by the consumer's fan-out. The fan-out is
 * run here for that event (the consumer is idempotent by event id, so the Queue's own run of it
 * changes nothing), so the fixture does not wait behind the Queue backlog of a long test file.
 */
export async function webhookDelivery(ctx: FixtureContext): Promise<string> {
  const endpointId = await webhookEndpoint(ctx);
  const eventId = await webhookEvent(ctx);
  const db = await dbOf(ctx.tenant);
  const tenant = await findTenantById(env, ctx.tenant.id);
  if (!tenant) throw new Error("fixture tenant vanished");
  await consumeEvent({ env, tenant, db }, eventId, [webhookFanOut]);
  return eventually(
    async () =>
      (
        await db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)))
          .get()
      )?.id,
    15_000,
  );
}

export const WEBHOOK_FIXTURES = {
  "endpoints.id": webhookEndpoint,
  "deliveries.id": webhookDelivery,
  "events.id": webhookEvent,
};
