import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../src/access/throttle";
import type { AppContext } from "../../src/env";
import { renderCalendar } from "../../src/modules/calendar/ics";
import { baseName } from "../../src/modules/feedback/form";
import { type SignedFields, signFields, verifyFields } from "../../src/platform/signed-urls";
import type { OpenApiDoc } from "../harness/openapi";
import { userJwt } from "../harness/principals";
import { insertAsset } from "../harness/rows";
import { api, call, createTenant, TEST_DOMAIN } from "../harness/tenant";
import { expectError } from "./harness";

/** The probe's small findings, one test each. */
describe("the second probe's small findings", () => {
  it("ICS output carries no control characters from booking notes", () => {
    const text = renderCalendar("Feed", [
      {
        uid: "bkg_1",
        stamp: "2026-11-26T10:00:00.000Z",
        lastModified: "2026-11-26T10:00:00.000Z",
        start: "2026-11-27T10:00:00.000Z",
        end: "2026-11-27T12:00:00.000Z",
        summary: "Drill\u0000 pick-up\u0007",
        description: "note\u0000with\u001bcontrols\u007f\tand a tab",
        status: "CONFIRMED",
        sequence: 0,
      },
    ]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    expect(text).toContain("SUMMARY:Drill pick-up");
  });

  it("a feedback attachment keeps its base name only", () => {
    expect(baseName("../../../evil.png")).toBe("evil.png");
    expect(baseName("..\\..\\windows\\evil.png")).toBe("evil.png");
    expect(baseName("photo\u0000.png")).toBe("photo.png");
    expect(baseName("../")).toBeNull();
    expect(baseName("..")).toBeNull();
    expect(baseName(null)).toBeNull();
  });

  it("a signed URL's signature is compared as exact bytes (a trailing space is refused)", async () => {
    const fields: SignedFields = { method: "GET", key: "tenants/t/objects/x.png", exp: 9_999_999_999 };
    const sig = await signFields("secret-1", fields);
    expect(await verifyFields("secret-1", fields, sig)).toBe(true);
    for (const bad of [`${sig} `, ` ${sig}`, `${sig}=`, `${sig}\n`, `${sig}%20`])
      expect(await verifyFields("secret-1", fields, bad), JSON.stringify(bad)).toBe(false);
  });

  it("quick-add events accept only an item of this workspace", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const theirs = await insertAsset(other, { name: "Not yours" });
    const mine = await insertAsset(t, { name: "Mine" });
    const jwt = await userJwt(t);
    const post = (itemId: string) =>
      api(t, "/inventory-items/quick-add/events", {
        body: { event: "asset_created_quick", flowId: "flow-1", itemId },
        auth: { jwt },
      });
    expectError(await post(theirs.id), 400, "validation_failed");
    expectError(await post("ast_nope"), 400, "validation_failed");
    expect((await post(mine.id)).status).toBe(201);
  });

  it("/openapi.json takes its server URL from the configuration, not the request's Host", async () => {
    const res = await call<OpenApiDoc & { servers: { url: string }[] }>(
      `https://attacker-chosen.${TEST_DOMAIN}/api/v1/openapi.json`,
    );
    expect(res.status).toBe(200);
    expect(res.body.servers[0]!.url).not.toContain("attacker-chosen");
    expect(res.body.servers[0]!.url).toContain("{workspace}");
  });

  it("the sign-in limiter ignores a client-sent cf-connecting-ip in development unless configured", () => {
    const ctx = (vars: Record<string, string>) =>
      ({ env: { ...env, ...vars }, req: { header: () => "203.0.113.9" } }) as unknown as AppContext;
    expect(clientAddress(ctx({ ENVIRONMENT: "production" }))).toBe("203.0.113.9");
    expect(clientAddress(ctx({ ENVIRONMENT: "development" }))).toBe("unknown");
    expect(clientAddress(ctx({ ENVIRONMENT: "development", TRUST_CLIENT_IP: "true" }))).toBe("203.0.113.9");
  });
});
