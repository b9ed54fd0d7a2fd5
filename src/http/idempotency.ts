import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { credentialKey } from "../auth/principal";
import { idempotencyKeys } from "../db/tenant/idempotency";
import type { AppEnv, TenantDb } from "../env";
import { sha256Hex, randomToken } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { withCommitMark } from "./idempotency-mark";

/** Answers are kept this long; the same key after that starts a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim this old whose work never committed (a crashed request) may be taken over by a retry. */
const STALE_CLAIM_SECONDS = 60;
/** How long a duplicate waits for the first request's answer before a 409. */
const WAIT_MS = 3000;
const POLL_MS = 100;
export const REPLAY_HEADER = "Idempotent-Replayed";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(KEY_PATTERN)
    .optional()
    .openapi({
      description:
        "Makes a retry safe: the same key with the same request within 24 h replays the first answer " +
        `(status and body, with \`${REPLAY_HEADER}: true\`) and does nothing again. The same key with a different ` +
        "request is a 422; while the first request runs, a duplicate waits up to 3 s, then gets 409. " +
        "Keys are per workspace and credential. 1..255 printable ASCII characters, e.g. a UUID.",
      example: "3f1c1b8e-2d7a-4c55-9a61-0b7b2a9d4e10",
    }),
});

const addSeconds = (iso: string, s: number) => new Date(Date.parse(iso) + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `Idempotency-Key` support for the routes that accept it (defineRoute adds it after the guard).
 * Claim the key (one conditional INSERT), run the route with the commit mark added to its batches,
 * store the answer. A duplicate replays, waits, or is refused; a mismatched body is a 422.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!KEY_PATTERN.test(key)) {
    const message = "must be 1..255 printable ASCII characters";
    throw new ApiError("validation_failed", `Idempotency-Key: ${message}`, {
      details: [{ path: "header.Idempotency-Key", message }],
    });
  }
  const db = c.var.db;
  const credential = credentialKey(c.var.principal);
  const url = new URL(c.req.url);
  const requestHash = await sha256Hex(`${c.req.method} ${url.pathname}${url.search}\n${await c.req.text()}`);
  const token = randomToken(16);
  const now = new Date().toISOString();
  const mine = and(
    eq(idempotencyKeys.credential, credential),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.token, token),
  );

  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      credential,
      key,
      token,
      requestHash,
      state: "running",
      createdAt: now,
      expiresAt: addSeconds(now, IDEMPOTENCY_TTL_HOURS * 3600),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.credential, idempotencyKeys.key],
      set: {
        token,
        requestHash,
        state: "running",
        status: null,
        contentType: null,
        body: null,
        createdAt: now,
        expiresAt: addSeconds(now, IDEMPOTENCY_TTL_HOURS * 3600),
      },
      // Only an expired row, or a claim whose request died before its work committed.
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${now} OR (${idempotencyKeys.state} = 'running' AND ${idempotencyKeys.createdAt} < ${addSeconds(now, -STALE_CLAIM_SECONDS)})`,
    })
    .run();
  if (claimed.meta.changes !== 1) return answerDuplicate(db, credential, key, requestHash);

  c.set("db", withCommitMark(db, credential, key, token));
  await next();
  const res = c.res;
  const row = await db.select({ state: idempotencyKeys.state }).from(idempotencyKeys).where(mine).get();
  if (res.status >= 500 && row?.state === "running") {
    // Nothing committed: forget the claim so a retry runs the request again.
    await db.delete(idempotencyKeys).where(mine).run();
    return;
  }
  const body = res.status === 204 ? "" : await res.clone().text();
  await db
    .update(idempotencyKeys)
    .set({ state: "done", status: res.status, contentType: res.headers.get("content-type"), body })
    .where(mine)
    .run();
};

async function answerDuplicate(db: TenantDb, credential: string, key: string, requestHash: string): Promise<Response> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.credential, credential), eq(idempotencyKeys.key, key)))
      .get();
    if (row && row.requestHash !== requestHash) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was used with a different request", {
        details: { idempotencyKey: key },
      });
    }
    if (row?.state === "done" && row.status !== null) {
      const headers = new Headers({ [REPLAY_HEADER]: "true" });
      if (row.contentType) headers.set("content-type", row.contentType);
      return new Response(row.status === 204 ? null : row.body, { status: row.status, headers });
    }
    if (Date.now() >= deadline) {
      throw new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry", {
        details: { idempotencyKey: key },
        headers: { "Retry-After": "1" },
      });
    }
    await sleep(POLL_MS);
  }
}
