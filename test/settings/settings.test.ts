import { describe, expect, it } from "vitest";
import type { DueMaintenancePage } from "../../src/modules/maintenance";
import type { WorkspaceSettings } from "../../src/modules/settings";
import { createUser, loginOwner } from "../harness/auth";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("workspace settings", () => {
  it("reads the defaults, sets the time zone (owner/admin, JWT) and refuses unknown zones", async () => {
    const t = await createTenant();
    const owner = await loginOwner(t);
    expect((await api(t, "/settings")).body).toEqual({
      timezone: "UTC",
      healthSensitivity: "balanced",
      corsOrigins: [],
      requestExpiryDays: 7,
      offboardingDueDays: 14,
    });

    const set = await api<WorkspaceSettings>(t, "/settings", {
      method: "PATCH",
      auth: { jwt: owner },
      body: { timezone: "Pacific/Kiritimati" },
    });
    expect(set.status).toBe(200);
    expect(set.body.timezone).toBe("Pacific/Kiritimati");
    expect((await api<WorkspaceSettings>(t, "/settings")).body.timezone).toBe("Pacific/Kiritimati");
    // The request expiry is set on its own and keeps the zone; 0 days is refused.
    const days = await api<WorkspaceSettings>(t, "/settings", {
      method: "PATCH",
      auth: { jwt: owner },
      body: { requestExpiryDays: 3 },
    });
    expect(days.body).toMatchObject({ timezone: "Pacific/Kiritimati", requestExpiryDays: 3 });
    expect((await api<WorkspaceSettings>(t, "/settings")).body).toMatchObject({ requestExpiryDays: 3 });
    const zero = { method: "PATCH", auth: { jwt: owner }, body: { requestExpiryDays: 0 } };
    expect((await api(t, "/settings", zero)).status).toBe(400);
    // The offboarding due days likewise (docs/offboarding.md): 1..90.
    const due = await api<WorkspaceSettings>(t, "/settings", {
      method: "PATCH",
      auth: { jwt: owner },
      body: { offboardingDueDays: 30 },
    });
    expect(due.body).toMatchObject({ requestExpiryDays: 3, offboardingDueDays: 30 });
    const tooLong = { method: "PATCH", auth: { jwt: owner }, body: { offboardingDueDays: 91 } };
    expect((await api(t, "/settings", tooLong)).status).toBe(400);

    const bad = await api<Failure>(t, "/settings", {
      method: "PATCH",
      auth: { jwt: owner },
      body: { timezone: "Mars/Olympus" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]!.path).toBe("body.timezone");
    expect((await api(t, "/settings", { method: "PATCH", body: { timezone: "UTC" } })).status).toBe(403); // API key
    const member = await createUser(t, { role: "member" });
    expect(
      (await api(t, "/settings", { method: "PATCH", auth: { jwt: member.jwt }, body: { timezone: "UTC" } })).status,
    ).toBe(403);
  });

  it("moves maintenance's 'today' with the workspace time zone", async () => {
    const t = await createTenant();
    const owner = await loginOwner(t);
    await api(t, "/settings", { method: "PATCH", auth: { jwt: owner }, body: { timezone: "Pacific/Kiritimati" } });
    const due = await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all");
    expect(due.status).toBe(200);
    expect(due.body.timezone).toBe("Pacific/Kiritimati");
    const kiritimatiToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date());
    expect(due.body.today).toBe(kiritimatiToday);
  });
});
