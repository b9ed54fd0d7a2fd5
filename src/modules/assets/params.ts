import { z } from "@hono/zod-openapi";
import { idParam } from "../../platform/schemas";

export const tags = ["Inventory items"];
export const ItemParams = z.object({ inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const TagParams = z.object({ uniqueTag: z.string().min(1).max(64).openapi({ param: { name: "uniqueTag", in: "path" }, example: "AST-7K2M9Q" }) });
