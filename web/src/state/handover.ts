/** The hand-over the signing page shows (docs/handovers.md "In person"). */
import { getHandover, type HandoverDetail } from "../api/handovers";

export type { HandoverDetail };

/** The hand-over and its agreement as filled in, or the server's message why not. */
export async function loadHandover(id: string): Promise<{ handover: HandoverDetail } | { error: string }> {
  const { data, error } = await getHandover(id);
  return data ? { handover: data } : { error: (error as { message?: string } | undefined)?.message ?? "Not found" };
}
