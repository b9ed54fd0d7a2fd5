/**
 * Front door of the custom-fields module. Custom field definitions and the validation of stored values.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export type { FieldDef } from "./definitions";
export { liveDefinitions, visibleValues } from "./definitions";
export { auditedFields, isBuiltinFormField } from "./entity-fields";
export { customFieldsRouter } from "./routes";
export type { CustomField } from "./schemas";
export { customFieldWebhookResources } from "./schemas";
export { restoreCustomField } from "./service";
export { checkCustomFieldValues, customFieldValuesWith, validateCustomFieldValues } from "./values";
