const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The page behind a mail's unsubscribe link: a form that POSTs to the same URL (the one-click
 * route), so a GET never unsubscribes. No script; the form posts to this origin only.
 */
export function unsubscribePage(url: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Unsubscribe</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem">
<h1 style="font-size:1.4rem">Stop these mails?</h1><p>You will no longer get mails of this kind. Other notifications are not changed.</p>
<form method="post" action="${esc(url)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" style="padding:.6rem 1rem;font:inherit">Unsubscribe</button></form></body></html>`;
  return {
    html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
    },
  };
}
