import { isId } from "../../platform/ids";
import type { CodeKey } from "./types";

/**
 * What a scanned code names. A QR code holds an asset URL `https://<tenant>.<domain>/a/<uniqueTag>`;
 * a barcode or RFID tag holds the unique tag; some labels hold the asset id. A URL of another
 * workspace, or any other URL, names nothing here (`none`: answered as an unknown code).
 *
 * @example parseCode("https://acme.example.com/a/LAP-0042", "acme") // { kind: "tag", value: "LAP-0042" }
 */
export function parseCode(code: string, tenantSlug: string): CodeKey {
  const value = code.trim();
  if (/^https?:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return { kind: "none" };
    }
    const label = url.hostname.toLowerCase().split(".")[0];
    const match = /^\/a\/([^/]+)\/?$/.exec(url.pathname);
    if (label !== tenantSlug.toLowerCase() || !match) return { kind: "none" };
    let tag: string;
    try {
      tag = decodeURIComponent(match[1]!);
    } catch {
      return { kind: "none" };
    }
    return tag ? { kind: "tag", value: tag } : { kind: "none" };
  }
  if (isId("asset", value)) return { kind: "id", value };
  return value ? { kind: "tag", value } : { kind: "none" };
}
