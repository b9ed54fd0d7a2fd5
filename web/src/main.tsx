import { render } from "preact";
import { App } from "./App";
import { restoreSession } from "./state/session";
import "./styles.css";

void restoreSession();
render(<App />, document.getElementById("app") as HTMLElement);

// The app shell works offline once the service worker has it (src/sw.ts).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => void navigator.serviceWorker.register("/sw.js").catch(() => undefined));
}
