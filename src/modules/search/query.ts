// The MATCH expression builder moved to the ground floor (src/platform/fts.ts) so the lists' `q` shares it.
export { ftsQuery, MAX_TERMS } from "../../platform/fts";
