/**
 * A minimal RFC 5545 writer for the booking feeds: text escaping (3.3.11), UTC date-times (3.3.5),
 * CRLF line ends and lines folded at 75 octets without splitting a UTF-8 sequence (3.1). Tests
 * parse its output with an independent parser (ical.js).
 */

export interface IcsEvent {
  uid: string;
  /** When the event last changed (DTSTAMP: when this copy of it was made, per RFC 5545 3.8.7.2). */
  stamp: string;
  lastModified: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  status: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  url?: string;
  sequence: number;
}

// Control characters (NUL and the rest of C0 but tab and newlines, and DEL) are not allowed in
// RFC 5545 text: stripped, so notes typed with one cannot break a calendar app's parser.
const escapeText = (s: string) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is stripped
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r?\n/g, "\\n");

/** `2026-11-23T18:05:00.000Z` → `20261123T180500Z`. */
export const icsDateTime = (iso: string) => `${new Date(iso).toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;

const encoder = new TextEncoder();

/** Folds a content line at 75 octets; continuation lines start with one space (which counts). */
function fold(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

export function renderCalendar(name: string, events: readonly IcsEvent[]): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Inventory API//Bookings//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(name)}`,
  ];
  for (const e of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${e.uid}`,
      `DTSTAMP:${icsDateTime(e.stamp)}`,
      `LAST-MODIFIED:${icsDateTime(e.lastModified)}`,
      `SEQUENCE:${e.sequence}`,
      `DTSTART:${icsDateTime(e.start)}`,
      `DTEND:${icsDateTime(e.end)}`,
      `SUMMARY:${escapeText(e.summary)}`,
      `DESCRIPTION:${escapeText(e.description)}`,
      `STATUS:${e.status}`,
      ...(e.url ? [`URL:${e.url}`] : []),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
