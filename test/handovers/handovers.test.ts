import { describe, expect, it } from "vitest";
import type { InventoryItem, TimelineEntry } from "../../src/modules/assets";
import type { Agreement, Handover, HandoverDetail, Receipt, ReceiptVerification } from "../../src/modules/handovers";
import type { Page } from "../../src/platform/pagination";
import { createAsset } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type Failure } from "../harness/tenant";
import { handOver, makeAgreement, PNG_1PX } from "./helpers";

type Accepted = { handover: Handover; receipt: Receipt };

describe("agreements and hand-overs", () => {
  it("a checkout under an agreement waits for one acceptance covering every item; signing issues a verifiable receipt", async () => {
    const t = await createTenant();
    const agreement = await makeAgreement(t);
    const { person, items, created } = await handOver(t, 3);
    const h = created.handover!;
    expect(h).toMatchObject({
      state: "pending_acceptance",
      kind: "checkout",
      personId: person.id,
      agreementVersion: 1,
    });
    expect(h.items.map((i) => i.assetId)).toEqual(items.map((a) => a.id));
    // The items are held either way.
    for (const a of items) {
      const got = await api<InventoryItem>(t, `/inventory-items/${a.id}`);
      expect(got.body.status).toBe("assigned");
    }
    // An edit of the text is a new version; the pending hand-over keeps its own.
    const edited = await api<Agreement>(t, `/agreements/${agreement.id}`, {
      method: "PATCH",
      body: { body: "New text for {{person}}" },
    });
    expect(edited.body.version).toBe(2);
    const detail = await api<HandoverDetail>(t, `/handovers/${h.id}`);
    expect(detail.body.agreementVersion).toBe(1);
    expect(detail.body.agreementText).toContain("I, Grace Hopper, received on");
    expect(detail.body.agreementText).toContain("Laptop 2");
    expect(detail.body.agreementText).toContain("serial SN-3");
    const versions = await api<Page<{ version: number }>>(t, `/agreements/${agreement.id}/versions`);
    expect(versions.body.items.map((v) => v.version)).toEqual([2, 1]);

    const res = await api<Accepted>(t, `/handovers/${h.id}/accept`, {
      body: { signerName: "Grace Hopper", signaturePng: `data:image/png;base64,${PNG_1PX}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.handover).toMatchObject({ state: "accepted", method: "in_person", hasSignatureImage: true });
    expect(res.body.receipt).toMatchObject({ seq: 1, prevHash: "0".repeat(64), handoverId: h.id });
    // Once only.
    const again = await api<Failure>(t, `/handovers/${h.id}/accept`, { body: { signerName: "Grace Hopper" } });
    expect(again.status).toBe(409);

    const pdf = await api<string>(t, `/receipts/${res.body.receipt.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(String(pdf.body).startsWith("%PDF")).toBe(true);
    const verdict = await api<ReceiptVerification>(t, `/receipts/${res.body.receipt.id}/verify`);
    expect(verdict.body).toMatchObject({ valid: true, intact: true, inChain: true });

    for (const a of items) {
      const tl = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline?types=HANDOVER_ACCEPTED`);
      expect(tl.status, JSON.stringify(tl.body)).toBe(200);
      expect(tl.body.items).toHaveLength(1);
      expect(tl.body.items[0]).toMatchObject({ data: { handoverId: h.id, receiptId: res.body.receipt.id } });
    }
    expect((await outboxRows(t, { subjectId: h.id })).map((e) => e.type)).toEqual([
      "handover.created",
      "handover.accepted",
    ]);
    expect(await outboxRows(t, { type: "handover.receipt_issued" })).toHaveLength(1);
  });

  it("no agreement: the checkout needs no acceptance; a category's agreement beats the workspace's; a kit's beats both", async () => {
    const t = await createTenant();
    const { created } = await handOver(t, 1);
    expect(created.handover).toBeNull();
    await makeAgreement(t, { name: "General" });
    const cat = await api<{ id: string }>(t, "/categories", { body: { name: "Phones" } });
    const phones = await makeAgreement(t, { name: "Phones", scope: "category", scopeId: cat.body.id });
    const dup = await api<Failure>(t, "/agreements", {
      body: { name: "Phones 2", scope: "category", scopeId: cat.body.id, body: "x" },
    });
    expect(dup.status).toBe(409);
    const phone = await createAsset(t, { name: "Phone", categoryId: cat.body.id });
    const laptop = await createAsset(t, { name: "Laptop" });
    const { seedPerson } = await import("../harness/people");
    const p = await seedPerson(t);
    const one = await api<{ handover: Handover }>(t, "/handovers", {
      body: { personId: p.id, itemIds: [phone.id, laptop.id] },
    });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body.handover.agreementId).toBe(phones.id);
    const bad = await api<Failure>(t, "/handovers", { body: { personId: p.id, itemIds: [phone.id], kitId: "kit_x" } });
    expect(bad.status).toBe(400);
  });

  it("a return can require a signature; a return of what the person does not hold is refused, nothing moves", async () => {
    const t = await createTenant();
    await makeAgreement(t, { requireReturnSignature: true });
    const { person, items, created } = await handOver(t, 2);
    await api(t, `/handovers/${created.handover!.id}/accept`, { body: { signerName: "Grace Hopper" } });
    const stranger = await createAsset(t, { name: "Other" });
    const refused = await api<Failure>(t, "/handovers", {
      body: { kind: "return", personId: person.id, itemIds: [items[0]!.id, stranger.id] },
    });
    expect(refused.status).toBe(409);
    expect((await api<InventoryItem>(t, `/inventory-items/${items[0]!.id}`)).body.status).toBe("assigned");
    const back = await api<{ handover: Handover; itemIds: string[] }>(t, "/handovers", {
      body: { kind: "return", personId: person.id, itemIds: items.map((a) => a.id) },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(back.body.handover).toMatchObject({ kind: "return", state: "pending_acceptance" });
    expect((await api<InventoryItem>(t, `/inventory-items/${items[0]!.id}`)).body.status).toBe("available");
    const signed = await api<Accepted>(t, `/handovers/${back.body.handover.id}/accept`, {
      body: { signerName: "Grace Hopper" },
    });
    expect(signed.body.receipt.seq).toBe(2);
  });

  it("bad signatures and times are 400s, not 500s", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const { created } = await handOver(t, 1);
    const id = created.handover!.id;
    for (const [body, path] of [
      [{ signerName: "A", signaturePng: "not base64!" }, "body.signaturePng"],
      [{ signerName: "A", signaturePng: btoa("GIF89a not a png") }, "body.signaturePng"],
      [{ signerName: "A", signaturePng: btoa("\x89PNG\r\n\x1a\nbroken") }, "body.signaturePng"],
      [{ signerName: "A", signedAt: "2099-01-01T00:00:00Z" }, "body.signedAt"],
      [{ signerName: "" }, "body.signerName"],
    ] as const) {
      const res = await api<Failure>(t, `/handovers/${id}/accept`, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(path);
    }
    expect((await api<Handover>(t, `/handovers/${id}`)).body.state).toBe("pending_acceptance");
  });
});
