import type { ImportJob } from "../../src/modules/data-transfer";
import type { FixtureContext } from "./fixtures";

/** Security-suite fixture of the imports module: a (small, finished) people import of the workspace. */
export async function importJob(ctx: FixtureContext): Promise<string> {
  const res = await ctx.api<Partial<ImportJob>>("/imports/people", {
    body: `name\r\n${ctx.unique("Imported")}\r\n`,
    headers: { "content-type": "text/csv" },
  });
  if (res.status !== 202 || typeof res.body?.id !== "string")
    throw new Error(`import fixture answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}
