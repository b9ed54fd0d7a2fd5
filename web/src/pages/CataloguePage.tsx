import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { Layout } from "../components/Layout";
import { RequestForm } from "../components/RequestForm";
import { Button, Field, Notice, Spinner } from "../components/ui";
import { type Ask, catalogue, loadCatalogue, said } from "../state/requests";
import { t } from "../strings";

type Row = { kind: Ask["kind"]; id: string; name: string; detail: string };

/** `/catalogue`: what may be requested (assets, kits, stock), searchable, each with "Request". */
export default function CataloguePage() {
  const q = useSignal("");
  const open = useSignal<string | null>(null);
  useEffect(() => {
    said.value = null;
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => void loadCatalogue(q.value.trim()), 200);
    return () => clearTimeout(timer);
  }, [q.value]);
  const c = catalogue.value;
  const sections: { title: string; rows: Row[] }[] =
    c.status === "ready"
      ? [
          {
            title: t.catalogue.assets,
            rows: c.value.assets.map((a) => ({
              kind: "asset",
              id: a.id,
              name: a.name,
              detail: t.catalogue.status(a.status),
            })),
          },
          {
            title: t.catalogue.kits,
            rows: c.value.kits.map((k) => ({
              kind: "kit",
              id: k.id,
              name: k.name,
              detail: t.catalogue.status(k.status),
            })),
          },
          {
            title: t.catalogue.stock,
            rows: c.value.stock.map((s) => ({
              kind: "stock",
              id: s.id,
              name: s.name,
              detail: t.catalogue.onHand(s.onHand, s.unit),
            })),
          },
        ]
      : [];
  const empty = c.status === "ready" && sections.every((s) => s.rows.length === 0);
  return (
    <Layout title={t.roles.catalogue}>
      {said.value && <Notice tone={said.value.tone}>{said.value.message}</Notice>}
      <Field id="catalogue-q" label={t.catalogue.search}>
        <input
          id="catalogue-q"
          type="search"
          autoComplete="off"
          value={q.value}
          onInput={(e) => {
            q.value = (e.target as HTMLInputElement).value;
          }}
        />
      </Field>
      {c.status === "loading" && <Spinner label={t.loading} />}
      {c.status === "error" && <Notice tone="error">{c.message}</Notice>}
      {empty && <p>{q.value.trim() ? t.catalogue.noneFound : t.catalogue.none}</p>}
      {sections
        .filter((s) => s.rows.length > 0)
        .map((s) => (
          <section key={s.title} aria-label={s.title}>
            <h2>{s.title}</h2>
            <ul class="plain">
              {s.rows.map((r) => (
                <li key={r.id} class="card">
                  <p>
                    <strong>{r.name}</strong> <span class="hint">{r.detail}</span>
                  </p>
                  {open.value === r.id ? (
                    <RequestForm
                      kind={r.kind}
                      id={r.id}
                      name={r.name}
                      onDone={() => {
                        open.value = null;
                      }}
                      onCancel={() => {
                        open.value = null;
                      }}
                    />
                  ) : (
                    <Button
                      aria-label={t.catalogue.requestThis(r.name)}
                      onClick={() => {
                        said.value = null;
                        open.value = r.id;
                      }}
                    >
                      {t.catalogue.request}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
    </Layout>
  );
}
