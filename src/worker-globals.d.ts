// Global types of the Worker for "cloudflare:workers" (`env` and `exports`, used by the tests and
// service self-calls). Apart from src/env.ts on purpose: naming the Worker's module (src/index.ts)
// from the bindings' file would tie every source file into one import circle.
import type { Bindings } from "./env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {}
    // Types `exports` from "cloudflare:workers" (used by tests and service self-calls).
    interface GlobalProps {
      mainModule: typeof import("./index");
    }
  }
}
