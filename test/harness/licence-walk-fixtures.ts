import { created, type Fixture, type FixtureContext } from "./fixtures";

/**
 * Security-suite fixtures of the licences module. Seats, usage and reviews need a real person of
 * the workspace: setup makes one (with a product and a seat where needed) and the sample body
 * picks it up, keyed by workspace.
 */
const state = new Map<string, { personId?: string; productId?: string; seatId?: string }>();
const remember = (ctx: FixtureContext, v: Record<string, string>) =>
  state.set(ctx.tenant.id, { ...state.get(ctx.tenant.id), ...v });

const product = async (ctx: FixtureContext) =>
  created(await ctx.api("/licence-products", { body: { name: ctx.unique("Product") } }));
const person = async (ctx: FixtureContext) =>
  created(await ctx.api("/people", { body: { name: ctx.unique("Seat holder") } }));
async function lot(ctx: FixtureContext, productId?: string) {
  return created(
    await ctx.api(`/licence-products/${productId ?? (await product(ctx))}/lots`, { body: { kind: "unlimited" } }),
  );
}
async function seat(ctx: FixtureContext) {
  const productId = await product(ctx);
  const personId = await person(ctx);
  const seatId = created(await ctx.api(`/licence-lots/${await lot(ctx, productId)}/seats`, { body: { personId } }));
  remember(ctx, { personId, productId, seatId });
  return seatId;
}

export const LICENCE_FIXTURES: Record<string, Fixture> = {
  productId: product,
  lotId: (ctx) => lot(ctx),
  seatId: seat,
  reviewId: async (ctx) => {
    await seat(ctx);
    return created(
      await ctx.api(`/licence-products/${state.get(ctx.tenant.id)!.productId}/reviews`, {
        body: { dueDate: "2099-01-01" },
      }),
    );
  },
  "keys.keyId": async (ctx) =>
    created(await ctx.api(`/licence-lots/${ctx.params.lotId}/keys`, { body: { key: "K-1" } })),
  "licence-renewal-feeds.feedId": async (ctx) => created(await ctx.api("/licence-renewal-feeds", { body: {} })),
  "licence-renewals.file": async (ctx) => {
    const res = await ctx.api<{ url: string }>("/licence-renewal-feeds", { body: {} });
    created(res);
    return res.body.url.split("/licence-renewals/")[1]!;
  },
};

export const LICENCE_SAMPLES: Record<string, (ctx: FixtureContext) => unknown> = {
  createLicenceProduct: (ctx) => ({ name: ctx.unique("Product") }),
  createLicenceLot: () => ({ kind: "unlimited" }),
  updateLicenceLot: () => ({ supplier: "Reseller" }),
  addLicenceKey: () => ({ key: "ABCD-EFGH" }),
  assignLicenceSeat: (ctx) => ({ personId: state.get(ctx.tenant.id)?.personId }),
  reportLicenceUsage: (ctx) => {
    const s = state.get(ctx.tenant.id);
    return { reports: [{ productId: s?.productId, personId: s?.personId, usedAt: "2026-01-01T00:00:00Z" }] };
  },
  reclaimLicenceSeats: (ctx) => ({ seatIds: [state.get(ctx.tenant.id)?.seatId] }),
  openLicenceReview: () => ({ dueDate: "2099-01-01" }),
  decideLicenceReview: (ctx) => ({ decisions: [{ seatId: state.get(ctx.tenant.id)?.seatId, outcome: "keep" }] }),
  createLicenceRenewalFeed: () => ({}),
};

export const LICENCE_SETUP: Record<string, (ctx: FixtureContext, path: string) => Promise<void>> = {
  assignLicenceSeat: async (ctx) => {
    remember(ctx, { personId: await person(ctx) });
  },
  reportLicenceUsage: async (ctx) => {
    await seat(ctx);
  },
  reclaimLicenceSeats: async (ctx) => {
    await seat(ctx);
  },
};
