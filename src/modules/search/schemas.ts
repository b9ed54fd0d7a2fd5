import { z } from "@hono/zod-openapi";
import { ASSET_STATUSES } from "../../db/tenant/assets";
import { PERSON_STATUSES } from "../../db/tenant/people";
import { SESSION_STATUSES } from "../../db/tenant/sessions";
import { wholeNumberQuery } from "../../platform/pagination";

export const Q_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 25;

export const SearchQuery = z.object({
  q: z.string().trim().min(1, "must not be empty").max(Q_MAX, `at most ${Q_MAX} characters`).openapi({
    example: "dell lat",
    description:
      "Words to find; each matches as a prefix (`lat` finds `Latitude`), all must match. Operators and punctuation are plain text.",
  }),
  limit: wholeNumberQuery("limit", 1, SEARCH_LIMIT_MAX)
    .default(SEARCH_LIMIT_DEFAULT)
    .openapi({ description: `Results per group (default ${SEARCH_LIMIT_DEFAULT}, max ${SEARCH_LIMIT_MAX}).` }),
});

const AssetHit = z.object({
  id: z.string(),
  name: z.string(),
  uniqueTag: z.string(),
  serialNumber: z.string().nullable(),
  model: z.string().nullable(),
  status: z.enum(ASSET_STATUSES),
  exactMatch: z
    .boolean()
    .openapi({ description: "`q` equals the unique tag or serial number (case-insensitive); such hits come first." }),
});
const PersonHit = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  employeeNumber: z.string().nullable(),
  status: z.enum(PERSON_STATUSES),
});
const StockHit = z.object({
  id: z.string(),
  name: z.string(),
  tag: z.string(),
  sku: z.string().nullable(),
  unit: z.string(),
  onHand: z.number().int(),
  exactMatch: z
    .boolean()
    .openapi({ description: "`q` equals the tag or SKU (case-insensitive); such hits come first." }),
});
const SessionHit = z.object({ id: z.string(), name: z.string(), status: z.enum(SESSION_STATUSES) });

export const SearchResults = z
  .object({
    assets: z.array(AssetHit),
    people: z.array(PersonHit),
    sessions: z.array(SessionHit),
    stockItems: z.array(StockHit).openapi({
      description: "Stock items: every word starts a word of the name, or `q` is the tag or SKU.",
    }),
    licenceProducts: z.array(z.object({ id: z.string(), name: z.string(), vendor: z.string().nullable() })).openapi({
      description: "Software products (docs/licences.md): every word starts a word of the name or vendor.",
    }),
  })
  .openapi("SearchResults");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type SearchResults = z.infer<typeof SearchResults>;
