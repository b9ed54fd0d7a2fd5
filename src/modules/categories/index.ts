export { categoriesRouter } from "./routes";
export { restoreCategory } from "./service";
