export { layoutsRouter } from "./routes";
