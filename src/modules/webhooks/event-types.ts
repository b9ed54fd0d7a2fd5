import { CATALOGUE, type CatalogueEntry } from "../../domain/webhook-delivery";
import { decodeCursor, toPage } from "../../platform/pagination";

const SUBSCRIBABLE = CATALOGUE.filter((e) => e.resource !== "verification").sort((a, b) => (a.type < b.type ? -1 : 1));
const toEventType = (e: CatalogueEntry) => ({
  type: e.type,
  description: e.description,
  resource: e.resource,
  extra: e.extra ?? null,
});

/** The catalogue, by type name, paginated like every list. */
export function listEventTypes(input: { limit: number; cursor?: string }) {
  const after = decodeCursor(input.cursor, 1);
  const rest = after ? SUBSCRIBABLE.filter((e) => e.type > String(after[0])) : SUBSCRIBABLE;
  return toPage(rest.slice(0, input.limit + 1), input.limit, (e) => [e.type], toEventType);
}
