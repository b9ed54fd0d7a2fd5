import { signal } from "@preact/signals";

/** Whether the browser believes it is online (the offline queue and the banner follow it). */
export const online = signal(navigator.onLine);
window.addEventListener("online", () => {
  online.value = true;
});
window.addEventListener("offline", () => {
  online.value = false;
});
