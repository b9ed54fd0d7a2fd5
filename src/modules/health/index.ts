export { healthRouter } from "./routes";
