import { createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { rawTenantDb } from "../../tenancy/pool";
import { SearchQuery, SearchResults } from "./schemas";
import { search } from "./service";

const tags = ["Search"];

export const searchRouter = createRouter().openapi(
  defineRoute({
    method: "get",
    path: "/search",
    operationId: "search",
    tags,
    summary: "Quick search",
    description:
      "Grouped results across assets (name, unique tag, serial number, model), people (name, email, employee number) and sessions (name), " +
      "each group ranked by relevance (bm25) with prefix matching; assets and people among their 1,000 most recently added matches (docs/search.md). " +
      "An asset whose unique tag or serial number equals `q` comes first " +
      "(`exactMatch: true`), and so does a person whose email or employee number equals it. Deleted assets and people are not found. Empty `q` or longer than 100 characters: 400.",
    request: { query: SearchQuery },
    responses: { 200: json(SearchResults, "Results per group") },
  }),
  async (c) => c.json(await search(rawTenantDb(c.env, c.var.tenant.dbBinding), c.req.valid("query")), 200),
);
