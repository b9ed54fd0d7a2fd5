import type { FixtureContext } from "./fixtures";

// Fixtures for the codes, label templates and SCIM admin routes (docs/labels.md, docs/scim.md).

async function newAsset(ctx: FixtureContext): Promise<string> {
  const res = await ctx.api<{ id: string }>("/inventory-items", { body: { name: ctx.unique("Coded") } });
  if (res.status !== 201) throw new Error(`fixture asset answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** For each reserved value handed out, an asset of the same workspace to claim it for. */
const claimTarget = new Map<string, string>();

export const codeId = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ id: string }>("/codes", {
    body: { value: ctx.unique("CODE-"), symbology: "code128", holder: { kind: "asset", id: await newAsset(ctx) } },
  });
  if (res.status !== 201) throw new Error(`fixture code answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
};

/** A reserved (unclaimed) code's value: looked up, or claimed. */
export const codeValue = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ values: string[] }>("/tag-batches", {
    body: { name: ctx.unique("Batch"), symbology: "code128", values: [ctx.unique("RES-")] },
  });
  if (res.status !== 201) throw new Error(`fixture batch answered ${res.status}: ${JSON.stringify(res.body)}`);
  const value = res.body.values[0]!;
  claimTarget.set(value, await newAsset(ctx));
  return value;
};

export const templateId = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ id: string }>("/label-templates", {
    body: { name: ctx.unique("Template"), spec: { stock: "l7651", symbology: "qr" } },
  });
  if (res.status !== 201) throw new Error(`fixture template answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
};

const scimTokenId = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ id: string }>("/scim-tokens", { body: { name: ctx.unique("IdP") } });
  if (res.status !== 201) throw new Error(`fixture SCIM token answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
};

const scimGroupMappingId = async (ctx: FixtureContext) => {
  const res = await ctx.api<{ id: string }>("/scim-group-mappings", {
    body: { groupName: ctx.unique("Group"), role: "member" },
  });
  if (res.status !== 201) throw new Error(`fixture mapping answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
};

export const LABEL_FIXTURES = {
  codeId,
  "lookup.value": codeValue,
  templateId,
  "scim-tokens.id": scimTokenId,
  "scim-group-mappings.id": scimGroupMappingId,
};

export const LABEL_SAMPLES = {
  claimCode: (ctx: FixtureContext) => ({
    holder: { kind: "asset", id: claimTarget.get(ctx.params.value ?? "") ?? "" },
  }),
};
