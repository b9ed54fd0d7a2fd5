export { apiKeysRouter } from "./routes";
