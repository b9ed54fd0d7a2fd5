// Which port the local server runs on: PORT if set, else what `npm start` recorded, else 8787.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { LOCAL_SERVER } from "./paths.mjs";

export function localPort() {
  if (process.env.PORT) return Number(process.env.PORT);
  try {
    if (existsSync(LOCAL_SERVER)) return Number(JSON.parse(readFileSync(LOCAL_SERVER, "utf8")).port) || 8787;
  } catch {
    // unreadable: fall back
  }
  return 8787;
}

export function recordLocalPort(port) {
  mkdirSync(dirname(LOCAL_SERVER), { recursive: true });
  writeFileSync(LOCAL_SERVER, `${JSON.stringify({ port, startedAt: new Date().toISOString() })}\n`);
}

/** Resolves whether a server can listen on 127.0.0.1:`port` right now (and closes it again). */
const canListen = (port) =>
  new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });

/**
 * A loopback port nothing listens on right now, for a server started next (wrangler dev, a test's
 * receiver). Drawn below the ephemeral range (Linux 32768-60999, macOS 49152-65535): a port the
 * system handed out (`listen(0)`) comes from that range, which every outgoing connection draws its
 * local port from too, and one of the tests' many loopback connections could take it in the seconds
 * before the server binds ("Address already in use", seen once on 2026-11-28).
 */
export async function freePort() {
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (await canListen(port)) return port;
  }
  throw new Error("no free loopback port between 20000 and 32000");
}
