import { useEffect, useLayoutEffect } from "preact/hooks";
import * as audit from "../state/audit";
import { differing, pending, replayError } from "../state/scan-queue";
import { currentUser } from "../state/session";
import { t } from "../strings";
import { CameraPanel } from "./CameraPanel";
import { CodeForm } from "./CodeForm";
import { Button, Notice, Spinner } from "./ui";

/** How long a code took from the camera frame to its result on screen (read by bench/field.mjs). */
function useLatencyMark(entry: audit.ScanEntry | undefined) {
  useLayoutEffect(() => {
    const seenAt = entry?.seenAt;
    if (seenAt === undefined) return;
    requestAnimationFrame(() => performance.measure("scan-to-screen", { start: seenAt, end: performance.now() }));
  }, [entry?.key]);
}

/** What a result is about: the asset's name, or the code as read when there is no asset. */
const describe = (entry: audit.ScanEntry) => (entry.kind === "unknown" || !entry.name ? entry.code : entry.name);

function ResultRow({ entry }: { entry: audit.ScanEntry }) {
  const label = t.audit.kinds[entry.kind];
  const what = describe(entry);
  return (
    // data-code: the code as read (a QR's URL, a Code 128's value), for the tests and the benchmark.
    <li class={`result result-${entry.kind}`} data-kind={entry.kind} data-code={entry.code}>
      <p>
        <strong>{label}:</strong> {what}
        {entry.guess && ` (${t.audit.guesses[entry.guess]})`}
        {entry.message && ` — ${entry.message}`}
      </p>
      {entry.kind === "wrong" && !entry.resolved && (
        <>
          <p class="hint">{t.audit.wrongHint}</p>
          <Button onClick={() => void audit.markAnyway(entry)}>{t.audit.markAnyway}</Button>
        </>
      )}
      {entry.kind === "accepted" &&
        entry.itemId &&
        (entry.undone ? (
          <p class="hint">{t.audit.undone}</p>
        ) : (
          <Button variant="danger" onClick={() => void audit.undo(entry)} aria-label={`${t.audit.undo}: ${what}`}>
            {t.audit.undo}
          </Button>
        ))}
    </li>
  );
}

/**
 * Audit, step two: scanning into one session. The newest result is on top in words, colour, sound
 * and vibration; progress and the missing list follow the server (everyone's scans).
 */
export function AuditSession({ id }: { id: string }) {
  useEffect(() => {
    void audit.openSession(id);
    return audit.closeSession;
  }, [id]);
  const m = audit.mobile.value;
  const p = audit.progress.value;
  const me = currentUser.value?.id;
  const entries = audit.results.value;
  useLatencyMark(entries[0]);
  const submit = (raw: string, seenAt?: number) => void audit.submit(raw, seenAt);

  if (!m) return <Spinner label={t.loading} />;
  return (
    <>
      <h2>{m.session.name}</h2>
      {p && (
        <p class="progress" role="status" aria-live="polite">
          <progress value={p.scanned} max={Math.max(p.total, 1)} aria-hidden="true" />{" "}
          <strong>{t.audit.progress(p.scanned, p.total)}</strong>
        </p>
      )}
      {audit.copySavedAt.value && (
        <Notice tone="warn">{t.audit.offlineCopy(new Date(audit.copySavedAt.value).toLocaleString())}</Notice>
      )}
      {pending.value > 0 && <Notice tone="info">{t.audit.pending(pending.value)}</Notice>}
      {replayError.value && <Notice tone="error">{t.audit.replayError(replayError.value)}</Notice>}
      {audit.auditError.value && <Notice tone="error">{audit.auditError.value}</Notice>}
      {entries[0] && (
        <p class={`latest result-${entries[0].kind}`} role="status">
          <strong>{t.audit.kinds[entries[0].kind]}:</strong> {describe(entries[0])}
        </p>
      )}
      <CameraPanel onCode={submit} />
      <CodeForm onCode={submit} submitLabel={t.nav.scan} />
      {differing.value.length > 0 && (
        <section aria-labelledby="differing">
          <h3 id="differing">{t.audit.differing}</h3>
          <ul class="plain">
            {differing.value.map((d) => (
              <li key={d.scanId}>{t.audit.differ(d.name ?? d.code, d.guess, d.result)}</li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="results">
        <h3 id="results">{t.audit.results}</h3>
        <ul class="plain results">
          {entries.map((e) => (
            <ResultRow key={e.key} entry={e} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="missing">
        <h3 id="missing">{t.audit.missing(p?.missing ?? audit.missingItems.value.length)}</h3>
        {audit.missingItems.value.length === 0 ? (
          <p>{t.audit.noneMissing}</p>
        ) : (
          <ul class="plain missing-list">
            {audit.missingItems.value.map((i) => (
              <li key={i.itemId}>
                {i.name} <span class="hint">({i.uniqueTag})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="recent">
        <h3 id="recent">{t.audit.recent}</h3>
        <ul class="plain recent-list">
          {m.recentScans
            .filter((s) => !s.unscanned)
            .map((s) => (
              <li key={s.scanId}>
                {s.name ?? s.code} — {t.audit.kinds[audit.kindOf(s)]},{" "}
                {s.scannedBy === me ? t.audit.byYou : t.audit.byOther}
              </li>
            ))}
        </ul>
      </section>
    </>
  );
}
