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

/** Posts to a chat's incoming webhook through the outbound guard; throws on anything but a 2xx. */
export async function postToChat(env: Bindings, url: string, body: unknown): Promise<void> {
  const res = await guardedFetch(url, {
    policy: outboundPolicyFor(env.ENVIRONMENT),
    timeoutMs: 10_000,
    maxBodyBytes: 2048,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.error) throw new Error(res.error);
  if (!res.status || res.status < 200 || res.status >= 300)
    throw new Error(`chat answered ${res.status}: ${res.body.slice(0, 200)}`);
}
