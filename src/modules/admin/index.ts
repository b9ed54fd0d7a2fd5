export { adminRouter } from "./routes";
