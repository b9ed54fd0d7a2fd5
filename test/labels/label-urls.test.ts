import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import type { StockItem } from "../../src/modules/stock";
import { makeLocation } from "../harness/locations";
import { requester } from "../harness/requests-helpers";
import { newStockItem } from "../harness/stock-helpers";
import { api, createTenant } from "../harness/tenant";

/** What a label SVG's QR code says: its runs (`M x y h w v1 h-w z`) drawn 4 px a module, read by jsQR. */
function readSvg(svg: string): string | null {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const scale = 4;
  const w = size * scale;
  const px = new Uint8ClampedArray(w * w * 4).fill(255);
  for (const [, x, y, run] of svg.matchAll(/M(\d+) (\d+)h(\d+)/g))
    for (let dy = 0; dy < scale; dy++)
      for (let xx = Number(x) * scale; xx < (Number(x) + Number(run)) * scale; xx++)
        px.fill(0, ((Number(y) * scale + dy) * w + xx) * 4, ((Number(y) * scale + dy) * w + xx) * 4 + 3);
  return jsQR(px, w, w)?.data ?? null;
}

describe("every kind of label encodes a page of the field app", () => {
  it("stock items, kits and locations have QR codes of /s/<tag>, /k/<id> and /l/<id>; unknown or deleted ones are 404", async () => {
    const t = await createTenant();
    const origin = new URL(t.base).origin;
    const item = await newStockItem(t, { tag: "STK-Odd Tag" });
    const kit = (await api<{ id: string }>(t, "/kits", { body: { name: "Camera kit" } })).body;
    const room = await makeLocation(t, "Room 7");
    for (const [path, url] of [
      [`/stock-items/${item.id}/qr.svg`, `${origin}/s/STK-Odd%20Tag`],
      [`/kits/${kit.id}/qr.svg`, `${origin}/k/${kit.id}`],
      [`/locations/${room.id}/qr.svg`, `${origin}/l/${room.id}`],
    ] as const) {
      const res = await api<string>(t, path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      expect(readSvg(res.body), path).toBe(url);
    }
    for (const path of [
      "/stock-items/stk_01jd3k4m5n6p7q8r9s0t1v2w3x/qr.svg",
      "/kits/kit_01jd3k4m5n6p7q8r9s0t1v2w3x/qr.svg",
      "/locations/loc_01jd3k4m5n6p7q8r9s0t1v2w3x/qr.svg",
    ])
      expect((await api(t, path)).status, path).toBe(404);
    expect((await api(t, `/stock-items/${item.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/stock-items/${item.id}/qr.svg`)).status).toBe(404);
  });

  it("a stock item is found by its label's tag, case-insensitively; a deleted one and a requester's non-requestable one are 404", async () => {
    const t = await createTenant();
    const item = await newStockItem(t, { tag: "STK-ABC123" });
    const found = await api<StockItem>(t, "/stock-items/tag/stk-abc123");
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: item.id, tag: "STK-ABC123" });
    const odd = await newStockItem(t, { tag: "shelf/7 #2" });
    const byOdd = await api<StockItem>(t, `/stock-items/tag/${encodeURIComponent("shelf/7 #2")}`);
    expect(byOdd.status).toBe(200);
    expect(byOdd.body.id).toBe(odd.id);
    expect((await api(t, "/stock-items/tag/STK-NONE")).status).toBe(404);
    const rae = await requester(t);
    expect((await api(t, "/stock-items/tag/STK-ABC123", { auth: { jwt: rae.jwt } })).status).toBe(404);
    expect((await api(t, `/stock-items/${item.id}`, { method: "PATCH", body: { requestable: true } })).status).toBe(
      200,
    );
    expect((await api(t, "/stock-items/tag/STK-ABC123", { auth: { jwt: rae.jwt } })).status).toBe(200);
    expect((await api(t, `/stock-items/${item.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, "/stock-items/tag/STK-ABC123")).status).toBe(404);
  });
});
