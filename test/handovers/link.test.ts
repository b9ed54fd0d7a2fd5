import { describe, expect, it } from "vitest";
import type { Handover, HandoverDetail, Receipt, ReceiptVerification } from "../../src/modules/handovers";
import { outboxRows } from "../harness/outbox";
import { api, call, createTenant, type Failure } from "../harness/tenant";
import { handOver, makeAgreement } from "./helpers";

type Link = { url: string; expiresAt: string };

describe("signing by link", () => {
  it("the page needs no account; accept once with a typed name; the link is then used up", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const { created } = await handOver(t, 2);
    const id = created.handover!.id;
    const link = await api<Link>(t, `/handovers/${id}/link`, { body: { expiresInHours: 24 } });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const page = await call<string>(link.body.url, { auth: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.body).toContain("I, Grace Hopper, received on");
    expect(page.body).toContain("Laptop 2");
    const accepted = await call<{ handover: Handover; receipt: Receipt }>(`${link.body.url}/accept`, {
      auth: null,
      body: { signerName: "Grace B. Hopper" },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.handover).toMatchObject({ state: "accepted", method: "link", signerName: "Grace B. Hopper" });
    const verdict = await api<ReceiptVerification>(t, `/receipts/${accepted.body.receipt.id}/verify`);
    expect(verdict.body.valid).toBe(true);
    for (const path of ["", "/accept"]) {
      const again = await call<Failure>(`${link.body.url}${path}`, {
        auth: null,
        ...(path ? { body: { signerName: "Again" } } : {}),
      });
      expect(again.status).toBe(409);
    }
  });

  it("decline with a reason; a replaced or tampered link is refused", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const { created } = await handOver(t, 1);
    const id = created.handover!.id;
    const old = (await api<Link>(t, `/handovers/${id}/link`, { body: {} })).body.url;
    const live = (await api<Link>(t, `/handovers/${id}/link`, { body: {} })).body.url;
    expect((await call<Failure>(old, { auth: null })).status).toBe(409);
    const [head, exp, sig] = ((u) => {
      const parts = u.split(".");
      return [parts.slice(0, -2).join("."), parts.at(-2)!, parts.at(-1)!];
    })(live);
    const tampered = await call<Failure>(`${head}.${Number(exp) + 3600}.${sig}`, { auth: null });
    expect(tampered.status).toBe(403);
    expect(tampered.body.details).toMatchObject({ reason: "invalid_signature" });
    const empty = await call<Failure>(`${live}/decline`, { auth: null, body: { reason: " " } });
    expect(empty.status).toBe(400);
    const declined = await call<Handover>(`${live}/decline`, { auth: null, body: { reason: "Not mine" } });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ state: "declined", declineReason: "Not mine" });
    expect((await api<HandoverDetail>(t, `/handovers/${id}`)).body.state).toBe("declined");
    expect(await outboxRows(t, { subjectId: id, type: "handover.declined" })).toHaveLength(1);
    expect((await call<Failure>(`${live}/accept`, { auth: null, body: { signerName: "X" } })).status).toBe(409);
  });
});
