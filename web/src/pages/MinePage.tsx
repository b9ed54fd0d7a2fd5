import { useEffect } from "preact/hooks";
import { dateTime } from "../components/format";
import { Layout } from "../components/Layout";
import { Notice, Spinner } from "../components/ui";
import { holdings, loadHoldings } from "../state/requests";
import { personId } from "../state/session";
import { t } from "../strings";

/** `/mine`: what the signed-in user's person holds (assets with due dates, stock) and their bookings. */
export default function MinePage() {
  const who = personId.value;
  useEffect(() => {
    void loadHoldings(who);
  }, [who]);
  const h = holdings.value;
  return (
    <Layout title={t.roles.mine}>
      {h.status === "loading" && <Spinner label={t.loading} />}
      {h.status === "error" && <Notice tone="error">{h.message}</Notice>}
      {h.status === "ready" && h.value === null && <Notice tone="info">{t.mine.noPerson}</Notice>}
      {h.status === "ready" && h.value && (
        <>
          <h2>{t.mine.assets}</h2>
          {h.value.assets.length === 0 ? (
            <p>{t.mine.noAssets}</p>
          ) : (
            <ul>
              {h.value.assets.map((a) => (
                <li key={a.id}>
                  <a href={`/a/${encodeURIComponent(a.uniqueTag)}`}>{a.name}</a>,{" "}
                  {a.dueBackAt ? t.mine.due(dateTime(a.dueBackAt)) : t.mine.noDue}
                </li>
              ))}
            </ul>
          )}
          <h2>{t.mine.stock}</h2>
          {h.value.stock.length === 0 ? (
            <p>{t.mine.noStock}</p>
          ) : (
            <ul>
              {h.value.stock.map((s) => (
                <li key={s.id}>
                  {s.name}, {t.mine.quantity(s.quantity)}
                </li>
              ))}
            </ul>
          )}
          <h2>{t.mine.bookings}</h2>
          {h.value.bookings.length === 0 ? (
            <p>{t.mine.noBookings}</p>
          ) : (
            <ul>
              {h.value.bookings.map((b) => (
                <li key={b.id}>
                  {t.mine.booking(dateTime(b.startsAt), dateTime(b.endsAt), b.status.replace("_", " "))}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Layout>
  );
}
