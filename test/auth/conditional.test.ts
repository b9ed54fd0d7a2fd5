import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invites, refreshTokens } from "../../src/db/tenant/users";
import { insertIfChanged } from "../../src/platform/d1-write";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** The batch mechanism single-use tokens rely on, checked against real local D1. */
describe("insertIfChanged in a D1 batch", () => {
  it("inserts only when the previous statement changed a row", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const now = new Date().toISOString();
    const row = (id: string) => ({
      id,
      userId: t.owner.id,
      tokenHash: `hash-${id}`,
      expiresAt: now,
      revokedAt: null,
      createdAt: now,
    });

    const [miss] = await db.batch([
      db.update(invites).set({ acceptedAt: now }).where(eq(invites.id, "inv_none")),
      insertIfChanged(db, refreshTokens, row("rtk_a")),
    ]);
    expect(miss.meta.changes).toBe(0);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.id, "rtk_a")).get()).toBeUndefined();

    await db.insert(refreshTokens).values(row("rtk_seed")).run();
    await db.batch([
      db.update(refreshTokens).set({ revokedAt: now }).where(eq(refreshTokens.id, "rtk_seed")),
      insertIfChanged(db, refreshTokens, row("rtk_b")),
      insertIfChanged(db, refreshTokens, row("rtk_c")), // chained: runs because rtk_b was inserted
    ]);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.id, "rtk_b")).get()).toMatchObject({
      tokenHash: "hash-rtk_b",
      revokedAt: null,
    });
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.id, "rtk_c")).get()).toBeDefined();
  });
});
