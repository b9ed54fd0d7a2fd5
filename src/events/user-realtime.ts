import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/** A message of the realtime channel; `type` names it (`notification.created`, ...). */
export interface RealtimeMessage {
  type: string;
  [field: string]: unknown;
}

/** Open sockets per user (tabs, devices); a new one beyond this closes earlier ones. */
const MAX_SOCKETS = 20;

/**
 * The realtime channel of one workspace user (docs/notifications.md#realtime-channel-websocket): named `${tenantId}:${userId}`, it holds
 * that user's WebSockets with the hibernation API, so idle connections cost nothing and survive
 * the object being evicted from memory. Writers call `deliver` (RPC); the only fetch it answers is
 * the WebSocket upgrade itself, which the Worker forwards after checking the user's ticket.
 * `ping` is answered by the runtime without waking the object.
 */
export class UserRealtime extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** The WebSocket upgrade, already authenticated by the Worker (src/modules/notifications/realtime-routes.ts). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    const open = this.ctx.getWebSockets();
    for (const old of open.slice(0, Math.max(0, open.length - MAX_SOCKETS + 1)))
      closeQuietly(old, 1008, "too many connections");
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    // Tells the client its socket is registered: everything emitted from now on reaches it.
    server.send(JSON.stringify({ type: "ready", at: new Date().toISOString() }));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends `messages` to every open socket of the user; returns how many sockets took them. */
  async deliver(messages: RealtimeMessage[]): Promise<number> {
    let delivered = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        for (const m of messages) ws.send(JSON.stringify(m));
        delivered++;
      } catch {
        // a socket closing under us; the others still get the messages
      }
    }
    return delivered;
  }

  /** The channel is server-to-client; clients only ping (answered by the auto-response). */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message !== "ping")
      ws.send(JSON.stringify({ type: "error", message: "This channel only sends; send `ping` to keep it alive" }));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Completes the closing handshake; 1005/1006 are reserved and cannot be sent back.
    closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    closeQuietly(ws, 1011, "error");
  }
}

function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
