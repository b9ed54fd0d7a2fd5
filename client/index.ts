/**
 * The typed client of the Inventory Tracking API: openapi-fetch over the types that
 * openapi-typescript generates from the OpenAPI document (`npm run client:generate`).
 *
 * @example
 * const api = createInventoryClient({ baseUrl: "https://acme.example.com/api/v1", apiKey: process.env.API_KEY! });
 * const { data, error } = await api.GET("/inventory-items", { params: { query: { limit: 10 } } });
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, paths } from "./schema";

export interface InventoryClientOptions {
  /** `https://<workspace>.<domain>/api/v1` */
  baseUrl: string;
  /** An API key (`Authorization: ApiKey <key>`), or use `bearer` for a user's JWT. */
  apiKey?: string;
  bearer?: string;
  /** A fetch to use instead of the global one (tests pass the Worker's). */
  fetch?: (input: Request) => Promise<Response>;
}

/** The document's paths are absolute (`/api/v1/...`); the client takes them relative to `baseUrl`. */
type Relative<P> = { [K in keyof P as K extends `/api/v1${infer R}` ? R : never]: P[K] };
export type ApiPaths = Relative<paths>;

export function createInventoryClient(opts: InventoryClientOptions): Client<ApiPaths> {
  const authorization = opts.apiKey ? `ApiKey ${opts.apiKey}` : opts.bearer ? `Bearer ${opts.bearer}` : undefined;
  return createClient<ApiPaths>({
    baseUrl: opts.baseUrl,
    headers: authorization ? { authorization } : {},
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}
