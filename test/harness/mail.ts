import { inject } from "vitest";
import { smtpTransport } from "../../src/modules/notifications/delivery/transport";

/**
 * The local mail catcher (test/global/smtp-catcher.mjs): a real SMTP server on 127.0.0.1 that the
 * Worker reaches over a TCP socket, and its HTTP side where tests read what it received, parsed
 * by mailparser. Tests share it, so each reads only its own recipients' mails (addresses are
 * unique per workspace).
 */
export interface CaughtMail {
  n: number;
  envelope: { from: string | null; to: string[] };
  from: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  text: string;
  html: string;
  links: string[];
  headers: Record<string, string>;
}

const catcher = () => inject("mailCatcherUrl");

/** The SMTP transport to the catcher (plain SMTP on loopback: no TLS to upgrade to). */
export const catcherTransport = () => smtpTransport({ host: "127.0.0.1", port: inject("smtpPort"), startTls: false });

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const all = (await (await fetch(`${catcher()}/mails`)).json()) as CaughtMail[];
  return all.filter((m) => m.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}

/** Waits until `address` has received `count` mails (a state, polled), then returns them. */
export async function waitForMails(address: string, count: number, timeoutMs = 15_000): Promise<CaughtMail[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await mailsTo(address);
    if (got.length >= count) return got;
    if (Date.now() > until) throw new Error(`${address}: ${got.length} mails, waited for ${count}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The catcher answers the next `count` mail transactions with 451 (try again later). */
export async function refuseNext(count: number): Promise<void> {
  await fetch(`${catcher()}/refuse?count=${count}`, { method: "POST" });
}
