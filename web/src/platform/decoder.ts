/**
 * The barcode decoder, loaded only when the camera opens (camera.ts imports this file
 * dynamically, so neither it nor the wasm counts in the first load). The browser's own
 * `BarcodeDetector` where it reads every symbology we print; otherwise the `barcode-detector` ponyfill on
 * zxing-wasm, whose wasm (the ponyfill's own version: web/vite.config.ts) Vite emits under /assets/ and our Worker serves: `locateFile` points the
 * ponyfill at it instead of its default CDN (the CSP would refuse that anyway: connect-src 'self').
 */

import wasmUrl from "zxing-reader.wasm?url";
import { BarcodeDetector as Ponyfill, prepareZXingModule } from "barcode-detector/ponyfill";

/** QR, DataMatrix and the common 1D codes labels and packaging carry. */
const FORMATS = [
  "qr_code",
  "data_matrix",
  "code_128",
  "code_39",
  "code_93",
  "ean_13",
  "ean_8",
  "upc_a",
  "upc_e",
  "itf",
  "codabar",
];
/** Every symbology the service prints (docs/labels.md): a browser's own detector must read them all. */
const PRINTED = ["qr_code", "data_matrix", "code_128", "code_39", "ean_13", "upc_a"];

export type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };

type NativeCtor = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
};

export async function createDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: NativeCtor }).BarcodeDetector;
  if (native) {
    const supported = await native.getSupportedFormats().catch(() => [] as string[]);
    // A native detector that lacks one (many read QR and 1D codes but not DataMatrix) would leave
    // some of our own labels unread: the ponyfill reads them all.
    if (PRINTED.every((f) => supported.includes(f)))
      return new native({ formats: FORMATS.filter((f) => supported.includes(f)) });
  }
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  return new Ponyfill({ formats: FORMATS as never });
}
