/**
 * The house rules of src/ (docs/architecture.md), checked by `npm test` (`npm run check:architecture`).
 * Floors, ground up; a floor imports only floors below it (type-only imports aside, so the typed
 * bindings in src/env.ts can name the classes they bind):
 *   platform < db < tenancy < events < access < http < domain packages < modules < jobs < app
 * Inside the modules floor, tiers, ground up (type-only imports count here: a lower tier does not
 * name a higher one's types either):
 *   records < assets < what uses assets < aggregators
 * A module is entered only through its index.ts, and nothing imports in a cycle.
 */
const FLOORS = [
  ["platform", "^src/platform/"],
  ["db", "^src/db/"],
  ["tenancy", "^src/tenancy/"],
  ["events", "^src/events/"],
  ["access", "^src/access/"],
  ["http", "^src/http/"],
  ["domain", "^src/domain/"],
  ["modules", "^src/modules/"],
  ["jobs", "^src/jobs/"],
  ["app", "^src/(app|index|event-handlers)\\.ts$"],
];

const upward = FLOORS.slice(0, -1).map(([name, path], i) => ({
  name: `floor-${name}`,
  comment: `${name} is below ${FLOORS.slice(i + 1).map(([n]) => n).join(", ")}: it may not import them`,
  severity: "error",
  from: { path },
  to: { path: FLOORS.slice(i + 1).map(([, p]) => p), dependencyTypesNot: ["type-only"] },
}));

// The module tiers (docs/architecture.md#module-tiers). Every module is in exactly one; a new module
// must be placed here before it may import anything (rule `module-tier-unplaced`).
const TIERS = [
  [
    "records",
    [
      "api-keys",
      "auth",
      "categories",
      "custom-fields",
      "layouts",
      "locations",
      "notifications",
      "files",
      "settings",
      "sso",
      "users",
    ],
  ],
  ["assets", ["assets"]],
  [
    "uses-assets",
    [
      "bookings",
      "calendar",
      "feedback",
      "handovers",
      "health",
      "kits",
      "labels",
      "licences",
      "maintenance",
      "people",
      "quick-add",
      "scan-events",
      "session-schedules",
      "sessions",
      "stock",
    ],
  ],
  ["aggregators", ["admin", "analytics", "import-export", "field-app", "offboarding", "requests", "scim", "search", "trash", "webhooks"]],
];
const tierPath = (mods) => `^src/modules/(${mods.join("|")})/`;

const tiers = TIERS.slice(0, -1).map(([name, mods], i) => ({
  name: `tier-${name}`,
  comment: `${name} modules are below ${TIERS.slice(i + 1).map(([n]) => n).join(", ")}: they may not import them (types included)`,
  severity: "error",
  from: { path: tierPath(mods) },
  to: { path: TIERS.slice(i + 1).map(([, m]) => tierPath(m)) },
}));

module.exports = {
  forbidden: [
    ...upward,
    ...tiers,
    {
      name: "module-tier-unplaced",
      comment: "every module is placed in a tier of .dependency-cruiser.cjs (TIERS) and docs/architecture.md",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/", pathNot: TIERS.map(([, m]) => tierPath(m)) },
      to: {},
    },
    {
      name: "module-front-door",
      comment: "another module is entered only through its index.ts",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/" },
      to: { path: "^src/modules/[^/]+/", pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/index\\.ts$"] },
    },
    {
      name: "domain-front-door",
      comment: "a domain package is entered only through its index.ts from outside it",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/domain/" },
      to: { path: "^src/domain/[^/]+/", pathNot: "^src/domain/[^/]+/index\\.ts$" },
    },
    {
      name: "domain-front-door-between-packages",
      comment: "one domain package enters another only through its index.ts",
      severity: "error",
      from: { path: "^src/domain/([^/]+)/" },
      to: { path: "^src/domain/[^/]+/", pathNot: ["^src/domain/$1/", "^src/domain/[^/]+/index\\.ts$"] },
    },
    {
      name: "no-cycles",
      comment: "no import cycles (type-only imports aside)",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "unresolvable",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/db/(migrations\\.generated\\.ts$|migrations/)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
