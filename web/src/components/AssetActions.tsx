import { useSignal } from "@preact/signals";
import type { Item } from "../api/types";
import * as act from "../state/asset-actions";
import { said } from "../state/requests";
import { can } from "../state/session";
import { t } from "../strings";
import { BookForm, CheckInForm, CheckOutForm, MoveForm, ReportForm } from "./ActionForms";
import { RequestForm } from "./RequestForm";
import { Button, Notice } from "./ui";

/**
 * The actions on an asset: each shown only when the user may call its route (GET /auth/permissions)
 * and the asset's state allows it (check out when available, check in when checked out).
 */
const ACTIONS: { name: act.ActionName; operation: string; label: string; when?: (item: Item) => boolean }[] = [
  {
    name: "checkOut",
    operation: "checkoutInventoryItem",
    label: t.actions.checkOut,
    when: (i) => i.status === "available",
  },
  {
    name: "checkIn",
    operation: "checkinInventoryItem",
    label: t.actions.checkIn,
    when: (i) => i.status === "assigned",
  },
  { name: "move", operation: "updateInventoryItem", label: t.actions.move },
  { name: "report", operation: "submitFeedback", label: t.actions.report },
  { name: "book", operation: "createBooking", label: t.actions.book },
];

const FORMS = { checkOut: CheckOutForm, checkIn: CheckInForm, move: MoveForm, report: ReportForm, book: BookForm };

export function AssetActions({ item, holds = 0 }: { item: Item; holds?: number }) {
  const shown = ACTIONS.filter((a) => can(a.operation) && (a.when?.(item) ?? true));
  const asking = useSignal(false);
  // Who cannot check out asks instead (the requester), for a requestable asset.
  if (shown.length === 0 && item.requestable && can("createRequest"))
    return (
      <section aria-labelledby="actions">
        <h2 id="actions">{t.asset.actions}</h2>
        {said.value && <Notice tone={said.value.tone}>{said.value.message}</Notice>}
        {asking.value ? (
          <RequestForm
            kind="asset"
            id={item.id}
            name={item.name}
            onDone={() => {
              asking.value = false;
            }}
            onCancel={() => {
              asking.value = false;
            }}
          />
        ) : (
          <Button
            variant="primary"
            onClick={() => {
              said.value = null;
              asking.value = true;
            }}
          >
            {t.catalogue.request}
          </Button>
        )}
      </section>
    );
  if (shown.length === 0) return null;
  const open = act.openAction.value;
  const Form = open ? FORMS[open] : null;
  return (
    <section aria-labelledby="actions">
      <h2 id="actions">{t.asset.actions}</h2>
      {Form ? (
        <Form tag={item.uniqueTag} name={item.name} holds={holds} />
      ) : (
        <div class="actions">
          {shown.map((a) => (
            <Button
              key={a.name}
              variant={a.name === "checkOut" || a.name === "checkIn" ? "primary" : "plain"}
              onClick={() => {
                act.outcome.value = null;
                act.openAction.value = a.name;
              }}
            >
              {a.label}
            </Button>
          ))}
        </div>
      )}
    </section>
  );
}
