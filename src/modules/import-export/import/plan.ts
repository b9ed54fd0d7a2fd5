import type { z } from "@hono/zod-openapi";
import type { ErrorDetail } from "../../../platform/errors";
import type { FieldDef } from "../../custom-fields";
import { validateCustomFieldValues } from "../../custom-fields";
import { customValue } from "../custom-cells";
import type { Column } from "./columns";

/** One data row as planned: what it will do, and why not when refused. */
export interface PlannedRow {
  rowNumber: number;
  action: "create" | "update" | "refused";
  targetId: string | null;
  matchKey: string | null;
  input: Record<string, unknown> | null;
  errors: ErrorDetail[];
}

/** A planned file: its rows, and the header names of the columns that nothing imports (reported, never silent). */
export interface ImportPlan {
  rows: PlannedRow[];
  ignoredColumns: string[];
}

/** The refused form of a row (its errors say why); `action` is `refused`, never null. */
export const refusedRow = (
  rowNumber: number,
  targetId: string | null,
  matchKey: string | null,
  errors: ErrorDetail[],
): PlannedRow => ({ rowNumber, action: "refused", targetId, matchKey, input: null, errors });

/** A row's cells by input field, and its custom field values (typed as far as the cell allows); blank cells are left out. */
export function cellsOf(columns: Column[], cells: string[]) {
  const fields: Record<string, string> = {};
  const custom: Record<string, unknown> = {};
  columns.forEach((col, i) => {
    const raw = cells[i] ?? "";
    if (raw.trim() === "") return;
    if (col.kind === "field") fields[col.field] = raw.trim();
    if (col.kind === "custom") custom[col.def.key] = customValue(col.def, raw);
  });
  return { fields, custom };
}

/**
 * A row's shape against the header: more cells than columns is refused rather
 * than trimmed (the extra data would be lost silently), and so is a NUL character in any cell.
 */
export function shapeErrors(header: readonly string[], cells: readonly string[]): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  if (cells.length > header.length)
    errors.push({ path: "(row)", message: `${cells.length} cells, but the header has ${header.length} columns` });
  cells.forEach((cell, i) => {
    if (cell.includes("\u0000"))
      errors.push({ path: header[i] ?? `column ${i + 1}`, message: "contains a NUL character" });
  });
  return errors;
}

/** Header name of an input field, so row errors name the file's own column. */
export function columnName(columns: Column[], path: string): string {
  const [head, key] = path.split(".");
  if (head === "customFields" && key)
    return columns.find((c) => c.kind === "custom" && c.def.key === key)?.header ?? path;
  return columns.find((c) => c.kind === "field" && c.field === head)?.header ?? path;
}

/** zod issues and custom field problems as row errors, by column. */
export function rowErrors(
  columns: Column[],
  issues: readonly z.core.$ZodIssue[],
  custom: readonly ErrorDetail[],
): ErrorDetail[] {
  return [
    ...issues.map((i) => ({ path: columnName(columns, i.path.map(String).join(".")), message: i.message })),
    ...custom.map((p) => ({ path: columnName(columns, p.path.replace(/^body\./, "")), message: p.message })),
  ];
}

/** Custom field values against the definitions read once for the file (and the stored values on update). */
export function checkCustom(
  defs: readonly FieldDef[],
  values: Record<string, unknown>,
  existing: Record<string, unknown> | undefined,
) {
  if (Object.keys(values).length === 0 && existing) return { values: undefined, problems: [] };
  const res = validateCustomFieldValues(defs, values, existing ?? {});
  return { values: Object.keys(values).length ? values : undefined, problems: res.problems };
}

/** Resolves a category or location given by id (`<x>Id` column) or name (`<x>` column) against the live rows. */
export function resolveRef(
  kind: "category" | "location",
  fields: Record<string, string>,
  live: { byId: Set<string>; byName: Map<string, string> },
): { id?: string; error?: ErrorDetail } {
  const id = fields[`${kind}Id`];
  const name = fields[kind];
  // The id first; an unknown id falls back to the name beside it, so an export imported into another
  // workspace (other ids, same names) finds its categories and locations.
  if (id && (live.byId.has(id) || !name))
    return live.byId.has(id) ? { id } : { error: { path: `${kind}Id`, message: `unknown ${kind} '${id}'` } };
  if (name) {
    const found = live.byName.get(name.toLowerCase());
    return found ? { id: found } : { error: { path: kind, message: `no live ${kind} named '${name}'` } };
  }
  return {};
}

/** Number cells for numeric built-in fields; anything else stays text for the schema to refuse. */
export const numberOrText = (v: string | undefined) =>
  v === undefined ? undefined : v !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
