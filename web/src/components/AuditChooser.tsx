import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { messageOf } from "../api/client";
import * as api from "../api/sessions";
import { navigate } from "../state/router";
import { t } from "../strings";
import { Button, Field, Notice, Spinner } from "./ui";

/**
 * Audit, step one: the active sessions to scan into (GET /sessions/active), or a new one started
 * at once (POST /sessions with status "active"; every role may, as the policy table says: a
 * refusal would be shown as the API's message).
 */
export function AuditChooser() {
  const sessions = useSignal<api.Session[] | null>(null);
  const places = useSignal<{ id: string; name: string }[]>([]);
  const message = useSignal("");
  const name = useSignal("");
  const locationId = useSignal("");

  useEffect(() => {
    void api
      .activeSessions()
      .then(({ data, error }) => {
        sessions.value = data?.items ?? [];
        if (!data) message.value = messageOf(error, t.unreachable);
      })
      .catch(() => {
        sessions.value = [];
        message.value = t.unreachable;
      });
    void api
      .locations()
      .then(({ data }) => {
        places.value = data?.items.map((l) => ({ id: l.id, name: l.name })) ?? [];
      })
      .catch(() => undefined);
  }, []);

  async function start(e: Event) {
    e.preventDefault();
    if (!name.value.trim()) return;
    try {
      const { data, error } = await api.startSession(name.value.trim(), locationId.value || null);
      if (data) navigate(`/scan/audit/${encodeURIComponent(data.id)}`);
      else message.value = messageOf(error, t.unreachable);
    } catch {
      message.value = t.unreachable;
    }
  }

  return (
    <>
      <h2>{t.audit.choose}</h2>
      {message.value && <Notice tone="error">{message.value}</Notice>}
      {sessions.value === null ? (
        <Spinner label={t.loading} />
      ) : sessions.value.length === 0 ? (
        <p>{t.audit.none}</p>
      ) : (
        <ul class="choices">
          {sessions.value.map((s) => (
            <li key={s.id}>
              <a class="btn" href={`/scan/audit/${encodeURIComponent(s.id)}`}>
                {t.audit.open(s.name)}
              </a>
            </li>
          ))}
        </ul>
      )}
      <h2>{t.audit.start}</h2>
      <form noValidate onSubmit={(e) => void start(e)}>
        <Field id="session-name" label={t.audit.name}>
          <input
            id="session-name"
            value={name.value}
            onInput={(e) => {
              name.value = e.currentTarget.value;
            }}
            required
          />
        </Field>
        <Field id="session-location" label={t.audit.location}>
          <select
            id="session-location"
            value={locationId.value}
            onChange={(e) => {
              locationId.value = e.currentTarget.value;
            }}
          >
            <option value="">{t.audit.anyLocation}</option>
            {places.value.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" variant="primary">
          {t.audit.startSubmit}
        </Button>
      </form>
    </>
  );
}
