import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "../../src/modules/assets";
import type { BulkPeopleResult } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { seedAssets } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";

describe("POST /people/bulk (deactivate)", () => {
  it("checks every held asset in, deactivates, and answers per person in request order", async () => {
    const t = await createTenant();
    const ada = await seedPerson(t);
    const grace = await seedPerson(t, { name: "Grace" });
    const gone = await seedPerson(t, { name: "Old", status: "deactivated" });
    const [a, b, c] = await seedAssets(t, 3);
    for (const [asset, person] of [
      [a, ada],
      [b, ada],
      [c, grace],
    ] as const)
      expect((await api(t, `/inventory-items/${asset!.id}/checkout`, { body: { personId: person.id } })).status).toBe(
        200,
      );
    const unknown = "per_00000000000000000000000000";
    const res = await api<BulkPeopleResult>(t, "/people/bulk", {
      body: { action: "deactivate", ids: [ada.id, unknown, gone.id, grace.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => [i.id, i.status, i.item?.status ?? i.error!.code])).toEqual([
      [ada.id, 200, "deactivated"],
      [unknown, 404, "not_found"],
      [gone.id, 200, "deactivated"],
      [grace.id, 200, "deactivated"],
    ]);
    for (const asset of [a, b, c]) {
      const got = await api(t, `/inventory-items/${asset!.id}`);
      expect(got.body).toMatchObject({ status: "available", assigneeId: null });
      const timeline = await api<Page<TimelineEntry>>(t, `/inventory-items/${asset!.id}/timeline`);
      expect(timeline.body.items[0]).toMatchObject({ type: "UNASSIGNED" });
    }
    const events = await outboxRows(t, { type: "person.deactivated" });
    const adaEvent = events.find((e) => e.subjectId === ada.id)!;
    expect((adaEvent.payload as { checkedInAssetIds: string[] }).checkedInAssetIds.sort()).toEqual(
      [a!.id, b!.id].sort(),
    );
    expect((await outboxRows(t, { type: "asset.checked_in" })).length).toBe(3);
  });
});
