/** The calls behind the return list of an offboarding case (docs/offboarding.md), through the typed client. */
import { api, authed } from "./client";

export const offboardingCase = (caseId: string) =>
  authed(() => api.GET("/offboarding-cases/{caseId}", { params: { path: { caseId } } }));

export const offboardingItems = (caseId: string) =>
  authed(() => api.GET("/offboarding-cases/{caseId}/items", { params: { path: { caseId }, query: { limit: 100 } } }));
