import { describe, expect, it } from "vitest";
import type { ScanRecord } from "../../src/modules/scan-events";
import type { Page } from "../../src/platform/pagination";
import { userJwt } from "../harness/principals";
import { createLocation, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";

describe("GET /scan-events/items/:itemId/history", () => {
  it("pages an asset's scan records with session context, condition, comment, photos, location and scanner; JWT only", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const room = await createLocation(t, "Archive");
    const [a] = await seedAssets(t, 1, { locationId: room });
    const photo = `tenants/${t.id}/scans/a.jpg`;
    const first = await startSession(t, { name: "Spring audit", locationId: room });
    await api(t, `/sessions/${first.id}/scan`, {
      body: {
        itemId: a!.id,
        condition: "good",
        comment: "fine",
        photoKeys: [photo],
        scannedAt: new Date(Date.now() - 120_000).toISOString(),
      },
      auth: { jwt },
    });
    await api(t, `/sessions/${first.id}`, { method: "PATCH", body: { status: "completed" } });
    const second = await startSession(t, { name: "Summer audit" });
    await api(t, `/sessions/${second.id}/scan`, { body: { code: a!.uniqueTag, condition: "damaged" } });
    await api(t, `/sessions/${second.id}/report`); // writes through

    const url = `/scan-events/items/${a!.id}/history`;
    expect((await api(t, url)).status).toBe(403); // API key refused
    const p1 = await api<Page<ScanRecord>>(t, `${url}?limit=1`, { auth: { jwt } });
    expect(p1.status).toBe(200);
    expect(p1.body.items).toHaveLength(1);
    expect(p1.body.items[0]).toMatchObject({
      result: "accepted",
      condition: "damaged",
      session: { id: second.id, name: "Summer audit", status: "active" },
      location: null,
      scanner: { kind: "apiKey" },
    });
    const p2 = await api<Page<ScanRecord>>(t, `${url}?limit=1&cursor=${p1.body.nextCursor}`, { auth: { jwt } });
    expect(p2.body.nextCursor).toBeNull();
    expect(p2.body.items[0]).toMatchObject({
      result: "accepted",
      condition: "good",
      comment: "fine",
      photos: [{ key: photo }],
      session: { id: first.id, name: "Spring audit", status: "completed" },
      location: { id: room, name: "Archive" },
      expectedLocation: { id: room, name: "Archive" },
      scanner: { id: t.owner.id, kind: "user", email: t.owner.email },
    });

    expect((await api(t, "/scan-events/items/ast_00000000000000000000000000/history", { auth: { jwt } })).status).toBe(
      404,
    );
    const other = await createTenant();
    expect((await api(other, url, { auth: { jwt: await userJwt(other) } })).status).toBe(404);
  });
});
