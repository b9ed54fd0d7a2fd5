import { encode } from "uqr";

/** The dark modules of a QR code as runs per row: [x, y, width] in module units (no quiet zone). */
export function qrRuns(text: string): { size: number; runs: [number, number, number][] } {
  const { data, size } = encode(text, { ecc: "M", border: 0 });
  const runs: [number, number, number][] = [];
  data.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      runs.push([start, y, x - start]);
    }
  });
  return { size, runs };
}

/** An SVG of the QR code with a 4-module quiet zone: one path of horizontal runs. */
export function qrSvg(text: string, moduleSize = 8): string {
  const { size, runs } = qrRuns(text);
  const total = size + 8;
  const d = runs.map(([x, y, w]) => `M${x + 4} ${y + 4}h${w}v1h-${w}z`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" width="${total * moduleSize}" height="${total * moduleSize}" shape-rendering="crispEdges"><rect width="${total}" height="${total}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}

/** The URL the scanner accepts for an asset: `<origin>/a/<tag>`. */
export const assetUrl = (origin: string, tag: string) => `${origin}/a/${encodeURIComponent(tag)}`;
