/**
 * The software of the asset or person shown (their open licence seats), loaded beside the page. A
 * credential without the licences scope or a failed read shows nothing rather than an error: the
 * section is extra to the page.
 */
import { signal } from "@preact/signals";
import * as licences from "../api/licences";

export type SoftwareSeat = { id: string; productName: string | null; assignedAt: string; lastUsedAt: string | null };

export const software = signal<{ holderId: string; seats: SoftwareSeat[] } | null>(null);

export async function loadSoftware(kind: "asset" | "person", holderId: string): Promise<void> {
  software.value = null;
  try {
    const res = kind === "asset" ? await licences.assetSeats(holderId) : await licences.personSeats(holderId);
    software.value = res.data
      ? {
          holderId,
          seats: res.data.items.map((s) => ({
            id: s.id,
            productName: s.productName,
            assignedAt: s.assignedAt,
            lastUsedAt: s.lastUsedAt,
          })),
        }
      : null;
  } catch {
    software.value = null;
  }
}
