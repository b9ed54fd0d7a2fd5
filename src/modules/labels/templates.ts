import { z } from "@hono/zod-openapi";
import { SYMBOLOGIES } from "../../db/tenant/labels";
import { nameField } from "../../platform/schemas";

/** Points (1/72 in). */
export const mm = (v: number) => (v * 72) / 25.4;

/** A sheet: its page, its grid of labels and their offsets, in points. */
export interface Stock {
  page: [number, number];
  cols: number;
  rows: number;
  w: number;
  h: number;
  left: number;
  top: number;
  gapX: number;
  gapY: number;
}

/** Sheet presets, from the makers' templates. */
export const SHEETS = {
  // Avery 5160: US Letter, 3 x 10 labels of 2.625" x 1".
  avery5160: { page: [612, 792], cols: 3, rows: 10, w: 189, h: 72, left: 13.5, top: 36, gapX: 9, gapY: 0 },
  // Avery L7160: A4, 3 x 7 labels of 63.5 x 38.1 mm.
  l7160: {
    page: [mm(210), mm(297)],
    cols: 3,
    rows: 7,
    w: mm(63.5),
    h: mm(38.1),
    left: mm(7.2),
    top: mm(15.15),
    gapX: mm(2.5),
    gapY: 0,
  },
  // Avery L7651: A4, 5 x 13 labels of 38.1 x 21.2 mm.
  l7651: {
    page: [mm(210), mm(297)],
    cols: 5,
    rows: 13,
    w: mm(38.1),
    h: mm(21.2),
    left: mm(4.7),
    top: mm(10.7),
    gapX: mm(2.5),
    gapY: 0,
  },
} as const satisfies Record<string, Stock>;
export type SheetName = keyof typeof SHEETS;

export const FIELDS = ["name", "tag", "code", "serial", "location", "workspace"] as const;
const field = z.union([
  z.enum(FIELDS),
  z.string().regex(/^custom:[A-Za-z0-9_-]{1,64}$/, "a field name, or custom:<key> of a custom field"),
]);

export const TemplateSpec = z
  .strictObject({
    stock: z.union([z.enum(Object.keys(SHEETS) as [SheetName, ...SheetName[]]), z.literal("roll")]).openapi({
      description:
        "`avery5160` (US Letter 3 x 10), `l7160` (A4 3 x 7), `l7651` (A4 5 x 13), or `roll`: one label per page, `widthMm` x `heightMm`.",
    }),
    widthMm: z
      .number()
      .min(10)
      .max(120)
      .optional()
      .openapi({ description: "Roll width (default 62, a Brother DK-22205)." }),
    heightMm: z.number().min(10).max(300).optional().openapi({ description: "Label length on a roll (default 29)." }),
    symbology: z.enum(SYMBOLOGIES).default("qr"),
    codeSizeMm: z.number().min(5).max(100).optional().openapi({
      description:
        "The code's height (its side for QR and DataMatrix); default: as large as the label allows. Never larger than the label.",
    }),
    fields: z.array(field).max(6).default(["name", "tag"]).openapi({
      description:
        "Text lines, in order: `name`, `tag`, `code` (the encoded value), `serial`, `location`, `workspace`, or `custom:<key>`.",
    }),
    fit: z.enum(["wrap", "shrink", "ellipsis"]).default("wrap").openapi({
      description:
        "`wrap`: words wrap onto the lines the label has, the last ending in `...`; `shrink`: the type shrinks (to 5 pt) until each field fits one line; `ellipsis`: one line each, cut with `...`. Text never leaves its box.",
    }),
    fontSizePt: z.number().min(5).max(24).default(9),
    logoKey: z.string().min(1).max(256).optional().openapi({
      description:
        "The workspace's logo on each label: the `key` of a PNG uploaded through POST /objects (kept in R2). It sits at the top of the text area (at most 40% of its height, 10 mm), the text below it.",
      example: "tenants/ten_01jd3k4m5n6p7q8r9s0t1v2w3x/uploads/obj_01jd3k4m5n6p7q8r9s0t1v2w3x",
    }),
    dpi: z
      .union([z.literal(203), z.literal(300), z.literal(600)])
      .default(300)
      .openapi({
        description: "Dots per inch of PNG and ZPL output (Brother QL: 300; most Zebras: 203).",
      }),
  })
  .openapi("LabelTemplateSpec");
export type TemplateSpecInput = z.input<typeof TemplateSpec>;
export type Spec = z.output<typeof TemplateSpec>;

export function stockOf(spec: Spec): Stock {
  if (spec.stock !== "roll") return SHEETS[spec.stock];
  const w = mm(spec.widthMm ?? 62);
  const h = mm(spec.heightMm ?? 29);
  return { page: [w, h], cols: 1, rows: 1, w, h, left: 0, top: 0, gapX: 0, gapY: 0 };
}

/** The workspace's templates start from these (ids `default-<name>`); a workspace adds its own. */
export const DEFAULT_TEMPLATES: { id: string; name: string; spec: Spec }[] = (
  [
    ["avery5160", "Avery 5160 sheet, QR", { stock: "avery5160" }],
    ["l7160", "Avery L7160 sheet, QR", { stock: "l7160", fields: ["name", "tag", "location"] }],
    ["l7651", "Avery L7651 sheet, DataMatrix", { stock: "l7651", symbology: "datamatrix", fontSizePt: 7 }],
    ["roll62", "62 mm roll (Brother QL), QR", { stock: "roll" }],
    ["roll62-code128", "62 mm roll, Code 128", { stock: "roll", symbology: "code128", fit: "shrink" }],
  ] as const
).map(([id, name, spec]) => ({ id: `default-${id}`, name, spec: TemplateSpec.parse(spec) }));

export const CreateTemplateBody = z
  .strictObject({ name: nameField, spec: TemplateSpec })
  .openapi("CreateLabelTemplate");

export const LabelTemplateSchema = z
  .object({
    id: z.string().openapi({ example: "ltp_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    builtIn: z.boolean().openapi({ description: "A default every workspace has (cannot be deleted)." }),
    spec: TemplateSpec,
  })
  .openapi("LabelTemplate");
