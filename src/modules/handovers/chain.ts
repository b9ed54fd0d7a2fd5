import { asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { handoverReceipts } from "../../db/tenant/handovers";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { sha256Hex } from "../../platform/crypto";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { ApiError, notFound } from "../../platform/errors";
import type { ReceiptVerification } from "./schemas";
import type { ReceiptRow } from "./view";

/** The first receipt's prevHash. */
export const GENESIS = "0".repeat(64);
/** How often a receipt is retried when another one took the chain's head first. */
const CHAIN_ATTEMPTS = 25;

export async function sha256Bytes(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const chainHashOf = (r: Pick<ReceiptRow, "seq" | "prevHash" | "docSha256" | "handoverId" | "issuedAt">) =>
  sha256Hex(["receipt-chain-v1", r.seq, r.prevHash, r.docSha256, r.handoverId, r.issuedAt].join("\n"));

async function head(ctx: ServiceCtx) {
  return ctx.db.select().from(handoverReceipts).orderBy(desc(handoverReceipts.seq)).limit(1).get();
}

/**
 * Commits a write that issues a receipt, as the next link of the workspace's chain. The write is
 * guarded on the chain's head still being the one read: of two concurrent receipts one commits,
 * the other re-reads the head and links after it, so the chain never forks (the unique indexes
 * on seq and prevHash are the second line). `describe` builds the rest of the write (the
 * hand-over's update, timeline, events) around the receipt row it is given.
 */
export async function commitReceipt(
  ctx: ServiceCtx,
  base: Pick<ReceiptRow, "id" | "handoverId" | "docSha256" | "objectKey" | "issuedAt">,
  describe: (receipt: ReceiptRow) => Write,
  onOtherFailure: (err: unknown) => Promise<never> | never,
): Promise<ReceiptRow> {
  for (let attempt = 0; attempt < CHAIN_ATTEMPTS; attempt++) {
    const prev = await head(ctx);
    const seq = (prev?.seq ?? 0) + 1;
    const prevHash = prev?.chainHash ?? GENESIS;
    const row: ReceiptRow = { ...base, seq, prevHash, chainHash: "" };
    row.chainHash = await chainHashOf(row);
    const w = describe(row);
    let lost = false;
    await commitWrite(
      ctx,
      {
        ...w,
        guards: [
          batchGuard(
            ctx.db,
            "receipt_chain",
            sql`coalesce((SELECT ${handoverReceipts.chainHash} FROM ${handoverReceipts} ORDER BY ${handoverReceipts.seq} DESC LIMIT 1), ${GENESIS}) = ${prevHash}`,
          ),
          ...(w.guards ?? []),
        ],
        writes: [ctx.db.insert(handoverReceipts).values(row), ...(w.writes ?? [])],
      },
      async (err) => {
        if (guardFailed(err, "receipt_chain") || (isUniqueViolation(err) && !guardFailed(err))) {
          lost = true;
          return undefined as never;
        }
        return onOtherFailure(err);
      },
    );
    if (!lost) return row;
  }
  throw new ApiError("service_unavailable", "Too many receipts at once; retry");
}

/**
 * Whether a receipt is intact (the stored PDF hashes to its docSha256, the row to its chainHash)
 * and in the chain (its prevHash is the previous receipt's chainHash, and the next's prevHash is
 * its own). A changed PDF, a changed row, or a receipt slipped in or removed fails.
 */
export async function verifyReceipt(ctx: ServiceCtx, id: string): Promise<ReceiptVerification> {
  const row = await ctx.db.select().from(handoverReceipts).where(eq(handoverReceipts.id, id)).get();
  if (!row) throw notFound("Receipt");
  const object = await ctx.files?.get(row.objectKey);
  const document = !object
    ? "missing"
    : (await sha256Bytes(new Uint8Array(await object.arrayBuffer()))) === row.docSha256
      ? "ok"
      : "mismatch";
  const rowCheck = (await chainHashOf(row)) === row.chainHash ? "ok" : "mismatch";
  const before = await ctx.db
    .select()
    .from(handoverReceipts)
    .where(lt(handoverReceipts.seq, row.seq))
    .orderBy(desc(handoverReceipts.seq))
    .limit(1)
    .get();
  const previous =
    row.seq === 1
      ? row.prevHash === GENESIS
        ? "ok"
        : "mismatch"
      : !before || before.seq !== row.seq - 1
        ? "missing"
        : before.chainHash === row.prevHash && (await chainHashOf(before)) === before.chainHash
          ? "ok"
          : "mismatch";
  const after = await ctx.db
    .select()
    .from(handoverReceipts)
    .where(gt(handoverReceipts.seq, row.seq))
    .orderBy(asc(handoverReceipts.seq))
    .limit(1)
    .get();
  const next = !after ? "none" : after.seq === row.seq + 1 && after.prevHash === row.chainHash ? "ok" : "mismatch";
  const intact = document === "ok" && rowCheck === "ok";
  const inChain = previous === "ok" && (next === "ok" || next === "none");
  return {
    receiptId: id,
    valid: intact && inChain,
    intact,
    inChain,
    checks: { document, row: rowCheck, previous, next },
  };
}
