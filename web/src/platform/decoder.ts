/**
 * The barcode decoder, loaded only when the camera opens (camera.ts imports this file
 * dynamically, so neither it nor the wasm counts in the first load). The browser's own
 * `BarcodeDetector` where it reads QR codes; otherwise the `barcode-detector` ponyfill on
 * zxing-wasm, whose wasm (the ponyfill's own version: web/vite.config.ts) Vite emits under /assets/ and our Worker serves: `locateFile` points the
 * ponyfill at it instead of its default CDN (the CSP would refuse that anyway: connect-src 'self').
 */

import wasmUrl from "zxing-reader.wasm?url";
import { BarcodeDetector as Ponyfill, prepareZXingModule } from "barcode-detector/ponyfill";

/** QR and the common 1D codes labels and packaging carry. */
const FORMATS = ["qr_code", "code_128", "code_39", "code_93", "ean_13", "ean_8", "upc_a", "upc_e", "itf", "codabar"];

export type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };

type NativeCtor = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
};

export async function createDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: NativeCtor }).BarcodeDetector;
  if (native) {
    const supported = await native.getSupportedFormats().catch(() => [] as string[]);
    if (supported.includes("qr_code")) return new native({ formats: FORMATS.filter((f) => supported.includes(f)) });
  }
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  return new Ponyfill({ formats: FORMATS as never });
}
