export { locationsRouter } from "./routes";
export { restoreLocation } from "./service";
