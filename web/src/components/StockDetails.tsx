import type { StockView } from "../state/stock";
import { placeName } from "../state/stock";
import { t } from "../strings";

const when = (iso: string) => new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });

/** What a stock item is and where its units are: quantities per location, the reorder state in words. */
export function StockFacts({ view }: { view: StockView }) {
  const { item } = view;
  const anyLevel = item.reorderLevel !== null || view.levels.some((l) => l.reorderLevel !== null);
  return (
    <>
      <dl class="facts">
        <dt>{t.stock.tag}</dt>
        <dd>{item.tag}</dd>
        <dt>{t.stock.total}</dt>
        <dd>{t.stock.units(item.onHand, item.unit)}</dd>
        <dt>{t.stock.reorder}</dt>
        <dd>
          {item.low || view.levels.some((l) => l.low) ? (
            <span class="badge badge-health-AT_RISK">{t.stock.low}</span>
          ) : anyLevel ? (
            <span class="badge badge-health-HEALTHY">{t.stock.ok}</span>
          ) : (
            t.stock.noReorder
          )}
        </dd>
      </dl>
      <section aria-labelledby="levels">
        <h2 id="levels">{t.stock.levels}</h2>
        {view.levels.length === 0 ? (
          <p>{t.stock.noLevels}</p>
        ) : (
          <ul class="plain levels">
            {view.levels.map((l) => (
              <li key={l.locationId} data-location={l.locationId}>
                <strong>{placeName(view, l.locationId)}</strong>: {t.stock.units(l.quantity, item.unit)}
                {l.reorderLevel !== null && <span class="hint"> ({t.stock.reorderAt(l.reorderLevel)})</span>}
                {l.low && <span class="badge badge-health-AT_RISK"> {t.stock.low}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export function StockMovements({ view }: { view: StockView }) {
  return (
    <section aria-labelledby="movements">
      <h2 id="movements">{t.stock.movements}</h2>
      {view.movements.length === 0 ? (
        <p>{t.stock.noMovements}</p>
      ) : (
        <ul class="plain movements">
          {view.movements.map((m) => {
            const where = [placeName(view, m.fromLocationId), placeName(view, m.toLocationId)].filter(Boolean);
            return (
              <li key={m.id}>
                {t.stock.movementLine(t.stock.kinds[m.kind] ?? m.kind, m.quantity, when(m.at))}
                {where.length > 0 && <span class="hint"> ({where.join(" → ")})</span>}
                {m.reason && <span class="hint"> {m.reason}</span>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
