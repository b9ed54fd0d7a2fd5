import { useEffect } from "preact/hooks";
import { Layout } from "../components/Layout";
import { RequestSummary } from "../components/RequestList";
import { Button, Notice, Spinner } from "../components/ui";
import { approve, decline, loadQueue, queue, said } from "../state/requests";
import { can } from "../state/session";
import { t } from "../strings";

/** `/requests/queue`: the open requests, oldest answer first, each with approve and decline. */
export default function QueuePage() {
  const answers = can("approveRequest");
  useEffect(() => {
    said.value = null;
    if (answers) void loadQueue();
  }, [answers]);
  if (!answers)
    return (
      <Layout title={t.roles.queue}>
        <Notice tone="info">{t.queue.notYours}</Notice>
      </Layout>
    );
  const q = queue.value;
  return (
    <Layout title={t.roles.queue}>
      {said.value && <Notice tone={said.value.tone}>{said.value.message}</Notice>}
      {q.status === "loading" && <Spinner label={t.loading} />}
      {q.status === "error" && <Notice tone="error">{q.message}</Notice>}
      {q.status === "ready" && q.value.length === 0 && <p>{t.queue.none}</p>}
      {q.status === "ready" && q.value.length > 0 && (
        <ul class="plain">
          {q.value.map((s) => (
            <li key={s.request.id} class="card">
              <RequestSummary shown={s} />
              <div class="actions">
                <Button
                  variant="primary"
                  aria-label={`${t.queue.approve}: ${s.what}`}
                  onClick={() => void approve(s.request.id)}
                >
                  {t.queue.approve}
                </Button>
                <Button aria-label={`${t.queue.decline}: ${s.what}`} onClick={() => void decline(s.request.id)}>
                  {t.queue.decline}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
