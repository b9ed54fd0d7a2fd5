import { useEffect } from "preact/hooks";
import { AssetDetails } from "../components/AssetDetails";
import { Layout } from "../components/Layout";
import { Notice, Spinner } from "../components/ui";
import { asset, loadAsset } from "../state/asset";
import { t } from "../strings";

/** `/a/{tag}`: the page a label opens. */
export function AssetPage({ tag }: { tag: string }) {
  useEffect(() => {
    void loadAsset(tag, t.unreachable);
  }, [tag]);
  const s = asset.value;
  if (s.status === "loading") return <Layout title={tag}><Spinner label={t.loading} /></Layout>;
  if (s.status === "error") return <Layout title={tag}><Notice tone="error">{s.message}</Notice></Layout>;
  if (s.status === "missing")
    return (
      <Layout title={t.asset.notFoundTitle}>
        <Notice tone="warn">{t.asset.notFound(tag)}</Notice>
      </Layout>
    );
  return (
    <Layout title={s.view.item.name}>
      <AssetDetails view={s.view} />
    </Layout>
  );
}
