import { created, type FixtureContext } from "./fixtures";

/** Security-suite fixture of the offboarding module: an open case of a fresh person. */
export async function openCase(ctx: FixtureContext): Promise<string> {
  const personId = created(await ctx.api("/people", { body: { name: ctx.unique("Leaver") } }));
  return created(await ctx.api("/offboarding-cases", { body: { personId } }));
}
