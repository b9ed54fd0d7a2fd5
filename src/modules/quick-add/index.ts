// Quick-add events (docs/analytics.md#quick-add-events): client analytics input of the quick-add flow. Front door.
export { quickAddRouter } from "./routes";
