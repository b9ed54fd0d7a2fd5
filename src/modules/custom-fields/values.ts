import type { CustomFieldEntity } from "../../db/tenant/custom-fields";
import type { TenantDb } from "../../env";
import { ApiError, type ErrorDetail } from "../../platform/errors";
import { DATE_MESSAGE, isoDate, TEXT_MAX } from "../../platform/schemas";
import { type FieldDef, liveDefinitions } from "./definitions";

/**
 * A calendar date `YYYY-MM-DD` that exists (no 2026-02-30), by the shared date field of every body
 * and query (docs/conventions.md#lists-ids-and-timestamps). Date-times are refused: a date field has no time zone.
 */
export const isCalendarDate = (value: string): boolean => isoDate.safeParse(value).success;

/** The stored form of one value, or the reason it is refused. */
function normalize(def: FieldDef, value: unknown): { ok: unknown } | { error: string } {
  switch (def.type) {
    case "text": {
      if (typeof value !== "string") return { error: "must be a string" };
      const v = value.trim();
      if (v.length === 0) return { error: "must not be empty (send null to clear it)" };
      if (v.length > TEXT_MAX) return { error: `at most ${TEXT_MAX} characters` };
      return { ok: v };
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? { ok: value } : { error: "must be a finite number" };
    case "date":
      return typeof value === "string" && isCalendarDate(value) ? { ok: value } : { error: DATE_MESSAGE };
    case "checkbox":
      return typeof value === "boolean" ? { ok: value } : { error: "must be true or false" };
    case "dropdown": {
      const options = def.options ?? [];
      if (typeof value !== "string") return { error: `must be one of: ${options.join(", ")}` };
      const v = value.trim();
      return options.includes(v) ? { ok: v } : { error: `must be one of: ${options.join(", ")}` };
    }
  }
}

/**
 * Validates custom field values of an asset or person against the live definitions and returns the
 * normalized values to store. `existing` is the stored object on update (merge semantics: a key set
 * to null removes the value). Throws a 400 naming `customFields.<key>` on an unknown key, a wrong
 * type, a value outside a dropdown's options, or a missing required value.
 *
 * Call it on create (even without input, so required fields are enforced) and on updates that carry
 * `customFields`. Whenever it runs, the merged result must hold every required field: a required
 * value cannot be cleared, and a row created before a field became required gets it on its next
 * custom field edit. Values of deleted fields already stored are kept (hidden) untouched.
 */
export async function checkCustomFieldValues(
  db: TenantDb,
  entity: CustomFieldEntity,
  input: Record<string, unknown> | undefined,
  existing: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return customFieldValuesWith(await liveDefinitions(db, entity), input, existing);
}

/** `checkCustomFieldValues` against definitions the caller has read once (set-based writes of many rows). */
export function customFieldValuesWith(
  defs: readonly FieldDef[],
  input: Record<string, unknown> | undefined,
  existing: Record<string, unknown> = {},
): Record<string, unknown> {
  const { values, problems } = validateCustomFieldValues(defs, input, existing);
  if (problems.length > 0) {
    throw new ApiError(
      "validation_failed",
      problems.map((p) => `${p.path.slice("body.".length)}: ${p.message}`).join("; "),
      { details: problems },
    );
  }
  return values;
}

/**
 * The rules of `checkCustomFieldValues` against definitions the caller has read (a CSV import
 * checks thousands of rows against one read): the merged values, or the problems found.
 */
export function validateCustomFieldValues(
  defs: readonly FieldDef[],
  input: Record<string, unknown> | undefined,
  existing: Record<string, unknown> = {},
): { values: Record<string, unknown>; problems: ErrorDetail[] } {
  const merged: Record<string, unknown> = { ...existing };
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const problems: ErrorDetail[] = [];
  const fail = (key: string, message: string) => problems.push({ path: `body.customFields.${key}`, message });

  for (const [key, value] of Object.entries(input ?? {})) {
    const def = byKey.get(key);
    if (!def) {
      fail(key, "unknown field");
      continue;
    }
    if (value === null) {
      if (def.required) fail(key, "is required and cannot be cleared");
      delete merged[key];
      continue;
    }
    const res = normalize(def, value);
    if ("error" in res) fail(key, res.error);
    else merged[key] = res.ok;
  }
  const named = new Set(problems.map((p) => p.path));
  for (const def of defs) {
    if (
      def.required &&
      (merged[def.key] === undefined || merged[def.key] === null) &&
      !named.has(`body.customFields.${def.key}`)
    )
      fail(def.key, "is required");
  }
  return { values: merged, problems };
}
