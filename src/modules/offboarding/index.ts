/**
 * Front door of the offboarding module (docs/offboarding.md): a leaver's case, from the start (an
 * admin, or SCIM deprovisioning through `startOffboarding`) to the last return (the person is then
 * deactivated and the case closes) or a cancel (re-provisioning through `cancelOffboarding`, or an
 * admin). Returns are ticked off by the Queue consumer's hook and the cron.
 */

export { cancelOffboarding } from "./cancel";
export { runOffboardingReminders } from "./reminders";
export { offboardingReturns } from "./returns-handler";
export { offboardingRouter } from "./routes";
export type { OffboardingCase, OffboardingItem } from "./schemas";
export { offboardingWebhookResources } from "./schemas";
export { type LifecycleOptions, startOffboarding } from "./start";
