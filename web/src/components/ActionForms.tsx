import { type Signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { asset } from "../state/asset";
import * as act from "../state/asset-actions";
import { type Choice, chose, findPeople, findPlaces } from "../state/choices";
import { holderScanPath } from "../state/holder";
import { t } from "../strings";
import { Picker } from "./Picker";
import { Button, Field } from "./ui";

type FormProps = { tag: string; name: string; holds?: number };

function Actions({ confirm, disabled }: { confirm: string; disabled?: boolean }) {
  return (
    <div class="row">
      <Button type="submit" variant="primary" disabled={disabled || act.busy.value}>
        {confirm}
      </Button>
      <Button
        onClick={() => {
          act.openAction.value = null;
        }}
      >
        {t.actions.cancel}
      </Button>
    </div>
  );
}

/** Whom an asset goes to (check out, book): people searched by name. */
function PersonPicker({ id, chosen }: { id: string; chosen: Signal<Choice | null> }) {
  return (
    <Picker
      id={id}
      label={t.actions.searchPerson}
      search={findPeople}
      chosen={chosen.value}
      detail={(p) => p.detail ?? null}
      onPick={(p) => {
        chose("person", p);
        chosen.value = p;
      }}
    />
  );
}

const submitting = (fn: () => unknown) => (e: Event) => {
  e.preventDefault();
  void fn();
};

/** Due back is optional; an asset booked later can only go out until that booking starts. */
export function CheckOutForm({ tag }: FormProps) {
  const person = useSignal<Choice | null>(null);
  const due = useRef<HTMLInputElement>(null);
  return (
    <form
      class="panel"
      aria-label={t.actions.checkOut}
      onSubmit={submitting(() => {
        if (!person.value) return;
        const value = due.current?.value;
        const dueBackAt = value ? new Date(value).toISOString() : undefined;
        return act.checkOut(tag, person.value, dueBackAt, t.actions.done.checkOut(person.value.name), t.unreachable);
      })}
    >
      <PersonPicker id="person" chosen={person} />
      <Field id="due-back" label={t.actions.dueBack}>
        <input id="due-back" ref={due} type="datetime-local" />
      </Field>
      <Actions confirm={t.actions.confirmCheckOut} disabled={!person.value} />
      <p>
        <a class="btn btn-plain" href={holderScanPath(tag)}>
          {t.holder.scanHolder}
        </a>
      </p>
    </form>
  );
}

/** An asset that holds others (checked out to it) offers to bring them back too (cascade). */
export function CheckInForm({ tag, holds = 0 }: FormProps) {
  const notes = useRef<HTMLTextAreaElement>(null);
  const cascade = useSignal(false);
  return (
    <form
      class="panel"
      aria-label={t.actions.checkIn}
      onSubmit={submitting(() =>
        act.checkIn(tag, notes.current?.value ?? "", cascade.value, t.actions.done.checkIn, t.unreachable),
      )}
    >
      {holds > 0 && (
        <div class="field">
          <p class="hint">{t.holder.holds(holds)}</p>
          <label class="choice">
            <input
              type="checkbox"
              checked={cascade.value}
              onChange={(e) => {
                cascade.value = (e.target as HTMLInputElement).checked;
              }}
            />{" "}
            {t.holder.cascade}
          </label>
        </div>
      )}
      <Field id="checkin-notes" label={t.actions.checkInNotes}>
        <textarea id="checkin-notes" ref={notes} maxLength={2000} />
      </Field>
      <Actions confirm={t.actions.confirmCheckIn} />
    </form>
  );
}

export function MoveForm({ tag }: FormProps) {
  const place = useSignal<Choice | null>(null);
  return (
    <form
      class="panel"
      aria-label={t.actions.move}
      onSubmit={submitting(
        () => place.value && act.move(tag, place.value, t.actions.done.move(place.value.name), t.unreachable),
      )}
    >
      <Picker
        id="location"
        label={t.actions.newLocation}
        search={(q) => findPlaces(q, asset.value.status === "ready" ? asset.value.view.item.locationId : null)}
        chosen={place.value}
        onPick={(l) => {
          chose("place", l);
          place.value = l;
        }}
      />
      <Actions confirm={t.actions.confirmMove} disabled={!place.value} />
    </form>
  );
}

/** The photo comes from the camera app (`capture`): it opens only when the person taps the field. */
export function ReportForm({ tag, name }: FormProps) {
  const text = useRef<HTMLTextAreaElement>(null);
  const photo = useSignal<File | null>(null);
  const preview = useSignal<string | null>(null);
  useEffect(() => () => preview.value && URL.revokeObjectURL(preview.value), [preview.value]);
  return (
    <form
      class="panel"
      aria-label={t.actions.report}
      onSubmit={submitting(() => {
        const message = text.current?.value.trim() ?? "";
        if (!message) return text.current?.focus();
        return act.report(
          tag,
          t.actions.reportTitle(name, tag),
          `${message}\n\n${location.origin}/a/${encodeURIComponent(tag)}`,
          photo.value,
          t.actions.done.report,
          t.unreachable,
        );
      })}
    >
      <Field id="problem" label={t.actions.problem}>
        <textarea id="problem" ref={text} required maxLength={5000} />
      </Field>
      <Field id="photo" label={t.actions.photo}>
        <input
          id="photo"
          type="file"
          accept="image/jpeg,image/png"
          capture="environment"
          onChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0] ?? null;
            photo.value = file;
            preview.value = file ? URL.createObjectURL(file) : null;
          }}
        />
      </Field>
      {preview.value && <img class="photo" src={preview.value} alt={t.actions.photoPreview} />}
      <Actions confirm={t.actions.send} />
    </form>
  );
}

const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export function BookForm({ tag }: FormProps) {
  const person = useSignal<Choice | null>(null);
  const from = useRef<HTMLInputElement>(null);
  const to = useRef<HTMLInputElement>(null);
  const soon = new Date(Date.now() + 3_600_000);
  return (
    <form
      class="panel"
      aria-label={t.actions.book}
      onSubmit={submitting(() => {
        const start = new Date(from.current?.value ?? "");
        const end = new Date(to.current?.value ?? "");
        if (!person.value || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return;
        return act.book(tag, person.value, start.toISOString(), end.toISOString(), t.actions.done.book, t.unreachable);
      })}
    >
      <PersonPicker id="booker" chosen={person} />
      <Field id="from" label={t.actions.from}>
        <input id="from" ref={from} type="datetime-local" required value={localInput(soon)} />
      </Field>
      <Field id="to" label={t.actions.to}>
        <input
          id="to"
          ref={to}
          type="datetime-local"
          required
          value={localInput(new Date(soon.getTime() + 86_400_000))}
        />
      </Field>
      <Actions confirm={t.actions.confirmBook} disabled={!person.value} />
    </form>
  );
}
