import type { Bindings } from "../../env";
import { sendTransactionalMail } from "../notifications";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The one step that sends a password-reset link (docs/auth.md#password-reset), through the mail
 * transport the operator configured (docs/notifications.md#configuration-the-operators); without one, the link
 * is recorded and not sent. The link carries a secret: never log it.
 */
export async function sendPasswordResetMail(
  env: Bindings,
  workspace: string,
  mail: { to: string; link: string },
): Promise<void> {
  await sendTransactionalMail(env, workspace, {
    to: mail.to,
    subject: `Reset your password for ${workspace}`,
    text: `Someone asked to reset the password of this address in ${workspace}.\n\nSet a new password (the link works once, for an hour):\n${mail.link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone asked to reset the password of this address in <strong>${escapeHtml(workspace)}</strong>.</p><p><a href="${escapeHtml(mail.link)}">Set a new password</a> (the link works once, for an hour).</p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
  });
}
