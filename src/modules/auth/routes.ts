import { createRouter } from "../../platform/router";

export const authRouter = createRouter();
