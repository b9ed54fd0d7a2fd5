/** The API's shapes the app uses, by their OpenAPI names (client/schema.d.ts). */
import type { components } from "../../../client/index";

type S = components["schemas"];
export type Item = S["InventoryItem"];
export type Health = S["AssetHealth"];
export type Booking = S["Booking"];
export type MaintenanceSchedule = S["MaintenanceSchedule"];
export type Person = S["Person"];
export type Location = S["Location"];
export type ApiError = S["Error"];
