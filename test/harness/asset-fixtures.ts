import { created, type FixtureContext } from "./fixtures";

/**
 * Security-suite fixtures of the assets module (/inventory-items). A checkout needs a real person
 * of the workspace; setup creates one and the sample body picks it up (keyed by workspace).
 */
const people = new Map<string, string>();

export const inventoryItem = async (ctx: FixtureContext) =>
  created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Asset") } }));
export const inventoryItemTag = async (ctx: FixtureContext) =>
  created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Asset") } }), "uniqueTag");

async function person(ctx: FixtureContext): Promise<string> {
  const id = created(await ctx.api("/people", { body: { name: ctx.unique("Holder") } }));
  people.set(ctx.tenant.id, id);
  return id;
}

export async function checkoutSetup(ctx: FixtureContext): Promise<void> {
  await person(ctx);
}

export const checkoutBody = (ctx: FixtureContext) => ({ personId: people.get(ctx.tenant.id) });

/** Check-in needs a checked-out item: check the fixture item out first. */
export async function checkinSetup(ctx: FixtureContext, path: string): Promise<void> {
  const res = await ctx.api(path.replace(/^\/api\/v1/, "").replace(/\/checkin$/, "/checkout"), {
    body: { personId: await person(ctx) },
  });
  if (res.status !== 200)
    throw new Error(`checkout before checkin answered ${res.status}: ${JSON.stringify(res.body)}`);
}
