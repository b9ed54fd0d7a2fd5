/**
 * The floors of the field app (web/src, docs/field-app.md), checked by `npm run check:architecture`.
 * Ground up; a floor imports only floors below it (type-only imports aside):
 *   platform < api (the typed client, the offline queue) < state (signals) < components < pages < app
 * `strings.ts` (every word) may be imported by any floor; the service worker stands alone.
 * Only the api floor talks to the network (scripts/check-web-fetch.mjs checks the `fetch` calls).
 */
const FLOORS = [
  ["platform", "^web/src/platform/"],
  ["api", "^web/src/api/"],
  ["state", "^web/src/state/"],
  ["components", "^web/src/components/"],
  ["pages", "^web/src/pages/"],
  ["app", "^web/src/(App|main)\\.tsx$"],
];

const upward = FLOORS.slice(0, -1).map(([name, path], i) => ({
  name: `web-floor-${name}`,
  comment: `${name} is below ${FLOORS.slice(i + 1).map(([n]) => n).join(", ")}: it may not import them`,
  severity: "error",
  from: { path },
  to: { path: FLOORS.slice(i + 1).map(([, p]) => p), dependencyTypesNot: ["type-only"] },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "web-pages-skip-api",
      comment: "pages and components reach the API through the state floor, never directly",
      severity: "error",
      from: { path: "^web/src/(pages|components)/" },
      to: { path: "^web/src/api/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "web-service-worker-alone",
      comment: "the service worker runs in its own global scope: it imports nothing of the app",
      severity: "error",
      from: { path: "^web/src/sw\\.ts$" },
      to: { path: "^web/src/" },
    },
    {
      name: "web-no-cycles",
      severity: "error",
      from: { path: "^web/src/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "web/tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
