import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import { addKey, deleteKey, revealKeys } from "./keys";
import { createLot, deleteLot, getLot, listLots, updateLot } from "./lots";
import { createProduct, deleteProduct, getProduct, listProducts, restoreProduct, updateProduct } from "./products";
import {
  CreateLotBody,
  CreateProductBody,
  KeyBody,
  KeyRefSchema,
  ListLotsQuery,
  ListProductsQuery,
  LotPage,
  LotParams,
  LotSchema,
  ProductPage,
  ProductParams,
  ProductSchema,
  RevealedKeysSchema,
  tags,
  UpdateLotBody,
  UpdateProductBody,
} from "./schemas";

const KeyParams = LotParams.extend({ keyId: idParam("keyId", "lky_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const licenceProductsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-products",
      operationId: "listLicenceProducts",
      tags,
      summary: "List software products",
      description: "By name. With `updatedSince`: the sync stream, deleted products included (tombstones).",
      request: { query: ListProductsQuery },
      responses: { 200: json(ProductPage, "A page of products") },
    }),
    async (c) => c.json(await listProducts(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-products",
      operationId: "createLicenceProduct",
      tags,
      summary: "Create a software product",
      request: body(CreateProductBody),
      responses: { 201: json(ProductSchema, "Created") },
    }),
    async (c) => c.json(await createProduct(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-products/{productId}",
      operationId: "getLicenceProduct",
      tags,
      summary: "Get a software product",
      request: { params: ProductParams },
      responses: { 200: json(ProductSchema, "The product") },
    }),
    async (c) => c.json(await getProduct(c.var.db, c.req.valid("param").productId), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/licence-products/{productId}",
      operationId: "updateLicenceProduct",
      tags,
      summary: "Update a software product",
      request: { params: ProductParams, ...body(UpdateProductBody) },
      responses: { 200: json(ProductSchema, "Updated") },
    }),
    async (c) => c.json(await updateProduct(serviceCtx(c), c.req.valid("param").productId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/licence-products/{productId}",
      operationId: "deleteLicenceProduct",
      tags,
      summary: "Delete a software product (to the trash)",
      description: "409 while any of its seats is assigned. Restore with POST /licence-products/{productId}/restore.",
      request: { params: ProductParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await deleteProduct(serviceCtx(c), c.req.valid("param").productId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-products/{productId}/restore",
      operationId: "restoreLicenceProduct",
      tags,
      summary: "Restore a software product from the trash",
      request: { params: ProductParams },
      responses: { 200: json(ProductSchema, "Restored") },
    }),
    async (c) => c.json(await restoreProduct(serviceCtx(c), c.req.valid("param").productId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-products/{productId}/lots",
      operationId: "createLicenceLot",
      tags,
      summary: "Add an entitlement (a purchase lot) to a product",
      description:
        "Kind, seats, cost (decimal, stored in minor units of `currency`), order number, supplier and term: perpetual (no `endDate`) or a start and end with monthly, annual or multi-year renewal, auto-renew and a notice period. Product keys are added separately (POST /licence-lots/{lotId}/keys).",
      request: { params: ProductParams, ...body(CreateLotBody) },
      responses: { 201: json(LotSchema, "Created"), ...errorResponses(409) },
    }),
    async (c) => c.json(await createLot(serviceCtx(c), c.req.valid("param").productId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-lots",
      operationId: "listLicenceLots",
      tags,
      summary: "List entitlements (lots)",
      description:
        "By id; `productId` narrows to one product. Keys are never listed. With `updatedSince`: the sync stream.",
      request: { query: ListLotsQuery },
      responses: { 200: json(LotPage, "A page of lots") },
    }),
    async (c) => c.json(await listLots(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-lots/{lotId}",
      operationId: "getLicenceLot",
      tags,
      summary: "Get an entitlement (lot)",
      request: { params: LotParams },
      responses: { 200: json(LotSchema, "The lot") },
    }),
    async (c) => c.json(await getLot(c.var.db, c.req.valid("param").lotId), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/licence-lots/{lotId}",
      operationId: "updateLicenceLot",
      tags,
      summary: "Update an entitlement (lot)",
      description:
        "Lowering `seats` below the seats assigned is allowed; the compliance report then lists the lot as over-assigned.",
      request: { params: LotParams, ...body(UpdateLotBody) },
      responses: { 200: json(LotSchema, "Updated") },
    }),
    async (c) => c.json(await updateLot(serviceCtx(c), c.req.valid("param").lotId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/licence-lots/{lotId}",
      operationId: "deleteLicenceLot",
      tags,
      summary: "Delete an entitlement (lot)",
      description: "409 while any of its seats is assigned.",
      request: { params: LotParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await deleteLot(serviceCtx(c), c.req.valid("param").lotId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-lots/{lotId}/keys",
      operationId: "addLicenceKey",
      tags,
      summary: "Store a product key of a lot",
      description:
        "The key is stored encrypted and never returned by this route, nor in lots, lists, events, audit entries, exports or idempotency records; admins read it with GET /licence-lots/{lotId}/keys.",
      request: { params: LotParams, ...body(KeyBody) },
      responses: { 201: json(KeyRefSchema, "Stored (without the key)") },
    }),
    async (c) => c.json(await addKey(serviceCtx(c), c.env, c.req.valid("param").lotId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-lots/{lotId}/keys",
      operationId: "revealLicenceKeys",
      tags,
      summary: "Show a lot's product keys (admins)",
      request: { params: LotParams },
      responses: { 200: json(RevealedKeysSchema, "The keys in plain text") },
    }),
    async (c) => c.json(await revealKeys(serviceCtx(c), c.env, c.req.valid("param").lotId), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/licence-lots/{lotId}/keys/{keyId}",
      operationId: "deleteLicenceKey",
      tags,
      summary: "Remove a product key",
      request: { params: KeyParams },
      responses: { 204: { description: "Removed" } },
    }),
    async (c) => {
      const p = c.req.valid("param");
      await deleteKey(serviceCtx(c), p.lotId, p.keyId);
      return c.body(null, 204);
    },
  );
