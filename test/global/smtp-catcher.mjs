// vitest globalSetup (Node side): the local mail catcher (scripts/lib/mail-catcher.mjs), a real SMTP
// server on 127.0.0.1, for the notification tests. The Worker reaches it over a TCP socket
// (`cloudflare:sockets`); tests read what it received over its loopback HTTP side. Ports are handed
// over with `provide`.
import { startMailCatcher } from "../../scripts/lib/mail-catcher.mjs";

export default async function setup({ provide }) {
  const catcher = await startMailCatcher();
  provide("smtpPort", catcher.smtpPort);
  provide("mailCatcherUrl", `http://127.0.0.1:${catcher.httpPort}`);
  return () => catcher.close();
}
