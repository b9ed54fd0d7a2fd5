/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { CATALOGUE, isDeliverable, payloadOf, SUBSCRIBABLE_TYPES } from "../../src/domain/webhook-delivery/catalogue";
import { fetchOpenApi } from "../harness/openapi";

// The source of every module, to find the event types they record in the outbox.
const SOURCES = import.meta.glob("../../src/modules/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

describe("webhook event catalogue", () => {
  it("covers every event type the modules record", () => {
    const literal = new Set<string>();
    for (const text of Object.values(SOURCES)) {
      for (const m of text.matchAll(/record(?:Event|EventIfChanged)\([^)]*?type: "([a-z_]+\.[a-z_]+)"/gs))
        literal.add(m[1]!);
      // Events described apart from the statement that records them (people/changes.ts: `NewEvent` values).
      for (const m of text.matchAll(/(?:NewEvent = |events\.push\()\{\s*type: "([a-z_]+\.[a-z_]+)"/g))
        literal.add(m[1]!);
      // Events of a write recipe (`events: [{ type, subjectId, … }]`, `ifChanged(ctx, stmt, { type, subjectId, … })`).
      for (const m of text.matchAll(/\{\s*type: "([a-z_]+\.[a-z_]+)",\s*subjectId:/g)) literal.add(m[1]!);
    }
    expect(literal.size).toBeGreaterThan(40);
    // Types built from a template: session.${to}, maintenance.${kind}, ${trash type}.purged.
    const templated = [
      "session.completed",
      "session.cancelled",
      "maintenance.due",
      "maintenance.overdue",
      ...["category", "location", "asset", "person", "custom_field"].map((x) => `${x}.purged`),
    ];
    const missing = [...literal, ...templated].filter((type) => !isDeliverable(type));
    expect(missing).toEqual([]);
  });

  it("documents every type and its payload in the OpenAPI 3.1 webhooks section", async () => {
    const doc = (await fetchOpenApi()) as unknown as {
      openapi: string;
      webhooks: Record<
        string,
        {
          post: {
            requestBody: {
              content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
            };
          };
        }
      >;
    };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.webhooks).sort()).toEqual(CATALOGUE.map((e) => e.type).sort());
    const updated = doc.webhooks["asset.updated"]!.post.requestBody.content["application/json"]!.schema;
    expect(Object.keys(updated.properties)).toEqual(["id", "type", "timestamp", "tenantId", "data"]);
    expect(JSON.stringify(updated.properties.data)).toContain("changes");
    expect(JSON.stringify(updated.properties.data)).toContain('#/components/schemas/InventoryItem"');
  });

  it("builds the payload from the outbox row; session reports fold into the session", () => {
    const base = { id: "evt_1", createdAt: "2026-11-23T10:00:00.000Z" };
    expect(payloadOf({ ...base, type: "asset.updated", payload: { id: "ast_1", changes: ["name"] } }, "ten_1")).toEqual(
      {
        id: "evt_1",
        type: "asset.updated",
        timestamp: base.createdAt,
        tenantId: "ten_1",
        data: { id: "ast_1", changes: ["name"] },
      },
    );
    expect(
      payloadOf(
        {
          ...base,
          type: "session.completed",
          payload: { session: { id: "ses_1", status: "completed" }, report: { scanned: 3 } },
        },
        "ten_1",
      ).data,
    ).toEqual({ id: "ses_1", status: "completed", report: { scanned: 3 } });
    expect(SUBSCRIBABLE_TYPES).not.toContain("webhook.verification");
  });
});
