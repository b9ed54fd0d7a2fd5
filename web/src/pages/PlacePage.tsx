import { useEffect } from "preact/hooks";
import { Layout } from "../components/Layout";
import { LinkButton, Notice, Spinner } from "../components/ui";
import { assetPath } from "../state/codes";
import { loadPlace, place } from "../state/places";
import { t } from "../strings";

/** `/k/{id}` and `/l/{id}`: the pages a kit's and a location's labels open. Loaded on demand. */
export function PlacePage({ kind, id }: { kind: "kit" | "location"; id: string }) {
  useEffect(() => {
    void loadPlace(kind, id, t.unreachable);
  }, [kind, id]);
  const s = place.value;
  if (s.status === "loading")
    return (
      <Layout title={id}>
        <Spinner label={t.loading} />
      </Layout>
    );
  if (s.status !== "ready")
    return (
      <Layout title={t.notFound.title}>
        <Notice tone="error">
          {s.status === "error" ? s.message : kind === "kit" ? t.kit.notFound : t.location.notFound}
        </Notice>
        <LinkButton href="/scan">{t.home.openScanner}</LinkButton>
      </Layout>
    );
  const { view } = s;
  const heading = kind === "kit" ? t.kit.members : t.location.here;
  return (
    <Layout title={view.name}>
      {view.detail && <p>{view.detail}</p>}
      <section aria-labelledby="members">
        <h2 id="members">{heading}</h2>
        {view.members.length === 0 ? (
          <p>{kind === "kit" ? t.kit.noMembers : t.location.nothingHere}</p>
        ) : (
          <ul class="plain">
            {view.members.map((m) => (
              <li key={m.id}>
                <a href={assetPath(m.uniqueTag)}>{m.name}</a> <span class="hint">{m.uniqueTag}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Layout>
  );
}
