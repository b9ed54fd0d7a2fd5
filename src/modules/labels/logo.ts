import UPNG from "@pdf-lib/upng";
import type { ServiceCtx } from "../../http/service-context";
import { invalidField } from "../../platform/errors";
import { assertTenantObject } from "../files";
import type { Box } from "./layout";
import { mm } from "./templates";

/**
 * The workspace's logo on its labels (docs/labels.md "Templates"): a PNG uploaded through
 * POST /objects (kept in R2), named by the template's `logoKey`. PNG only: the PDF embeds it as
 * it is, and the printer formats (PNG, ZPL) need its pixels, which a PNG decoder gives without a
 * JPEG codec in the Worker.
 */
export interface Logo {
  png: Uint8Array;
  w: number;
  h: number;
  /** Grey pixels, one byte each (0 black, 255 white), transparency laid on white paper. */
  grey: Uint8Array;
}

const FIELD = "body.spec.logoKey";

/** At template creation: the key is an uploaded PNG of this workspace that decodes. */
export async function checkLogo(ctx: ServiceCtx, key: string): Promise<void> {
  if (!ctx.files) throw new Error("checkLogo needs the R2 binding in the service context");
  const head = await assertTenantObject({ FILES: ctx.files }, ctx.tenantId, key, { field: FIELD, imageOnly: true });
  if (head.contentType !== "image/png")
    throw invalidField(FIELD, `the logo is ${head.contentType}; labels take a PNG logo (convert it and upload again)`);
  await loadLogo(ctx, key);
}

/** The logo's bytes from R2, decoded; a 400 when it is gone or is no PNG it can read. */
export async function loadLogo(ctx: ServiceCtx, key: string): Promise<Logo> {
  const object = await ctx.files?.get(key);
  if (!object)
    throw invalidField(FIELD, "the template's logo is no longer stored: upload it again and update the template");
  const png = new Uint8Array(await object.arrayBuffer());
  try {
    const img = UPNG.decode(png.slice().buffer);
    const rgba = new Uint8Array(UPNG.toRGBA8(img)[0]!);
    const grey = new Uint8Array(img.width * img.height);
    for (let i = 0; i < grey.length; i++) {
      const [r, g, b, a] = [rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!, rgba[i * 4 + 3]!];
      const lum = 0.299 * r + 0.587 * g + 0.114 * b;
      grey[i] = Math.round((lum * a + 255 * (255 - a)) / 255);
    }
    return { png, w: img.width, h: img.height, grey };
  } catch {
    throw invalidField(FIELD, "the logo is not a PNG this service can read");
  }
}

/**
 * Room for the logo at the top of the text box: as large as fits a band of at most 40% of the box's
 * height (and 10 mm), its aspect kept, at the left; the text gets the rest below it. Nothing of
 * either leaves the box it had.
 */
export function placeLogo(text: Box, logo: { w: number; h: number }): { logo: Box | null; text: Box } {
  const band = Math.min(text.h * 0.4, mm(10));
  const scale = Math.min(band / logo.h, text.w / logo.w);
  if (!(scale > 0) || logo.h * scale < mm(1)) return { logo: null, text };
  const w = logo.w * scale;
  const h = logo.h * scale;
  const gap = Math.min(mm(0.5), text.h - h);
  return {
    logo: { x: text.x, y: text.y, w, h },
    text: { x: text.x, y: text.y + h + gap, w: text.w, h: Math.max(0, text.h - h - gap) },
  };
}
