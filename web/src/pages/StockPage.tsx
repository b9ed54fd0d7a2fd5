import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { Layout } from "../components/Layout";
import { StockActions } from "../components/StockActions";
import { StockFacts, StockMovements } from "../components/StockDetails";
import { StockQueue } from "../components/StockQueue";
import { LinkButton, Notice, Spinner, type Tone } from "../components/ui";
import { loadStock, stockItem } from "../state/stock";
import { refreshMoves, whenSent } from "../state/stock-queue";
import { t } from "../strings";

/** `/s/{tag}`: the page a stock label opens (docs/field-app.md "Stock on the phone"). Loaded on demand. */
export function StockPage({ tag }: { tag: string }) {
  const said = useSignal<{ tone: Tone; message: string } | null>(null);
  useEffect(() => {
    said.value = null;
    void loadStock(tag, t.unreachable);
    void refreshMoves();
    // A queued movement that went through (back online): show the server's quantities.
    whenSent(() => void loadStock(tag, t.unreachable, true));
    return () => whenSent(null);
  }, [tag]);
  const s = stockItem.value;
  const notice = said.value && <Notice tone={said.value.tone}>{said.value.message}</Notice>;
  if (s.status === "loading")
    return (
      <Layout title={tag}>
        <StockQueue />
        <Spinner label={t.loading} />
      </Layout>
    );
  if (s.status === "error" || s.status === "missing")
    return (
      <Layout title={s.status === "missing" ? t.stock.notFoundTitle : tag}>
        <StockQueue />
        <Notice tone="error">{s.status === "missing" ? t.stock.notFound(tag) : s.message}</Notice>
        <LinkButton href="/scan">{t.home.openScanner}</LinkButton>
      </Layout>
    );
  return (
    <Layout title={s.view.item.name}>
      {notice}
      <StockQueue />
      <StockFacts view={s.view} />
      <StockActions
        view={s.view}
        say={(x) => {
          said.value = x;
        }}
      />
      <StockMovements view={s.view} />
    </Layout>
  );
}
