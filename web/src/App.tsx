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

/**
 * Pages most people open rarely (the requester's, the approvers', joining and resetting a
 * password) load on demand: they are not part of the first load (scripts/web-budget.mjs).
 */
const LAZY = {
  catalogue: () => import("./pages/CataloguePage"),
  myRequests: () => import("./pages/MyRequestsPage"),
  queue: () => import("./pages/QueuePage"),
  mine: () => import("./pages/MinePage"),
  join: () => import("./pages/JoinPage"),
  reset: () => import("./pages/ResetPasswordPage"),
};

function Lazy({ load }: { load: keyof typeof LAZY }) {
  const [page, setPage] = useState<{ Page: ComponentType } | { failed: true } | null>(null);
  useEffect(() => {
    setPage(null);
    LAZY[load]().then(
      (m) => setPage({ Page: m.default }),
      () => setPage({ failed: true }),
    );
  }, [load]);
  if (page && "Page" in page) return <page.Page />;
  return (
    <Layout title={t.appName}>
      {page ? <Notice tone="error">{t.unreachable}</Notice> : <Spinner label={t.loading} />}
    </Layout>
  );
}

/**
 * The route table (the Worker serves index.html for the same paths: src/modules/field-app).
 * Every page but /login, /join and /reset-password needs a signed-in user; signed out, the app
 * goes to /login with the page asked for as `next`, and sign-in comes back to it.
 */
function route(p: string) {
  if (p === "/") return { page: <HomePage />, open: false };
  if (p === "/login") return { page: <LoginPage />, open: true };
  if (p === "/join") return { page: <Lazy load="join" />, open: true };
  if (p === "/reset-password") return { page: <Lazy load="reset" />, open: true };
  if (p === "/catalogue") return { page: <Lazy load="catalogue" />, open: false };
  if (p === "/requests") return { page: <Lazy load="myRequests" />, open: false };
  if (p === "/requests/queue") return { page: <Lazy load="queue" />, open: false };
  if (p === "/mine") return { page: <Lazy load="mine" />, open: false };
  if (p === "/scan" || p.startsWith("/scan/")) return { page: <ScanPage />, open: false };
  const asset = /^\/a\/([^/]+)$/.exec(p);
  if (asset?.[1]) return { page: <AssetPage tag={decodeURIComponent(asset[1])} />, open: false };
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
