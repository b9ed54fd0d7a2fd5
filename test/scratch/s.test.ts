import { it, expect } from "vitest";
import { fileBytes, send } from "../harness/files";
import { userJwt } from "../harness/principals";
import { api, createTenant } from "../harness/tenant";
const stream = (size: number) =>
  new ReadableStream<Uint8Array>({
    start(ctl) {
      const bytes = fileBytes("png", size);
      for (let i = 0; i < size; i += 100) ctl.enqueue(bytes.slice(i, i + 100));
      ctl.close();
    },
  });
it("x", async () => {
  const t = await createTenant();
  const up = (await api(t, "/objects", { body: { contentType: "image/png", size: 1000 }, auth: { jwt: await userJwt(t) } })).body;
  console.log("A");
  expect((await send(up.uploadUrl, { method: "PUT", body: stream(500) })).status).toBe(400);
  await new Promise((r) => setTimeout(r, 500));
  console.log("B");
  expect((await send(up.uploadUrl, { method: "PUT", body: fileBytes("png", 999) })).status).toBe(400);
  await new Promise((r) => setTimeout(r, 500));
  console.log("C");
});
