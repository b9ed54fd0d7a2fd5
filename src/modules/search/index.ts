export { searchRouter } from "./routes";
