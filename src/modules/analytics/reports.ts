/** The catalogue behind GET /stats/analytics/reports: every report and export with its parameters. */
type Param = { name: string; in: "query" | "path" | "body"; required: boolean; description: string };
const q = (name: string, description: string, required = false): Param => ({
  name,
  in: "query",
  required,
  description,
});

const RANGE = [
  q("from", "Start of the range (ISO 8601 date or date-time, inclusive)"),
  q("to", "End of the range (exclusive; a date means the end of that day)"),
  q("period", "day | week | month (default month)"),
];
const SCOPE = [q("categoryId", "Only assets of this category"), q("locationId", "Only assets at this location")];
const PAGE = [q("limit", "Page size 1..100 (default 50)"), q("cursor", "nextCursor of the previous page")];
const ASSET_FILTERS = [
  q("q", "Prefix of name, unique tag or serial"),
  q("status", "Asset status"),
  ...SCOPE,
  q("assigneeId", "Held by this person"),
  q("updatedSince", "Changed at or after"),
  q("overdue", "true: overdue returns only"),
  q("healthBadge", "HEALTHY | ATTENTION | AT_RISK"),
];

export const REPORTS = [
  {
    id: "overview",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/overview",
    format: "json",
    summary:
      "Counts by status, category and location; assignments and overdue returns; health badges; sessions in progress; maintenance classes",
    parameters: SCOPE,
  },
  {
    id: "sessions",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/sessions",
    format: "json",
    summary:
      "Completed sessions per period: scanned vs expected, missing rate, wrong location, median time to complete",
    parameters: [...RANGE, ...SCOPE],
  },
  {
    id: "lifecycle",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/lifecycle",
    format: "json",
    summary: "Assets created, retired, lost and found per period; age distribution",
    parameters: [...RANGE, ...SCOPE],
  },
  {
    id: "maintenance",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/maintenance",
    format: "json",
    summary: "Maintenance completed per period and type, overdue backlog, mean time between maintenance",
    parameters: [...RANGE, ...SCOPE],
  },
  {
    id: "depreciation",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/depreciation",
    format: "json",
    summary: "Straight-line and declining-balance book values per category and currency, and per asset (paginated)",
    parameters: [
      ...SCOPE,
      q("asOf", "Day of the valuation"),
      q("salvagePercent", "Salvage value, % of cost (default 0)"),
      q("defaultLifeMonths", "Life for categories without one (default 60)"),
      ...PAGE,
    ],
  },
  {
    id: "replacement-loss",
    kind: "analytics",
    method: "GET",
    path: "/stats/analytics/replacement-loss",
    format: "json",
    summary:
      "Age, warranty expiry (30/60/90 days), long-assigned assets, missing-rate trends, repeatedly unscanned assets",
    parameters: [
      ...RANGE,
      ...SCOPE,
      q("limit", "Entries per list (default 10)"),
      q("inARow", "Consecutive missed sessions (default 2)"),
    ],
  },
  {
    id: "assets-csv",
    kind: "export",
    method: "GET",
    path: "/exports/inventory-items",
    format: "csv",
    summary: "Every asset matching the list filters, custom fields as columns",
    parameters: ASSET_FILTERS,
  },
  {
    id: "people-csv",
    kind: "export",
    method: "GET",
    path: "/exports/people",
    format: "csv",
    summary: "People (custom fields as columns)",
    parameters: [
      q("q", "Prefix of name, email or employee number"),
      q("status", "active (default) | deactivated | all"),
    ],
  },
  {
    id: "session-report-csv",
    kind: "export",
    method: "GET",
    path: "/exports/sessions/{sessionId}/report",
    format: "csv",
    summary: "A session's items with their scan state, then the codes that matched no asset",
    parameters: [{ name: "sessionId", in: "path", required: true, description: "The session" }],
  },
  {
    id: "assets-import",
    kind: "import",
    method: "POST",
    path: "/imports/inventory-items",
    format: "csv",
    summary: "Create or update assets (matched by unique tag) from CSV",
    parameters: [
      q("dryRun", "true: validate only, nothing written"),
      { name: "body", in: "body", required: true, description: "text/csv with a header row" },
    ],
  },
  {
    id: "people-import",
    kind: "import",
    method: "POST",
    path: "/imports/people",
    format: "csv",
    summary: "Create or update people (matched by email) from CSV",
    parameters: [
      q("dryRun", "true: validate only, nothing written"),
      { name: "body", in: "body", required: true, description: "text/csv with a header row" },
    ],
  },
] as const;
