import { useSignal } from "@preact/signals";
import { type Ask, ask } from "../state/requests";
import { t } from "../strings";
import { Button, Field, Notice } from "./ui";

/** An instant from a datetime-local field (the phone's time zone), or undefined when empty. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * The form behind "Request": for an asset or kit, now (with an optional due date) or for a time
 * window; for stock, a quantity. What is missing is said in the words of the form, not the API's.
 */
export function RequestForm(props: {
  kind: Ask["kind"];
  id: string;
  name: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const when = useSignal<"now" | "window">("now");
  const problem = useSignal("");
  const busy = useSignal(false);
  const p = `rq-${props.id}`;
  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const value = (k: string) => String(form.get(k) ?? "").trim();
    const note = value("note") || undefined;
    let what: Ask;
    if (props.kind === "stock") {
      const quantity = Number(value("quantity"));
      if (!Number.isInteger(quantity) || quantity < 1) {
        problem.value = t.catalogue.needQuantity;
        return;
      }
      what = { kind: "stock", id: props.id, quantity, note };
    } else if (when.value === "window") {
      const startsAt = instant(value("from"));
      const endsAt = instant(value("to"));
      if (!startsAt || !endsAt) {
        problem.value = t.catalogue.needWindow;
        return;
      }
      what = { kind: props.kind, id: props.id, startsAt, endsAt, note };
    } else what = { kind: props.kind, id: props.id, dueBackAt: instant(value("due")), note };
    problem.value = "";
    busy.value = true;
    const ok = await ask(what, props.name);
    busy.value = false;
    if (ok) props.onDone();
  }
  return (
    <form class="panel" noValidate onSubmit={submit} aria-label={t.catalogue.requestThis(props.name)}>
      {problem.value && <Notice tone="error">{problem.value}</Notice>}
      {props.kind === "stock" ? (
        <Field id={`${p}-qty`} label={t.catalogue.quantity}>
          <input id={`${p}-qty`} name="quantity" type="number" inputMode="numeric" min={1} step={1} value="1" />
        </Field>
      ) : (
        <>
          <fieldset>
            <legend>{t.catalogue.when}</legend>
            {(["now", "window"] as const).map((w) => (
              <label key={w} class="choice">
                <input
                  type="radio"
                  name="when"
                  checked={when.value === w}
                  onChange={() => {
                    when.value = w;
                  }}
                />{" "}
                {w === "now" ? t.catalogue.now : t.catalogue.window}
              </label>
            ))}
          </fieldset>
          {when.value === "now" ? (
            <Field id={`${p}-due`} label={t.catalogue.dueBack}>
              <input id={`${p}-due`} name="due" type="datetime-local" />
            </Field>
          ) : (
            <>
              <Field id={`${p}-from`} label={t.catalogue.from}>
                <input id={`${p}-from`} name="from" type="datetime-local" />
              </Field>
              <Field id={`${p}-to`} label={t.catalogue.to}>
                <input id={`${p}-to`} name="to" type="datetime-local" />
              </Field>
            </>
          )}
        </>
      )}
      <Field id={`${p}-note`} label={t.catalogue.note}>
        <input id={`${p}-note`} name="note" type="text" maxLength={1000} />
      </Field>
      <div class="actions">
        <Button type="submit" variant="primary" disabled={busy.value}>
          {t.catalogue.send}
        </Button>
        <Button onClick={props.onCancel}>{t.actions.cancel}</Button>
      </div>
    </form>
  );
}
