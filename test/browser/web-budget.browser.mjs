// The first-load budget script (scripts/web-budget.mjs) on the real build and on builds made up to
// prove it counts what it should: static imports yes, dynamic imports (the decoder) no.

import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUDGET_BYTES, firstLoadFiles, measure } from "../../scripts/web-budget.mjs";

const dirs = [];
function fakeBuild(files) {
  const dir = mkdtempSync(join(tmpdir(), "web-budget-"));
  dirs.push(dir);
  mkdirSync(join(dir, "assets"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}
/** Incompressible text of `kb` kilobytes (random hex survives gzip at about half its size). */
const noise = (kb) => `/*${randomBytes(kb * 1024).toString("base64")}*/`;

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the field app's first-load budget", () => {
  it("the real build (global setup built it) is within 120 KB gzip", () => {
    const { files, total } = measure();
    expect(files.some((f) => f.file.endsWith(".js"))).toBe(true);
    expect(files.some((f) => f.file.endsWith(".css"))).toBe(true);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it("counts the entry, its CSS and its static imports, not what loads later by import()", () => {
    const dir = fakeBuild({
      "index.html":
        '<script type="module" src="/assets/main.js"></script><link rel="stylesheet" href="/assets/main.css">',
      "assets/main.js": 'import{a}from"./shared.js";import"./side.js";const d=()=>import("./decoder.js");',
      "assets/shared.js": "export const a=1;",
      "assets/side.js": "console.log(1);",
      "assets/decoder.js": noise(400),
      "assets/main.css": "body{}",
    });
    expect(firstLoadFiles(dir).sort()).toEqual([
      "/assets/main.css",
      "/assets/main.js",
      "/assets/shared.js",
      "/assets/side.js",
    ]);
    expect(measure(dir).total).toBeLessThan(BUDGET_BYTES);
  });

  it("fails a build whose first load is over the budget", () => {
    const dir = fakeBuild({
      "index.html": '<script type="module" src="/assets/main.js"></script>',
      "assets/main.js": 'import"./big.js";',
      "assets/big.js": noise(200),
    });
    expect(measure(dir).total).toBeGreaterThan(BUDGET_BYTES);
  });
});
