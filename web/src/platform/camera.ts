/**
 * The camera as a code reader. `openCamera` is called from a button's click only (the camera
 * never starts by itself); it asks for the rear camera, then loads the decoder (decoder.ts, a
 * separate chunk with its wasm) and reads every new video frame it can keep up with.
 *
 * A code is reported when it comes into view: the same code is not reported again while it stays
 * in view, and is again once it has left the view for `goneMs` (pointing at the same label twice
 * is a rescan, which the audit answers as such).
 */
export type CameraHandle = { stop(): void };

/** `seenAt`: when the frame the code was read from was presented (performance.now() clock). */
export type OnCode = (raw: string, seenAt: number) => void;

type FrameMeta = { presentationTime?: number };
type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: FrameMeta) => void) => number;
};

export async function openCamera(video: HTMLVideoElement, onCode: OnCode, goneMs = 400): Promise<CameraHandle> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 } },
    audio: false,
  });
  let stopped = false;
  const stop = () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    video.muted = true;
    video.playsInline = true;
    await video.play();
    const { createDetector } = await import("./decoder");
    const detector = await createDetector();
    const inView = new Map<string, number>();
    const v = video as FrameVideo;
    const next = (cb: (now: number, meta: FrameMeta) => void) =>
      v.requestVideoFrameCallback ? v.requestVideoFrameCallback(cb) : requestAnimationFrame((now) => cb(now, {}));
    const onFrame = async (now: number, meta: FrameMeta) => {
      if (stopped) return;
      const seenAt = meta.presentationTime ?? now;
      try {
        const codes = video.readyState >= 2 ? await detector.detect(video) : [];
        const t = performance.now();
        for (const { rawValue } of codes) {
          const last = inView.get(rawValue);
          inView.set(rawValue, t);
          if (last === undefined || t - last > goneMs) onCode(rawValue, seenAt);
        }
      } catch {
        // A frame the decoder could not read: the next one will do.
      }
      next(onFrame);
    };
    next(onFrame);
  } catch (error) {
    stop();
    throw error;
  }
  return { stop };
}
