import { describe, expect, it } from "vitest";
import type { Page } from "../../src/platform/pagination";
import { newAsset } from "../harness/bookings-helpers";
import { scan, seedAssets, startSession } from "../harness/sessions";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";

type Code = {
  id: string;
  value: string;
  symbology: string;
  status: string;
  holder: { kind: string; id: string; name: string } | null;
};
type Lookup = {
  matchedBy: string;
  status: string;
  holder: { kind: string; id: string; name: string; tag: string | null } | null;
};

const attach = (t: TestTenant, value: string, symbology: string, holder: { kind: string; id: string }) =>
  api<Code & Failure>(t, "/codes", { body: { value, symbology, holder } });

describe("codes on things", () => {
  it("attaches codes of every symbology; a value is unique whatever its symbology (409 naming the holder)", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Drill 7");
    const b = await newAsset(t, "Saw 2");
    for (const [value, sym] of [
      ["DRILL-7-QR", "qr"],
      ["DM-0007", "datamatrix"],
      ["C128-drill", "code128"],
      ["C39 DRILL", "code39"],
      ["400638133393", "ean13"],
      ["03600029145", "upca"],
    ] as const) {
      const res = await attach(t, value, sym, { kind: "asset", id: a.id });
      expect(res.status, `${sym} ${JSON.stringify(res.body)}`).toBe(201);
    }
    const list = await api<Page<Code>>(t, `/codes?holderKind=asset&holderId=${a.id}`);
    expect(list.body.items.map((c) => c.value)).toContain("4006381333931");
    expect(list.body.items.map((c) => c.value)).toContain("036000291452");

    const dup = await attach(t, "c128-DRILL", "qr", { kind: "asset", id: b.id });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain(`asset 'Drill 7' (${a.id})`);
    const onTag = await attach(t, a.uniqueTag, "code128", { kind: "asset", id: b.id });
    expect(onTag.status).toBe(409);
    expect(onTag.body.message).toContain("is the tag of asset 'Drill 7'");

    const bad39 = await attach(t, "lower", "code39", { kind: "asset", id: b.id });
    expect(bad39.status).toBe(400);
    expect(bad39.body.details[0]!.path).toBe("body.value");
    const badEan = await attach(t, "4006381333932", "ean13", { kind: "asset", id: b.id });
    expect(badEan.status).toBe(400);
    expect(badEan.body.message).toContain("check digit");
    expect((await attach(t, "X1", "qr", { kind: "kit", id: "kit_missing" })).status).toBe(400);
  });

  it("looks a thing up by its tag or any of its codes; a UPC-A read as EAN-13 finds it; unknown is 404", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Camera");
    await attach(t, "03600029145", "upca", { kind: "asset", id: a.id });
    await attach(t, "CAM-DM", "datamatrix", { kind: "asset", id: a.id });
    const byTag = await api<Lookup>(t, `/codes/lookup/${encodeURIComponent(a.uniqueTag.toLowerCase())}`);
    expect(byTag.body).toMatchObject({ matchedBy: "tag", holder: { kind: "asset", id: a.id } });
    for (const v of ["cam-dm", "036000291452", "0036000291452"]) {
      const res = await api<Lookup>(t, `/codes/lookup/${v}`);
      expect(res.status, v).toBe(200);
      expect(res.body).toMatchObject({ matchedBy: "code", status: "active", holder: { kind: "asset", id: a.id } });
    }
    expect((await api(t, "/codes/lookup/NOPE-1")).status).toBe(404);
  });

  it("a session counts an asset scanned by its QR tag and by its Code128 code once", async () => {
    const t = await createTenant();
    const [a, b] = await seedAssets(t, 2);
    await attach(t, "C128-ONCE", "code128", { kind: "asset", id: a!.id });
    const s = await startSession(t);
    const first = await scan(t, s.id, { code: `https://${t.slug}.example.com/a/${a!.uniqueTag}` });
    expect(first.body).toMatchObject({ result: "accepted", item: { id: a!.id } });
    const second = await scan(t, s.id, { code: "C128-ONCE" });
    expect(second.body).toMatchObject({ result: "already_scanned", item: { id: a!.id }, progress: { scanned: 1 } });
    // The other way round: a code first, then the tag.
    await attach(t, "DM-B", "datamatrix", { kind: "asset", id: b!.id });
    expect((await scan(t, s.id, { code: "dm-b" })).body).toMatchObject({ result: "accepted", item: { id: b!.id } });
    expect((await scan(t, s.id, { code: b!.uniqueTag })).body).toMatchObject({
      result: "already_scanned",
      progress: { scanned: 2, total: 2 },
    });
  });
});

describe("tags before assets", () => {
  it("reserves a batch, lists it unclaimed, claims exactly once under a race, and voids", async () => {
    const t = await createTenant();
    const batch = await api<{ id: string; values: string[]; count: number }>(t, "/tag-batches", {
      body: { name: "Spring intake", symbology: "code128", prefix: "PRE-", count: 3, digits: 4 },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.values).toEqual(["PRE-0001", "PRE-0002", "PRE-0003"]);
    const unclaimed = await api<Page<Code>>(t, `/codes?status=reserved&batchId=${batch.body.id}`);
    expect(unclaimed.body.items.map((c) => c.value)).toEqual(batch.body.values);
    const looked = await api<Lookup>(t, "/codes/lookup/pre-0001");
    expect(looked.body).toMatchObject({ matchedBy: "code", status: "reserved", holder: null });

    const [x, y] = [await newAsset(t, "Phone X"), await newAsset(t, "Phone Y")];
    const race = await Promise.all([
      api<Code & Failure>(t, "/codes/lookup/PRE-0001/claim", { body: { holder: { kind: "asset", id: x.id } } }),
      api<Code & Failure>(t, "/codes/lookup/PRE-0001/claim", { body: { holder: { kind: "asset", id: y.id } } }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = race.find((r) => r.status === 200)!.body;
    const lost = race.find((r) => r.status === 409)!.body;
    expect(lost.message).toContain(`'${won.holder!.name}' (${won.holder!.id})`);
    expect((await api<Lookup>(t, "/codes/lookup/PRE-0001")).body.holder!.id).toBe(won.holder!.id);

    const again = await api<Page<Code>>(t, `/codes?status=reserved&batchId=${batch.body.id}`);
    expect(again.body.items.map((c) => c.value)).toEqual(["PRE-0002", "PRE-0003"]);
    const voided = await api<Code>(t, `/codes/${again.body.items[0]!.id}/void`, { method: "POST" });
    expect(voided.body.status).toBe("void");
    expect((await api(t, "/codes/lookup/PRE-0002")).status).toBe(404);

    const taken = await api<Failure>(t, "/tag-batches", {
      body: { name: "Again", symbology: "qr", values: ["pre-0003", "NEW-1"] },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain("PRE-0003");
  });
});
