/** The calls behind signing a hand-over on the phone (docs/handovers.md "In person"). */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

export type HandoverDetail = components["schemas"]["HandoverDetail"];
export type AcceptBody = components["schemas"]["AcceptHandover"];

export const getHandover = (handoverId: string) =>
  authed(() => api.GET("/handovers/{handoverId}", { params: { path: { handoverId } } }));

/** A signature is sent only as the user who took it (`as`): see `authed`. */
export const acceptHandover = (handoverId: string, body: AcceptBody, as: string) =>
  authed(() => api.POST("/handovers/{handoverId}/accept", { params: { path: { handoverId } }, body }), as);

/** A signed, single-use link for the person to accept without an account; shown once. */
export const createLink = (handoverId: string) =>
  authed(() =>
    api.POST("/handovers/{handoverId}/link", { params: { path: { handoverId } }, body: { expiresInHours: 72 } }),
  );
