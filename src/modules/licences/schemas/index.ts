/**
 * The licences module's request and response schemas (the OpenAPI document is generated from
 * them), one file per thing they describe.
 */
import type { WebhookResources } from "../../../domain/webhook-delivery";
import { LotSchema } from "./lots";
import { ProductSchema } from "./products";
import { ReviewSchema } from "./reviews";
import { SeatSchema } from "./seats";

export * from "./bulk";
export * from "./feeds";
export * from "./fields";
export * from "./keys";
export * from "./lots";
export * from "./products";
export * from "./reports";
export * from "./reviews";
export * from "./seats";
export * from "./usage";

/** The payloads of this module's webhook events (docs/webhooks.md); keys are never in them. */
export const licenceWebhookResources = {
  licenceProduct: ProductSchema,
  licenceLot: LotSchema,
  licenceSeat: SeatSchema,
  licenceReview: ReviewSchema,
} satisfies WebhookResources;
