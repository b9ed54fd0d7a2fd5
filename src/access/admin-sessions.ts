import { and, eq, gt, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { adminSessions } from "../db/control/admin-sessions";
import type { Bindings } from "../env";
import { nowIso } from "../platform/clock";
import { randomToken, sha256Hex } from "../platform/crypto";
import { ADMIN_TTL_SECONDS, signAdminToken, verifyAdminToken } from "./jwt";

type AdminEnv = Pick<Bindings, "CONTROL_DB" | "JWT_SECRET" | "ADMIN_EMAIL" | "ADMIN_PASSWORD">;

const control = (env: AdminEnv) => drizzle(env.CONTROL_DB);
const passwordTag = (env: AdminEnv) => sha256Hex(`admin-password:${env.JWT_SECRET}:${env.ADMIN_PASSWORD}`);

/** Records a sign-in and returns the cookie value naming it. */
export async function startAdminSession(env: AdminEnv, email: string): Promise<string> {
  const id = randomToken(18);
  const now = new Date();
  await control(env)
    .insert(adminSessions)
    .values({
      id,
      email,
      passwordTag: await passwordTag(env),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ADMIN_TTL_SECONDS * 1000).toISOString(),
    })
    .run();
  return signAdminToken(env.JWT_SECRET, email, id);
}

/** The admin email of a live session: signature, expiry, not revoked, same admin and password as now. */
export async function adminSessionEmail(env: AdminEnv, token: string): Promise<string | null> {
  const claims = await verifyAdminToken(env.JWT_SECRET, token);
  if (!claims?.sid || claims.email !== env.ADMIN_EMAIL.toLowerCase()) return null;
  const row = await control(env)
    .select({ passwordTag: adminSessions.passwordTag })
    .from(adminSessions)
    .where(
      and(eq(adminSessions.id, claims.sid), isNull(adminSessions.revokedAt), gt(adminSessions.expiresAt, nowIso())),
    )
    .get();
  return row && row.passwordTag === (await passwordTag(env)) ? claims.email : null;
}

/** Logout: the session is revoked server-side, so a copy of the cookie no longer works. */
export async function endAdminSession(env: AdminEnv, token: string | undefined): Promise<void> {
  const claims = token ? await verifyAdminToken(env.JWT_SECRET, token) : null;
  if (claims?.sid)
    await control(env).update(adminSessions).set({ revokedAt: nowIso() }).where(eq(adminSessions.id, claims.sid)).run();
}
