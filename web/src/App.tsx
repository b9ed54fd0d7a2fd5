import { useEffect, useRef } from "preact/hooks";
import { Layout } from "./components/Layout";
import { Spinner } from "./components/ui";
import { AssetPage } from "./pages/AssetPage";
import { HandoverPage } from "./pages/HandoverPage";
import { HomePage } from "./pages/HomePage";
import { LoginPage } from "./pages/LoginPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ScanPage } from "./pages/ScanPage";
import { loginPathFor, navigate, path, query } from "./state/router";
import { session } from "./state/session";
import { t } from "./strings";

/**
 * The route table (the Worker serves index.html for the same paths: src/modules/field-app).
 * Every page but /login needs a signed-in user; signed out, the app goes to /login with the page
 * asked for as `next`, and sign-in comes back to it.
 */
function route(p: string) {
  if (p === "/") return { page: <HomePage />, open: false };
  if (p === "/login") return { page: <LoginPage />, open: true };
  if (p === "/scan" || p.startsWith("/scan/")) return { page: <ScanPage />, open: false };
  const asset = /^\/a\/([^/]+)$/.exec(p);
  if (asset?.[1]) return { page: <AssetPage tag={decodeURIComponent(asset[1])} />, open: false };
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
