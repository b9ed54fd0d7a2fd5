import type { ServiceCtx } from "../../platform/service-context";
import { restoreAsset } from "../assets/service";
import { restoreCategory } from "../categories/service";
import { restoreCustomField } from "../custom-fields/service";
import { restoreLocation } from "../locations/service";
import { restorePerson } from "../people/trash";
import { eachInOrder, settle } from "./outcome";
import type { TrashRef, TrashResult, TrashType } from "./schemas";

type RestoreVerb = (ctx: ServiceCtx, id: string) => Promise<unknown>;

/**
 * Each type is restored by its own module's verb (the same one behind `POST /<group>/:id/restore`),
 * which owns the rules (uniqueness of the name, tag, email or key among live rows; references that
 * must be live), writes the audit rows and emits `<type>.restored`. The trash only dispatches.
 */
const RESTORE: Record<TrashType, RestoreVerb> = {
  category: restoreCategory,
  location: restoreLocation,
  asset: restoreAsset,
  person: restorePerson,
  custom_field: restoreCustomField,
};

export function restoreItems(ctx: ServiceCtx, items: readonly TrashRef[]): Promise<TrashResult[]> {
  return eachInOrder(items, (ref) => settle(ref, "restored", () => RESTORE[ref.type](ctx, ref.id)));
}
