import { describe, expect, it } from "vitest";
import { deref, fetchOpenApi, type JsonSchema, operationsOf, type Parameter } from "../harness/openapi";
import { call } from "../harness/tenant";

/** The configuration the docs page hands to Scalar: `createApiReference('#app', {...})`. */
async function scalarConfig(): Promise<Record<string, unknown>> {
  const page = await call<string>("https://docs.inventory.test/api/v1/docs");
  expect(page.status).toBe(200);
  const m = /createApiReference\('#app', (\{[\s\S]*?\})\s*\)/.exec(page.body);
  expect(m, page.body).toBeTruthy();
  return JSON.parse(m![1]!);
}

/** What Scalar's "Try it" would pre-fill for a parameter: an example on it or on its schema. */
const prefilled = (p: Parameter & { example?: unknown; examples?: unknown }) =>
  p.example !== undefined ||
  p.examples !== undefined ||
  p.schema?.example !== undefined ||
  p.schema?.examples !== undefined;

describe("the API reference's Try it", () => {
  it("hides Scalar's hosted-only buttons: Ask AI (agent), MCP, the developer toolbar (Deploy)", async () => {
    const config = await scalarConfig();
    expect(config).toMatchObject({
      url: "/api/v1/openapi.json",
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
    });
  });

  it("does not pre-fill updatedSince (it would turn every list into a sync list)", async () => {
    const doc = await fetchOpenApi();
    const sync = operationsOf(doc).flatMap((o) => o.queryParams.filter((p) => p.name === "updatedSince"));
    expect(sync.length).toBeGreaterThan(5);
    expect(sync.filter(prefilled)).toEqual([]);
  });

  it("gives instants that must lie ahead examples that stay valid (checkout's dueBackAt, a booking's window)", async () => {
    const doc = await fetchOpenApi();
    const ops = operationsOf(doc);
    const body = (id: string) => ops.find((o) => o.operationId === id)!.body!;
    const example = (s: JsonSchema | undefined) => {
      const concrete = deref(doc, s);
      return Date.parse(String((s?.example ?? concrete?.example) as string));
    };
    const inTenYears = Date.now() + 10 * 365 * 86_400_000;
    for (const id of ["checkoutInventoryItem", "checkoutKit"]) {
      const due = body(id).properties?.dueBackAt;
      if (due) expect(example(due), id).toBeGreaterThan(inTenYears);
    }
    expect(body("checkoutInventoryItem").properties?.dueBackAt).toBeDefined();
    const booking = body("createBooking").properties!;
    expect(example(booking.startsAt)).toBeGreaterThan(inTenYears);
    expect(example(booking.endsAt)).toBeGreaterThan(example(booking.startsAt));
    expect(example(booking.endsAt) - example(booking.startsAt)).toBeLessThan(366 * 86_400_000);
  });
});
