import { describe, expect, it } from "vitest";
import type {
  ScanBatchResult,
  ScanOutcome,
  SessionItem,
  SessionItemDetail,
  SessionMobile,
} from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { scan, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe("idempotent scanning", () => {
  it("50 phones sending the same scan at once: exactly one accepted, 49 already_scanned", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 5);
    const s = await startSession(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => scan(t, s.id, { code: a!.uniqueTag })));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const results = answers.map((r) => r.body.result);
    expect(results.filter((r) => r === "accepted")).toHaveLength(1);
    expect(results.filter((r) => r === "already_scanned")).toHaveLength(49);
    const mobile = await api<SessionMobile>(t, `/sessions/${s.id}/mobile`);
    expect(mobile.body.progress).toEqual({ scanned: 1, total: 5, missing: 4, found: 0 });
  });

  it("50 concurrent scans of 50 different items: all accepted, none lost", async () => {
    const t = await createTenant();
    const assets = await seedAssets(t, 50);
    const s = await startSession(t);
    const answers = await Promise.all(assets.map((a) => scan(t, s.id, { itemId: a.id })));
    expect(answers.map((r) => r.body.result)).toEqual(Array(50).fill("accepted"));
    expect((await api<SessionMobile>(t, `/sessions/${s.id}/mobile`)).body.progress.scanned).toBe(50);
  });

  it("an offline phone replays its queue: each scanId lands once; a replay returns the first answer", async () => {
    const t = await createTenant();
    const assets = await seedAssets(t, 3);
    const s = await startSession(t);
    const queue = assets.map((a, i) => ({ itemId: a.id, scanId: `phone-1:${i}`, scannedAt: minutesAgo(30 - i) }));
    // The phone's connection dropped after the first upload: it sends the whole queue again, twice, concurrently.
    const first = await api<ScanOutcome>(t, `/sessions/${s.id}/scan`, { body: queue[0] });
    expect(first.body).toMatchObject({ result: "accepted", replayed: false, clientScanId: "phone-1:0" });
    const replays = await Promise.all(
      [1, 2].map(() => api<ScanBatchResult>(t, `/sessions/${s.id}/scan/batch`, { body: { scans: queue } })),
    );
    for (const r of replays) expect(r.status).toBe(200);
    const byId = new Map<string, string[]>();
    for (const r of replays)
      for (const x of r.body.results) byId.set(x.clientScanId!, [...(byId.get(x.clientScanId!) ?? []), x.result]);
    // Every scan is accepted in exactly one place (the first upload or one of the replays), never twice.
    const again = await api(t, `/sessions/${s.id}/scan`, { body: queue[0] });
    expect(again.body).toMatchObject({ result: "accepted", replayed: true, scanId: first.body.scanId });
    for (const [clientScanId, results] of byId) {
      expect(results, clientScanId).toEqual(["accepted", "accepted"]);
    }
    const replayedFlags = replays.flatMap((r) => r.body.results.map((x: { replayed: boolean }) => x.replayed));
    expect(replayedFlags.filter((f) => !f)).toHaveLength(2); // scans 1 and 2 were new exactly once
    const items = await api<Page<SessionItem>>(t, `/sessions/${s.id}/items?state=scanned`);
    expect(items.body.items).toHaveLength(3);
    // The recorded time is the device's scannedAt, not the upload time.
    const item0 = items.body.items.find((i: { itemId: string }) => i.itemId === assets[0]!.id);
    expect(item0!.scan!.scannedAt).toBe(queue[0]!.scannedAt);
  });

  it("a batch lands in scannedAt order and answers in request order", async () => {
    const t = await createTenant();
    const [a, b] = await seedAssets(t, 2);
    const s = await startSession(t);
    // Two phones scanned `a` offline; the later scan is listed first. The earlier one must win.
    const res = await api<ScanBatchResult>(t, `/sessions/${s.id}/scan/batch`, {
      body: {
        scans: [
          { itemId: a!.id, scanId: "late", scannedAt: minutesAgo(5), condition: "poor" },
          { code: "NOT-A-TAG", scannedAt: minutesAgo(4) },
          { itemId: a!.id, scanId: "early", scannedAt: minutesAgo(10), condition: "good" },
          { code: b!.uniqueTag },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { index: number; result: string }) => [r.index, r.result])).toEqual([
      [0, "already_scanned"],
      [1, "not_in_session"],
      [2, "accepted"],
      [3, "accepted"],
    ]);
    expect(res.body.results[1]!.reason).toBe("unknown_code");
    expect(res.body.progress).toMatchObject({ scanned: 2, total: 2 });
    const item = await api<SessionItemDetail>(t, `/sessions/${s.id}/items/${a!.id}`);
    expect(item.body.scan).toMatchObject({ condition: "good" });
  });

  it("refuses a batch over 500 scans, an empty batch and a batch with a bad entry (400)", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const s = await startSession(t);
    const big = await api<ErrorBody>(t, `/sessions/${s.id}/scan/batch`, {
      body: { scans: Array.from({ length: 501 }, () => ({ itemId: a!.id })) },
    });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe("validation_failed");
    expect((await api(t, `/sessions/${s.id}/scan/batch`, { body: { scans: [] } })).status).toBe(400);
    const bad = await api<ErrorBody>(t, `/sessions/${s.id}/scan/batch`, {
      body: { scans: [{ itemId: a!.id }, { itemId: a!.id, code: "x" }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.details)).toContain("scans.1");
    // Nothing from the refused batches landed.
    expect((await api<SessionMobile>(t, `/sessions/${s.id}/mobile`)).body.progress.scanned).toBe(0);
  });

  it("takes a full 500-scan batch", async () => {
    const t = await createTenant();
    const assets = await seedAssets(t, 500);
    const s = await startSession(t);
    const res = await api<ScanBatchResult>(t, `/sessions/${s.id}/scan/batch`, {
      body: { scans: assets.map((a) => ({ code: a.uniqueTag })) },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.every((r: { result: string }) => r.result === "accepted")).toBe(true);
    expect(res.body.progress).toMatchObject({ scanned: 500, total: 500, missing: 0 });
  });
});
