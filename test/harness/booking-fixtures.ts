import { created, type FixtureContext } from "./fixtures";

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

/** A reserved booking of a fresh item for a fresh person, next week. */
export async function booking(ctx: FixtureContext): Promise<string> {
  const personId = created(await ctx.api("/people", { body: { name: ctx.unique("Booker") } }));
  const assetId = created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Booked") } }));
  return created(
    await ctx.api("/bookings", { body: { personId, assetIds: [assetId], startsAt: inDays(7), endsAt: inDays(8) } }),
  );
}

export const kit = async (ctx: FixtureContext): Promise<string> =>
  created(await ctx.api("/kits", { body: { name: ctx.unique("Kit") } }));

/** `/kits/{kitId}/members/{inventoryItemId}`: the item must be a member. */
export async function kitMemberSetup(ctx: FixtureContext, path: string): Promise<void> {
  const [, kitId, itemId] = path.match(/\/kits\/([^/]+)\/members\/([^/]+)$/) ?? [];
  const res = await ctx.api(`/kits/${kitId}/members`, { body: { assetIds: [itemId] } });
  if (res.status !== 200) throw new Error(`adding the kit member answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** `/inventory-items/{inventoryItemId}/kit`: the item must be in a kit. */
export async function itemKitSetup(ctx: FixtureContext, path: string): Promise<void> {
  const [, itemId] = path.match(/\/inventory-items\/([^/]+)\/kit$/) ?? [];
  created(await ctx.api("/kits", { body: { name: ctx.unique("Kit"), assetIds: [itemId] } }));
}

/** Kit checkout/check-in/booking need a member. */
export async function kitWithMember(ctx: FixtureContext, path: string): Promise<void> {
  const [, kitId] = path.match(/\/kits\/([^/]+)\//) ?? [];
  const item = created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Kit item") } }));
  const res = await ctx.api(`/kits/${kitId}/members`, { body: { assetIds: [item] } });
  if (res.status !== 200) throw new Error(`adding a kit member answered ${res.status}`);
}

const spareItems = new Map<string, string>();
/** `POST /kits/{kitId}/members`: a fresh item for the sample body. */
export async function spareItemSetup(ctx: FixtureContext): Promise<void> {
  spareItems.set(ctx.tenant.id, created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Spare") } })));
}
export const spareItemBody = (ctx: FixtureContext) => ({ assetIds: [spareItems.get(ctx.tenant.id)] });

/** A calendar feed of the owner's; `file` is the feed's URL file name (`ical_<secret>.ics`). */
export const calendarFeed = async (ctx: FixtureContext): Promise<string> =>
  created(await ctx.api("/calendar-feeds", { body: {} }));
export async function calendarFeedFile(ctx: FixtureContext): Promise<string> {
  const res = await ctx.api<{ url: string }>("/calendar-feeds", { body: {} });
  created(res);
  return res.body.url.split("/calendar/")[1]!;
}
