import type { HandoverItem } from "../../db/tenant/handovers";

/** One item as the agreement and the receipt list it. */
export const itemLine = (i: HandoverItem) =>
  `${i.name}${i.tag ? ` (tag ${i.tag})` : ""}${i.serial ? `, serial ${i.serial}` : ""}`;

/** The agreement with its fields filled in: what the person reads and signs, and what the receipt quotes. */
export function renderAgreement(
  body: string,
  f: { personName: string; items: readonly HandoverItem[]; at: string; dueBackAt: string | null },
): string {
  const fields: Record<string, string> = {
    person: f.personName,
    items: f.items.map((i) => `- ${itemLine(i)}`).join("\n"),
    date: f.at.slice(0, 10),
    dueBack: f.dueBackAt ?? "open",
  };
  return body.replace(/\{\{\s*(person|items|date|dueBack)\s*\}\}/g, (_, k: string) => fields[k] ?? "");
}
