import { useEffect } from "preact/hooks";
import { listenForWedge } from "../platform/wedge";
import { assetPath } from "../state/codes";
import { checkedOut, chosen, confirmHolder, holderMessage, loadSubject, subject, takeHolder } from "../state/holder";
import { t } from "../strings";
import { CameraPanel } from "./CameraPanel";
import { CodeForm } from "./CodeForm";
import { Button, LinkButton, Notice } from "./ui";

/**
 * `/scan/holder/{tag}`: check the asset out to a location or another asset by scanning the
 * holder's label (camera, wedge or typed), then confirm.
 */
export function HolderScan({ tag }: { tag: string }) {
  useEffect(() => {
    void loadSubject(tag);
    return listenForWedge((raw) => void takeHolder(raw));
  }, [tag]);
  const item = subject.value;
  const said = holderMessage.value;
  return (
    <>
      <h2>{t.holder.title(item?.name ?? tag)}</h2>
      {said && <Notice tone={said.tone}>{said.text}</Notice>}
      {!checkedOut.value && item && (
        <>
          <p>{t.holder.intro}</p>
          {chosen.value && (
            <div class="panel">
              <p class="holder-choice">
                {chosen.value.name} ({t.holder.kinds[chosen.value.kind]})
              </p>
              <Button variant="primary" onClick={() => void confirmHolder()}>
                {t.holder.confirm(chosen.value.name)}
              </Button>
            </div>
          )}
          <CameraPanel onCode={(raw) => void takeHolder(raw)} />
          <CodeForm onCode={(raw) => void takeHolder(raw)} submitLabel={t.scan.open} />
        </>
      )}
      <LinkButton href={assetPath(tag)}>{t.holder.back}</LinkButton>
    </>
  );
}
