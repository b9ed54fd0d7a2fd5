import { useEffect, useRef } from "preact/hooks";
import { listenForWedge } from "../platform/wedge";
import * as c from "../state/claim";
import { assetPath, holderPath } from "../state/codes";
import { can } from "../state/session";
import { t } from "../strings";
import { CameraPanel } from "./CameraPanel";
import { Picker } from "./Picker";
import { Button, Field, LinkButton, Notice, Spinner } from "./ui";

/**
 * `/scan/claim/{value}`: a reserved label (printed before its equipment) attached to an asset it
 * already has (searched, or found by scanning its old label with the camera or a wedge scanner) or
 * to a new one.
 */
export function ClaimCode({ value }: { value: string }) {
  const name = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void c.loadClaim(value);
    return listenForWedge((raw) => void c.takeOldLabel(raw));
  }, [value]);
  const s = c.claim.value;
  const said = c.claimMessage.value;
  const chosen = c.target.value;
  return (
    <>
      <h2>{t.claim.title(value)}</h2>
      {said && <Notice tone={said.tone}>{said.text}</Notice>}
      {s.status === "loading" && <Spinner label={t.loading} />}
      {s.status === "error" && <Notice tone="error">{s.message}</Notice>}
      {s.status === "missing" && <Notice tone="warn">{t.claim.missing(value)}</Notice>}
      {s.status === "taken" && (
        <>
          {!said && <Notice tone="info">{t.claim.taken(value, s.holder.name)}</Notice>}
          <LinkButton href={holderPath(s.holder)}>{t.claim.open(s.holder.name)}</LinkButton>
        </>
      )}
      {s.status === "claimed" && (
        <LinkButton variant="primary" href={assetPath(s.asset.uniqueTag)}>
          {t.claim.open(s.asset.name)}
        </LinkButton>
      )}
      {s.status === "reserved" && (
        <>
          <p>{t.claim.intro}</p>
          <section class="panel" aria-labelledby="claim-existing">
            <h3 id="claim-existing">{t.claim.existing}</h3>
            <p>{t.claim.scanOld}</p>
            {chosen && (
              <Button variant="primary" disabled={c.busy.value} onClick={() => void c.claimFor(chosen)}>
                {t.claim.confirm(chosen.name)}
              </Button>
            )}
            <CameraPanel onCode={(raw) => void c.takeOldLabel(raw)} />
            <Picker
              id="claim-find"
              label={t.claim.find}
              search={c.searchAssets}
              chosen={chosen}
              detail={(a) => a.uniqueTag}
              onPick={(a) => {
                c.target.value = a;
              }}
            />
          </section>
          {can("createInventoryItem") && (
            <form
              class="panel"
              aria-labelledby="claim-create"
              onSubmit={(e) => {
                e.preventDefault();
                const v = c.newName.value.trim();
                if (!v) return name.current?.focus();
                void c.createWith(v);
              }}
            >
              <h3 id="claim-create">{t.claim.create}</h3>
              <Field id="claim-name" label={t.claim.createName}>
                <input
                  id="claim-name"
                  ref={name}
                  value={c.newName.value}
                  onInput={(e) => {
                    c.newName.value = e.currentTarget.value;
                  }}
                  required
                  maxLength={120}
                  autoComplete="off"
                />
              </Field>
              <Button type="submit" disabled={c.busy.value}>
                {t.claim.createButton}
              </Button>
            </form>
          )}
        </>
      )}
    </>
  );
}
