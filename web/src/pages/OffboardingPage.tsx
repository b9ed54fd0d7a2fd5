import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { components } from "../../../client/schema";
import { CameraPanel } from "../components/CameraPanel";
import { CodeForm } from "../components/CodeForm";
import { Layout } from "../components/Layout";
import { Notice, Spinner, type Tone } from "../components/ui";
import { parseCode } from "../state/codes";
import { loadCase, returnAsset } from "../state/offboarding";
import { t } from "../strings";

type Case = components["schemas"]["OffboardingCase"];
type Item = components["schemas"]["OffboardingItem"];

/**
 * An offboarding case as a return list (docs/offboarding.md#in-the-field-app): what the leaver still
 * holds, with tags. Scanning (camera or a typed / wedge code) an asset on the list checks it in; the
 * row is ticked at once, with what was inside it, and the server ticks the case off the same way.
 * Loaded lazily: only people who take returns in open it.
 */
export function OffboardingPage({ caseId }: { caseId: string }) {
  const w = t.offboarding;
  const kase = useSignal<Case | null>(null);
  const items = useSignal<Item[] | null>(null);
  const note = useSignal<{ tone: Tone; text: string } | null>(null);

  useEffect(() => {
    void (async () => {
      const [c, list] = await loadCase(caseId);
      if (!c.data || !list.data) {
        note.value = { tone: "error", text: c.error?.message ?? list.error?.message ?? w.notFound };
        return;
      }
      kase.value = c.data;
      items.value = list.data.items;
    })();
  }, [caseId]);

  async function onCode(raw: string) {
    const code = parseCode(raw);
    if (code.kind !== "tag") return;
    const list = items.value ?? [];
    const item = list.find(
      (i) => i.kind === "asset" && i.state === "outstanding" && i.reference?.toLowerCase() === code.tag.toLowerCase(),
    );
    if (!item) {
      note.value = { tone: "warn", text: w.notOnList(code.tag) };
      return;
    }
    const res = await returnAsset(item.itemId);
    if (!res.data) {
      note.value = { tone: "error", text: res.error?.message ?? t.unreachable };
      return;
    }
    // What was inside it came back with it.
    const back = new Set([item.itemId]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const i of list)
        if (i.parentAssetId && back.has(i.parentAssetId) && !back.has(i.itemId)) {
          back.add(i.itemId);
          grew = true;
        }
    }
    const at = new Date().toISOString();
    items.value = list.map((i) =>
      i.kind === "asset" && back.has(i.itemId) ? { ...i, state: "returned", returnedAt: at } : i,
    );
    note.value = { tone: "ok", text: w.checkedIn(item.name) };
  }

  const list = items.value;
  const left = list?.filter((i) => i.state === "outstanding") ?? [];
  return (
    <Layout title={kase.value ? w.title(kase.value.personName ?? kase.value.personId) : w.loading}>
      {note.value && <Notice tone={note.value.tone}>{note.value.text}</Notice>}
      {!list ? (
        !note.value && <Spinner label={t.loading} />
      ) : (
        <>
          <p>
            {kase.value?.state === "open" ? w.left(left.length, kase.value.dueAt) : w.state(kase.value?.state ?? "")}
          </p>
          <ul aria-label={w.listLabel}>
            {list.map((i) => (
              <li key={`${i.kind}:${i.itemId}`} data-state={i.state}>
                {i.state === "returned" ? "✓ " : ""}
                {i.name}
                {i.reference && i.kind === "asset" ? ` (${i.reference})` : ""}
                {i.quantity ? ` × ${i.quantity}` : ""}
                {i.parentAssetId ? ` ${w.inside}` : ""}
                {` · ${w.states[i.state]}`}
              </li>
            ))}
          </ul>
          {kase.value?.state === "open" && (
            <>
              <CameraPanel onCode={(raw) => void onCode(raw)} />
              <CodeForm onCode={(raw) => void onCode(raw)} submitLabel={w.checkIn} />
            </>
          )}
        </>
      )}
    </Layout>
  );
}
