export { feedbackRouter } from "./routes";
