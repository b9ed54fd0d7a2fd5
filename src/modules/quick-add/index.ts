// Quick-add events (SPEC 2.7): client analytics input of the quick-add flow. Front door.
export { quickAddRouter } from "./routes";
