export { authRouter } from "./routes";
