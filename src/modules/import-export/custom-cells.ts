import type { FieldDef } from "../custom-fields";
import type { Cell } from "./csv";

/** A stored custom field value as a CSV cell (dates and options are strings already). */
export function customCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
}

const TRUE = new Set(["true", "yes", "y", "1", "x"]);
const FALSE = new Set(["false", "no", "n", "0"]);

/** A yes/no cell (`true`/`yes`/`y`/`1`/`x`, `false`/`no`/`n`/`0`) as a boolean; anything else stays text for the schema to refuse. */
export function booleanCell(text: string): boolean | string {
  const v = text.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : text;
}

/**
 * A CSV cell as the JSON value the field's type takes, for the custom field checks to judge
 * (they refuse what does not fit): numbers and checkboxes are converted when they read as one.
 */
export function customValue(def: FieldDef, text: string): unknown {
  if (def.type === "number") {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : text;
  }
  if (def.type === "checkbox") return booleanCell(text);
  return text;
}
