import { useEffect } from "preact/hooks";
import { AssetActions } from "../components/AssetActions";
import { AssetFacts, AssetMore } from "../components/AssetDetails";
import { HandoverOffer } from "../components/HandoverOffer";
import { Layout } from "../components/Layout";
import { MissingAsset } from "../components/MissingAsset";
import { Software } from "../components/Software";
import { Notice, Spinner } from "../components/ui";
import { asset, loadAsset } from "../state/asset";
import { openAction, outcome } from "../state/asset-actions";
import { clearHandoverOffer } from "../state/handover-offer";
import { can } from "../state/session";
import { t } from "../strings";

/** `/a/{tag}`: the page a label opens (docs/field-app.md). */
export function AssetPage({ tag }: { tag: string }) {
  useEffect(() => {
    outcome.value = null;
    openAction.value = null;
    clearHandoverOffer();
    void loadAsset(tag, t.unreachable);
  }, [tag]);
  const s = asset.value;
  const said = outcome.value && <Notice tone={outcome.value.tone}>{outcome.value.message}</Notice>;
  if (s.status === "loading")
    return (
      <Layout title={tag}>
        <Spinner label={t.loading} />
      </Layout>
    );
  if (s.status === "error")
    return (
      <Layout title={tag}>
        <Notice tone="error">{s.message}</Notice>
      </Layout>
    );
  // A requester sees only requestable assets and its own: a 404 says nothing more, so say that plainly.
  if (s.status === "missing" && !can("createInventoryItem"))
    return (
      <Layout title={t.roles.notVisibleTitle}>
        <Notice tone="info">{t.roles.notVisible(tag)}</Notice>
      </Layout>
    );
  if (s.status === "missing")
    return (
      <Layout title={t.asset.notFoundTitle}>
        {said}
        <MissingAsset tag={tag} trashed={s.trashed} />
      </Layout>
    );
  return (
    <Layout title={s.view.item.name}>
      {said}
      <HandoverOffer />
      <AssetFacts view={s.view} />
      <AssetActions item={s.view.item} holds={s.view.holds} />
      <AssetMore view={s.view} />
      <Software kind="asset" holderId={s.view.item.id} />
    </Layout>
  );
}
