import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/platform/schemas";
import { adminApi, adminSignIn } from "../harness/admin";
import { deref, fetchOpenApi, type JsonSchema, type OpenApiDoc, operationsOf } from "../harness/openapi";
import { seedPerson } from "../harness/people";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";

/**
 * Dates are accepted the same way everywhere. Every date field of a body or query is the
 * shared `isoDate` (YYYY-MM-DD) and every instant field the shared `isoInstant` (a date-time with an
 * offset, or a date meaning its midnight UTC), src/platform/schemas.ts. The walk proves it for every
 * field of the served document; the table sends both forms and garbage to real routes.
 */

const doc = await fetchOpenApi();

type Kind = "date" | "instant" | "other";

/** What a field's schema accepts, null aside. */
function kindOf(d: OpenApiDoc, schema: JsonSchema | undefined): Kind {
  const s = deref(d, schema);
  if (!s) return "other";
  const parts = (s.anyOf ?? [s]).map((p) => deref(d, p)!).filter((p) => p.type !== "null");
  const formats = parts.map((p) => p.format ?? "-").sort();
  if (formats.join() === "date") return "date";
  if (formats.join() === "date,date-time") return "instant";
  if (formats.some((f) => f === "date" || f === "date-time")) throw new Error(`mixed date schema ${JSON.stringify(s)}`);
  return "other";
}

/** Every query parameter and JSON body property (nested too) of every operation, with its kind. */
function requestFields(d: OpenApiDoc) {
  const out: { where: string; name: string; kind: Kind }[] = [];
  const walk = (s: JsonSchema | undefined, where: string, depth: number) => {
    const r = deref(d, s);
    if (!r || depth > 6) return;
    for (const [name, v] of Object.entries(r.properties ?? {})) {
      out.push({ where, name, kind: kindOf(d, v) });
      walk(v, `${where}.${name}`, depth + 1);
    }
    walk(r.items, where, depth + 1);
    for (const p of [...(r.anyOf ?? []), ...(r.allOf ?? []), ...(r.oneOf ?? [])]) walk(p, where, depth + 1);
  };
  for (const op of operationsOf(d)) {
    for (const q of op.queryParams)
      out.push({ where: `${op.operationId} query`, name: q.name, kind: kindOf(d, q.schema) });
    walk(op.body, `${op.operationId} body`, 0);
  }
  return out;
}

/** Names that mean a day or an instant; such a field must use one of the shared schemas. */
const DATE_LIKE = /(At|Date|Since|Until)$|^(from|to|asOf|dateFrom|dateTo|since|until)$/;

describe("dates and instants in the served document", () => {
  const fields = requestFields(doc);

  it("every request field named like a date or an instant is the shared date or instant schema", () => {
    const loose = fields.filter((f) => DATE_LIKE.test(f.name) && f.kind === "other");
    expect(loose).toEqual([]);
  });

  it("finds the fields the issue names, each of the right kind (so the walk is not vacuous)", () => {
    const kinds = (name: string) => [...new Set(fields.filter((f) => f.name === name).map((f) => f.kind))];
    expect(kinds("completedDate")).toEqual(["instant"]);
    expect(kinds("from")).toEqual(["instant"]);
    expect(kinds("to")).toEqual(["instant"]);
    expect(kinds("updatedSince")).toEqual(["instant"]);
    expect(kinds("dueBackAt")).toEqual(["instant"]);
    expect(kinds("purchaseDate")).toEqual(["date"]);
    expect(kinds("asOf")).toEqual(["date"]);
    expect(kinds("nextDueDate")).toEqual(["date"]);
    expect(fields.filter((f) => f.kind === "instant").length).toBeGreaterThan(20);
  });
});

const DAY = 86_400_000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const instantIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace("Z", "+00:00");

interface Case {
  field: string;
  kind: "date" | "instant";
  /** Makes the call with the field set to `value`. */
  send: (t: TestTenant, value: string) => Promise<CallResult<unknown>>;
  ok: number;
  /** Valid values (a date, a date-time) for this field's meaning: past or future as the route wants. */
  past?: boolean;
}

const q = (v: string) => encodeURIComponent(v);
let cookie: string | null = null;

const CASES: Case[] = [
  {
    field: "body.completedDate",
    kind: "instant",
    past: true,
    ok: 201,
    send: async (t, v) => {
      const item = await api<{ id: string }>(t, "/inventory-items", { body: { name: "Drill" } });
      return api(t, "/maintenance/logs", { body: { itemId: item.body.id, type: "inspection", completedDate: v } });
    },
  },
  {
    field: "query.from",
    kind: "instant",
    past: true,
    ok: 200,
    send: async (t, v) => {
      cookie ??= await adminSignIn();
      return adminApi(cookie, `/admin/tenants/${t.id}/tt10-report?from=${q(v)}`);
    },
  },
  {
    field: "query.from",
    kind: "instant",
    past: true,
    ok: 200,
    send: (t, v) => api(t, `/stats/analytics/maintenance?from=${q(v)}`),
  },
  {
    field: "query.updatedSince",
    kind: "instant",
    past: true,
    ok: 200,
    send: (t, v) => api(t, `/inventory-items?updatedSince=${q(v)}`),
  },
  { field: "query.from", kind: "instant", ok: 200, send: (t, v) => api(t, `/bookings?from=${q(v)}`) },
  {
    field: "body.dueBackAt",
    kind: "instant",
    ok: 200,
    send: async (t, v) => {
      const item = await api<{ id: string }>(t, "/inventory-items", { body: { name: "Lens" } });
      const p = await seedPerson(t);
      return api(t, `/inventory-items/${item.body.id}/checkout`, { body: { personId: p.id, dueBackAt: v } });
    },
  },
  {
    field: "body.purchaseDate",
    kind: "date",
    past: true,
    ok: 201,
    send: (t, v) => api(t, "/inventory-items", { body: { name: "Laptop", purchaseDate: v } }),
  },
  {
    field: "query.asOf",
    kind: "date",
    ok: 200,
    send: (t, v) => api(t, `/stats/analytics/depreciation?asOf=${q(v)}`),
  },
];

describe("dates and instants on real routes", () => {
  it.each(CASES.map((c, i) => [`${c.field} (${i})`, c] as const))(
    "%s accepts its forms and refuses garbage with a 400 naming the field",
    async (_name, c) => {
      const t = await createTenant();
      const days = c.past ? -3 : 3;
      const accepted = c.kind === "instant" ? [dateIn(days), instantIn(days)] : [dateIn(days)];
      const refused = ["next tuesday", "2026-02-30", "2026-11-25T10:00:00"]; // no offset: its zone would be a guess
      if (c.kind === "date") refused.push(instantIn(days));
      for (const v of accepted) {
        const res = await c.send(t, v);
        expect(res.status, `${v}: ${JSON.stringify(res.body)}`).toBe(c.ok);
      }
      for (const v of refused) {
        const res = (await c.send(t, v)) as CallResult<ErrorBody>;
        expect(res.status, v).toBe(400);
        const details = res.body.details as { path: string; message: string }[];
        expect(details.map((d) => d.path)).toContain(c.field);
        expect(details.find((d) => d.path === c.field)?.message).toMatch(/^must be an? /);
      }
    },
  );
});
