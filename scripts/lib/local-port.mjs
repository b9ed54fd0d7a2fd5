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

/** A loopback port nothing listens on right now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
