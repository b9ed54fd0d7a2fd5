import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import { recordedEventsOn } from "../events/outbox";

/**
 * After a request whose writes recorded events in the outbox, drains it to the Queue once the
 * response is sent (failures wait for the cron sweep). Requests that recorded nothing (reads, scans,
 * refused writes) skip the outbox read entirely. `defineRoute` puts it on every route.
 */
export const outboxDrain: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.var.db && recordedEventsOn(c.var.db)) dispatchAfterResponse(c);
};
