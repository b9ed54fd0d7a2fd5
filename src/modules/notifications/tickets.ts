import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { realtimeTickets as rt } from "../../db/tenant/notifications";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { randomToken, sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";

export const TICKET_TTL_SECONDS = 60;

/**
 * A single-use ticket for opening the caller's realtime WebSocket: browsers cannot send an
 * Authorization header on a WebSocket, and a JWT in a URL would leak into logs for its whole
 * lifetime. Stored as a hash; expired tickets are cleared as new ones are issued.
 */
export async function issueTicket(
  db: TenantDb,
  userId: string,
  now = new Date(),
): Promise<{ ticket: string; expiresIn: number }> {
  const ticket = `rtt_${randomToken(32)}`;
  const at = now.toISOString();
  await db.batch([
    db.delete(rt).where(lt(rt.expiresAt, at)),
    db.insert(rt).values({
      tokenHash: await sha256Hex(ticket),
      userId,
      expiresAt: new Date(now.getTime() + TICKET_TTL_SECONDS * 1000).toISOString(),
      usedAt: null,
      createdAt: at,
    }),
  ]);
  return { ticket, expiresIn: TICKET_TTL_SECONDS };
}

/** Consumes a ticket: the user it was issued to, if it is unused, unexpired and the user still active; else 401. */
export async function consumeTicket(db: TenantDb, ticket: string, now = new Date()): Promise<string> {
  const at = now.toISOString();
  // One conditional UPDATE: of two connections racing with the same ticket, exactly one gets it.
  const row = await db
    .update(rt)
    .set({ usedAt: at })
    .where(and(eq(rt.tokenHash, await sha256Hex(ticket)), isNull(rt.usedAt), gt(rt.expiresAt, at)))
    .returning({ userId: rt.userId })
    .get();
  const user = row && (await db.select({ status: users.status }).from(users).where(eq(users.id, row.userId)).get());
  if (!row || user?.status !== "active") {
    throw new ApiError(
      "unauthenticated",
      "Invalid, expired or already used realtime ticket: get a new one from POST /notifications/realtime-ticket",
    );
  }
  return row.userId;
}
