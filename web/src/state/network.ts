/**
 * Whether the service can be reached (the offline queue and the banner follow it). The browser's
 * `navigator.onLine` is only a hint: it can read true while every request fails (a phone on Wi-Fi
 * without internet, Chromium after going offline), so a request that fails without an answer also
 * means offline, and the first answer (or the browser's `online` event) means online again. While
 * offline that way, nothing else would ever ask: a light request asks now and then.
 */
import { effect, signal } from "@preact/signals";
import { bootstrap } from "../api/auth";
import { onReachability } from "../api/client";

export const online = signal(navigator.onLine);

onReachability((reachable) => {
  online.value = reachable;
});
window.addEventListener("online", () => {
  online.value = true;
});
window.addEventListener("offline", () => {
  online.value = false;
});

/** How often an unreachable service is asked again (any answer ends the wait). */
const PROBE_MS = 15_000;
effect(() => {
  if (online.value) return;
  const probe = setInterval(() => void bootstrap(), PROBE_MS);
  return () => clearInterval(probe);
});
