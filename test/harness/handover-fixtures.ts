import type { FixtureContext } from "./fixtures";

// Fixtures for the hand-over routes (docs/handovers.md): a workspace agreement, so a hand-over
// waits for acceptance; a pending hand-over; an accepted one's receipt; a live signing link.

async function ensureAgreement(ctx: FixtureContext) {
  const res = await ctx.api("/agreements", {
    body: { name: "Fixture agreement", scope: "workspace", body: "{{person}} received {{items}}" },
  });
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`fixture agreement answered ${res.status}: ${JSON.stringify(res.body)}`);
}

async function freeItemAndPerson(ctx: FixtureContext) {
  const person = await ctx.api<{ id: string }>("/people", { body: { name: ctx.unique("Holder") } });
  const item = await ctx.api<{ id: string }>("/inventory-items", { body: { name: ctx.unique("Handed") } });
  if (person.status !== 201 || item.status !== 201) throw new Error("fixture person/item failed");
  return { personId: person.body.id, itemIds: [item.body.id] };
}

export const agreementId = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ id: string }>("/agreements", {
    body: { name: ctx.unique("Agreement"), scope: "kit", scopeId: await kitIdOf(ctx), body: "{{person}}" },
  });
  if (res.status !== 201) throw new Error(`fixture agreement answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
};

async function kitIdOf(ctx: FixtureContext) {
  const res = await ctx.api<{ id: string }>("/kits", { body: { name: ctx.unique("Kit") } });
  if (res.status !== 201) throw new Error(`fixture kit answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export const handoverId = async (ctx: FixtureContext) => {
  await ensureAgreement(ctx);
  const res = await ctx.api<{ handover: { id: string } | null }>("/handovers", { body: await freeItemAndPerson(ctx) });
  if (res.status !== 201 || !res.body.handover)
    throw new Error(`fixture hand-over answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.handover.id;
};

export const receiptId = async (ctx: FixtureContext) => {
  const id = await handoverId(ctx);
  const res = await ctx.api<{ receipt: { id: string } }>(`/handovers/${id}/accept`, {
    body: { signerName: "Fixture" },
  });
  if (res.status !== 200) throw new Error(`fixture accept answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.receipt.id;
};

export const handoverLinkToken = async (ctx: FixtureContext) => {
  const id = await handoverId(ctx);
  const res = await ctx.api<{ url: string }>(`/handovers/${id}/link`, { body: {} });
  if (res.status !== 201) throw new Error(`fixture link answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.url.split("/handover-links/")[1]!;
};

export const HANDOVER_FIXTURES = { agreementId, handoverId, receiptId, "handover-links.token": handoverLinkToken };

export const HANDOVER_SAMPLES: Record<string, (ctx: FixtureContext) => unknown> = {
  acceptHandover: () => ({ signerName: "Fixture signer" }),
  declineHandover: () => ({ reason: "Fixture reason" }),
  acceptHandoverByLink: () => ({ signerName: "Fixture signer" }),
  declineHandoverByLink: () => ({ reason: "Fixture reason" }),
  createHandoverLink: () => ({}),
};
