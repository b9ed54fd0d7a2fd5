import { useEffect } from "preact/hooks";
import { day } from "../components/format";
import { Layout } from "../components/Layout";
import { Software } from "../components/Software";
import { LinkButton, Notice, Spinner } from "../components/ui";
import { assetPath } from "../state/codes";
import { loadPerson, personPage } from "../state/person";
import { can } from "../state/session";
import { t } from "../strings";

/**
 * `/p/{id}`: a person, what they hold and their software (an asset page's holder links here). Only
 * for users who may read people: anyone else is told so, and no call is made. Loaded on demand.
 */
export function PersonPage({ id }: { id: string }) {
  const allowed = can("getPerson");
  useEffect(() => {
    if (allowed) void loadPerson(id, t.unreachable);
  }, [id, allowed]);
  const s = personPage.value;
  if (!allowed || s.status === "missing" || s.status === "error")
    return (
      <Layout title={t.person.title}>
        <Notice tone="error">{s.status === "error" && allowed ? s.message : t.person.notVisible}</Notice>
        <LinkButton href="/">{t.notFound.home}</LinkButton>
      </Layout>
    );
  if (s.status === "loading")
    return (
      <Layout title={t.person.title}>
        <Spinner label={t.loading} />
      </Layout>
    );
  const { view } = s;
  return (
    <Layout title={view.name}>
      {view.detail.length > 0 && <p>{view.detail.join(" · ")}</p>}
      {view.deactivated && <Notice tone="warn">{t.person.deactivated}</Notice>}
      <section aria-labelledby="held">
        <h2 id="held">{t.person.holds}</h2>
        {view.held.length === 0 ? (
          <p>{t.person.holdsNothing}</p>
        ) : (
          <ul class="plain">
            {view.held.map((a) => (
              <li key={a.id}>
                <a href={assetPath(a.uniqueTag)}>{a.name}</a> <span class="hint">{a.uniqueTag}</span>
                {a.dueBackAt && <span class="hint"> · {t.asset.dueBack(day(a.dueBackAt))}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <Software kind="person" holderId={id} />
    </Layout>
  );
}
