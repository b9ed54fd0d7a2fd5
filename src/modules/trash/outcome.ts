import { ApiError } from "../../platform/errors";
import type { TrashRef, TrashResult } from "./schemas";

/**
 * Runs one item's work and turns its outcome into a per-item result. A domain error (not found,
 * conflict, validation) is that item's failure; an unexpected error is also reported on the item,
 * not as a 500, because the items before it are already done and the caller must learn which.
 */
export async function settle(
  ref: TrashRef,
  ok: TrashResult["status"],
  work: () => Promise<unknown>,
): Promise<TrashResult> {
  try {
    await work();
    return { type: ref.type, id: ref.id, status: ok };
  } catch (err) {
    if (err instanceof ApiError)
      return { type: ref.type, id: ref.id, status: "failed", error: { code: err.code, message: err.message } };
    console.error("trash item failed", ref, err);
    return {
      type: ref.type,
      id: ref.id,
      status: "failed",
      error: { code: "internal_error", message: "Unexpected error; the item was left unchanged" },
    };
  }
}

/** Items run one after another, in request order: a later item sees the effect of an earlier one. */
export async function eachInOrder(
  items: readonly TrashRef[],
  run: (ref: TrashRef) => Promise<TrashResult>,
): Promise<TrashResult[]> {
  const results: TrashResult[] = [];
  for (const ref of items) results.push(await run(ref));
  return results;
}
