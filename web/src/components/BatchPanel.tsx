import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as batch from "../state/batch";
import { type Choice, chose, findPeople, findPlaces } from "../state/choices";
import { clearHandoverOffer } from "../state/handover-offer";
import { can } from "../state/session";
import { t } from "../strings";
import { CameraPanel } from "./CameraPanel";
import { CodeForm } from "./CodeForm";
import { HandoverOffer } from "./HandoverOffer";
import { Picker } from "./Picker";
import { Button, Field, Notice } from "./ui";

/**
 * Batch: scan a list, choose one action and its target, apply it to the whole list at once. The
 * actions are shown when the user's permissions include the bulk route (the API decides per item).
 */
export function BatchPanel() {
  const picked = useSignal<"checkout" | "checkin" | "move" | null>(null);
  const target = useSignal<Choice | null>(null);
  // Until the person picks one, the action is the one that fits the list (batch.fittingAction).
  const action = { value: picked.value ?? batch.fittingAction(batch.list.value) };
  const ready = batch.list.value.filter((a) => a.id).length;
  const add = (raw: string) => void batch.addCode(raw);
  // An offer to sign belongs to the batch that made it, not to the next visit of this page.
  useEffect(() => clearHandoverOffer(), []);

  function apply(e: Event) {
    e.preventDefault();
    const a = action.value;
    if (a === "checkin") void batch.run({ action: "checkin" });
    else if (target.value)
      void batch.run(
        a === "checkout" ? { action: a, personId: target.value.id } : { action: a, locationId: target.value.id },
      );
  }

  return (
    <>
      {batch.batchMessage.value && <Notice tone="info">{batch.batchMessage.value}</Notice>}
      <HandoverOffer />
      <CameraPanel onCode={add} />
      <CodeForm onCode={add} submitLabel={t.actions.send} />
      <h2>{t.batch.list(batch.list.value.length)}</h2>
      {batch.list.value.length === 0 ? (
        <p>{t.batch.empty}</p>
      ) : (
        <ul class="plain batch-list">
          {batch.list.value.map((a) => (
            <li key={a.key} class="row">
              <span class="grow">
                {a.name ?? a.tag} {a.problem && <strong>({a.problem})</strong>}
              </span>
              <Button onClick={() => batch.remove(a.key)} aria-label={t.batch.remove(a.name ?? a.tag)}>
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      {can("bulkInventoryItems") && (
        <form noValidate onSubmit={apply}>
          <Field id="batch-action" label={t.batch.action}>
            <select
              id="batch-action"
              value={action.value}
              onChange={(e) => {
                picked.value = e.currentTarget.value as typeof action.value;
                target.value = null;
              }}
            >
              <option value="checkin">{t.actions.checkIn}</option>
              <option value="checkout">{t.actions.checkOut}</option>
              <option value="move">{t.actions.move}</option>
            </select>
          </Field>
          {action.value !== "checkin" && (
            <Picker
              key={action.value}
              id="batch-target"
              label={action.value === "checkout" ? t.batch.checkOutTo : t.batch.moveTo}
              search={action.value === "checkout" ? findPeople : (q) => findPlaces(q)}
              chosen={target.value}
              detail={(c) => c.detail ?? null}
              onPick={(c) => {
                chose(action.value === "checkout" ? "person" : "place", c);
                target.value = c;
              }}
            />
          )}
          <Button type="submit" variant="primary" disabled={!ready || (action.value !== "checkin" && !target.value)}>
            {t.batch.run(ready)}
          </Button>
        </form>
      )}
      {batch.outcomes.value.length > 0 && (
        <section aria-labelledby="batch-results">
          <h2 id="batch-results">{t.batch.results}</h2>
          <ul class="plain">
            {batch.outcomes.value.map((o) => (
              <li key={o.id} class={`result result-${o.ok ? "accepted" : "unknown"}`}>
                <strong>{o.ok ? t.batch.ok : t.batch.failed}:</strong> {o.name}
                {!o.ok && o.error && ` — ${o.error.message}`}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
