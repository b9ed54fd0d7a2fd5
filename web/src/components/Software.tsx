import { useEffect } from "preact/hooks";
import { can } from "../state/session";
import { loadSoftware, software } from "../state/software";
import { t } from "../strings";
import { day } from "./format";

/**
 * The licence seats of an asset or a person: the software they hold (docs/licences.md). Only for
 * users who may read them: the page never calls a route the role is refused.
 */
export function Software({ kind, holderId }: { kind: "asset" | "person"; holderId: string }) {
  const allowed = can(kind === "asset" ? "listInventoryItemLicenceSeats" : "listPersonLicenceSeats");
  useEffect(() => {
    if (allowed) void loadSoftware(kind, holderId);
  }, [kind, holderId, allowed]);
  if (!allowed) return null;
  const s = software.value;
  if (!s || s.holderId !== holderId) return null;
  return (
    <section aria-labelledby="software">
      <h2 id="software">{t.licences.title}</h2>
      {s.seats.length === 0 ? (
        <p>{t.licences.none}</p>
      ) : (
        <ul>
          {s.seats.map((seat) => (
            <li key={seat.id}>
              {seat.productName ?? seat.id}
              {` · ${t.licences.since(day(seat.assignedAt))}`}
              {seat.lastUsedAt ? ` · ${t.licences.lastUsed(day(seat.lastUsedAt))}` : ""}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
