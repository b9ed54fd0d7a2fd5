import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    message: z.string().openapi({ example: "name: required" }),
    code: z
      .string()
      .openapi({ example: "validation_failed", description: "Machine-readable code; see the README's error table." }),
    details: z.unknown().optional().openapi({ description: "For validation failures, a list of `{ path, message }`." }),
    requestId: z.string().openapi({ example: "req_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
  })
  .openapi("Error");

/** Path id of a given prefix; anything else is a 404 (not 400) so ids stay opaque. */
export const idParam = (name: string, example: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name, in: "path" }, example });

/** Names and free text: trimmed, bounded, documented once. */
export const NAME_MAX = 120;
export const TEXT_MAX = 2000;
export const nameField = z.string().trim().min(1, "must not be empty").max(NAME_MAX, `at most ${NAME_MAX} characters`);
export const textField = z.string().trim().max(TEXT_MAX, `at most ${TEXT_MAX} characters`);
export const isoDateTime = z.iso.datetime({ offset: true }).openapi({ example: "2026-11-21T09:30:00Z" });
/**
 * Examples of instants that must lie ahead (a due date, a booking's window): far in the future, so
 * the API reference's "Try it" sends a valid request whatever the year.
 */
export const FUTURE_EXAMPLE = { start: "2099-06-01T09:00:00Z", end: "2099-06-03T17:00:00Z" } as const;

/**
 * A registered (named) schema or null. Written as `anyOf: [{ $ref }, { type: "null" }]`, the form
 * JSON Schema validators accept: `.nullable()` on a named schema renders as the bare `$ref` (null
 * lost) or, with a description, as `allOf: [{ $ref }, { type: [object, null] }]`, which no null
 * satisfies. test/contract/nullable.test.ts refuses both in the served document.
 */
export const nullableRef = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** The error envelope's body, for typed clients (and the tests). */
export type ErrorBody = z.infer<typeof ErrorSchema>;
