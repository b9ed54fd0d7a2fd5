import { created, type FixtureContext } from "./fixtures";

/**
 * Stock movement fixtures of the security suite: the setup gives the fixture item units at a
 * location (and an open returnable issue for `returnStock`); the sample body names them.
 */
interface StockState {
  from: string;
  to: string;
  personId: string;
  issueId?: string;
}
const states = new Map<string, StockState>();
const itemOf = (path: string) => /\/stock-items\/([^/]+)\//.exec(path)![1]!;

async function ok<T>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function stockSetup(ctx: FixtureContext, path: string): Promise<void> {
  if (!path.includes("/stock-items/")) return bulkSetup(ctx);
  const itemId = itemOf(path);
  const from = created(await ctx.api("/locations", { body: { name: ctx.unique("Shelf") } }));
  const to = created(await ctx.api("/locations", { body: { name: ctx.unique("Shelf") } }));
  const personId = created(await ctx.api("/people", { body: { name: ctx.unique("Holder") } }));
  await ok(ctx.api(`/stock-items/${itemId}`, { method: "PATCH", body: { returnable: true } }), "PATCH returnable");
  await ok(ctx.api(`/stock-items/${itemId}/receive`, { body: { locationId: from, quantity: 5 } }), "receive");
  const issue = await ok(
    ctx.api<{ movement: { id: string } }>(`/stock-items/${itemId}/issue`, {
      body: { locationId: from, quantity: 1, personId },
    }),
    "issue",
  );
  states.set(ctx.tenant.id, { from, to, personId, issueId: issue.movement.id });
}

const state = (ctx: FixtureContext) => states.get(ctx.tenant.id)!;

/** The bulk route: a stock item with units at a location (the sample moves one of them). */
async function bulkSetup(ctx: FixtureContext): Promise<void> {
  const from = created(await ctx.api("/locations", { body: { name: ctx.unique("Shelf") } }));
  const itemId = created(await ctx.api("/stock-items", { body: { name: ctx.unique("Bulk") } }));
  await ok(ctx.api(`/stock-items/${itemId}/receive`, { body: { locationId: from, quantity: 5 } }), "receive");
  states.set(`bulk:${ctx.tenant.id}`, { from, to: itemId, personId: "" });
}

/** A stock item and a location to count in the fixture session. */
export async function countSetup(ctx: FixtureContext): Promise<void> {
  const from = created(await ctx.api("/locations", { body: { name: ctx.unique("Shelf") } }));
  const itemId = created(await ctx.api("/stock-items", { body: { name: ctx.unique("Counted") } }));
  states.set(`count:${ctx.tenant.id}`, { from, to: itemId, personId: "" });
}

export const STOCK_SAMPLES: Record<string, (ctx: FixtureContext) => unknown> = {
  receiveStock: (ctx) => ({ locationId: state(ctx).from, quantity: 1 }),
  issueStock: (ctx) => ({ locationId: state(ctx).from, quantity: 1, personId: state(ctx).personId }),
  returnStock: (ctx) => ({ issueId: state(ctx).issueId }),
  transferStock: (ctx) => ({ fromLocationId: state(ctx).from, toLocationId: state(ctx).to, quantity: 1 }),
  adjustStock: (ctx) => ({ locationId: state(ctx).from, countedQuantity: 1, reason: "count" }),
  bulkStockMovements: (ctx) => {
    // Walks that skip setups for routes without path parameters get unknown ids: a 200 of per-movement 404s.
    const s = states.get(`bulk:${ctx.tenant.id}`) ?? { from: "loc_unknown", to: "stk_unknown" };
    return { movements: [{ kind: "issue", stockItemId: s.to, locationId: s.from, quantity: 1, toLocationId: s.from }] };
  },
  countSessionStock: (ctx) => {
    const s = states.get(`count:${ctx.tenant.id}`)!;
    return { itemId: s.to, locationId: s.from, countedQuantity: 1 };
  },
};
