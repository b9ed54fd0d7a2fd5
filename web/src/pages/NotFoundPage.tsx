import { Layout } from "../components/Layout";
import { LinkButton } from "../components/ui";
import { t } from "../strings";

export function NotFoundPage() {
  return (
    <Layout title={t.notFound.title}>
      <p>{t.notFound.body}</p>
      <LinkButton href="/">{t.notFound.home}</LinkButton>
    </Layout>
  );
}
