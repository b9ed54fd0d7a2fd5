import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/tenant/sessions";
import type { ScanOutcome, SessionReport } from "../../src/modules/sessions";
import { workerFetch } from "../harness/contract";
import { userJwt } from "../harness/principals";
import { scan, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

async function reportCsv(t: TestTenant, sessionId: string) {
  const res = await workerFetch(
    new Request(`${t.base}/exports/sessions/${sessionId}/report`, { headers: { authorization: `ApiKey ${t.apiKey}` } }),
  );
  expect(res.status).toBe(200);
  return parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
}

describe("the session report lists unknown codes", () => {
  it("each code, who scanned it first and when, in the JSON report (live and stored) and the CSV", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 2);
    const s = await startSession(t);
    const jwt = await userJwt(t);
    expect((await scan(t, s.id, { code: "GHOST-2" })).body).toMatchObject({ reason: "unknown_code" });
    const first = await api<ScanOutcome>(t, `/sessions/${s.id}/scan`, { body: { code: "GHOST-1" }, auth: { jwt } });
    await scan(t, s.id, { code: "GHOST-1" }); // a repeat: answered, not recorded
    await scan(t, s.id, { itemId: a!.id }); // accepted: not an unknown code

    const live = (await api<SessionReport>(t, `/sessions/${s.id}/report`)).body;
    expect(live.unknownCodes).toBe(2);
    expect(live.unknownCodeListTruncated).toBe(false);
    expect(live.unknownCodeList).toEqual([
      { code: "GHOST-1", scannedAt: expect.any(String), scannerId: t.owner.id, kind: "user", name: expect.any(String) },
      {
        code: "GHOST-2",
        scannedAt: expect.any(String),
        scannerId: expect.stringMatching(/^key_/),
        kind: "apiKey",
        name: expect.any(String),
      },
    ]);
    expect(first.body.result).toBe("not_in_session");

    const rows = (await reportCsv(t, s.id)).filter((r) => r.state === "unknown_code");
    expect(rows.map((r) => [r.code, r.scannedBy, r.scannedAt, r.assetId])).toEqual(
      live.unknownCodeList.map((c) => [c.code, c.scannerId, c.scannedAt, ""]),
    );

    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } })).status).toBe(200);
    const stored = (await api<SessionReport>(t, `/sessions/${s.id}/report`)).body;
    expect(stored.unknownCodeList).toEqual(live.unknownCodeList);

    // A report stored before the list existed gets it from the (final) scan events.
    const db = await dbOf(t);
    const { unknownCodeList: _, unknownCodeListTruncated: __, ...old } = stored;
    await db.update(sessions).set({ report: old }).where(eq(sessions.id, s.id)).run();
    const legacy = (await api<SessionReport>(t, `/sessions/${s.id}/report`)).body;
    expect(legacy.unknownCodeList).toEqual(live.unknownCodeList);
    expect(legacy.unknownCodeListTruncated).toBe(false);
  });

  it("caps the JSON list at 100 codes and says so; the CSV lists every code", async () => {
    const t = await createTenant();
    const s = await startSession(t);
    const codes = Array.from({ length: 103 }, (_, i) => `X-${String(i).padStart(3, "0")}`);
    const res = await api(t, `/sessions/${s.id}/scan/batch`, { body: { scans: codes.map((code) => ({ code })) } });
    expect(res.status).toBe(200);

    const report = (await api<SessionReport>(t, `/sessions/${s.id}/report`)).body;
    expect(report.unknownCodes).toBe(103);
    expect(report.unknownCodeList).toHaveLength(100);
    expect(report.unknownCodeList.map((c) => c.code)).toEqual(codes.slice(0, 100));
    expect(report.unknownCodeListTruncated).toBe(true);

    const rows = (await reportCsv(t, s.id)).filter((r) => r.state === "unknown_code");
    expect(rows.map((r) => r.code)).toEqual(codes);
  });
});
