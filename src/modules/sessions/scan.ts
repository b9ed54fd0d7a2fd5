import type { CodeKey, ScanCommand } from "../../domain/inventory-session";
import { parseCode } from "../../domain/inventory-session";
import { invalidField } from "../../platform/errors";
import { callObject, type SessionCtx } from "./context";
import type { ScanInput } from "./scan-schemas";

/** Device clocks drift; a scan stamped further ahead than this is refused rather than trusted. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const keyOf = (ctx: SessionCtx, b: { itemId?: string; code?: string }): CodeKey =>
  b.itemId !== undefined ? { kind: "id", value: b.itemId } : parseCode(b.code ?? "", ctx.tenant.slug);

/** Turns a validated scan body into the object's command; `path` names the body field in errors. */
function toCommand(ctx: SessionCtx, b: ScanInput, receivedAt: string, path: string): ScanCommand {
  if (b.scannedAt && Date.parse(b.scannedAt) > Date.parse(receivedAt) + MAX_CLOCK_SKEW_MS) {
    throw invalidField(`${path}.scannedAt`, "is in the future");
  }
  const prefix = `tenants/${ctx.tenantId}/`;
  if (b.photoKeys?.some((k) => !k.startsWith(prefix) || k.includes("..")))
    throw invalidField(`${path}.photoKeys`, `must be this workspace's object keys (${prefix}...)`);
  return {
    key: keyOf(ctx, b),
    code: b.code ?? null,
    allowMarkAnyway: b.allowMarkAnyway ?? false,
    allowRescan: b.allowRescan ?? false,
    clientScanId: b.scanId ?? null,
    scannedAt: b.scannedAt ? new Date(b.scannedAt).toISOString() : receivedAt,
    scannedBy: ctx.actor,
    condition: b.condition ?? null,
    comment: b.comment || null,
    photoKeys: b.photoKeys ?? [],
  };
}

export async function scanOne(ctx: SessionCtx, sessionId: string, body: ScanInput) {
  const receivedAt = new Date().toISOString();
  const cmd = toCommand(ctx, body, receivedAt, "body");
  const res = await callObject(ctx, sessionId, (o) => o.scan([cmd], receivedAt));
  return { ...res.outcomes[0]!, progress: res.progress };
}

/** Up to 500 scans in one call (RFID readers, offline queues): applied in scannedAt order, answered per scan in request order. */
export async function scanBatch(ctx: SessionCtx, sessionId: string, scans: ScanInput[]) {
  const receivedAt = new Date().toISOString();
  const commands = scans.map((s, i) => toCommand(ctx, s, receivedAt, `body.scans.${i}`));
  const res = await callObject(ctx, sessionId, (o) => o.scan(commands, receivedAt));
  return { results: res.outcomes.map((o, index) => ({ index, ...o })), progress: res.progress };
}

export async function unscan(ctx: SessionCtx, sessionId: string, body: { itemId?: string; code?: string }) {
  const res = await callObject(ctx, sessionId, (o) => o.unscan(keyOf(ctx, body), ctx.actor, new Date().toISOString()));
  if ("error" in res)
    throw invalidField(body.itemId !== undefined ? "body.itemId" : "body.code", "names no item of this session");
  return { itemId: res.item.assetId, removed: res.removed, progress: res.progress };
}

export async function mobile(ctx: SessionCtx, sessionId: string) {
  return callObject(ctx, sessionId, (o) => o.mobile());
}
