import { dismiss, moves } from "../state/stock-queue";
import { t } from "../strings";
import { Button, Notice } from "./ui";

/**
 * What this phone still has to send, and what the server refused on replay (shown until the
 * person dismisses it: a refused movement is never dropped silently).
 */
export function StockQueue() {
  const waiting = moves.value.filter((m) => !m.refused);
  const refused = moves.value.filter((m) => m.refused);
  return (
    <>
      {waiting.length > 0 && <Notice tone="info">{t.stock.waiting(waiting.length)}</Notice>}
      {refused.length > 0 && (
        <section aria-labelledby="refused">
          <h2 id="refused">{t.stock.refusedList}</h2>
          <ul class="plain">
            {refused.map((m) => (
              <li key={m.key} class="result result-refused">
                <p>{t.stock.refusedLine(t.stock[m.kind], `${m.itemName} (${m.itemTag})`, m.refused ?? "")}</p>
                <Button onClick={() => void dismiss(m.key)}>{t.stock.dismiss}</Button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
