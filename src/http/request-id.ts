import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { newId } from "../platform/ids";

/** Every response carries `x-request-id`; errors repeat it in their body. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  await next();
  c.header("x-request-id", id);
};
