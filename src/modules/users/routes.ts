import { createRouter } from "../../platform/router";

export const usersRouter = createRouter();
