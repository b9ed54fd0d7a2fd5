import { escapeXml } from "./xml-text";

/** A fresh CSP nonce for one page's inline script. */
export const newNonce = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));

/** Security headers of every page served here: no framing, no foreign scripts, no referrer leaks. */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  };
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button,.button{display:block;width:100%;margin:.75rem 0;padding:.6rem;font:inherit;text-align:center;border:1px solid #333;border-radius:4px;background:#fff;color:#1a1a1a;text-decoration:none;cursor:pointer}
.primary{background:#1a4fb8;border-color:#1a4fb8;color:#fff}:focus-visible{outline:3px solid #f4a300;outline-offset:2px}
[hidden]{display:none!important}.error{color:#a00000}.note{color:#555;font-size:.9rem}`;

/** A complete, small HTML page. `body` must already be escaped; `script` runs under the page's nonce. */
export function htmlPage(title: string, body: string, nonce: string, script = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeXml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ""}</body></html>`;
}

/** The page a browser sees when SSO sign-in is refused: what happened and a way back. */
export function refusalPage(message: string, nonce: string): string {
  return htmlPage(
    "Sign-in refused",
    `<h1>Sign-in refused</h1><p role="alert" class="error">${escapeXml(message)}</p><p><a class="button" href="/login">Back to sign-in</a></p>`,
    nonce,
  );
}
