import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handoverReceipts } from "../../src/db/tenant/handovers";
import type { Handover, Receipt, ReceiptVerification } from "../../src/modules/handovers";
import { issueReceipt } from "../../src/modules/handovers";
import type { Page } from "../../src/platform/pagination";
import { createAsset } from "../harness/assets-helpers";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { handOver, makeAgreement } from "./helpers";

type Accepted = { handover: Handover; receipt: Receipt };
const verify = async (t: TestTenant, id: string) => (await api<ReceiptVerification>(t, `/receipts/${id}/verify`)).body;

async function pendingHandovers(t: TestTenant, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await handOver(t, 1)).created.handover!.id);
  return ids;
}

describe("the receipt chain", () => {
  it("concurrent acceptances link one after another: no fork, every receipt verifies", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const ids = await pendingHandovers(t, 6);
    const results = await Promise.all(
      ids.map((id) => api<Accepted>(t, `/handovers/${id}/accept`, { body: { signerName: "Signer" } })),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = await api<Page<Receipt>>(t, "/receipts");
    const chain = [...page.body.items].sort((a, b) => a.seq - b.seq);
    expect(chain.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(chain[0]!.prevHash).toBe("0".repeat(64));
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.prevHash).toBe(chain[i - 1]!.chainHash);
    expect(new Set(chain.map((r) => r.handoverId))).toEqual(new Set(ids));
    for (const r of chain) expect(await verify(t, r.id)).toMatchObject({ valid: true });
  });

  it("a tampered PDF in R2 fails; a tampered row fails, and so does its neighbour's link", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const ids = await pendingHandovers(t, 3);
    const receipts: Receipt[] = [];
    for (const id of ids)
      receipts.push(
        (await api<Accepted>(t, `/handovers/${id}/accept`, { body: { signerName: "Signer" } })).body.receipt,
      );
    const db = await dbOf(t);
    // The PDF: one byte changed.
    const first = await db.select().from(handoverReceipts).where(eq(handoverReceipts.id, receipts[0]!.id)).get();
    const bytes = new Uint8Array(await (await env.FILES.get(first!.objectKey))!.arrayBuffer());
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 1;
    await env.FILES.put(first!.objectKey, bytes);
    expect(await verify(t, receipts[0]!.id)).toMatchObject({
      valid: false,
      intact: false,
      checks: { document: "mismatch" },
    });
    // The row: a document hash rewritten to match some other file.
    await db
      .update(handoverReceipts)
      .set({ docSha256: "f".repeat(64) })
      .where(eq(handoverReceipts.id, receipts[1]!.id))
      .run();
    expect(await verify(t, receipts[1]!.id)).toMatchObject({
      valid: false,
      intact: false,
      checks: { row: "mismatch" },
    });
    // ...and the receipt after it no longer links to an intact predecessor.
    expect(await verify(t, receipts[2]!.id)).toMatchObject({
      valid: false,
      inChain: false,
      checks: { previous: "mismatch" },
    });
    // A deleted object is "missing".
    await env.FILES.delete(first!.objectKey);
    expect((await verify(t, receipts[0]!.id)).checks.document).toBe("missing");
  });

  it("issueReceipt (the offboarding close) records a return with a receipt in the same chain", async () => {
    const t = await createTenant();
    const person = await seedPerson(t, { name: "Leaver" });
    const a = await createAsset(t, { name: "Laptop", serialNumber: "SN-9" });
    const b = await createAsset(t, { name: "Dock" });
    const db = await dbOf(t);
    const ctx = { db, actor: "system:offboarding", tenantId: t.id, files: env.FILES };
    const out = await issueReceipt(ctx, { personId: person.id, assetIds: [a.id, b.id] });
    expect(out.handover).toMatchObject({ kind: "return", state: "accepted", method: "recorded", signerName: "Leaver" });
    expect(out.receipt.seq).toBe(1);
    expect(await verify(t, out.receipt.id)).toMatchObject({ valid: true });
    await expect(issueReceipt(ctx, { personId: person.id, assetIds: ["ast_nope"] })).rejects.toMatchObject({
      code: "validation_failed",
    });
  });
});
