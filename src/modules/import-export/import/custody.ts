import { sql } from "drizzle-orm";
import { ASSET_STATUSES, type AssetStatus } from "../../../db/tenant/assets";
import type { TenantDb } from "../../../env";
import type { ErrorDetail } from "../../../platform/errors";
import { allowedTransitions, CHECKOUT_FROM, canMove } from "../../assets";
import type { LiveRefs } from "./refs";

/**
 * What an asset row asks of the lifecycle after its fields are written (docs/import-export.md#imports): a status
 * move (POST .../status) or a checkout (POST .../checkout) to a person, a location or an asset.
 * Stored with the row's input and applied by the same verbs the API uses (import-custody-write.ts).
 */
export interface CustodyStep {
  toStatus?: AssetStatus;
  reason?: string;
  target?: { personId: string } | { locationId: string } | { assetId: string };
  dueBackAt?: string;
}

/** The asset as it stands now (null for a row that creates one: it starts `available`). */
export interface CustodyNow {
  id: string;
  status: AssetStatus;
  holderKind: string | null;
  holderId: string | null;
  holderName: string | null;
}

type Holder = { kind: "person" | "location" | "asset"; id: string; name: string };
interface Named {
  id: string;
  name: string;
  key: string | null;
  status?: string;
}

/** The people and assets the file's holder cells can name, read in two statements (3 JSON parameters each). */
export interface HolderRefs {
  people: Named[];
  assets: Named[];
  locations: LiveRefs & { names: Map<string, string> };
}

const lower = (v: string | undefined) => v?.trim().toLowerCase();
const KINDS = { per: "person", loc: "location", ast: "asset" } as const;

/** Reads the live people (by id, email, name) and assets (by id, tag, name) that any row's holder cells name. */
export async function holderRefs(
  db: TenantDb,
  rows: readonly Record<string, string>[],
  locations: LiveRefs,
): Promise<HolderRefs> {
  const keys = [...new Set(rows.flatMap((f) => [f.assignee, f.assigneeId, f.holderId, f.holder].map(lower)))].filter(
    (k): k is string => Boolean(k),
  );
  if (keys.length === 0) return { people: [], assets: [], locations: { ...locations, names: new Map() } };
  const json = JSON.stringify(keys);
  const [people, assets, names] = await Promise.all([
    db.all<Named>(sql`SELECT id, name, lower(email) AS key, status FROM people WHERE deleted_at IS NULL
      AND (lower(id) IN (SELECT value FROM json_each(${json})) OR lower(email) IN (SELECT value FROM json_each(${json}))
        OR lower(name) IN (SELECT value FROM json_each(${json})))`),
    db.all<Named>(sql`SELECT id, name, lower(unique_tag) AS key FROM assets WHERE deleted_at IS NULL
      AND (lower(id) IN (SELECT value FROM json_each(${json})) OR lower(unique_tag) IN (SELECT value FROM json_each(${json}))
        OR lower(name) IN (SELECT value FROM json_each(${json})))`),
    db.all<{ id: string; name: string }>(sql`SELECT id, name FROM locations WHERE deleted_at IS NULL`),
  ]);
  return { people, assets, locations: { ...locations, names: new Map(names.map((l) => [l.id, l.name])) } };
}

/** One match among `list` by id, key (email / tag) or name; more than one by name is ambiguous. */
function pick(list: readonly Named[], text: string, what: string): Named | string {
  const t = text.toLowerCase();
  const exact = list.find((n) => n.id.toLowerCase() === t) ?? list.find((n) => n.key === t);
  if (exact) return exact;
  const byName = list.filter((n) => n.name.toLowerCase() === t);
  if (byName.length === 1) return byName[0]!;
  return byName.length
    ? `${byName.length} live ${what}s are named '${text}'; give the id${what === "person" ? " or the email" : " or the unique tag"}`
    : `no live ${what} '${text}'`;
}

/** `text` as a holder of `kind`: found, or why not. */
function find(kind: Holder["kind"], text: string, refs: HolderRefs): Holder | string {
  if (kind === "location") {
    const id = refs.locations.byId.has(text) ? text : refs.locations.byName.get(text.toLowerCase());
    return id ? { kind, id, name: refs.locations.names.get(id) ?? text } : `no live location '${text}'`;
  }
  const found = pick(
    kind === "person" ? refs.people : refs.assets,
    text,
    kind === "person" ? "person" : "inventory item",
  );
  if (typeof found === "string") return found;
  if (kind === "person" && found.status !== "active")
    return `${found.name} is ${found.status}; only active people can hold assets`;
  return { kind, id: found.id, name: found.name };
}

/**
 * The holder a row's cells name: holderKind + holderId/holder (what an export writes), else
 * assigneeId/assignee (a person). The id is tried first, then the name, so an export imported
 * into another workspace (other ids) still finds its holders by name, email or tag.
 */
function holderOf(f: Record<string, string>, refs: HolderRefs): { holder?: Holder; error?: ErrorDetail } {
  const custody = f.holderKind || f.holderId || f.holder;
  const kind = custody
    ? (lower(f.holderKind) ?? KINDS[(f.holderId ?? "").slice(0, 3) as keyof typeof KINDS])
    : f.assigneeId || f.assignee
      ? "person"
      : undefined;
  if (!kind) return {};
  if (kind !== "person" && kind !== "location" && kind !== "asset")
    return {
      error: { path: "holderKind", message: `'${f.holderKind ?? ""}' is not a holder kind: person, location or asset` },
    };
  const cells = (custody ? (["holderId", "holder"] as const) : (["assigneeId", "assignee"] as const)).filter(
    (c) => f[c],
  );
  if (cells.length === 0)
    return { error: { path: "holderId", message: `a '${kind}' holder needs holderId or holder` } };
  let first: ErrorDetail | undefined;
  for (const cell of cells) {
    const found = find(kind, f[cell]!, refs);
    if (typeof found !== "string") return { holder: found };
    first ??= { path: cell, message: found };
  }
  return { error: first };
}

const targetOf = (h: Holder): CustodyStep["target"] =>
  h.kind === "person" ? { personId: h.id } : h.kind === "location" ? { locationId: h.id } : { assetId: h.id };

/**
 * The lifecycle step a row asks for, judged against the asset's current state with the API's
 * rules (src/modules/assets/status.ts): null when there is nothing to do (the status or holder it
 * already has, which is what an export re-imported says), an error naming the row and why the
 * state cannot be reached, or the step. Every message starts with `row N:`.
 */
export function planCustody(
  rowNumber: number,
  f: Record<string, string>,
  now: CustodyNow | null,
  refs: HolderRefs,
): { step?: CustodyStep; error?: ErrorDetail } {
  const fail = (path: string, message: string) => ({ error: { path, message: `row ${rowNumber}: ${message}` } });
  const wanted = lower(f.status);
  if (wanted !== undefined && !(ASSET_STATUSES as readonly string[]).includes(wanted))
    return fail("status", `unknown status '${f.status}'; one of ${ASSET_STATUSES.join(", ")}`);
  const to = wanted as AssetStatus | undefined;
  const from: AssetStatus = now?.status ?? "available";
  const { holder, error } = holderOf(f, refs);
  if (error) return fail(error.path, error.message);
  if (holder) {
    if (to && to !== "assigned")
      return fail("status", `a holder (${holder.name}) means status 'assigned', not '${to}'`);
    if (from === "assigned") {
      if (now?.holderKind === holder.kind && now.holderId === holder.id) return {};
      return fail(
        "holder",
        `the asset is checked out to ${now?.holderName ?? "someone else"}; check it in before checking it out to ${holder.name}`,
      );
    }
    if (holder.kind === "asset" && holder.id === now?.id)
      return fail("holder", "an asset cannot be checked out to itself");
    if (!CHECKOUT_FROM.includes(from))
      return fail("status", `cannot check out an asset that is '${from}' (${movesFrom(from)})`);
    const due = f.dueBackAt ? Date.parse(f.dueBackAt) : null;
    if (due !== null && Number.isNaN(due))
      return fail("dueBackAt", `'${f.dueBackAt}' is not a date or an ISO datetime`);
    if (due !== null && due <= Date.now()) return fail("dueBackAt", "must be in the future (the checkout's own rule)");
    return { step: { target: targetOf(holder), ...(due !== null ? { dueBackAt: new Date(due).toISOString() } : {}) } };
  }
  if (!to || to === from) return {};
  if (to === "assigned")
    return fail("status", "status 'assigned' needs a holder: an assignee or holderKind/holderId column");
  if (from === "assigned")
    return fail(
      "status",
      `the asset is checked out to ${now?.holderName ?? "someone"}; check it in before moving it to '${to}'`,
    );
  if (!canMove(from, to)) return fail("status", `cannot move the asset from '${from}' to '${to}' (${movesFrom(from)})`);
  return { step: { toStatus: to, reason: f.statusReason ?? "Imported from CSV" } };
}

const movesFrom = (from: AssetStatus) => {
  const moves = allowedTransitions(from).map((m) => m.toStatus);
  return moves.length
    ? `from '${from}' it can move to ${moves.join(", ")}`
    : `nothing moves an asset out of '${from}' but check-in`;
};

/** The current status and holder of the assets a file updates (one statement). */
export async function custodyNow(db: TenantDb, ids: readonly string[]): Promise<Map<string, CustodyNow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all<CustodyNow>(sql`SELECT id, status, holder_kind AS holderKind, holder_id AS holderId,
    holder_name AS holderName FROM assets WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  return new Map(rows.map((r) => [r.id, r]));
}
