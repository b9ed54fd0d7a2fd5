/**
 * Where the app is: the path as a signal, moved by links and history. The pages that run the
 * barcode decoder are served under a CSP that allows WebAssembly and the others are not
 * (src/modules/field-app/csp.ts), so crossing between the two reloads the document instead of
 * swapping the page in place.
 */
import { signal } from "@preact/signals";
import { safeReturnPath as returnPath } from "./return-path";

export const path = signal(location.pathname);
export const query = signal(new URLSearchParams(location.search));

/** Mirrors APP_PAGES' `decoder` flag on the Worker. */
export const runsDecoder = (p: string) => p === "/scan" || p.startsWith("/scan/");
const documentRunsDecoder = runsDecoder(location.pathname);

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, location.origin);
  if (url.origin !== location.origin || runsDecoder(url.pathname) !== documentRunsDecoder) {
    // The camera reads a label many times a second: a second load of the same page would abort the
    // one under way (the phone would start over), so the document leaves once.
    if (leavingFor === url.href) return;
    leavingFor = url.href;
    if (opts.replace) location.replace(url.href);
    else location.assign(url.href);
    return;
  }
  history[opts.replace ? "replaceState" : "pushState"](null, "", url.pathname + url.search);
  sync();
  window.scrollTo(0, 0);
}

/** The page this document is being replaced by (a full load under way), if any. */
let leavingFor: string | null = null;
// Back from the page cache: this document is the live one again.
window.addEventListener("pageshow", () => {
  leavingFor = null;
});

function sync() {
  path.value = location.pathname;
  query.value = new URLSearchParams(location.search);
}

window.addEventListener("popstate", sync);

/** Same-origin links are followed in place (unless a modifier key asks for a new tab). */
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = (event.target as Element | null)?.closest?.("a");
  if (!link || link.target || link.hasAttribute("download") || link.dataset.reload !== undefined) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/auth/")) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

/** A return path is only ever a page of this app on this origin (./return-path.ts). */
export const safeReturnPath = (value: string | null | undefined) => returnPath(value, location.origin);

/** The sign-in page's address that comes back to `here` afterwards. */
export const loginPathFor = (here: string) => (here === "/" ? "/login" : `/login?next=${encodeURIComponent(here)}`);
