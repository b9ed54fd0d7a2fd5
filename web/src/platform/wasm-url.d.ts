/** Vite's `?url` import: the emitted file's URL (here the decoder's wasm under /assets/). */
declare module "zxing-reader.wasm?url" {
  const url: string;
  export default url;
}
