import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { credentialKey } from "../access/principal";
import { idempotencyKeys } from "../db/tenant/idempotency";
import type { AppEnv, TenantDb } from "../env";
import { randomToken, sha256Hex } from "../platform/crypto";
import { ApiError, ERROR_STATUS } from "../platform/errors";
import { withCommitMark } from "./idempotency-mark";

/** Answers are kept this long; the same key after that starts a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim this old whose work never committed (a crashed request) may be taken over by a retry. */
const STALE_CLAIM_SECONDS = 60;
/** How long a duplicate waits for the first request's answer before a 409. */
const WAIT_MS = 3000;
const POLL_MS = 100;
export const REPLAY_HEADER = "Idempotent-Replayed";
const SHOWN_ONCE = "secret_shown_once";

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
 *
 * A route that issues a secret (`issuesSecret` in the policy table: API keys, invite tokens, feed
 * URLs, webhook signing secrets, realtime tickets, signed upload URLs) never has its answer stored:
 * the row keeps a 409 `secret_shown_once` naming the created resource instead, so the table (and the
 * admin export that walks it) holds no credential. Decision in docs/api-platform.md.
 */
export const idempotency =
  (opts: { issuesSecret?: boolean } = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
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
    const answer =
      opts.issuesSecret && res.status < 300
        ? await shownOnce(res, c.var.requestId)
        : {
            status: res.status,
            contentType: res.headers.get("content-type"),
            body: res.status === 204 ? "" : await res.clone().text(),
          };
    await db
      .update(idempotencyKeys)
      .set({ state: "done", ...answer })
      .where(mine)
      .run();
  };

/**
 * What a replay of a secret-issuing request answers: 409 naming the resource (so the client can
 * find or revoke it), never the secret. Stored in place of the answer.
 */
async function shownOnce(res: Response, requestId: string) {
  let resourceId: unknown;
  try {
    resourceId = (JSON.parse(await res.clone().text()) as { id?: unknown }).id;
  } catch {
    // not JSON: no id to name
  }
  const body = {
    message:
      "Already created; the secret is shown once and is not stored, so it cannot be replayed. Revoke the resource and create a new one if the secret was lost.",
    code: SHOWN_ONCE,
    details: { originalStatus: res.status, ...(typeof resourceId === "string" ? { resourceId } : {}) },
    requestId,
  };
  return { status: ERROR_STATUS.secret_shown_once, contentType: "application/json", body: JSON.stringify(body) };
}

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
    if (row?.state === "done" && row.status === ERROR_STATUS.secret_shown_once && row.body?.includes(SHOWN_ONCE)) {
      // Thrown afresh so the envelope carries this request's id.
      const { message, details } = JSON.parse(row.body) as { message: string; details: unknown };
      throw new ApiError("secret_shown_once", message, { details, headers: { [REPLAY_HEADER]: "true" } });
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
