import { useRef } from "preact/hooks";
import type { Item } from "../api/types";
import * as act from "../state/asset-actions";
import { can } from "../state/session";
import { t } from "../strings";
import { Button, Field, Notice } from "./ui";

const date = (iso: string) => new Date(iso).toLocaleDateString("en", { dateStyle: "medium" });

/**
 * A tag no live asset has. If a deleted asset had it: restore it, or (managers) delete it for
 * good. Whoever may create assets can create one with this tag on the spot.
 */
export function MissingAsset({ tag, trashed }: { tag: string; trashed: Item | null }) {
  const name = useRef<HTMLInputElement>(null);
  return (
    <>
      <Notice tone="warn">{t.asset.notFound(tag)}</Notice>
      {trashed?.deletedAt && (
        <section aria-labelledby="trashed" class="panel">
          <h2 id="trashed">{t.asset.trashed(trashed.name, date(trashed.deletedAt))}</h2>
          {can("restoreTrashItems") && (
            <Button
              variant="primary"
              disabled={act.busy.value}
              onClick={() => void act.restoreTrashed(tag, trashed.id, t.asset.restored, t.unreachable)}
            >
              {t.asset.restore}
            </Button>
          )}
          {can("permanentlyDeleteTrashItems") && (
            <Button
              variant="danger"
              disabled={act.busy.value}
              onClick={() => void act.purgeTrashed(tag, trashed.id, t.asset.purged, t.unreachable)}
            >
              {t.asset.purge}
            </Button>
          )}
        </section>
      )}
      {can("createInventoryItem") && (
        <form
          class="panel"
          aria-labelledby="quick-create"
          onSubmit={(e) => {
            e.preventDefault();
            const value = name.current?.value.trim() ?? "";
            if (!value) return name.current?.focus();
            void act.quickCreate(tag, value, t.asset.created, t.unreachable);
          }}
        >
          <h2 id="quick-create">{t.asset.quickCreate}</h2>
          <Field id="new-name" label={t.asset.quickCreateName}>
            <input id="new-name" ref={name} required maxLength={120} autoComplete="off" />
          </Field>
          <Button type="submit" variant="primary" disabled={act.busy.value}>
            {t.asset.create}
          </Button>
        </form>
      )}
    </>
  );
}
