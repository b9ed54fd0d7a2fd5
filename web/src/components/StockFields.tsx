import type { Signal } from "@preact/signals";
import { Field } from "./ui";

/** The fields of the stock forms (StockActions.tsx): a labelled choice and a labelled text box bound to signals. */

/** A whole number of at least `min`, or null. */
export const whole = (value: string, min: number) =>
  /^\d+$/.test(value.trim()) && Number(value) >= min ? Number(value) : null;

export function Select(props: { id: string; label: string; value: Signal<string>; options: [string, string][] }) {
  return (
    <Field id={props.id} label={props.label}>
      <select
        id={props.id}
        value={props.value.value}
        onChange={(e) => {
          props.value.value = (e.target as HTMLSelectElement).value;
        }}
      >
        <option value="">—</option>
        {props.options.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function Text(props: { id: string; label: string; value: Signal<string>; numeric?: boolean }) {
  return (
    <Field id={props.id} label={props.label}>
      <input
        id={props.id}
        inputMode={props.numeric ? "numeric" : undefined}
        autoComplete="off"
        value={props.value.value}
        onInput={(e) => {
          props.value.value = (e.target as HTMLInputElement).value;
        }}
      />
    </Field>
  );
}
