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
/**
 * How a summed amount of money is computed: SQLite's total() (a double), never sum(), whose integer
 * overflow fails the whole read on totals that validated inputs can reach.
 */
export const SUMMED_AMOUNT =
  "A sum computed as a double: exact while the total stays under 2^53 minor units (about 90 trillion in a currency of 2 digits), rounded to about 15 significant digits beyond; never an error.";

export const NAME_MAX = 120;
export const TEXT_MAX = 2000;
export const nameField = z.string().trim().min(1, "must not be empty").max(NAME_MAX, `at most ${NAME_MAX} characters`);
export const textField = z.string().trim().max(TEXT_MAX, `at most ${TEXT_MAX} characters`);

/**
 * Dates and instants are accepted the same way everywhere (docs/conventions.md#lists-ids-and-timestamps): every body and query field of
 * either kind uses one of these two, and test/contract/dates.test.ts walks the served document to
 * prove it. A date field is a calendar day; an instant field takes an ISO 8601 date-time with an
 * offset or, for convenience, a calendar day meaning its midnight UTC (JavaScript's own reading of
 * a bare date, so `new Date(value)` and `instantOf(value)` give the instant). A date-time without an
 * offset is refused: its time zone would be a guess.
 */
export const DATE_MESSAGE = "must be a date YYYY-MM-DD";
export const INSTANT_MESSAGE =
  "must be an ISO 8601 date-time with an offset (2026-11-21T09:30:00Z) or a date YYYY-MM-DD (midnight UTC)";

/** A calendar day, `YYYY-MM-DD` (a day that exists). */
export const isoDate = z.iso
  .date({ error: DATE_MESSAGE })
  .openapi({ example: "2026-11-25", description: "A calendar date, YYYY-MM-DD." });

/** An instant: a date-time with an offset, or a date meaning its midnight UTC. */
export const instantValue = z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: INSTANT_MESSAGE });
export const isoInstant = instantValue.openapi({
  example: "2026-11-21T09:30:00Z",
  description: "An ISO 8601 date-time with an offset, or a date YYYY-MM-DD meaning its midnight UTC.",
});

/** The instant an `isoInstant` value names, as ISO 8601 UTC (`...Z`); a bare date is its midnight UTC. */
export const instantOf = (value: string) => new Date(value).toISOString();

/** Whether an `isoInstant` value was given as a bare date (some fields read a day as a whole day). */
export const isBareDate = (value: string) => value.length === 10;

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
