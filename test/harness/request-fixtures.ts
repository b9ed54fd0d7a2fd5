import { created, type FixtureContext } from "./fixtures";

/**
 * Security-suite fixture of the requests module: an open request of the workspace's
 * owner (whose person, matched by email, is created once) for a fresh requestable asset.
 */
export async function openRequest(ctx: FixtureContext): Promise<string> {
  // 409 when the owner's person exists already (a live email is unique): either way it exists.
  await ctx.api("/people", { body: { name: ctx.unique("Owner"), email: ctx.tenant.owner.email } });
  const asset = created(await ctx.api("/inventory-items", { body: { name: ctx.unique("Asset"), requestable: true } }));
  return created(await ctx.api("/requests", { body: { assetId: asset, note: "fixture" } }));
}
