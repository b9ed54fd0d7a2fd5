/**
 * What a scanned or typed code means. Labels encode `<workspace origin>/a/<tag>`
 * (src/modules/labels/qr.ts); a bare tag is taken as typed. A label of another host is another
 * workspace's: the app says so instead of looking the tag up here.
 */
export type ScannedCode =
  | { kind: "tag"; tag: string }
  | { kind: "otherWorkspace"; host: string; tag: string }
  | { kind: "empty" };

export function parseCode(raw: string, here: Location | URL = location): ScannedCode {
  const code = raw.trim();
  if (!code) return { kind: "empty" };
  if (/^https?:\/\//i.test(code)) {
    try {
      const url = new URL(code);
      const m = /^\/a\/([^/]+)\/?$/.exec(url.pathname);
      if (m?.[1]) {
        const tag = decodeURIComponent(m[1]);
        return url.host === here.host ? { kind: "tag", tag } : { kind: "otherWorkspace", host: url.host, tag };
      }
    } catch {
      // not a URL after all: a tag
    }
  }
  return { kind: "tag", tag: code };
}

export const assetPath = (tag: string) => `/a/${encodeURIComponent(tag)}`;
