export { scanEventsRouter } from "./routes";
