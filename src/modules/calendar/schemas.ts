import { z } from "@hono/zod-openapi";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";

export const tags = ["Bookings"];

export const CalendarFeedSchema = z
  .object({
    id: z.string().openapi({ example: "cal_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    personId: z
      .string()
      .nullable()
      .openapi({ description: "The person whose bookings it shows; null: the workspace's." }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().openapi({ description: "Last fetched by a calendar app (hour precision)." }),
  })
  .openapi("CalendarFeed");

export const CreatedCalendarFeedSchema = CalendarFeedSchema.extend({
  url: z.string().openapi({
    description:
      "The feed's URL, to subscribe to in a calendar app (webcal or https). It carries the feed's secret and is shown only here; revoke the feed if it leaks.",
    example: "https://acme.example.com/calendar/ical_3q2…x9.ics",
  }),
}).openapi("CreatedCalendarFeed");

export const CalendarFeedPage = pageOf(CalendarFeedSchema, "CalendarFeedPage");

export const CreateCalendarFeedBody = z
  .object({
    personId: z.string().min(1).max(64).nullable().optional().openapi({
      description: "A person's bookings only; absent or null: every booking of the workspace.",
    }),
    name: z.string().trim().min(1).max(120).optional().openapi({ description: "The calendar's name in the app." }),
  })
  .strict()
  .openapi("CreateCalendarFeed");

export const FeedParams = z.object({ feedId: idParam("feedId", "cal_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const FeedFileParams = z.object({
  // Any name up to 200 characters: a wrong one is simply not found (404), as an unknown secret is.
  file: z
    .string()
    .max(200)
    .openapi({ param: { name: "file", in: "path" }, example: "ical_3q2…x9.ics" }),
});

export const ListFeedsQuery = z.object({ ...pageQuery });
