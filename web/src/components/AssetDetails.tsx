import type { AssetView } from "../state/asset";
import { personPath } from "../state/codes";
import { can } from "../state/session";
import { t } from "../strings";
import { day as date, dateTime } from "./format";

/** What an asset is and where it stands: every state in words, with colour as a second signal. */
export function AssetFacts({ view }: { view: AssetView }) {
  const { item, health } = view;
  return (
    <dl class="facts">
      <dt>{t.asset.tag}</dt>
      <dd>{item.uniqueTag}</dd>
      <dt>{t.asset.status}</dt>
      <dd>
        <span class={`badge badge-status-${item.status}`}>{t.status[item.status] ?? item.status}</span>
        {item.dueBackAt && <span class="hint"> {t.asset.dueBack(date(item.dueBackAt))}</span>}
      </dd>
      <dt>{item.holder && item.holder.kind !== "person" ? t.holder.heldBy : t.asset.assignee}</dt>
      <dd class="holder">
        {item.holder && item.holder.kind !== "person" ? (
          `${item.holder.name} (${t.holder.kinds[item.holder.kind] ?? item.holder.kind})`
        ) : item.assigneeId && view.assigneeName && can("getPerson") ? (
          <a href={personPath(item.assigneeId)}>{view.assigneeName}</a>
        ) : (
          (view.assigneeName ?? t.asset.nobody)
        )}
      </dd>
      {view.shows.location && (
        <>
          <dt>{t.asset.location}</dt>
          <dd>{view.locationName ?? "—"}</dd>
        </>
      )}
      {view.shows.health && (
        <>
          <dt>{t.asset.health}</dt>
          <dd>
            {health ? (
              <span class={`badge badge-health-${health.badge}`}>
                {t.health[health.badge] ?? health.badge} ({health.score}/100)
              </span>
            ) : (
              t.health.unknown
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

/** Below the actions: why the health is what it is, what is due, who booked it, the photo. */
export function AssetMore({ view }: { view: AssetView }) {
  const { item, health } = view;
  return (
    <>
      {health && (
        <section aria-labelledby="why">
          <h2 id="why">{t.asset.healthReasons}</h2>
          {health.reasons.length === 0 ? (
            <p>{t.asset.noReasons}</p>
          ) : (
            <ul class="reasons">
              {health.reasons.map((r) => (
                <li key={r.code} class={`reason reason-${r.severity}`}>
                  <strong>{r.severity}:</strong> {r.message}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {view.shows.maintenance && (
        <section aria-labelledby="maint">
          <h2 id="maint">{t.asset.nextMaintenance}</h2>
          {view.nextMaintenance ? (
            <p>
              {view.nextMaintenance.title}: {t.asset.due(date(view.nextMaintenance.nextDueDate))}
            </p>
          ) : (
            <p>{t.asset.noMaintenance}</p>
          )}
        </section>
      )}
      <section aria-labelledby="bookings">
        <h2 id="bookings">{t.asset.bookings}</h2>
        {view.bookings.length === 0 ? (
          <p>{t.asset.noBookings}</p>
        ) : (
          <ul>
            {view.bookings.map((b) => (
              <li key={b.id}>
                {t.asset.booking(dateTime(b.startsAt), dateTime(b.endsAt))}
                {view.bookedFor[b.personId] ? `, ${t.asset.bookedFor(view.bookedFor[b.personId] ?? "")}` : ""} (
                {b.status.replace("_", " ")})
              </li>
            ))}
          </ul>
        )}
      </section>
      <h2>{t.asset.photoTitle}</h2>
      {view.photoUrl ? (
        <img class="photo" src={view.photoUrl} alt={t.asset.photo(item.name)} />
      ) : (
        <p class="hint">{t.asset.noPhoto}</p>
      )}
    </>
  );
}
