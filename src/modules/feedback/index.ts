/**
 * Front door of the feedback module. Feedback submissions with image attachments.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { feedbackRouter } from "./routes";
export type { Feedback } from "./schemas";
export { feedbackWebhookResources } from "./schemas";
