import { Layout } from "../components/Layout";
import { LinkButton } from "../components/ui";
import { currentUser } from "../state/session";
import { t } from "../strings";

export function HomePage() {
  return (
    <Layout title={t.home.title}>
      <p>{t.signIn.signedInAs(currentUser.value?.email ?? "")}</p>
      <p>{t.home.intro}</p>
      <LinkButton variant="primary" href="/scan">
        {t.home.openScanner}
      </LinkButton>
    </Layout>
  );
}
