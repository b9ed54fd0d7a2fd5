import { handoverLink, handoverLinkError, linkBusy, pendingHandover, sendHandoverLink } from "../state/handover-offer";
import { can } from "../state/session";
import { t } from "../strings";
import { Button, Field, LinkButton, Notice } from "./ui";

/**
 * After a checkout that recorded a pending hand-over (an agreement covers what moved): sign it now
 * on this phone (the `/h/{id}` page) or make a link for the person. Each offer only to a user who
 * may call its route (GET /auth/permissions).
 */
export function HandoverOffer() {
  const pending = pendingHandover.value;
  if (!pending) return null;
  const link = handoverLink.value;
  return (
    <section class="panel" aria-labelledby="handover-offer">
      <h2 id="handover-offer">{t.handoverOffer.title}</h2>
      <p>{t.handoverOffer.checkout}</p>
      <div class="actions">
        {can("acceptHandover") && (
          <LinkButton variant="primary" href={`/h/${encodeURIComponent(pending.id)}`}>
            {t.handoverOffer.signNow}
          </LinkButton>
        )}
        {can("createHandoverLink") && !link && (
          <Button disabled={linkBusy.value} onClick={() => void sendHandoverLink(t.handoverOffer.linkFailed)}>
            {t.handoverOffer.sendLink}
          </Button>
        )}
      </div>
      {handoverLinkError.value && <Notice tone="error">{handoverLinkError.value}</Notice>}
      {link && (
        <Field id="handover-link" label={t.handoverOffer.linkLabel} hint={t.handoverOffer.linkExpires(link.expiresAt)}>
          <input id="handover-link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
        </Field>
      )}
    </section>
  );
}
