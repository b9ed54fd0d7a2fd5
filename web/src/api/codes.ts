/**
 * Codes beyond a thing's own tag (docs/labels.md): a Code128, DataMatrix or EAN on a label names an
 * asset, kit, location or stock item through `GET /codes/lookup/{value}`.
 */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

export type CodeLookup = components["schemas"]["CodeLookup"];

export const lookup = (value: string) =>
  authed(() => api.GET("/codes/lookup/{value}", { params: { path: { value } } }));
