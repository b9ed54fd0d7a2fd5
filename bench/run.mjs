// `npm run bench [-- name ...]`: runs the named benchmarks (default: all) one after another, each in
// its own process with its own local Worker, and fails if any fails. Names: the files in this folder.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const here = new URL(".", import.meta.url).pathname;
const all = readdirSync(here)
  .filter(
    (f) => f.endsWith(".mjs") && !["run.mjs", "lib.mjs", "lib-shards.mjs"].includes(f) && !f.endsWith("-seed.mjs"),
  )
  .map((f) => f.replace(/\.mjs$/, ""))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; choose from: ${all.join(", ")}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length ? wanted : all) {
  console.log(`\n=== bench ${name} ===`);
  const res = spawnSync(process.execPath, [`${here}${name}.mjs`], { stdio: "inherit" });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
