import { env } from "cloudflare:workers";
import { workerFetch } from "./contract";
import type { TestTenant, Untyped } from "./tenant";

/**
 * File bytes and multipart calls for the feedback and objects suites. Files are built from their
 * magic bytes plus padding: the Worker decides types by content, so that is all a test needs.
 */
export const MAGIC = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d],
  jpeg: [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1],
  gif: [...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0, 0, 0],
  pdf: [...new TextEncoder().encode("%PDF-1.7\n%"), 0xe2, 0xe3],
  text: [...new TextEncoder().encode("just some text, not an image")],
} as const;

/** `size` bytes starting with the magic bytes of `kind`, the rest a repeating pattern. */
export function fileBytes(kind: keyof typeof MAGIC, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = i % 251;
  out.set(MAGIC[kind].slice(0, size));
  return out;
}

export interface FilePart {
  bytes: Uint8Array;
  name: string;
  type?: string;
}

/** POSTs multipart/form-data (built by the runtime's FormData, as a browser would). */
export async function postForm<T = Untyped>(
  url: string,
  jwt: string | null,
  fields: Record<string, string>,
  files: FilePart[] = [],
  fileField = "attachments",
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(fileField, new File([f.bytes], f.name, { type: f.type ?? "application/octet-stream" }));
  const h = new Headers(headers);
  if (jwt) h.set("authorization", `Bearer ${jwt}`);
  return parse<T>(await workerFetch(new Request(url, { method: "POST", headers: h, body: form })));
}

/** Any request to the Worker with a raw body; JSON answers parsed. */
export async function send<T = Untyped>(url: string, init: RequestInit = {}) {
  return parse<T>(await workerFetch(new Request(url, init)));
}

async function parse<T>(res: Response): Promise<{ status: number; body: T; headers: Headers; bytes: Uint8Array }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  let body: unknown = null;
  if (res.headers.get("content-type")?.includes("json")) body = JSON.parse(new TextDecoder().decode(bytes));
  // The body is JSON from the Worker; the caller names the type it expects (the route's response type).
  return { status: res.status, body: body as T, headers: res.headers, bytes };
}

/** Keys stored in R2 under `prefix`. */
export async function r2Keys(prefix: string): Promise<string[]> {
  const listed = await env.FILES.list({ prefix });
  return listed.objects.map((o) => o.key).sort();
}

export const tenantFilesPrefix = (t: TestTenant) => `tenants/${t.id}/`;
