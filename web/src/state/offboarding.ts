/**
 * The return list's state-floor door to the API (pages never call the API floor themselves): an
 * offboarding case, its items, and the check-in a scan makes (docs/offboarding.md#in-the-field-app).
 */
import { checkIn } from "../api/assets";
import { offboardingCase, offboardingItems } from "../api/offboarding";

export const loadCase = (caseId: string) => Promise.all([offboardingCase(caseId), offboardingItems(caseId)]);
export const returnAsset = (assetId: string) => checkIn(assetId);
