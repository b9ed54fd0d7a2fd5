import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { isId, newId } from "../platform/ids";

/**
 * Every response carries `x-request-id`; errors repeat it in their body. A shard behind the router
 * (`SHARD_NAME` set; a shard has no public route, only the router's service binding reaches it)
 * keeps the id the router gave the request, so one id follows it through both Workers.
 */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.env?.SHARD_NAME ? c.req.header("x-request-id") : undefined;
  const id = given && isId("request", given) ? given : newId("request");
  c.set("requestId", id);
  await next();
  c.header("x-request-id", id);
};
