export { trashRouter } from "./routes";
