import { useSignal } from "@preact/signals";
import { messageOf } from "../api/client";
import { createLink } from "../api/handovers";
import { pendingHandover } from "../state/asset-actions";
import { can } from "../state/session";
import { t } from "../strings";
import { Button, Field, LinkButton, Notice } from "./ui";

/**
 * After a checkout that recorded a pending hand-over (an agreement covers the asset): sign it now
 * on this phone (the `/h/{id}` page) or make a link for the person. Each offer only to a user who
 * may call its route (GET /auth/permissions).
 */
export function HandoverOffer() {
  const pending = pendingHandover.value;
  const link = useSignal<{ url: string; expiresAt: string } | null>(null);
  const failed = useSignal<string | null>(null);
  const sending = useSignal(false);
  if (!pending) return null;
  const mayLink = can("createHandoverLink");
  const maySign = can("acceptHandover");
  const send = async () => {
    sending.value = true;
    failed.value = null;
    try {
      const res = await createLink(pending.id);
      if (res.data) link.value = res.data;
      else failed.value = messageOf(res.error, t.handoverOffer.linkFailed);
    } catch {
      failed.value = t.handoverOffer.linkFailed;
    } finally {
      sending.value = false;
    }
  };
  return (
    <section class="panel" aria-labelledby="handover-offer">
      <h2 id="handover-offer">{t.handoverOffer.title}</h2>
      <p>{t.handoverOffer.checkout}</p>
      <div class="actions">
        {maySign && (
          <LinkButton variant="primary" href={`/h/${encodeURIComponent(pending.id)}`}>
            {t.handoverOffer.signNow}
          </LinkButton>
        )}
        {mayLink && !link.value && (
          <Button disabled={sending.value} onClick={() => void send()}>
            {t.handoverOffer.sendLink}
          </Button>
        )}
      </div>
      {failed.value && <Notice tone="error">{failed.value}</Notice>}
      {link.value && (
        <Field
          id="handover-link"
          label={t.handoverOffer.linkLabel}
          hint={t.handoverOffer.linkExpires(link.value.expiresAt)}
        >
          <input id="handover-link" readOnly value={link.value.url} onFocus={(e) => e.currentTarget.select()} />
        </Field>
      )}
    </section>
  );
}
