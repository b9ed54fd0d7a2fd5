import type { ComponentType } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Layout } from "./components/Layout";
import { Notice, Spinner } from "./components/ui";
import { AssetPage } from "./pages/AssetPage";
import { HomePage } from "./pages/HomePage";
import { LoginPage } from "./pages/LoginPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ScanPage } from "./pages/ScanPage";
import { loginPathFor, navigate, path, query } from "./state/router";
import { session } from "./state/session";
import { t } from "./strings";

// Loaded on first use: only people taking a leaver's returns open it.

/**
 * A page loaded on demand (its own chunk, outside the first load's budget: scripts/web-budget.mjs):
 * pages most people open rarely. Until it has arrived the frame shows "Loading…"; a chunk that
 * cannot be fetched (offline, before the service worker kept it) says so.
 */
function onDemand<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  return function OnDemand(props: P) {
    const [page, setPage] = useState<{ Page: ComponentType<P> } | { failed: true } | null>(() =>
      loaded ? { Page: loaded } : null,
    );
    useEffect(() => {
      if (!page)
        load().then(
          (c) => {
            loaded = c;
            setPage({ Page: c });
          },
          () => setPage({ failed: true }),
        );
    }, []);
    if (page && "Page" in page) return <page.Page {...props} />;
    return (
      <Layout title={t.appName}>
        {page ? <Notice tone="error">{t.unreachable}</Notice> : <Spinner label={t.loading} />}
      </Layout>
    );
  };
}

const StockPage = onDemand(() => import("./pages/StockPage").then((m) => m.StockPage));
const PlacePage = onDemand(() => import("./pages/PlacePage").then((m) => m.PlacePage));
const CataloguePage = onDemand(() => import("./pages/CataloguePage").then((m) => m.default));
const MyRequestsPage = onDemand(() => import("./pages/MyRequestsPage").then((m) => m.default));
const QueuePage = onDemand(() => import("./pages/QueuePage").then((m) => m.default));
const MinePage = onDemand(() => import("./pages/MinePage").then((m) => m.default));
const JoinPage = onDemand(() => import("./pages/JoinPage").then((m) => m.default));
const OffboardingPage = onDemand(() => import("./pages/OffboardingPage").then((m) => m.OffboardingPage));
const HandoverPage = onDemand(() => import("./pages/HandoverPage").then((m) => m.HandoverPage));
const PersonPage = onDemand(() => import("./pages/PersonPage").then((m) => m.PersonPage));
const ResetPasswordPage = onDemand(() => import("./pages/ResetPasswordPage").then((m) => m.default));

/**
 * The route table (the Worker serves index.html for the same paths: src/modules/field-app).
 * Every page but /login, /join and /reset-password needs a signed-in user; signed out, the app
 * goes to /login with the page asked for as `next`, and sign-in comes back to it.
 */
function route(p: string) {
  if (p === "/") return { page: <HomePage />, open: false };
  if (p === "/login") return { page: <LoginPage />, open: true };
  if (p === "/join") return { page: <JoinPage />, open: true };
  if (p === "/reset-password") return { page: <ResetPasswordPage />, open: true };
  if (p === "/catalogue") return { page: <CataloguePage />, open: false };
  if (p === "/requests") return { page: <MyRequestsPage />, open: false };
  if (p === "/requests/queue") return { page: <QueuePage />, open: false };
  if (p === "/mine") return { page: <MinePage />, open: false };
  if (p === "/scan" || p.startsWith("/scan/")) return { page: <ScanPage />, open: false };
  const asset = /^\/a\/([^/]+)$/.exec(p);
  if (asset?.[1]) return { page: <AssetPage tag={decodeURIComponent(asset[1])} />, open: false };
  // What the other labels open (src/modules/labels/qr.ts): a stock item, a kit, a location.
  const label = /^\/([skl])\/([^/]+)$/.exec(p);
  if (label?.[1] && label[2]) {
    const value = decodeURIComponent(label[2]);
    if (label[1] === "s") return { page: <StockPage tag={value} />, open: false };
    return { page: <PlacePage kind={label[1] === "k" ? "kit" : "location"} id={value} />, open: false };
  }
  const returns = /^\/offboarding\/([^/]+)$/.exec(p);
  if (returns?.[1]) return { page: <OffboardingPage caseId={decodeURIComponent(returns[1])} />, open: false };
  const person = /^\/p\/([^/]+)$/.exec(p);
  if (person?.[1]) return { page: <PersonPage id={decodeURIComponent(person[1])} />, open: false };
  const handover = /^\/h\/([^/]+)$/.exec(p);
  if (handover?.[1]) return { page: <HandoverPage id={decodeURIComponent(handover[1])} />, open: false };
  return { page: <NotFoundPage />, open: true };
}

export function App() {
  const p = path.value;
  const { page, open } = route(p);
  const status = session.value.status;
  // After moving to another page, focus its main area, so a screen reader starts there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else document.getElementById("main")?.focus();
  }, [p]);
  useEffect(() => {
    if (!open && status === "signedOut")
      navigate(loginPathFor(p + (query.value.size ? `?${query.value}` : "")), { replace: true });
  }, [open, status, p]);
  if (status === "loading" || (!open && status !== "signedIn"))
    return (
      <Layout title={t.appName}>
        <Spinner label={t.loading} />
      </Layout>
    );
  return page;
}
