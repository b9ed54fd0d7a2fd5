import { describe, expect, it } from "vitest";
import { newAsset } from "../harness/bookings-helpers";
import { workerFetch } from "../harness/contract";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";

async function print(t: TestTenant, body: unknown) {
  const res = await workerFetch(
    new Request(`${t.base}/labels/print`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("label templates and printing", () => {
  it("lists the defaults, creates a template (409 on its name), prints PDF, PNG and ZPL", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Printer");
    const list = await api<{ items: { id: string; builtIn: boolean }[] }>(t, "/label-templates");
    expect(list.body.items.filter((i) => i.builtIn).map((i) => i.id)).toEqual([
      "default-avery5160",
      "default-l7160",
      "default-l7651",
      "default-roll62",
      "default-roll62-code128",
    ]);
    const made = await api<{ id: string; spec: { fit: string; dpi: number } }>(t, "/label-templates", {
      body: { name: "Shelf", spec: { stock: "l7651", symbology: "datamatrix" } },
    });
    expect(made.status).toBe(201);
    expect(made.body.spec).toMatchObject({ fit: "wrap", dpi: 300 });
    expect((await api(t, "/label-templates", { body: { name: "shelf", spec: { stock: "roll" } } })).status).toBe(409);
    const pdf = await print(t, { templateId: made.body.id, assetIds: [a.id], startPosition: 7 });
    expect(pdf.status, new TextDecoder().decode(pdf.bytes).slice(0, 300)).toBe(200);
    expect(new TextDecoder().decode(pdf.bytes.slice(0, 5))).toBe("%PDF-");
    const png = await print(t, { templateId: "default-roll62", format: "png", assetIds: [a.id] });
    expect(png.type).toBe("image/png");
    expect([...png.bytes.slice(1, 4)]).toEqual([80, 78, 71]);
    const zpl = await print(t, { templateId: made.body.id, format: "zpl", assetIds: [a.id, a.id] });
    expect(new TextDecoder().decode(zpl.bytes).match(/\^XA/g)).toHaveLength(2);
    expect((await api(t, `/label-templates/${made.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, "/label-templates/default-roll62", { method: "DELETE" })).status).toBe(409);
  });

  it("refuses what cannot be printed with a 400 that says why", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Printer");
    const ean = await api<{ id: string }>(t, "/label-templates", {
      body: { name: "EAN", spec: { stock: "roll", symbology: "ean13" } },
    });
    const noEan = await api<Failure>(t, "/labels/print", { body: { templateId: ean.body.id, assetIds: [a.id] } });
    expect(noEan.status).toBe(400);
    expect(noEan.body.message).toContain("has no ean13 code");
    const two = await api<Failure>(t, "/labels/print", {
      body: { templateId: "default-roll62", format: "png", assetIds: [a.id, a.id] },
    });
    expect(two.status).toBe(400);
    expect((await api(t, "/labels/print", { body: { templateId: "nope", assetIds: [a.id] } })).status).toBe(404);
    expect((await api(t, "/labels/print", { body: { templateId: "default-roll62" } })).status).toBe(400);
    const badSpec = await api<Failure>(t, "/label-templates", {
      body: { name: "x", spec: { stock: "a4", fields: ["colour"] } },
    });
    expect(badSpec.status).toBe(400);
  });
});
