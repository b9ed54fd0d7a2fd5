import { useEffect } from "preact/hooks";
import { Layout } from "../components/Layout";
import { RequestSummary } from "../components/RequestList";
import { Button, LinkButton, Notice, Spinner } from "../components/ui";
import { cancel, loadMine, myRequests, said } from "../state/requests";
import { can } from "../state/session";
import { t } from "../strings";

/** `/requests`: the user's own requests and their state; an open one can be withdrawn. */
export default function MyRequestsPage() {
  useEffect(() => {
    said.value = null;
    void loadMine();
  }, []);
  const m = myRequests.value;
  return (
    <Layout title={t.roles.myRequests}>
      {said.value && <Notice tone={said.value.tone}>{said.value.message}</Notice>}
      {m.status === "loading" && <Spinner label={t.loading} />}
      {m.status === "error" && <Notice tone="error">{m.message}</Notice>}
      {m.status === "ready" && m.value.length === 0 && (
        <>
          <p>{t.requests.none}</p>
          <LinkButton variant="primary" href="/catalogue">
            {t.roles.catalogue}
          </LinkButton>
        </>
      )}
      {m.status === "ready" && m.value.length > 0 && (
        <ul class="plain">
          {m.value.map((s) => (
            <li key={s.request.id} class="card">
              <RequestSummary shown={s} />
              {s.request.status === "open" && can("cancelRequest") && (
                <Button onClick={() => void cancel(s.request.id)}>{t.requests.cancel}</Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
