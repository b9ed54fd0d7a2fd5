export { isBuiltinFormField } from "./builtins";
export { liveDefinitions, visibleValues } from "./definitions";
export type { FieldDef } from "./definitions";
export { customFieldsRouter } from "./routes";
export { restoreCustomField } from "./service";
export { checkCustomFieldValues } from "./values";
