import { createRouter } from "../../platform/router";

export const apiKeysRouter = createRouter();
