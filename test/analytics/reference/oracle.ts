import { expect } from "vitest";
import { resolveRange, resolveScope, type Scope } from "../../../src/modules/analytics";
import { api, type TestTenant } from "../../harness/tenant";
import { dbOf } from "../../harness/tenant-db";

/*
 * What the rollup tests share when they hold a route's answer against its row-counting reference:
 * time helpers, a call that must succeed, the normalisations, and one case's resolved range and scope.
 */
const DAY = 86_400_000;
export const ago = (days: number, hours = 0) => new Date(Date.now() - days * DAY - hours * 3_600_000).toISOString();
export const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** The stamp of the answer and of the reference differ; so do a default range's bounds (each its own "now"). */
export const omitStamp = <T extends object>(v: T) => ({ ...json(v), generatedAt: "" });
/** The overview route's answer without the licences' figures, which the rollups do not keep. */
export const withoutLicences = <T extends object>(v: T) => {
  const { licences: _, ...rest } = v as T & { licences?: unknown };
  return rest;
};
export const omitBounds = <T extends object>(v: T, explicit: boolean) =>
  explicit ? json(v) : { ...json(v), from: "", to: "" };

export async function ok<T>(t: TestTenant, path: string, opts: Parameters<typeof api>[2] = {}) {
  const res = await api<T>(t, path, opts);
  expect(
    res.status,
    `${opts.method ?? (opts.body ? "POST" : "GET")} ${path}: ${JSON.stringify(res.body)}`,
  ).toBeLessThan(300);
  return res.body;
}

export type RangeInput = { from?: string; to?: string; period: "day" | "week" | "month" };

/** One case: the query string the route gets, and the range and scope the reference gets, at one "now". */
export async function oracleCase(t: TestTenant, scope: Scope, range: RangeInput) {
  const db = await dbOf(t);
  const q = new URLSearchParams(
    Object.entries({ ...scope, ...range }).filter((e): e is [string, string] => typeof e[1] === "string"),
  ).toString();
  const now = new Date();
  return {
    db,
    q,
    now,
    r: resolveRange(range, now),
    s: await resolveScope(db, scope),
    explicit: Boolean(range.from),
  };
}
