import { createRouter } from "../../platform/router";

export const locationsRouter = createRouter();
