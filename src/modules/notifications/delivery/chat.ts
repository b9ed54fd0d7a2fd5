import type { Bindings } from "../../../env";
import { guardedFetch, outboundPolicyFor } from "../../../platform/outbound";

export const CHAT_PROVIDERS = ["slack", "teams", "google-chat"] as const;
export type ChatProvider = (typeof CHAT_PROVIDERS)[number];

/** The incoming-webhook body each chat expects: Slack and Google Chat take `text`, Teams a message card. */
export function chatBody(
  provider: ChatProvider,
  workspace: string,
  title: string,
  message: string,
  link: string | null,
) {
  const line = `${title}\n${message}${link ? `\n${link}` : ""}`;
  if (provider === "slack") return { text: `*${workspace}*: ${line}` };
  if (provider === "google-chat") return { text: `*${workspace}*: ${line}` };
  return {
    "@type": "MessageCard",
    "@context": "https://schema.org/extensions",
    summary: title,
    title: `${workspace}: ${title}`,
    text: message,
    ...(link
      ? { potentialAction: [{ "@type": "OpenUri", name: "Open", targets: [{ os: "default", uri: link }] }] }
      : {}),
  };
}

/**
 * An incoming-webhook URL is its own credential (whoever has it may post), so an error that quotes
 * it (a network error, a chat that echoes the URL) keeps only its host: errors end up in the send
 * log, which admins list.
 */
export function redactChatUrl(text: string, url: string): string {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return text.split(url).join("(chat URL)");
  }
  const secretParts = [url, url.slice(url.indexOf(host) + host.length)].filter((p) => p.length > 1);
  return secretParts.reduce((t, part) => t.split(part).join(part === url ? host : "/…"), text);
}

/** Posts to a chat's incoming webhook through the outbound guard; throws on anything but a 2xx. */
export async function postToChat(env: Bindings, url: string, body: unknown): Promise<void> {
  const res = await guardedFetch(url, {
    policy: outboundPolicyFor(env.ENVIRONMENT),
    timeoutMs: 10_000,
    maxBodyBytes: 2048,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.error) throw new Error(redactChatUrl(res.error, url));
  if (!res.status || res.status < 200 || res.status >= 300)
    throw new Error(redactChatUrl(`chat answered ${res.status}: ${res.body.slice(0, 200)}`, url));
}
