/**
 * Codes beyond a thing's own tag (docs/labels.md): a Code128, DataMatrix or EAN on a label names an
 * asset, kit, location or stock item through `GET /codes/lookup/{value}`; a reserved (printed,
 * unclaimed) code is claimed for an asset through `POST /codes/lookup/{value}/claim`.
 */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

export type CodeLookup = components["schemas"]["CodeLookup"];

export const lookup = (value: string) =>
  authed(() => api.GET("/codes/lookup/{value}", { params: { path: { value } } }));

export const claim = (value: string, assetId: string) =>
  authed(() =>
    api.POST("/codes/lookup/{value}/claim", {
      params: { path: { value } },
      body: { holder: { kind: "asset", id: assetId } },
    }),
  );
