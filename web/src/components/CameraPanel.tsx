import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { type CameraHandle, type OnCode, openCamera } from "../platform/camera";
import { t } from "../strings";
import { Button, Notice } from "./ui";

/**
 * The camera of the scanner: off until the person presses "Start camera" (a user action, never on
 * its own); the decoder and its wasm load then. Stops when the page is left.
 */
export function CameraPanel({ onCode }: { onCode: OnCode }) {
  const state = useSignal<"off" | "starting" | "on" | "denied">("off");
  const video = useRef<HTMLVideoElement>(null);
  const handle = useRef<CameraHandle | null>(null);
  const latest = useRef(onCode);
  latest.current = onCode;

  useEffect(() => () => handle.current?.stop(), []);

  async function start() {
    if (!video.current) return;
    state.value = "starting";
    try {
      handle.current = await openCamera(video.current, (raw, seenAt) => latest.current(raw, seenAt));
      state.value = "on";
    } catch {
      state.value = "denied";
    }
  }
  function stop() {
    handle.current?.stop();
    handle.current = null;
    state.value = "off";
  }

  const on = state.value === "on" || state.value === "starting";
  return (
    <section class="camera" aria-label={t.camera.video}>
      <video ref={video} class="viewfinder" hidden={!on} muted playsInline aria-label={t.camera.video} />
      {state.value === "starting" && <p role="status">{t.camera.starting}</p>}
      {state.value === "on" && <p role="status">{t.camera.live}</p>}
      {state.value === "denied" && <Notice tone="error">{t.camera.denied}</Notice>}
      {on ? (
        <Button onClick={stop}>{t.camera.stop}</Button>
      ) : (
        <Button variant="primary" onClick={() => void start()}>
          {t.camera.start}
        </Button>
      )}
    </section>
  );
}
