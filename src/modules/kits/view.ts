import type { AssetStatus } from "../../db/tenant/assets";
import type { kits } from "../../db/tenant/kits";

export type KitRow = typeof kits.$inferSelect;
export interface MemberState {
  assetId: string;
  status: AssetStatus;
}

/** A kit's status, derived from its live members'. */
export function kitStatus(members: readonly MemberState[]) {
  if (!members.length) return "empty" as const;
  const out = members.filter((m) => m.status === "assigned").length;
  if (out === members.length) return "checked_out" as const;
  if (members.some((m) => m.status === "maintenance" || m.status === "lost" || m.status === "retired"))
    return "unavailable" as const;
  return out ? ("partially_checked_out" as const) : ("available" as const);
}

export function toKit(k: KitRow, members: readonly MemberState[]) {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    assetIds: members.map((m) => m.assetId),
    status: kitStatus(members),
    createdAt: k.createdAt,
    updatedAt: k.updatedAt,
  };
}

export type Kit = ReturnType<typeof toKit>;
