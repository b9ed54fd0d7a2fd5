import type { z } from "@hono/zod-openapi";
import type { Resource } from "./catalogue";

/**
 * What a module documents for the webhook events it owns: the payload schema of each of its
 * resources (and the session report that some session events add). Each module exports its own
 * from its front door; the app gathers them for the webhooks module's document builder, so the
 * webhooks module needs no other module to describe their payloads.
 */
export type WebhookResources = { [R in Resource]?: z.ZodType } & { sessionReport?: z.ZodType };
