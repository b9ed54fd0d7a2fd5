import { it } from "vitest";
import { call } from "../harness/tenant";
it("doc", async () => {
  const r = await call("https://x.inventory.test/api/v1/openapi.json", { auth: null });
  const p = r.body.paths["/trash"];
  console.log(JSON.stringify(p.get.parameters), JSON.stringify(r.body.paths["/trash/restore"].post.requestBody), JSON.stringify(r.body.components.schemas.TrashItems), JSON.stringify(r.body.components.schemas.TrashResult));
});
