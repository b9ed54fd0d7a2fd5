import { describe, expect, it } from "vitest";
import type { ScanBatchResult, ScanOutcome, SessionItem, SessionMobile } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import { scan, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";

/*
 * Within a batch the object defers the writes of accepted scans and decides later scans of the same
 * batch on the items as those writes leave them (apply-scan.ts). A batch must therefore answer and
 * record exactly what the same scans sent one by one do: the same item scanned again by id and by
 * tag, a scanId repeated inside the batch, a rescan of an item accepted earlier in the batch, unknown
 * codes between them.
 */
const at = (i: number) => new Date(Date.now() - (60 - i) * 60_000).toISOString();

describe("a batch of scans", () => {
  it("answers and records as the same scans sent one by one", async () => {
    const t = await createTenant();
    const [a, b, c, d] = await seedAssets(t, 5);
    const scans: Record<string, unknown>[] = [
      { code: a!.uniqueTag, scanId: "s0" },
      { itemId: a!.id },
      { code: a!.uniqueTag.toLowerCase() },
      { itemId: b!.id, scanId: "s3", condition: "good" },
      { itemId: b!.id, scanId: "s3" },
      { code: b!.uniqueTag, allowRescan: true, condition: "poor", scanId: "s5" },
      { code: "NOPE-1" },
      { code: c!.uniqueTag, comment: "by the door" },
      { code: "NOPE-1", scanId: "s8" },
      { itemId: c!.id, allowRescan: true },
      { code: d!.uniqueTag, scanId: "s10" },
    ].map((s, i) => ({ ...s, scannedAt: at(i) }));

    const batched = await startSession(t);
    const res = await api<ScanBatchResult>(t, `/sessions/${batched.id}/scan/batch`, { body: { scans } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const single = await startSession(t);
    const singles: ScanOutcome[] = [];
    for (const body of scans) {
      const one = await scan(t, single.id, body);
      expect(one.status).toBe(200);
      singles.push(one.body);
    }

    const shape = (o: Omit<ScanOutcome, "progress">) => ({
      result: o.result,
      reason: o.reason,
      replayed: o.replayed,
      rescan: o.rescan,
      clientScanId: o.clientScanId,
      stored: o.scanId !== null,
      item: o.item && { id: o.item.id, scannedAt: o.item.scannedAt },
    });
    expect(res.body.results.map(shape)).toEqual(singles.map(shape));
    expect(res.body.results.map((r) => r.result)).toEqual([
      "accepted",
      "already_scanned",
      "already_scanned",
      "accepted",
      "accepted",
      "accepted",
      "not_in_session",
      "accepted",
      "not_in_session",
      "accepted",
      "accepted",
    ]);
    // The scanId repeated inside the batch is the first answer again, with the same stored scan.
    expect(res.body.results[4]).toMatchObject({ replayed: true, scanId: res.body.results[3]!.scanId });
    expect(res.body.progress).toEqual(singles.at(-1)!.progress);
    expect(res.body.progress).toEqual({ scanned: 4, total: 5, missing: 1, found: 0 });

    // What each session holds, after both wrote everything through to D1.
    const held = async (id: string) => {
      const mobile = await api<SessionMobile>(t, `/sessions/${id}/mobile`);
      const items = await api<Page<SessionItem>>(t, `/sessions/${id}/items?state=scanned`);
      expect(items.status).toBe(200);
      return {
        progress: mobile.body.progress,
        recent: mobile.body.recentScans.map((r) => [r.itemId, r.code, r.result, r.scannedAt, r.unscanned]),
        items: items.body.items
          .map((i) => [i.itemId, i.scan?.scannedAt, i.scan?.condition ?? null, i.scan?.scannedBy ?? null])
          .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      };
    };
    const [mine, theirs] = [await held(batched.id), await held(single.id)];
    expect(mine).toEqual(theirs);
    expect(mine.items).toHaveLength(4);
    expect(mine.items.find((i) => i[0] === b!.id)?.slice(0, 3)).toEqual([b!.id, scans[5]!.scannedAt, "poor"]);
    for (const id of [batched.id, single.id]) {
      const done = await api(t, `/sessions/${id}`, { method: "PATCH", body: { status: "completed" } });
      expect(done.status).toBe(200);
    }
    const report = async (id: string) => (await api<{ scanned: number }>(t, `/sessions/${id}/report`)).body;
    expect(await report(batched.id)).toMatchObject({ scanned: 4 });
    expect((await report(batched.id)).scanned).toBe((await report(single.id)).scanned);
  });
});
