import { WorkerMailer } from "worker-mailer";
import type { Bindings } from "../../../env";
import { guardedFetch, STRICT } from "../../../platform/outbound";

/** One mail to one recipient: never a list, so no recipient sees another's address. */
export interface OutgoingMail {
  from: { name: string; email: string };
  to: { name?: string; email: string };
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Sends one mail or throws (the caller records the failure and retries later). */
export type MailTransport = (mail: OutgoingMail) => Promise<void>;

export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (port 465). */
  secure?: boolean;
  /** Upgrade with STARTTLS when the server offers it (default true). */
  startTls?: boolean;
  username?: string;
  password?: string;
}

/** SMTP over a Workers TCP socket (`cloudflare:sockets`), with the `worker-mailer` client. */
export function smtpTransport(o: SmtpOptions): MailTransport {
  return async (mail) => {
    await WorkerMailer.send(
      {
        host: o.host,
        port: o.port,
        secure: o.secure ?? false,
        startTls: o.startTls ?? true,
        ...(o.username
          ? { credentials: { username: o.username, password: o.password ?? "" }, authType: ["plain", "login"] }
          : {}),
        socketTimeoutMs: 15_000,
        responseTimeoutMs: 15_000,
        logLevel: 4, // none: failures are recorded on the send, not logged with the message
      },
      { from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers },
    );
  };
}

/**
 * An HTTP email API taking `{from, to, subject, text, html, headers}` as JSON with a Bearer token
 * (Resend's shape; most providers accept it or sit behind a small adapter). The URL is the
 * operator's own, so only https is required.
 */
export function httpTransport(url: string, token: string): MailTransport {
  return async (mail) => {
    const res = await guardedFetch(url, {
      policy: STRICT,
      timeoutMs: 15_000,
      maxBodyBytes: 4096,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        from: `${mail.from.name} <${mail.from.email}>`,
        to: [mail.to.email],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      }),
    });
    if (res.error) throw new Error(res.error);
    if (!res.status || res.status >= 300) throw new Error(`mail API answered ${res.status}: ${res.body.slice(0, 200)}`);
  };
}

let override: MailTransport | null = null;

/** Replaces the configured transport (tests, benchmarks). Returns a function restoring the previous one. */
export function setMailTransport(next: MailTransport | null): () => void {
  const previous = override;
  override = next;
  return () => {
    override = previous;
  };
}

/** The transport the operator configured (docs/notifications.md#configuration-the-operators), or null: mail is off. */
export function mailTransportFor(env: Bindings): MailTransport | null {
  if (override) return override;
  if (env.MAIL_TRANSPORT === "smtp" && env.SMTP_HOST)
    return smtpTransport({
      host: env.SMTP_HOST,
      port: Number(env.SMTP_PORT ?? 587),
      secure: env.SMTP_SECURE === "true",
      startTls: env.SMTP_STARTTLS !== "false",
      username: env.SMTP_USERNAME,
      password: env.SMTP_PASSWORD,
    });
  if (env.MAIL_TRANSPORT === "http" && env.MAIL_HTTP_URL)
    return httpTransport(env.MAIL_HTTP_URL, env.MAIL_HTTP_TOKEN ?? "");
  return null;
}

/** The sender of every mail: MAIL_FROM (default `notifications@<the public host>`). */
export function mailFrom(env: Bindings, workspaceName: string): { name: string; email: string } {
  const host = new URL(env.BASE_URL ?? "http://localhost:8787").hostname;
  return {
    name: `${workspaceName} (${env.MAIL_FROM_NAME ?? "Inventory"})`,
    email: env.MAIL_FROM ?? `notifications@${host}`,
  };
}
