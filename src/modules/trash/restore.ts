import type { ServiceCtx } from "../../http/service-context";
import { restoreAsset } from "../assets";
import { restoreCategory } from "../categories";
import { restoreCustomField } from "../custom-fields";
import { restoreKit } from "../kits";
import { restoreLicenceProduct } from "../licences";
import { restoreLocation } from "../locations";
import { restorePerson } from "../people";
import { restoreStockItem } from "../stock";
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
  kit: restoreKit,
  stock_item: restoreStockItem,
  licence_product: restoreLicenceProduct,
};

export function restoreItems(ctx: ServiceCtx, items: readonly TrashRef[]): Promise<TrashResult[]> {
  return eachInOrder(items, (ref) => settle(ref, "restored", () => RESTORE[ref.type](ctx, ref.id)));
}
