import { and, asc, eq, isNull } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { locations } from "../../db/tenant/catalog";
import { codes, labelTemplates, type Symbology } from "../../db/tenant/labels";
import { stockItems } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { inJson } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { checkLogo, loadLogo } from "./logo";
import type { PrintLabel } from "./print-data";
import { renderPdf } from "./render-pdf";
import { rasterLabel, toPng, toZpl } from "./render-raster";
import { normaliseCodeValue } from "./symbols";
import { DEFAULT_TEMPLATES, type Spec, TemplateSpec } from "./templates";

export const MAX_PRINT = 1000;

export async function listTemplates({ db }: ServiceCtx) {
  const own = await db.select().from(labelTemplates).orderBy(asc(labelTemplates.id)).all();
  return {
    items: [
      ...DEFAULT_TEMPLATES.map((t) => ({ ...t, builtIn: true })),
      ...own.map((r) => ({ id: r.id, name: r.name, builtIn: false, spec: TemplateSpec.parse(r.spec) })),
    ],
  };
}

export async function getTemplate(db: TenantDb, id: string) {
  const builtIn = DEFAULT_TEMPLATES.find((t) => t.id === id);
  if (builtIn) return { ...builtIn, builtIn: true };
  const row = await db.select().from(labelTemplates).where(eq(labelTemplates.id, id)).get();
  if (!row) throw notFound("Label template");
  return { id: row.id, name: row.name, builtIn: false, spec: TemplateSpec.parse(row.spec) };
}

export async function createTemplate(ctx: ServiceCtx, input: { name: string; spec: Spec }) {
  // A logo that is not this workspace's upload, or no PNG it can read, is refused now, not at print time.
  if (input.spec.logoKey) await checkLogo(ctx, input.spec.logoKey);
  const at = nowIso();
  const row = {
    id: newId("labelTemplate"),
    name: input.name,
    spec: input.spec as Record<string, unknown>,
    createdAt: at,
    updatedAt: at,
  };
  const out = { id: row.id, name: row.name, builtIn: false, spec: input.spec };
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [ctx.db.insert(labelTemplates).values(row)],
      audits: [
        { entityType: "label_template", entityId: row.id, action: "create", actor: ctx.actor, at, after: { ...row } },
      ],
    }),
    () => conflict(`A label template named '${input.name}' already exists`),
  );
  return out;
}

export async function deleteTemplate(ctx: ServiceCtx, id: string) {
  if (DEFAULT_TEMPLATES.some((t) => t.id === id)) throw conflict("A default template cannot be deleted");
  await getTemplate(ctx.db, id);
  const at = nowIso();
  await commitWrite(
    ctx,
    joinWrites(
      { writes: [ctx.db.delete(labelTemplates).where(eq(labelTemplates.id, id))] },
      { audits: [{ entityType: "label_template", entityId: id, action: "delete", actor: ctx.actor, at, fields: [] }] },
    ),
  );
}

export interface PrintInput {
  templateId: string;
  format: "pdf" | "png" | "zpl";
  startPosition?: number;
  assetIds?: string[];
  stockItemIds?: string[];
  codeIds?: string[];
}

const assetUrl = (origin: string, value: string) => `${origin}/a/${encodeURIComponent(value)}`;

/** The value a code of `symbology` encodes for a thing: QR its URL, else its own code of that symbology, else its tag. */
function encodedFor(
  symbology: Symbology,
  origin: string,
  tag: string,
  own: string | undefined,
  path: string,
  name: string,
) {
  if (symbology === "qr") return assetUrl(origin, own ?? tag);
  if (own) return own;
  try {
    return normaliseCodeValue(symbology, tag, path);
  } catch {
    throw invalidField(
      path,
      `'${name}' has no ${symbology} code and its tag '${tag}' cannot be printed as one; attach one first`,
    );
  }
}

function textsFor(
  spec: Spec,
  v: {
    name: string;
    tag: string;
    code: string;
    serial?: string | null;
    location?: string | null;
    custom?: Record<string, unknown>;
    workspace: string;
  },
) {
  return spec.fields.map((f) => {
    if (f.startsWith("custom:")) {
      const value = v.custom?.[f.slice(7)];
      return value === undefined || value === null ? "" : String(value);
    }
    return (
      {
        name: v.name,
        tag: v.tag,
        code: v.code,
        serial: v.serial ?? "",
        location: v.location ?? "",
        workspace: v.workspace,
      }[f as "name"] ?? ""
    );
  });
}

async function gather(
  db: TenantDb,
  origin: string,
  workspace: string,
  spec: Spec,
  input: PrintInput,
): Promise<PrintLabel[]> {
  const given = [input.assetIds, input.stockItemIds, input.codeIds].filter(Boolean);
  if (given.length !== 1) throw invalidField("body", "pass exactly one of assetIds, stockItemIds and codeIds");
  const ids = given[0]!;
  const order = (rows: { id: string }[], path: string) => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) throw invalidField(path, `unknown or deleted: ${missing.slice(0, 20).join(", ")}`);
    return ids.map((id) => byId.get(id)!);
  };
  if (input.codeIds) {
    const rows = order(
      await db
        .select()
        .from(codes)
        .where(and(inJson(codes.id, ids), eq(codes.status, "reserved")))
        .all(),
      "body.codeIds",
    );
    return rows.map((r) => {
      const row = r as typeof codes.$inferSelect;
      if (spec.symbology !== "qr" && row.symbology !== spec.symbology)
        throw invalidField(
          "body.codeIds",
          `'${row.value}' is a ${row.symbology} code: print it with a ${row.symbology} or QR template`,
        );
      const encoded = spec.symbology === "qr" ? assetUrl(origin, row.value) : row.value;
      return { encoded, texts: textsFor(spec, { name: "", tag: row.value, code: row.value, workspace }) };
    });
  }
  const own = async (kind: "asset" | "stockItem") =>
    new Map(
      (
        await db
          .select({ holderId: codes.holderId, value: codes.value })
          .from(codes)
          .where(
            and(
              eq(codes.holderKind, kind),
              eq(codes.status, "active"),
              eq(codes.symbology, spec.symbology),
              inJson(codes.holderId, ids),
            ),
          )
          .all()
      ).map((r) => [r.holderId!, r.value]),
    );
  if (input.stockItemIds) {
    const rows = order(
      await db
        .select({ id: stockItems.id, name: stockItems.name, tag: stockItems.tag })
        .from(stockItems)
        .where(and(isNull(stockItems.deletedAt), inJson(stockItems.id, ids)))
        .all(),
      "body.stockItemIds",
    ) as { id: string; name: string; tag: string }[];
    const mine = await own("stockItem");
    return rows.map((r) => {
      const encoded =
        spec.symbology === "qr"
          ? `${origin}/s/${encodeURIComponent(r.tag)}`
          : encodedFor(spec.symbology, origin, r.tag, mine.get(r.id), "body.stockItemIds", r.name);
      return { encoded, texts: textsFor(spec, { name: r.name, tag: r.tag, code: encoded, workspace }) };
    });
  }
  const rows = order(
    await db
      .select({
        id: assets.id,
        name: assets.name,
        tag: assets.uniqueTag,
        serial: assets.serialNumber,
        location: locations.name,
        custom: assets.customFields,
      })
      .from(assets)
      .leftJoin(locations, eq(locations.id, assets.locationId))
      .where(and(isNull(assets.deletedAt), inJson(assets.id, ids)))
      .all(),
    "body.assetIds",
  ) as {
    id: string;
    name: string;
    tag: string;
    serial: string | null;
    location: string | null;
    custom: Record<string, unknown>;
  }[];
  const mine = await own("asset");
  return rows.map((r) => {
    const encoded = encodedFor(spec.symbology, origin, r.tag, mine.get(r.id), "body.assetIds", r.name);
    return { encoded, texts: textsFor(spec, { ...r, code: encoded, workspace }) };
  });
}

/** Renders labels for things (or reserved codes) with a template: PDF, PNG (one label) or ZPL. */
export async function printLabels(ctx: ServiceCtx, origin: string, workspace: string, input: PrintInput) {
  const tpl = await getTemplate(ctx.db, input.templateId);
  const labels = await gather(ctx.db, origin, workspace, tpl.spec, input);
  if (input.format === "png" && labels.length !== 1)
    throw invalidField("body", "a PNG holds one label: pass one id (PDF and ZPL take many)");
  const logo = tpl.spec.logoKey ? await loadLogo(ctx, tpl.spec.logoKey) : null;
  if (input.format === "png")
    return { type: "image/png", ext: "png", bytes: await toPng(rasterLabel(labels[0]!, tpl.spec, logo), tpl.spec.dpi) };
  if (input.format === "zpl")
    return {
      type: "application/zpl",
      ext: "zpl",
      bytes: new TextEncoder().encode(toZpl(labels.map((l) => rasterLabel(l, tpl.spec, logo)))),
    };
  const stock = tpl.spec.stock === "roll" ? 1 : undefined;
  return {
    type: "application/pdf",
    ext: "pdf",
    bytes: await renderPdf(labels, tpl.spec, stock ?? input.startPosition ?? 1, logo),
  };
}

/** A PNG of the template with sample text, or with the first asset's when the workspace has one. */
export async function previewTemplate(ctx: ServiceCtx, origin: string, workspace: string, id: string) {
  const tpl = await getTemplate(ctx.db, id);
  const first = await ctx.db
    .select({ id: assets.id })
    .from(assets)
    .where(isNull(assets.deletedAt))
    .orderBy(asc(assets.id))
    .limit(1)
    .get();
  let label: PrintLabel;
  try {
    label = first
      ? (await gather(ctx.db, origin, workspace, tpl.spec, { templateId: id, format: "png", assetIds: [first.id] }))[0]!
      : sample(tpl.spec, origin, workspace);
  } catch {
    label = sample(tpl.spec, origin, workspace);
  }
  const logo = tpl.spec.logoKey ? await loadLogo(ctx, tpl.spec.logoKey) : null;
  return toPng(rasterLabel(label, tpl.spec, logo), tpl.spec.dpi);
}

function sample(spec: Spec, origin: string, workspace: string): PrintLabel {
  const value = { ean13: "4006381333931", upca: "036000291452" }[spec.symbology as "ean13"] ?? "AST-00042";
  const encoded = spec.symbology === "qr" ? assetUrl(origin, value) : value;
  return {
    encoded,
    texts: textsFor(spec, {
      name: "Sample laptop with a long name",
      tag: value,
      code: encoded,
      serial: "SN-123456",
      location: "Head office",
      workspace,
    }),
  };
}
