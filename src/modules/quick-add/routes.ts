import { createRouter, defineRoute, jsonBody, jsonContent } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { QuickAddEventBody, QuickAddEventSchema } from "./schemas";
import { recordQuickAddEvent } from "./service";

export const quickAddRouter = createRouter().openapi(
  defineRoute({
    method: "post",
    path: "/inventory-items/quick-add/events",
    operationId: "recordQuickAddEvent",
    tags: ["Inventory items"],
    summary: "Record a quick-add event",
    description:
      "Client analytics of the quick-add flow: `quick_add_opened`, `asset_created_quick`, `asset_assigned`, `advanced_opened`. Stored per user and `flowId`; `meta` is limited to 2,048 bytes of JSON (400 beyond).",
    request: jsonBody(QuickAddEventBody),
    responses: { 201: jsonContent(QuickAddEventSchema, "Recorded") },
  }),
  async (c) => c.json(await recordQuickAddEvent(serviceCtx(c), c.req.valid("json")), 201),
);
