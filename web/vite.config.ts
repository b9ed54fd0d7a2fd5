import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "../dist/app");

/**
 * The API reference page's script (Scalar's standalone bundle) travels in the same asset
 * directory: the Worker serves it at /api/v1/docs/scalar.js (src/app.ts). Not part of the app.
 */
function scalarScript(): Plugin {
  return {
    name: "scalar-script",
    apply: "build",
    closeBundle() {
      const src = resolve(here, "../node_modules/@scalar/api-reference/dist/browser/standalone.js");
      mkdirSync(resolve(outDir, "vendor/scalar"), { recursive: true });
      copyFileSync(src, resolve(outDir, "vendor/scalar/standalone.js"));
    },
  };
}

/**
 * The decoder's wasm must be the build of the zxing-wasm that the barcode-detector ponyfill was
 * built with (its JS glue and the wasm go together; another version fails with "memory access out
 * of bounds"), which need not be the zxing-wasm at the top of node_modules: resolved from the
 * ponyfill's own place. web/src/platform/decoder.ts imports it as "zxing-reader.wasm?url".
 */
const fromPonyfill = createRequire(createRequire(import.meta.url).resolve("barcode-detector/ponyfill"));
const zxingReaderWasm = fromPonyfill.resolve("zxing-wasm/reader/zxing_reader.wasm");

/**
 * The field app (docs/field-app.md): built into dist/app, the Worker's static assets. The service
 * worker is its own entry at a fixed name (/sw.js: its scope is the whole origin); everything else
 * is hashed under /assets/ and served with a long cache life.
 */
/** This build's id: the service worker names its cache after it (web/src/sw.ts). */
const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export default defineConfig({
  root: here,
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  plugins: [preact(), scalarScript()],
  resolve: { alias: [{ find: /^zxing-reader\.wasm/, replacement: zxingReaderWasm }] },
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    // No inline module-preload polyfill: the CSP allows no inline script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rollupOptions: {
      input: { main: resolve(here, "index.html"), sw: resolve(here, "src/sw.ts") },
      output: { entryFileNames: (chunk) => (chunk.name === "sw" ? "sw.js" : "assets/[name]-[hash].js") },
    },
  },
});
