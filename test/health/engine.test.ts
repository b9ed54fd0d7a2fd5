import { describe, expect, it } from "vitest";
import { REASON_CODE_LIST } from "../../src/db/tenant/health";
import { computeHealth, type HealthSignals } from "../../src/domain/health-engine/engine";
import { PRESETS, SENSITIVITIES } from "../../src/domain/health-engine/presets";
import { localDate, localMidnight } from "../../src/domain/health-engine/time";

const NOW = new Date("2026-06-15T12:00:00.000Z");

const base = (over: Partial<HealthSignals> = {}): HealthSignals => ({
  assetId: "ast_1",
  status: "available",
  createdAt: "2026-06-01T00:00:00.000Z",
  assigneeId: null,
  dueBackAt: null,
  purchaseDate: null,
  warrantyExpiresAt: null,
  lastVerifiedAt: null,
  categoryId: "cat_1",
  expectedLifeMonths: null,
  schedules: [],
  lastAudit: null,
  auditsInUse: false,
  ...over,
});
const codes = (s: HealthSignals, preset = "balanced" as const, now = NOW, tz = "UTC") =>
  computeHealth(s, preset, now, tz).reasons.map((r) => r.code);
const schedule = (nextDueDate: string, id = "mts_1") => ({ id, title: "Filter change", nextDueDate });

describe("computeHealth", () => {
  it("an asset without signal data is healthy with no reasons and no expiry", () => {
    expect(computeHealth(base(), "balanced", NOW)).toEqual({
      score: 100,
      badge: "HEALTHY",
      reasons: [],
      validUntil: null,
    });
  });

  it("lost hard-fails whatever else is true, and still lists the other reasons", () => {
    const clean = computeHealth(base({ status: "lost" }), "relaxed", NOW);
    expect(clean).toMatchObject({ score: 0, badge: "AT_RISK" });
    expect(clean.reasons.map((r) => r.code)).toEqual(["LOST"]);
    expect(clean.reasons[0]).toMatchObject({
      severity: "critical",
      links: [{ rel: "statusEvents", href: "/api/v1/inventory-items/ast_1/status-events" }],
    });
    const busy = computeHealth(base({ status: "lost", schedules: [schedule("2026-06-01")] }), "balanced", NOW);
    expect(busy.score).toBe(0);
    expect(busy.reasons.map((r) => r.code)).toEqual(["LOST", "MAINTENANCE_OVERDUE"]);
  });

  it("retired suspends scoring: HEALTHY with a RETIRED reason only", () => {
    const r = computeHealth(
      base({ status: "retired", schedules: [schedule("2026-01-01")], warrantyExpiresAt: "2020-01-01" }),
      "strict",
      NOW,
    );
    expect(r).toMatchObject({ score: 100, badge: "HEALTHY", validUntil: null });
    expect(r.reasons.map((x) => x.code)).toEqual(["RETIRED"]);
  });

  it("maintenance: overdue after the due day, due soon inside the preset's window, links to the schedules", () => {
    const overdue = computeHealth(
      base({
        schedules: [schedule("2026-06-14", "mts_a"), schedule("2026-06-10", "mts_b")].sort((a, b) =>
          a.nextDueDate.localeCompare(b.nextDueDate),
        ),
      }),
      "balanced",
      NOW,
    );
    expect(overdue.reasons).toHaveLength(1);
    expect(overdue.reasons[0]).toMatchObject({
      code: "MAINTENANCE_OVERDUE",
      penalty: 35,
      links: [
        { rel: "maintenanceSchedule", id: "mts_b" },
        { rel: "maintenanceSchedule", id: "mts_a" },
      ],
    });
    expect(overdue).toMatchObject({ score: 65, badge: "ATTENTION" });
    expect(codes(base({ schedules: [schedule("2026-06-15")] }))).toEqual(["MAINTENANCE_DUE_SOON"]); // due today is not overdue yet
    const inTen = base({ schedules: [schedule("2026-06-25")] });
    expect(codes(inTen, "relaxed" as never)).toEqual([]);
    expect(codes(inTen)).toEqual([]);
    expect(codes(inTen, "strict" as never)).toEqual(["MAINTENANCE_DUE_SOON"]);
    // Becomes due soon at the start of 2026-06-18 (7 days before), so that is when the result expires.
    expect(computeHealth(inTen, "balanced", NOW).validUntil).toBe("2026-06-18T00:00:00.000Z");
  });

  it("days are the workspace's: the same instant is overdue in Tokyo and due today in UTC", () => {
    const s = base({ schedules: [schedule("2026-06-15")] });
    const late = new Date("2026-06-15T20:00:00.000Z"); // 05:00 on the 16th in Tokyo
    expect(codes(s, "balanced", late, "UTC")).toEqual(["MAINTENANCE_DUE_SOON"]);
    expect(codes(s, "balanced", late, "Asia/Tokyo")).toEqual(["MAINTENANCE_OVERDUE"]);
    expect(computeHealth(s, "balanced", new Date("2026-06-15T10:00:00.000Z"), "Asia/Tokyo").validUntil).toBe(
      "2026-06-15T15:00:00.000Z",
    );
  });

  it("verification: stale after the window; never verified only when the workspace runs sessions", () => {
    expect(codes(base({ lastVerifiedAt: "2025-11-01T00:00:00.000Z" }))).toEqual(["VERIFICATION_STALE"]);
    expect(codes(base({ lastVerifiedAt: "2026-03-01T00:00:00.000Z" }))).toEqual([]);
    expect(codes(base({ lastVerifiedAt: "2026-03-01T00:00:00.000Z" }), "strict" as never)).toEqual([
      "VERIFICATION_STALE",
    ]);
    const old = { createdAt: "2025-01-01T00:00:00.000Z" };
    expect(codes(base(old))).toEqual([]);
    expect(codes(base({ ...old, auditsInUse: true }))).toEqual(["NEVER_VERIFIED"]);
    expect(codes(base({ auditsInUse: true }))).toEqual([]); // added recently: not due yet
  });

  it("missing in the last session unless verified since that session started", () => {
    const audit = {
      sessionId: "ses_1",
      sessionName: "Q2 audit",
      startedAt: "2026-06-01T00:00:00.000Z",
      completedAt: "2026-06-02T00:00:00.000Z",
      found: false,
    };
    const missing = computeHealth(
      base({ lastAudit: audit, auditsInUse: true, lastVerifiedAt: "2026-05-01T00:00:00.000Z" }),
      "balanced",
      NOW,
    );
    expect(missing.reasons[0]).toMatchObject({
      code: "MISSING_IN_LAST_SESSION",
      penalty: 45,
      links: [{ rel: "session", id: "ses_1", href: "/api/v1/sessions/ses_1" }],
    });
    expect(missing.badge).toBe("ATTENTION");
    expect(codes(base({ lastAudit: audit, lastVerifiedAt: "2026-06-10T00:00:00.000Z" }))).toEqual([]);
    expect(codes(base({ lastAudit: { ...audit, found: true }, lastVerifiedAt: "2026-06-01T10:00:00.000Z" }))).toEqual(
      [],
    );
    expect(computeHealth(base({ lastAudit: audit, auditsInUse: true }), "strict", NOW).badge).toBe("AT_RISK");
  });

  it("lifecycle from the purchase date against the category's expected life", () => {
    expect(codes(base({ purchaseDate: "2023-06-15", expectedLifeMonths: 36 }))).toEqual(["PAST_EXPECTED_LIFE"]);
    expect(codes(base({ purchaseDate: "2023-06-16", expectedLifeMonths: 36 }))).toEqual(["NEARING_END_OF_LIFE"]);
    expect(codes(base({ purchaseDate: "2025-06-16", expectedLifeMonths: 36 }))).toEqual([]);
    expect(codes(base({ purchaseDate: "2020-01-01" }))).toEqual([]); // no expected life: no signal
    expect(codes(base({ expectedLifeMonths: 12 }))).toEqual([]); // no purchase date: no signal
  });

  it("warranty expired and expiring; return overdue only while checked out", () => {
    expect(codes(base({ warrantyExpiresAt: "2026-06-14" }))).toEqual(["WARRANTY_EXPIRED"]);
    expect(codes(base({ warrantyExpiresAt: "2026-06-15" }))).toEqual(["WARRANTY_EXPIRING"]);
    expect(codes(base({ warrantyExpiresAt: "2026-08-01" }))).toEqual([]);
    expect(codes(base({ warrantyExpiresAt: "2026-08-01" }), "strict" as never)).toEqual(["WARRANTY_EXPIRING"]);
    const out = { assigneeId: "per_1", dueBackAt: "2026-06-15T11:00:00.000Z" };
    expect(computeHealth(base(out), "balanced", NOW).reasons[0]).toMatchObject({
      code: "RETURN_OVERDUE",
      links: [{ rel: "person", id: "per_1" }],
    });
    expect(codes(base({ dueBackAt: out.dueBackAt }))).toEqual([]);
    expect(computeHealth(base({ ...out, dueBackAt: "2026-06-16T00:00:00.000Z" }), "balanced", NOW).validUntil).toBe(
      "2026-06-16T00:00:00.000Z",
    );
  });

  it("presets read the same signals more or less strictly", () => {
    const s = base({
      schedules: [schedule("2026-06-20")],
      warrantyExpiresAt: "2026-07-01",
      purchaseDate: "2023-09-01",
      expectedLifeMonths: 36,
    });
    const scores = SENSITIVITIES.map((p) => computeHealth(s, p, NOW).score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    expect(SENSITIVITIES.map((p) => computeHealth(s, p, NOW).badge)).toEqual(["HEALTHY", "ATTENTION", "ATTENTION"]);
    expect(scores).toEqual([100, 75, 65]);
    for (const p of SENSITIVITIES)
      expect(Object.keys(PRESETS[p].penalties).sort()).toEqual(
        REASON_CODE_LIST.filter((c) => c !== "LOST" && c !== "RETIRED").sort(),
      );
  });

  it("a result holds until its validUntil (random signals): what the stored validUntil promises", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const day = (offset: number) => localDate(NOW.getTime() + offset * 86_400_000, "UTC");
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
    for (let i = 0; i < 300; i++) {
      const s = base({
        status: pick(["available", "assigned", "maintenance", "lost", "reserved"] as const),
        assigneeId: rnd() < 0.5 ? "per_1" : null,
        dueBackAt: rnd() < 0.5 ? new Date(NOW.getTime() + (rnd() - 0.5) * 20 * 86_400_000).toISOString() : null,
        purchaseDate: rnd() < 0.5 ? day(-Math.floor(rnd() * 2000)) : null,
        expectedLifeMonths: rnd() < 0.6 ? 1 + Math.floor(rnd() * 60) : null,
        warrantyExpiresAt: rnd() < 0.5 ? day(Math.floor((rnd() - 0.5) * 200)) : null,
        lastVerifiedAt: rnd() < 0.5 ? new Date(NOW.getTime() - rnd() * 400 * 86_400_000).toISOString() : null,
        createdAt: new Date(NOW.getTime() - rnd() * 400 * 86_400_000).toISOString(),
        schedules: Array.from({ length: Math.floor(rnd() * 3) }, (_, k) =>
          schedule(day(Math.floor((rnd() - 0.5) * 40)), `mts_${k}`),
        ).sort((a, b) => a.nextDueDate.localeCompare(b.nextDueDate)),
        auditsInUse: rnd() < 0.5,
      });
      const preset = pick([...SENSITIVITIES]);
      const tz = pick(["UTC", "America/New_York", "Asia/Kolkata"]);
      const now = computeHealth(s, preset, NOW, tz);
      expect(now.score).toBeGreaterThanOrEqual(0);
      expect(now.score).toBeLessThanOrEqual(100);
      if (now.validUntil === null) continue;
      const until = Date.parse(now.validUntil);
      expect(until).toBeGreaterThan(NOW.getTime());
      const { validUntil: _a, ...before } = computeHealth(s, preset, new Date(until - 1), tz);
      const { validUntil: _b, ...atNow } = now;
      expect(before, JSON.stringify(s)).toEqual(atNow);
    }
  });
});

describe("local days", () => {
  it("midnight of a day in a zone, across DST changes", () => {
    expect(new Date(localMidnight("2026-03-29", "Europe/Berlin")).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(new Date(localMidnight("2026-03-30", "Europe/Berlin")).toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(new Date(localMidnight("2026-11-01", "America/New_York")).toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(new Date(localMidnight("2026-11-02", "America/New_York")).toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(localDate(Date.parse("2026-06-15T23:30:00Z"), "Asia/Kolkata")).toBe("2026-06-16");
    expect(new Date(localMidnight("2026-06-15", "Not/AZone")).toISOString()).toBe("2026-06-15T00:00:00.000Z");
  });
});
