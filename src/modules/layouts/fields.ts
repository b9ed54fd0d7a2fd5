import type { CustomFieldEntity, LayoutSection } from "../../db/tenant/custom-fields";
import { badRequest, type ErrorDetail } from "../../platform/errors";
import type { FieldDef } from "../custom-fields";
import { isBuiltinFormField } from "../custom-fields";

/**
 * A layout may name built-in fields of its entity and live custom fields of that entity, each once.
 * The 400 names every offending entry.
 */
export function assertLayoutFields(
  entity: CustomFieldEntity,
  sections: readonly LayoutSection[],
  live: readonly FieldDef[],
  deleted: readonly FieldDef[],
) {
  const liveKeys = new Set(live.map((d) => d.key));
  const deletedKeys = new Set(deleted.map((d) => d.key));
  const seen = new Map<string, string>();
  const problems: ErrorDetail[] = [];
  for (const [i, s] of sections.entries())
    s.fields.forEach((f, j) => {
      const path = `body.sections.${i}.fields.${j}.key`;
      if (!isBuiltinFormField(entity, f.key) && !liveKeys.has(f.key)) {
        problems.push({
          path,
          message: deletedKeys.has(f.key) ? `custom field '${f.key}' is deleted` : `unknown ${entity} field '${f.key}'`,
        });
      }
      const first = seen.get(f.key);
      if (first) problems.push({ path, message: `'${f.key}' is already placed at ${first}` });
      else seen.set(f.key, `sections.${i}.fields.${j}`);
    });
  if (problems.length > 0) throw badRequest(problems.map((p) => `${p.path}: ${p.message}`).join("; "), problems);
}

/**
 * Sections as clients see them: entries of custom fields that are not live (deleted) are left out
 * when reading, not removed from storage, so restoring the field puts it back where it was.
 */
export function visibleSections(
  entity: CustomFieldEntity,
  sections: readonly LayoutSection[],
  live: ReadonlySet<string>,
) {
  return sections.map((s) => ({
    title: s.title,
    fields: s.fields
      .filter((f) => isBuiltinFormField(entity, f.key) || live.has(f.key))
      .map((f) => ({ key: f.key, required: f.required ?? false, builtIn: isBuiltinFormField(entity, f.key) })),
  }));
}
