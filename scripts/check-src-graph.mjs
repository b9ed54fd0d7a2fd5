// Reads dependency-cruiser's JSON of src/ on stdin (one cruise, about 6 CPU-s, serves both checks)
// and fails on:
// - a violation of the floor rules (.dependency-cruiser.cjs), printed as its `err` reporter would;
// - an import cycle, type-only imports included: a type cycle is still two files that cannot be
//   read, or moved, one without the other. dependency-cruiser's own `circular` rule reports one
//   cycle per module and can pass over a cycle when the path it found is another, so this runs a
//   strongly-connected-components check over the whole graph as well.
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const { modules, summary } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const broken = summary.violations.filter((v) => v.rule.severity === "error");
for (const v of summary.violations)
  console.error(`${v.rule.severity} ${v.rule.name}: ${v.from} → ${v.to}${v.comment ? ` (${v.comment})` : ""}`);
if (broken.length > 0) {
  console.error(`✘ ${broken.length} dependency violation(s) in src/ (.dependency-cruiser.cjs)`);
  process.exit(1);
}
console.log(`no dependency violations (${summary.totalCruised} modules)`);

const graph = new Map();
for (const m of modules) {
  const deps = (m.dependencies ?? []).filter((d) => d.resolved.startsWith("src/")).map((d) => d.resolved);
  graph.set(m.source, deps);
}

// Tarjan's algorithm, iterative enough for a few hundred modules.
let next = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(v) {
  index.set(v, next);
  low.set(v, next++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1) cycles.push(component.sort());
}
for (const v of graph.keys()) if (!index.has(v)) visit(v);

if (cycles.length > 0) {
  for (const c of cycles) console.error(`import cycle among:\n  ${c.join("\n  ")}`);
  process.exit(1);
}
console.log(`no import cycles (${graph.size} modules)`);
