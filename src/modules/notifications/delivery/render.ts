import { kindOf } from "../kinds";

/** One line of a mail: a notification, with the label page of its asset when it has one. */
export interface MailItem {
  type: string;
  title: string;
  message: string;
  createdAt: string;
  link: string | null;
  unsubscribeUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const labelOf = (type: string) => kindOf(type)?.label ?? type;

const shell = (workspace: string, heading: string, body: string, footer: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:16px 24px;border-bottom:1px solid #e4e7eb;font-size:13px;color:#52606d">${esc(workspace)}</td></tr>
<tr><td style="padding:20px 24px"><h1 style="margin:0 0 12px;font-size:20px">${esc(heading)}</h1>${body}</td></tr>
<tr><td style="padding:12px 24px;border-top:1px solid #e4e7eb;font-size:12px;color:#7b8794">${footer}</td></tr>
</table></td></tr></table></body></html>`;

const button = (href: string, text: string) =>
  `<p style="margin:16px 0"><a href="${esc(href)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px">${esc(text)}</a></p>`;

/** A mail for one notification. */
export function renderSingle(workspace: string, item: MailItem): RenderedMail {
  const subject = `[${workspace}] ${item.title}`;
  const open = item.link ? `\nOpen: ${item.link}\n` : "";
  const text = `${item.title}\n\n${item.message}\n${open}\n--\n${workspace} · ${labelOf(item.type)}\nStop these mails (${labelOf(item.type)} only): ${item.unsubscribeUrl}\n`;
  const body = `<p style="margin:0 0 8px;font-size:15px">${esc(item.message)}</p>${item.link ? button(item.link, "Open in the app") : ""}`;
  const footer = `You get this because of your notification settings for “${esc(labelOf(item.type))}”. <a href="${esc(item.unsubscribeUrl)}" style="color:#52606d">Stop these mails</a> (this kind only).`;
  return { subject, text, html: shell(workspace, item.title, body, footer) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** Lines listed per kind in a digest; the count always covers all of them. */
export const DIGEST_LINES_PER_KIND = 50;

/** A digest: the period's notifications grouped by kind and counted, newest first within a kind. */
export function renderDigest(
  workspace: string,
  period: string,
  items: MailItem[],
  unsubscribeAllUrl: string,
): RenderedMail {
  const groups = new Map<string, MailItem[]>();
  for (const it of [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt)))
    groups.set(it.type, [...(groups.get(it.type) ?? []), it]);
  const heading = `${period.startsWith("weekly") ? "Weekly" : "Daily"} digest: ${plural(items.length, "item")}`;
  const subject = `[${workspace}] ${heading}`;
  const textParts: string[] = [heading, ""];
  const htmlParts: string[] = [];
  for (const [type, list] of groups) {
    const shown = list.slice(0, DIGEST_LINES_PER_KIND);
    const more = list.length - shown.length;
    textParts.push(`${labelOf(type)} (${list.length})`);
    for (const it of shown) textParts.push(`- ${it.title}: ${it.message}${it.link ? ` ${it.link}` : ""}`);
    if (more > 0) textParts.push(`  and ${more} more`);
    textParts.push(`  Stop ${labelOf(type)} mails: ${list[0]!.unsubscribeUrl}`, "");
    htmlParts.push(
      `<h2 style="margin:20px 0 8px;font-size:16px">${esc(labelOf(type))} <span style="color:#7b8794;font-weight:normal">(${list.length})</span></h2><ul style="margin:0;padding-left:20px">${shown
        .map(
          (it) =>
            `<li style="margin:0 0 6px">${it.link ? `<a href="${esc(it.link)}" style="color:#2563eb">${esc(it.title)}</a>` : esc(it.title)}<br><span style="color:#52606d;font-size:13px">${esc(it.message)}</span></li>`,
        )
        .join(
          "",
        )}${more > 0 ? `<li style="color:#7b8794">and ${more} more</li>` : ""}</ul><p style="margin:4px 0 0;font-size:12px"><a href="${esc(list[0]!.unsubscribeUrl)}" style="color:#7b8794">Stop ${esc(labelOf(type))} mails</a></p>`,
    );
  }
  textParts.push("--", `${workspace} · digest ${period}`, `Stop all mails of this digest: ${unsubscribeAllUrl}`);
  const footer = `One mail per ${period.startsWith("weekly") ? "week" : "day"} with everything due. <a href="${esc(unsubscribeAllUrl)}" style="color:#52606d">Stop this digest</a>.`;
  return { subject, text: `${textParts.join("\n")}\n`, html: shell(workspace, heading, htmlParts.join(""), footer) };
}
