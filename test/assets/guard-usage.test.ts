import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assetTimeline } from "../../src/db/tenant/assets";
import { countLiveAssetsUsing } from "../../src/domain/catalog";
import { timelineRow } from "../../src/modules/assets/write";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import { batchGuard, guardFailed } from "../../src/platform/d1-write";
import { createAsset } from "../harness/assets-helpers";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("batch guard", () => {
  it("rolls the whole batch back when its condition is false, and names itself", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const entry = () =>
      db
        .insert(assetTimeline)
        .values(timelineRow({ assetId: "ast_x", type: "CREATED", actor: "usr_test", at: new Date().toISOString() }));
    await db.batch([batchGuard(db, "yes", sql`1 = ${1}`), entry()]);
    const err = await db.batch([entry(), batchGuard(db, "no", sql`1 = ${2}`), entry()]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(guardFailed(err, "no")).toBe(true);
    expect(guardFailed(err, "yes")).toBe(false);
    expect((await db.select({ n: count() }).from(assetTimeline).get())?.n).toBe(1);
  });
});

describe("countLiveAssetsUsing", () => {
  it("counts live assets of a category or location, not deleted ones", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const cat = (await api<Category>(t, "/categories", { body: { name: "Tablets" } })).body.id;
    const loc = (await api<Location>(t, "/locations", { body: { name: "Depot" } })).body.id;
    await createAsset(t, { categoryId: cat });
    await createAsset(t, { categoryId: cat, locationId: loc });
    const gone = await createAsset(t, { locationId: loc });
    await api(t, `/inventory-items/${gone.id}`, { method: "DELETE" });
    expect(await countLiveAssetsUsing(db, { categoryId: cat })).toBe(2);
    expect(await countLiveAssetsUsing(db, { locationId: loc })).toBe(1);
    expect(await countLiveAssetsUsing(db, { categoryId: "cat_none" })).toBe(0);
  });
});
