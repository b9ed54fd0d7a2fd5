import { describe, expect, it } from "vitest";
import type { LicenceLot } from "../../src/modules/licences";
import { adminApi, adminSignIn } from "../harness/admin";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { api, createTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

type Revealed = { items: { id: string; key: string; label: string | null }[] };

describe("licence product keys", () => {
  it("are stored sealed: a planted key is in no table row, event, export, list or idempotency record, and only admins read it", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const admin = await createUser(t, "admin");
    const member = await createUser(t, "member");
    const product = await newProduct(t);
    const lot = await newLot(t, product.id);
    const planted = `PLANTED-${crypto.randomUUID()}`;

    const added = await api(t, `/licence-lots/${lot.id}/keys`, {
      body: { key: planted, label: "Volume key" },
      headers: { "idempotency-key": "key-add-1" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(JSON.stringify(added.body)).not.toContain(planted);
    // A replay answers from the idempotency record: still no key.
    const replay = await api(t, `/licence-lots/${lot.id}/keys`, {
      body: { key: planted, label: "Volume key" },
      headers: { "idempotency-key": "key-add-1" },
    });
    expect(replay.status).toBe(201);
    expect(JSON.stringify(replay.body)).not.toContain(planted);
    await api(t, `/licence-lots/${lot.id}/keys`, { body: { key: `${planted}-2` } });
    // Touch the lot and its seats so events and audits about it exist.
    await api(t, `/licence-lots/${lot.id}`, { method: "PATCH", body: { supplier: "Reseller" } });
    expect((await assign(t, lot.id, { personId: (await seedPerson(t)).id })).status).toBe(201);

    const got = await api<LicenceLot>(t, `/licence-lots/${lot.id}`);
    expect(got.body.keyCount).toBe(2);
    const reads = [
      got,
      await api(t, "/licence-lots"),
      await api(t, `/licence-lots?updatedSince=2000-01-01`),
      await api(t, "/licence-products"),
      await api(t, `/licence-renewals?days=3650`),
      await api(t, "/licence-reports/compliance"),
      await api(t, "/exports/licence-products"),
      await api(t, "/exports/licence-lots"),
      await api(t, "/exports/licence-seats"),
    ];
    for (const r of reads) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toContain(planted);
    }
    // The lot export says how many keys a lot has, never what they are.
    const csv = String(reads.at(-2)!.body);
    expect(csv.split("\r\n")[0]).toContain("keyCount");
    expect(csv).toContain(`${lot.id},${product.id},per_user,2,1,100,EUR`);

    // Only admins (with a JWT) read the keys: API keys and members are refused.
    expect((await api(t, `/licence-lots/${lot.id}/keys`)).status).toBe(403);
    expect((await api(t, `/licence-lots/${lot.id}/keys`, { auth: { jwt: member.jwt } })).status).toBe(403);
    const revealed = await api<Revealed>(t, `/licence-lots/${lot.id}/keys`, { auth: { jwt: admin.jwt } });
    expect(revealed.status).toBe(200);
    expect(revealed.body.items.map((k) => k.key)).toEqual([planted, `${planted}-2`]);

    // The platform admin's export of the workspace: the key rows are there, their secrets not.
    const exported = await adminApi<{ tables: Record<string, unknown[]> }>(
      await adminSignIn(),
      `/admin/tenants/${t.id}/export`,
    );
    expect(exported.status).toBe(200);
    expect(exported.body.tables.licence_keys).toHaveLength(2);
    expect(JSON.stringify(exported.body)).not.toContain(planted);

    // Every stored row of every table of the workspace, events and idempotency records included.
    const raw = await rawDbOf(t);
    const tables = await raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .all<{ name: string }>();
    expect(tables.results.map((r) => r.name)).toEqual(
      expect.arrayContaining(["licence_keys", "outbox", "idempotency_keys", "audit_log"]),
    );
    for (const { name } of tables.results) {
      const rows = await raw.prepare(`SELECT * FROM "${name}"`).all();
      const text = JSON.stringify(rows.results);
      expect(text.includes(planted), `table ${name} holds the key in plain text`).toBe(false);
    }
    const events = await outboxRows(t);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(planted);
  });
});
