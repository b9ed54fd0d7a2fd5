import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { t } from "../strings";
import { Field } from "./ui";

/**
 * A search box and the matches as buttons (people for a checkout or booking, locations for a
 * move). Before anything is typed it offers the recent and nearby choices (`search("")`);
 * searching waits for a pause in typing; choosing calls `onPick`.
 */
export function Picker<T extends { id: string; name: string }>(props: {
  id: string;
  label: string;
  search: (q: string) => Promise<T[]>;
  onPick: (choice: T) => void;
  chosen: T | null;
  detail?: (choice: T) => string | null;
}) {
  const q = useSignal("");
  const found = useSignal<T[]>([]);
  const searched = useSignal(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      void props.search(q.value.trim()).then((items) => {
        found.value = items;
        searched.value = true;
      });
    }, 200);
    return () => clearTimeout(timer);
  }, [q.value]);
  return (
    <>
      <Field id={props.id} label={props.label}>
        <input
          id={props.id}
          type="search"
          autoComplete="off"
          value={q.value}
          onInput={(e) => {
            q.value = (e.target as HTMLInputElement).value;
          }}
        />
      </Field>
      {searched.value && found.value.length === 0 && <p class="hint">{t.actions.noMatches}</p>}
      {!q.value.trim() && found.value.length > 0 && <p class="hint">{t.actions.recent}</p>}
      <ul class="choices" aria-label={t.actions.matches}>
        {found.value.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              class={`btn ${props.chosen?.id === item.id ? "btn-primary" : "btn-plain"}`}
              aria-pressed={props.chosen?.id === item.id}
              onClick={() => props.onPick(item)}
            >
              {item.name}
              {props.detail?.(item) ? ` (${props.detail(item)})` : ""}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
