import { z } from "@hono/zod-openapi";

/** The OpenAPI tag of every licences route. */
export const tags = ["Licences"];

/** An optional text of at most `max` characters (null clears it). */
export const shortText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).nullable().optional();
/** An id given in a body, described for the reference. */
export const ref = (name: string) => z.string().min(1).max(64).openapi({ description: name });
