import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { ObjectUpload } from "../../src/modules/files";
import { loginOwner } from "../harness/auth";
import { workerFetch } from "../harness/contract";
import { fileBytes } from "../harness/files";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";

async function upload(t: TestTenant, jwt: string, kind: "png" | "pdf"): Promise<string> {
  const contentType = kind === "png" ? "image/png" : "application/pdf";
  const res = await api<ObjectUpload>(t, "/objects", { auth: { jwt }, body: { contentType, size: 64 } });
  expect(res.status).toBe(201);
  const put = await workerFetch(new Request(res.body.uploadUrl, { method: "PUT", body: fileBytes(kind, 64) }));
  expect(put.status).toBe(201);
  return res.body.objectKey;
}

describe("asset images", () => {
  it("references an image uploaded through POST /objects, and refuses anything else", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const jwt = await loginOwner(t);
    const image = await upload(t, jwt, "png");
    const created = await api<InventoryItem>(t, "/inventory-items", { body: { name: "Camera", imageKey: image } });
    expect(created.status).toBe(201);
    expect(created.body.imageKey).toBe(image);

    const pdf = await upload(t, jwt, "pdf");
    const notImage = await api<Failure>(t, `/inventory-items/${created.body.id}`, {
      method: "PATCH",
      body: { imageKey: pdf },
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body.details[0]!.path).toBe("body.imageKey");

    const neverUploaded = await api(t, "/inventory-items", {
      body: { name: "Ghost", imageKey: `tenants/${t.id}/uploads/obj_01jd3k4m5n6p7q8r9s0t1v2w3x` },
    });
    expect(neverUploaded.status).toBe(400);

    // Another workspace cannot point at this workspace's upload, even knowing the key.
    const foreign = await api(other, "/inventory-items", { body: { name: "Thief", imageKey: image } });
    expect(foreign.status).toBe(400);

    const cleared = await api<InventoryItem>(t, `/inventory-items/${created.body.id}`, {
      method: "PATCH",
      body: { imageKey: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.imageKey).toBeNull();
  });
});
