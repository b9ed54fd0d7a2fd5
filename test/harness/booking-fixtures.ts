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
