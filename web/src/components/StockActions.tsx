import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { type Choice, chose, findPeople } from "../state/choices";
import { can } from "../state/session";
import { assetIdOf, countableSessions, countIn, loadStock, placeName, type StockView } from "../state/stock";
import { submitMove } from "../state/stock-queue";
import { t } from "../strings";
import { Picker } from "./Picker";
import { Select, Text, whole } from "./StockFields";
import { Button, Notice, type Tone } from "./ui";

type Kind = "issue" | "receive" | "return" | "transfer" | "adjust" | "count";

/** Each action is shown only when the user may call its route (GET /auth/permissions). */
const ACTIONS: { kind: Kind; operation: string }[] = [
  { kind: "issue", operation: "issueStock" },
  { kind: "receive", operation: "receiveStock" },
  { kind: "return", operation: "returnStock" },
  { kind: "transfer", operation: "transferStock" },
  { kind: "adjust", operation: "adjustStock" },
  { kind: "count", operation: "countSessionStock" },
];

type Said = { tone: Tone; message: string } | null;

/** One action's form; what it sends goes through the stock queue (kept until answered). */
function StockForm({
  kind,
  view,
  close,
  say,
}: {
  kind: Kind;
  view: StockView;
  close: () => void;
  say: (s: Said) => void;
}) {
  const { item } = view;
  const held = view.levels
    .filter((l) => l.quantity > 0)
    .map((l) => [l.locationId, `${placeName(view, l.locationId)} (${l.quantity})`] as [string, string]);
  const all = [...view.places.entries()];
  const from = useSignal(held.length === 1 ? held[0]![0] : "");
  const to = useSignal("");
  const quantity = useSignal("");
  const reason = useSignal("");
  const target = useSignal<"person" | "asset" | "location">("person");
  const person = useSignal<Choice | null>(null);
  const assetTag = useSignal("");
  const issueId = useSignal(view.openIssues.length === 1 ? view.openIssues[0]!.id : "");
  const sessions = useSignal<[string, string][]>([]);
  const sessionId = useSignal("");
  const problem = useSignal("");
  const busy = useSignal(false);
  useEffect(() => {
    if (kind === "count")
      void countableSessions()
        .then((s) => {
          sessions.value = s.map((x) => [x.id, x.name]);
          if (s.length === 1) sessionId.value = s[0]!.id;
        })
        .catch(() => undefined);
  }, [kind]);

  async function body(): Promise<Record<string, unknown> | string> {
    const qty = whole(quantity.value, 1);
    switch (kind) {
      case "receive":
        if (!to.value) return t.stock.needLocation;
        return qty === null ? t.stock.needQuantity : { locationId: to.value, quantity: qty };
      case "transfer":
        if (!from.value || !to.value) return t.stock.needLocation;
        if (from.value === to.value) return t.stock.sameLocation;
        return qty === null
          ? t.stock.needQuantity
          : { fromLocationId: from.value, toLocationId: to.value, quantity: qty };
      case "return":
        if (!issueId.value) return t.stock.noOpenIssues;
        if (quantity.value.trim() && qty === null) return t.stock.needQuantity;
        return {
          issueId: issueId.value,
          ...(qty === null ? {} : { quantity: qty }),
          ...(to.value ? { locationId: to.value } : {}),
        };
      case "adjust": {
        const counted = whole(quantity.value, 0);
        if (!from.value && !to.value) return t.stock.needLocation;
        if (counted === null) return t.stock.needCounted;
        if (!reason.value.trim()) return t.stock.needReason;
        return { locationId: to.value || from.value, countedQuantity: counted, reason: reason.value.trim() };
      }
      default: {
        if (!from.value) return t.stock.needLocation;
        if (qty === null) return t.stock.needQuantity;
        if (target.value === "person")
          return person.value
            ? { locationId: from.value, quantity: qty, personId: person.value.id }
            : t.stock.needTarget;
        if (target.value === "location")
          return to.value ? { locationId: from.value, quantity: qty, toLocationId: to.value } : t.stock.needTarget;
        if (!assetTag.value.trim()) return t.stock.needTarget;
        const asset = await assetIdOf(assetTag.value).catch(() => null);
        if (!asset) return t.holder.unknownAsset(assetTag.value.trim());
        return { locationId: from.value, quantity: qty, assetId: asset.id };
      }
    }
  }

  const fail = (message: string) => {
    problem.value = message;
  };

  async function submit(e: Event) {
    e.preventDefault();
    problem.value = "";
    busy.value = true;
    try {
      const label = t.stock[kind];
      if (kind === "count") {
        const counted = whole(quantity.value, 0);
        if (!sessionId.value) return fail(t.stock.needSession);
        if (!from.value && !to.value) return fail(t.stock.needLocation);
        if (counted === null) return fail(t.stock.needCounted);
        const res = await countIn(sessionId.value, item.id, to.value || from.value, counted);
        if ("error" in res) return fail(res.error ?? t.unreachable);
        close();
        say({ tone: "ok", message: t.stock.countResult(res.count.counted, res.count.expected, res.count.variance) });
        return;
      }
      const b = await body();
      if (typeof b === "string") return fail(b);
      const sent = await submitMove(item, kind, b as never);
      close();
      if (sent.outcome === "done") {
        say({ tone: "ok", message: t.stock.done(label) });
        await loadStock(item.tag, t.unreachable, true);
      } else if (sent.outcome === "queued") say({ tone: "info", message: t.stock.queued(label) });
      else say({ tone: "error", message: t.stock.refused(sent.message) });
    } catch {
      problem.value = t.unreachable;
    } finally {
      busy.value = false;
    }
  }

  const fromField = <Select id="stock-from" label={t.stock.from} value={from} options={held} />;
  const toField = (label: string) => <Select id="stock-to" label={label} value={to} options={all} />;
  return (
    <form class="panel" aria-label={t.stock[kind]} noValidate onSubmit={(e) => void submit(e)}>
      {kind === "issue" && (
        <>
          {fromField}
          <Text id="stock-qty" label={t.stock.quantity} value={quantity} numeric />
          <fieldset class="stack">
            <legend>{t.stock.issueTo}</legend>
            {(["person", "asset", "location"] as const).map((k) => (
              <label key={k} class="choice">
                <input
                  type="radio"
                  name="issue-to"
                  checked={target.value === k}
                  onChange={() => {
                    target.value = k;
                  }}
                />{" "}
                {k === "person" ? t.stock.toPerson : k === "asset" ? t.stock.toAsset : t.stock.toLocation}
              </label>
            ))}
          </fieldset>
          {target.value === "person" && (
            <Picker
              id="stock-person"
              label={t.actions.searchPerson}
              search={findPeople}
              chosen={person.value}
              detail={(p) => p.detail ?? null}
              onPick={(p) => {
                chose("person", p);
                person.value = p;
              }}
            />
          )}
          {target.value === "asset" && <Text id="stock-asset" label={t.stock.assetTag} value={assetTag} />}
          {target.value === "location" && toField(t.stock.to)}
        </>
      )}
      {kind === "receive" && (
        <>
          {toField(t.stock.to)}
          <Text id="stock-qty" label={t.stock.quantity} value={quantity} numeric />
        </>
      )}
      {kind === "transfer" && (
        <>
          {fromField}
          {toField(t.stock.to)}
          <Text id="stock-qty" label={t.stock.quantity} value={quantity} numeric />
        </>
      )}
      {kind === "return" &&
        (view.openIssues.length === 0 ? (
          <p>{t.stock.noOpenIssues}</p>
        ) : (
          <>
            <Select
              id="stock-issue"
              label={t.stock.openIssue}
              value={issueId}
              options={view.openIssues.map((m) => [
                m.id,
                t.stock.issueLine(
                  m.openQuantity ?? m.quantity,
                  new Date(m.at).toLocaleDateString("en", { dateStyle: "medium" }),
                ),
              ])}
            />
            <Text id="stock-qty" label={t.stock.quantity} value={quantity} numeric />
            {toField(t.stock.to)}
          </>
        ))}
      {(kind === "adjust" || kind === "count") && (
        <>
          {kind === "count" && (
            <Select id="stock-session" label={t.stock.session} value={sessionId} options={sessions.value} />
          )}
          {kind === "count" && sessions.value.length === 0 && <p class="hint">{t.stock.noSessions}</p>}
          {toField(t.stock.at)}
          <Text id="stock-qty" label={t.stock.counted} value={quantity} numeric />
          {kind === "adjust" && <Text id="stock-reason" label={t.stock.reason} value={reason} />}
        </>
      )}
      {problem.value && <Notice tone="error">{problem.value}</Notice>}
      <div class="row">
        <Button type="submit" variant="primary" disabled={busy.value}>
          {t.stock.submit}
        </Button>
        <Button onClick={close}>{t.actions.cancel}</Button>
      </div>
    </form>
  );
}

/** The actions on a stock item, by permission; one form open at a time. */
export function StockActions({ view, say }: { view: StockView; say: (s: Said) => void }) {
  const open = useSignal<Kind | null>(null);
  const shown = ACTIONS.filter((a) => can(a.operation));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="stock-actions">
      <h2 id="stock-actions">{t.stock.actions}</h2>
      {open.value ? (
        <StockForm
          kind={open.value}
          view={view}
          say={say}
          close={() => {
            open.value = null;
          }}
        />
      ) : (
        <div class="actions">
          {shown.map((a) => (
            <Button
              key={a.kind}
              variant={a.kind === "issue" ? "primary" : "plain"}
              onClick={() => {
                say(null);
                open.value = a.kind;
              }}
            >
              {t.stock[a.kind]}
            </Button>
          ))}
        </div>
      )}
    </section>
  );
}
