export { settingsRouter } from "./routes";
