import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { activeSessions, type Choice, chose, findPlaces, startAudit } from "../state/choices";
import { navigate } from "../state/router";
import { can } from "../state/session";
import { t } from "../strings";
import { Picker } from "./Picker";
import { Button, Field, Notice, Spinner } from "./ui";

/**
 * Audit, step one: the active sessions to scan into (GET /sessions/active), or a new one started
 * at once (POST /sessions with status "active") when the user's permissions (GET /auth/permissions,
 * the policy table) include createSession; a refusal would still be shown as the API's message.
 */
export function AuditChooser() {
  const sessions = useSignal<Choice[] | null>(null);
  const message = useSignal("");
  const name = useSignal("");
  const place = useSignal<Choice | null>(null);

  useEffect(() => {
    void activeSessions().then((r) => {
      sessions.value = r.items;
      if (r.message) message.value = r.message;
    });
  }, []);

  async function start(e: Event) {
    e.preventDefault();
    if (!name.value.trim()) return;
    const r = await startAudit(name.value.trim(), place.value?.id ?? null);
    if ("id" in r) navigate(`/scan/audit/${encodeURIComponent(r.id)}`);
    else message.value = r.message;
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
      {can("createSession") && (
        <>
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
            {/* The location tree, each place by its path, searchable; none chosen: every location. */}
            <Picker
              id="session-location"
              label={t.audit.location}
              search={(q) => findPlaces(q)}
              chosen={place.value}
              onPick={(p) => {
                chose("place", p);
                place.value = place.value?.id === p.id ? null : p;
              }}
            />
            <p class="hint">{place.value ? t.audit.chosenLocation(place.value.name) : t.audit.anyLocation}</p>
            <Button type="submit" variant="primary">
              {t.audit.startSubmit}
            </Button>
          </form>
        </>
      )}
    </>
  );
}
