/**
 * Where sign-in may send a person back to: a page of this app on this origin, nothing else. The
 * value comes from the address bar (`?next=`) or sessionStorage, so it is hostile until proved
 * otherwise. The URL parser deletes tab, LF and CR anywhere in its input ("/\t/evil.example"
 * parses as "//evil.example"), so control characters are refused before parsing, and the decision
 * is made on the parsed URL, not on the text. Pure (no DOM): unit-tested in workerd
 * (test/field-app/return-path.test.ts).
 */

/** C0 controls (tab, LF, CR, …) and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what the check refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The app's pages (the Worker's APP_PAGES, src/modules/field-app/routes.ts) that need a signed-in
 * user: not /login, /join or /reset-password themselves.
 */
const APP_PAGE = /^\/(?:|scan(?:\/.*)?|[askhl]\/[^/]+|offboarding\/[^/]+|catalogue|mine|requests(?:\/queue)?)$/;

/** `value` as a path of the app on `origin` ("/a/X?y#z"), or null when it is anything else. */
export function safeReturnPath(value: string | null | undefined, origin: string): string | null {
  if (!value || CONTROL.test(value) || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\"))
    return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || !APP_PAGE.test(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}
