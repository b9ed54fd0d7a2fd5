import type { CustomFieldEntity, CustomFieldType } from "../../db/tenant/custom-fields";
import { badRequest, type ErrorDetail, invalidField } from "../../platform/errors";
import { isReservedKey } from "./entity-fields";

/** Dropdown option rules: trimmed on save, none blank, no case-insensitive duplicates, at least one for a dropdown. */
export function normalizeOptions(
  type: CustomFieldType,
  options: readonly string[] | null | undefined,
): string[] | null {
  if (type !== "dropdown") {
    if (options !== undefined && options !== null)
      throw invalidField("body.options", `only a dropdown has options, not a ${type} field`);
    return null;
  }
  if (!options || options.length === 0) throw invalidField("body.options", "a dropdown needs at least one option");
  const trimmed = options.map((o) => o.trim());
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  trimmed.forEach((o, i) => {
    if (o.length === 0) problems.push({ path: `body.options.${i}`, message: "must not be blank" });
    const first = seen.get(o.toLowerCase());
    if (o.length > 0 && first !== undefined)
      problems.push({
        path: `body.options.${i}`,
        message: `duplicates option ${first} ('${trimmed[first]}'), compared case-insensitively`,
      });
    else seen.set(o.toLowerCase(), i);
  });
  if (problems.length > 0) throw badRequest(problems.map((p) => `${p.path}: ${p.message}`).join("; "), problems);
  return trimmed;
}

export function assertKeyAllowed(entity: CustomFieldEntity, key: string) {
  if (isReservedKey(entity, key))
    throw invalidField(
      "body.key",
      `'${key}' is a built-in field of ${entity} (reserved names are compared case-insensitively)`,
    );
}
