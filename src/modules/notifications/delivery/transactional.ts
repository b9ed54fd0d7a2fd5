import type { Bindings } from "../../../env";
import { mailFrom, mailTransportFor } from "./transport";

/**
 * A mail that is not a notification (a password-reset link): no preferences, digests or
 * unsubscribe, sent at once through the configured transport. The caller's answer never depends
 * on it: a failing or missing transport is logged (never the mail, which may carry a secret) and
 * false is returned.
 */
export async function sendTransactionalMail(
  env: Bindings,
  workspace: string,
  mail: { to: string; subject: string; text: string; html: string },
): Promise<boolean> {
  const transport = mailTransportFor(env);
  if (!transport) return false;
  const from = mailFrom(env, workspace);
  try {
    await transport({
      from,
      to: { email: mail.to },
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: { "Message-ID": `<${crypto.randomUUID()}@${from.email.split("@")[1] ?? "localhost"}>` },
    });
    return true;
  } catch (err) {
    console.error("transactional mail failed", err instanceof Error ? err.message : String(err));
    return false;
  }
}
