import { expect } from "vitest";
import type { Notification, RealtimeTicket } from "../../src/modules/notifications";
import { workerFetch } from "./contract";
import { api, type TestTenant } from "./tenant";

// A signed-in user's realtime channel as a browser opens it (test/notifications/realtime.test.ts, test/stock/realtime.test.ts).

/** A client socket opened through the Worker, collecting the JSON messages it receives. */
export interface Client {
  ws: WebSocket;
  messages: Message[];
  next: (type: string, timeoutMs?: number) => Promise<Message>;
}

/** A server message: `{ type: "ready" }`, then `notification.created` / `notification.updated` with the record. */
export interface Message {
  type: string;
  notification?: Notification;
  at?: string;
}

export async function ticket(t: TestTenant, jwt: string) {
  const res = await api<RealtimeTicket>(t, "/notifications/realtime-ticket", { method: "POST", auth: { jwt } });
  expect(res.status).toBe(201);
  return res.body;
}

export function open(t: TestTenant, query: string, headers: Record<string, string> = { upgrade: "websocket" }) {
  return workerFetch(new Request(`${t.base}/notifications/realtime?${query}`, { headers }));
}

export async function connect(t: TestTenant, jwt: string): Promise<Client> {
  const { ticket: tk } = await ticket(t, jwt);
  const res = await open(t, `ticket=${encodeURIComponent(tk)}`);
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: Message[] = [];
  ws.addEventListener("message", (e) => {
    messages.push(JSON.parse(String(e.data)) as Message);
  });
  ws.accept();
  let seen = 0;
  const next = async (type: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = messages.findIndex((m, idx) => idx >= seen && m.type === type);
      if (i >= 0) {
        seen = i + 1;
        return messages[i]!;
      }
      if (Date.now() > deadline)
        throw new Error(`no '${type}' message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await next("ready");
  return { ws, messages, next };
}
