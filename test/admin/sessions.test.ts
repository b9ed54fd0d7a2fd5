import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminSessionEmail } from "../../src/access/admin-sessions";
import type { ErrorBody } from "../../src/platform/schemas";
import { adminApi, adminSignIn } from "../harness/admin";

/** An admin session ends server-side on logout and when the admin password changes. */
describe("platform admin sessions", () => {
  it("stops answering with the same cookie after logout", async () => {
    const cookie = await adminSignIn();
    expect((await adminApi(cookie, "/admin/tenants")).status).toBe(200);
    expect((await adminApi(cookie, "/admin/auth/logout", { method: "POST" })).status).toBe(204);
    const after = await adminApi<ErrorBody>(cookie, "/admin/tenants");
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("unauthenticated");
  });

  it("keeps other sessions of the admin alive on one logout", async () => {
    const [one, two] = [await adminSignIn(), await adminSignIn()];
    await adminApi(one, "/admin/auth/logout", { method: "POST" });
    expect((await adminApi(two, "/admin/tenants")).status).toBe(200);
  });

  it("ends every session signed in with a password that has since changed", async () => {
    const token = (await adminSignIn()).split("=").slice(1).join("=");
    expect(await adminSessionEmail(env, token)).toBe(env.ADMIN_EMAIL.toLowerCase());
    expect(await adminSessionEmail({ ...env, ADMIN_PASSWORD: "a-new-admin-password" }, token)).toBeNull();
    expect(await adminSessionEmail({ ...env, ADMIN_EMAIL: "someone-else@example.com" }, token)).toBeNull();
  });
});
