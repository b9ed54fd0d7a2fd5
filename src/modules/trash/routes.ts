import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { listTrash } from "./list";
import { purgeItems } from "./purge";
import { restoreItems } from "./restore";
import { ListTrashQuery, MAX_TRASH_ITEMS, TRASH_TYPES, TrashItemsBody, TrashPage, TrashResultsSchema } from "./schemas";

const tags = ["Trash"];

// /trash takes API keys: it holds exactly the data of the groups that
// do (categories, locations, assets, people, custom fields), so it is open to the same credentials.
const ACCESS_NOTE = "The trash holds the deleted items of groups that accept API keys, so it accepts them too.";
const PER_ITEM =
  `Takes 1..${MAX_TRASH_ITEMS} distinct \`{type, id}\` (types: ${TRASH_TYPES.join(", ")}); a repeated item is a 400. ` +
  "Items run in request order and each gets its own result, so the answer is 200 even when items fail: " +
  "`not_found` for an id that is unknown, not in the trash (restore) or another workspace's.";

export const trashRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/trash",
      operationId: "listTrash",
      tags,
      summary: "List deleted items",
      description: `Deleted categories, locations, assets, people and custom fields, most recently deleted first. ${ACCESS_NOTE}`,
      request: { query: ListTrashQuery },
      responses: { 200: json(TrashPage, "A page of the trash") },
    }),
    async (c) => c.json(await listTrash(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/trash/restore",
      operationId: "restoreTrashItems",
      tags,
      summary: "Restore deleted items",
      description: `${PER_ITEM} A restore that would break a uniqueness rule (a live row took the name, tag, email or key meanwhile) fails with \`conflict\` and the reason. Each restore emits its \`<type>.restored\` event. ${ACCESS_NOTE}`,
      request: body(TrashItemsBody),
      responses: { 200: json(TrashResultsSchema, "One result per item, in request order"), ...errorResponses(415) },
    }),
    async (c) => c.json({ results: await restoreItems(serviceCtx(c), c.req.valid("json").items) }, 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/trash/permanent-delete",
      operationId: "permanentlyDeleteTrashItems",
      tags,
      summary: "Permanently delete items in the trash",
      description:
        `${PER_ITEM} Only items already in the trash can be deleted: a live one fails with \`conflict\` (move it to the trash first). ` +
        "Deletes the row and what only it owned: an asset's assignments, status events, timeline, audit entries and image; a person's audit entries " +
        "(their assignment rows stay in the assets' history, which keeps the person's name); a custom field's values and layout entries. " +
        "Refused (`conflict`) while something still references the item, trashed or not: assets using a category or location, people or child " +
        "locations at a location, assets assigned to a person. Emits `<type>.purged`. Irreversible, so owners and admins only. " +
        ACCESS_NOTE,
      request: body(TrashItemsBody),
      responses: { 200: json(TrashResultsSchema, "One result per item, in request order"), ...errorResponses(415) },
    }),
    async (c) => c.json({ results: await purgeItems(serviceCtx(c), c.req.valid("json").items, c.env.FILES) }, 200),
  );
