import type { Shown } from "../state/requests";
import { t } from "../strings";
import { dateTime } from "./format";

/** One request in words: what, for when or how many, its state, and the answer's note. */
export function RequestSummary({ shown }: { shown: Shown }) {
  const r = shown.request;
  return (
    <>
      <p>
        <strong>{t.requests.what(shown.what, t.requests.kind[r.kind] ?? r.kind)}</strong>
      </p>
      {shown.who && <p>{t.queue.by(shown.who)}</p>}
      <p>
        <span class={`badge badge-request-${r.status}`}>{t.requests.state[r.status] ?? r.status}</span>
      </p>
      {r.quantity != null && <p>{t.requests.quantity(r.quantity)}</p>}
      {r.startsAt && r.endsAt && <p>{t.requests.window(dateTime(r.startsAt), dateTime(r.endsAt))}</p>}
      {r.dueBackAt && <p>{t.requests.dueBack(dateTime(r.dueBackAt))}</p>}
      {r.note && <p class="hint">“{r.note}”</p>}
      <p class="hint">{t.requests.asked(dateTime(r.createdAt))}</p>
      {r.decisionNote && <p>{t.requests.answer(r.decisionNote)}</p>}
    </>
  );
}
