import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../platform/errors";

/** Keys one JSON object of a body may have, and keys a whole body may have (a 500-scan batch has ~4,000). */
export const MAX_OBJECT_KEYS = 1_000;
export const MAX_BODY_KEYS = 10_000;

/** The first problem with the shape of a parsed JSON body, before any schema sees it; null when none. */
export function bodyShapeProblem(body: unknown): { path: string; message: string } | null {
  let total = 0;
  const stack: { value: unknown; path: string }[] = [{ value: body, path: "body" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) stack.push({ value: v, path: `${path}.${i}` });
      continue;
    }
    const keys = Object.keys(value);
    total += keys.length;
    if (keys.length > MAX_OBJECT_KEYS) return { path, message: `at most ${MAX_OBJECT_KEYS} keys (got ${keys.length})` };
    if (total > MAX_BODY_KEYS) return { path: "body", message: `at most ${MAX_BODY_KEYS} keys in all` };
    // JSON.parse keeps `__proto__` as an own key, but copying it into an object (as schema parsing
    // does) sets the prototype instead, so it would vanish silently: refuse it like any unknown key.
    if (Object.hasOwn(value, "__proto__")) return { path: `${path}.__proto__`, message: "is not an allowed key" };
    for (const key of keys) stack.push({ value: (value as Record<string, unknown>)[key], path: `${path}.${key}` });
  }
  return null;
}

/** On JSON-body routes, after the guard: refuses oversized or prototype-setting bodies with a short 400. */
export const bodyShape: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (/^application\/([\w.-]+\+)?json\b/i.test(c.req.header("content-type") ?? "")) {
    // Hono caches the parsed body, so the validator does not parse it again; bad JSON is its to answer.
    const body: unknown = await c.req.json().catch(() => undefined);
    const problem = bodyShapeProblem(body);
    if (problem) throw new ApiError("validation_failed", `${problem.path}: ${problem.message}`, { details: [problem] });
  }
  await next();
};
