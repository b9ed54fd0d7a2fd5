import { describe, expect, it } from "vitest";
import type { Session, SessionItem, UnscanResult } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createLocation, scan, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("POST /sessions/:id/scan", () => {
  it("accepts an expected item once, then answers already_scanned; allowRescan re-records it", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 3);
    const s = await startSession(t);
    expect(s).toMatchObject({ status: "active", progress: { expected: 3, scanned: 0 } });

    const first = await scan(t, s.id, { itemId: a!.id, condition: "good", comment: "on shelf" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      result: "accepted",
      reason: null,
      replayed: false,
      item: { id: a!.id, uniqueTag: a!.uniqueTag },
      progress: { scanned: 1, total: 3, missing: 2 },
    });
    expect(first.body.scanId).toMatch(/^scn_/);

    const again = await scan(t, s.id, { code: a!.uniqueTag.toLowerCase() });
    expect(again.body).toMatchObject({ result: "already_scanned", progress: { scanned: 1 } });

    const rescan = await scan(t, s.id, { itemId: a!.id, allowRescan: true, condition: "poor" });
    expect(rescan.body).toMatchObject({ result: "accepted", rescan: true, progress: { scanned: 1 } });
    expect(rescan.body.scanId).not.toBe(first.body.scanId);
  });

  it("resolves a code given as tag, asset id or asset URL; another workspace's URL and unknown codes are not_in_session / unknown_code", async () => {
    const t = await createTenant();
    const [a, b, c] = await seedAssets(t, 3);
    const s = await startSession(t);
    expect((await scan(t, s.id, { code: a!.uniqueTag })).body.result).toBe("accepted");
    expect((await scan(t, s.id, { code: b!.id })).body.result).toBe("accepted");
    const url = await scan(t, s.id, { code: `https://${t.slug}.example.com/a/${encodeURIComponent(c!.uniqueTag)}` });
    expect(url.body).toMatchObject({ result: "accepted", item: { id: c!.id } });

    const foreign = await scan(t, s.id, { code: `https://other-ws.example.com/a/${a!.uniqueTag}` });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ result: "not_in_session", reason: "unknown_code", item: null });
    const unknown = await scan(t, s.id, { code: "NO-SUCH-TAG" });
    expect(unknown.body).toMatchObject({ result: "not_in_session", reason: "unknown_code" });
    expect(unknown.body.scanId).toMatch(/^scn_/);
    // Repeats of the same unknown code are answered but recorded once.
    expect((await scan(t, s.id, { code: "NO-SUCH-TAG" })).body).toMatchObject({
      result: "not_in_session",
      scanId: null,
    });
  });

  it("answers not_in_session for an asset outside the expected set (not_expected, excluded)", async () => {
    const t = await createTenant();
    const [inScope] = await seedAssets(t, 1);
    const s = await startSession(t);
    const [later] = await seedAssets(t, 1); // created after the start: not in the snapshot
    expect((await scan(t, s.id, { itemId: later!.id })).body).toMatchObject({
      result: "not_in_session",
      reason: "not_expected",
      item: { id: later!.id },
    });

    const ex = await api(t, `/sessions/${s.id}/items/${inScope!.id}/exclude`, { method: "POST" });
    expect(ex.status).toBe(200);
    expect(ex.body).toMatchObject({ itemId: inScope!.id, state: "excluded" });
    expect((await scan(t, s.id, { itemId: inScope!.id })).body).toMatchObject({
      result: "not_in_session",
      reason: "excluded",
    });

    const inc = await api(t, `/sessions/${s.id}/items/${later!.id}/include`, { method: "POST" });
    expect(inc.body).toMatchObject({ itemId: later!.id, source: "manual", state: "missing" });
    expect((await scan(t, s.id, { itemId: later!.id })).body).toMatchObject({
      result: "accepted",
      progress: { scanned: 1, total: 1 },
    });
  });

  it("answers wrong_location in a location-scoped session, and accepts it as found with allowMarkAnyway", async () => {
    const t = await createTenant();
    const hall = await createLocation(t, "Hall");
    const shelf = await createLocation(t, "Hall shelf", hall);
    const lab = await createLocation(t, "Lab");
    const [onShelf] = await seedAssets(t, 1, { locationId: shelf });
    const [inLab] = await seedAssets(t, 1, { locationId: lab });
    const s = await startSession(t, { locationId: hall });
    expect(s.progress).toEqual({ expected: 1, scanned: 0 }); // sub-location included by default

    expect((await scan(t, s.id, { itemId: onShelf!.id })).body.result).toBe("accepted");
    const wrong = await scan(t, s.id, { code: inLab!.uniqueTag });
    expect(wrong.body).toMatchObject({
      result: "wrong_location",
      reason: "outside_scope",
      item: { id: inLab!.id, locationId: lab },
    });
    const marked = await scan(t, s.id, { code: inLab!.uniqueTag, allowMarkAnyway: true });
    expect(marked.body).toMatchObject({ result: "accepted", progress: { scanned: 1, total: 1, found: 1 } });
    expect((await scan(t, s.id, { code: inLab!.uniqueTag, allowMarkAnyway: true })).body.result).toBe(
      "already_scanned",
    );

    const found = await api<Page<SessionItem>>(t, `/sessions/${s.id}/items?state=found`);
    expect(found.body.items).toEqual([
      expect.objectContaining({ itemId: inLab!.id, source: "found", state: "found", wrongLocation: true }),
    ]);

    // Without sub-locations the shelf is outside the scope.
    const narrow = await startSession(t, { locationId: hall, includeSubLocations: false });
    expect(narrow.progress).toEqual({ expected: 0, scanned: 0 });
    expect((await scan(t, narrow.id, { itemId: onShelf!.id })).body.result).toBe("wrong_location");
  });

  it("answers wrong_location for an explicitly included asset recorded at another location; allowMarkAnyway accepts it", async () => {
    const t = await createTenant();
    const hall = await createLocation(t, "Hall");
    const lab = await createLocation(t, "Lab");
    const [inHall] = await seedAssets(t, 1, { locationId: hall });
    const [inLab] = await seedAssets(t, 1, { locationId: lab });
    const s = await startSession(t, { locationId: hall });
    const inc = await api(t, `/sessions/${s.id}/items/${inLab!.id}/include`, { method: "POST" });
    expect(inc.body).toMatchObject({ source: "manual", state: "missing" });
    expect((await scan(t, s.id, { itemId: inHall!.id })).body.result).toBe("accepted");

    const wrong = await scan(t, s.id, { code: inLab!.uniqueTag });
    expect(wrong.body).toMatchObject({
      result: "wrong_location",
      reason: "outside_scope",
      item: { id: inLab!.id, locationId: lab },
      progress: { scanned: 1, total: 2, missing: 1 },
    });
    const marked = await scan(t, s.id, { code: inLab!.uniqueTag, allowMarkAnyway: true });
    expect(marked.body).toMatchObject({ result: "accepted", progress: { scanned: 2, total: 2, missing: 0 } });
    const items = await api<Page<SessionItem>>(t, `/sessions/${s.id}/items?state=scanned`);
    expect(items.body.items).toContainEqual(
      expect.objectContaining({ itemId: inLab!.id, source: "manual", wrongLocation: true }),
    );
    // A session without a location scope has no wrong location: included items are simply accepted.
    const open = await startSession(t);
    await api(t, `/sessions/${open.id}/items/${inLab!.id}/include`, { method: "POST" });
    expect((await scan(t, open.id, { itemId: inLab!.id })).body.result).toBe("accepted");
  });

  it("unscans: the item is missing again; unscanning twice removes nothing", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 2);
    const s = await startSession(t);
    await scan(t, s.id, { itemId: a!.id });
    const un = await api(t, `/sessions/${s.id}/unscan`, { body: { code: a!.uniqueTag } });
    expect(un.status).toBe(200);
    expect(un.body).toEqual({ itemId: a!.id, removed: true, progress: { scanned: 0, total: 2, missing: 2, found: 0 } });
    expect((await api<UnscanResult>(t, `/sessions/${s.id}/unscan`, { body: { itemId: a!.id } })).body.removed).toBe(
      false,
    );
    const missing = await api<Page<SessionItem>>(t, `/sessions/${s.id}/missing`);
    expect(missing.body.items.map((i: { itemId: string }) => i.itemId)).toContain(a!.id);
    expect((await scan(t, s.id, { itemId: a!.id })).body.result).toBe("accepted");
    expect(
      (await api(t, `/sessions/${s.id}/unscan`, { body: { itemId: "ast_00000000000000000000000000" } })).status,
    ).toBe(400);
  });

  it("rejects bad input with the envelope: neither or both targets, overlong code, future scannedAt, foreign photo keys", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const s = await startSession(t);
    for (const body of [
      {},
      { itemId: a!.id, code: a!.uniqueTag },
      { code: "x".repeat(513) },
      { itemId: a!.id, extra: 1 },
    ]) {
      const res = await scan(t, s.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", requestId: expect.any(String) });
    }
    const future = await scan(t, s.id, { itemId: a!.id, scannedAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(400);
    const photos = await scan<Failure>(t, s.id, { itemId: a!.id, photoKeys: ["tenants/ten_other/x.png"] });
    expect(photos.status).toBe(400);
    expect(photos.body.details[0]!.path).toBe("body.photoKeys");
  });

  it("404s an unknown session and another workspace's session; 409s a draft, a completed and a cancelled one", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const [a] = await seedAssets(t, 1);
    const s = await startSession(t);
    expect((await scan(t, "ses_00000000000000000000000000", { itemId: a!.id })).status).toBe(404);
    expect((await scan(t, "garbage", { itemId: a!.id })).status).toBe(404);
    const cross = await scan<ErrorBody>(other, s.id, { itemId: a!.id });
    expect(cross.status).toBe(404);
    expect(cross.body.code).toBe("not_found");
    expect((await api(other, `/sessions/${s.id}/mobile`)).status).toBe(404);

    const draft = await api<Session>(t, "/sessions", { body: { name: "Draft" } });
    expect((await scan(t, draft.body.id, { itemId: a!.id })).status).toBe(409);

    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } })).status).toBe(200);
    const late = await scan(t, s.id, { itemId: a!.id });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: "conflict", details: { status: "completed" } });
    expect((await api(t, `/sessions/${s.id}/unscan`, { body: { itemId: a!.id } })).status).toBe(409);

    const c = await startSession(t);
    await api(t, `/sessions/${c.id}`, { method: "PATCH", body: { status: "cancelled" } });
    expect((await scan(t, c.id, { itemId: a!.id })).status).toBe(409);
  });
});
