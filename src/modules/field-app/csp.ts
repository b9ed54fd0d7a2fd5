/**
 * The field app's Content-Security-Policy (docs/field-app.md "CSP"). Scripts and styles come only
 * from this origin, as files: no inline script or style, no eval, no third-party host. Pictures
 * may be blob: URLs (a photo just taken, before upload). `'wasm-unsafe-eval'` (compiling
 * WebAssembly, nothing else) is granted only to the documents of the pages that run the barcode
 * decoder: the client-side router reloads the page when it crosses into or out of those pages, so
 * every other page runs without it.
 */
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
];

export function appCsp(decoder: boolean): string {
  const policy = decoder ? POLICY.map((d) => (d === "script-src 'self'" ? `${d} 'wasm-unsafe-eval'` : d)) : POLICY;
  return policy.join("; ");
}

/** The headers of the app's document: the CSP, never framed, no referrer, the camera for us only. */
export function documentHeaders(decoder: boolean): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    // The shell names hashed files: always revalidate it, so a deploy is picked up at once.
    "cache-control": "no-cache",
    "content-security-policy": appCsp(decoder),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=(self), microphone=(), geolocation=(), payment=()",
  };
}
