import { Layout } from "../components/Layout";
import { LinkButton } from "../components/ui";
import { can, currentUser } from "../state/session";
import { t } from "../strings";

/** The start page: the ways on that the user's permissions open (GET /auth/permissions). */
export function HomePage() {
  const scanner = can("getInventoryItemByTag");
  const worksAssets = can("checkoutInventoryItem");
  const links = [
    { show: can("createRequest") && can("listInventoryItems"), href: "/catalogue", label: t.roles.catalogue },
    { show: can("listRequests"), href: "/requests", label: t.roles.myRequests },
    { show: can("approveRequest"), href: "/requests/queue", label: t.roles.queue },
    { show: can("listInventoryItems"), href: "/mine", label: t.roles.mine },
  ].filter((l) => l.show);
  return (
    <Layout title={t.home.title}>
      <p>{t.signIn.signedInAs(currentUser.value?.email ?? "")}</p>
      <p>{worksAssets ? t.home.intro : t.home.requesterIntro}</p>
      <div class="stack">
        {scanner && (
          <LinkButton variant={worksAssets ? "primary" : "plain"} href="/scan">
            {t.home.openScanner}
          </LinkButton>
        )}
        {links.map((l, i) => (
          <LinkButton key={l.href} variant={!worksAssets && i === 0 ? "primary" : "plain"} href={l.href}>
            {l.label}
          </LinkButton>
        ))}
      </div>
    </Layout>
  );
}
