import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { AuditChooser } from "../components/AuditChooser";
import { AuditSession } from "../components/AuditSession";
import { BatchPanel } from "../components/BatchPanel";
import { CameraPanel } from "../components/CameraPanel";
import { ClaimCode } from "../components/ClaimCode";
import { CodeForm } from "../components/CodeForm";
import { HolderScan } from "../components/HolderScan";
import { Layout } from "../components/Layout";
import { Notice } from "../components/ui";
import { listenForWedge } from "../platform/wedge";
import * as audit from "../state/audit";
import * as batch from "../state/batch";
import { pageFor, parseCode } from "../state/codes";
import { navigate, path } from "../state/router";
import { can } from "../state/session";
import { t } from "../strings";

type Mode =
  | { mode: "lookUp" }
  | { mode: "audit"; sessionId: string | null }
  | { mode: "batch" }
  | { mode: "holder"; tag: string }
  | { mode: "claim"; value: string };

/**
 * /scan: look up; /scan/audit and /scan/audit/{sessionId}: audit; /scan/batch: batch;
 * /scan/holder/{tag}: the holder of a checkout, scanned; /scan/claim/{value}: a reserved code claimed.
 */
function modeOf(p: string): Mode {
  if (p === "/scan/batch") return { mode: "batch" };
  const claim = /^\/scan\/claim\/([^/]+)$/.exec(p);
  if (claim?.[1]) return { mode: "claim", value: decodeURIComponent(claim[1]) };
  const holder = /^\/scan\/holder\/([^/]+)$/.exec(p);
  if (holder?.[1]) return { mode: "holder", tag: decodeURIComponent(holder[1]) };
  const m = /^\/scan\/audit(?:\/([^/]+))?$/.exec(p);
  if (m) return { mode: "audit", sessionId: m[1] ? decodeURIComponent(m[1]) : null };
  return { mode: "lookUp" };
}

/** Each mode is opened only for a user who may call the routes it needs (GET /auth/permissions). */
const MODES = [
  { mode: "lookUp", href: "/scan", label: t.modes.lookUp, needs: ["getInventoryItemByTag"] },
  { mode: "audit", href: "/scan/audit", label: t.modes.audit, needs: ["listActiveSessions", "scanSessionItem"] },
  { mode: "batch", href: "/scan/batch", label: t.modes.batch, needs: ["bulkInventoryItems"] },
  // Reached from an asset's check-out form, never a tab of its own.
  { mode: "holder", needs: ["getInventoryItemByTag", "checkoutInventoryItem"] },
  // Reached from a scan of a reserved code (the look-up, an asset page), never a tab of its own.
  { mode: "claim", needs: ["lookupCode", "claimCode", "listInventoryItems", "getInventoryItemByTag"] },
] as const;

function LookUp() {
  const message = useSignal("");
  const lookUp = async (raw: string) => {
    const code = parseCode(raw);
    if (code.kind === "empty") message.value = t.scan.empty;
    else if (code.kind === "otherWorkspace") message.value = t.scan.otherWorkspace(code.host);
    else {
      const to = await pageFor(code, { lookUpCodes: can("lookupCode") });
      if (to) navigate(to);
    }
  };
  const latest = useRef(lookUp);
  latest.current = lookUp;
  useEffect(() => listenForWedge((raw) => void latest.current(raw)), []);
  return (
    <>
      {message.value && <Notice tone="warn">{message.value}</Notice>}
      <CameraPanel onCode={(raw) => void lookUp(raw)} />
      <CodeForm onCode={(raw) => void lookUp(raw)} submitLabel={t.scan.open} />
    </>
  );
}

/**
 * The scanner: three modes, each taking codes from the camera, a keyboard-wedge scanner and the
 * keyboard (docs/field-app.md "The scanner").
 */
export function ScanPage() {
  const allowed = MODES.filter((m) => m.needs.every(can));
  const tabs = allowed.filter((m) => "href" in m);
  const asked = modeOf(path.value);
  // A mode the user may not use is not opened (its calls would be refused): look up instead.
  const current: Mode = allowed.some((m) => m.mode === asked.mode) ? asked : { mode: "lookUp" };
  const auditId = current.mode === "audit" ? current.sessionId : null;
  useEffect(() => {
    // A wedge scan outside any field goes to the mode on screen (in a field, the form takes it).
    if (current.mode === "batch") return listenForWedge((raw) => void batch.addCode(raw));
    if (auditId) return listenForWedge((raw) => void audit.submit(raw));
    return undefined;
  }, [current.mode, auditId]);

  return (
    <Layout title={t.scan.title}>
      {tabs.length > 1 && (
        <nav aria-label={t.modes.label} class="tabs">
          {tabs.map((tab) => (
            <a
              key={tab.mode}
              class={`btn ${tab.mode === current.mode ? "btn-primary" : "btn-plain"}`}
              href={tab.href}
              aria-current={tab.mode === current.mode ? "page" : undefined}
            >
              {tab.label}
            </a>
          ))}
        </nav>
      )}
      {current.mode === "lookUp" && <LookUp />}
      {current.mode === "audit" && (auditId ? <AuditSession id={auditId} /> : <AuditChooser />)}
      {current.mode === "batch" && <BatchPanel />}
      {current.mode === "holder" && <HolderScan tag={current.tag} />}
      {current.mode === "claim" && <ClaimCode value={current.value} />}
    </Layout>
  );
}
