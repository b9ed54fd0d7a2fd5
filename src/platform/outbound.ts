/**
 * The one way the service calls out to an address a customer gave it (webhook endpoints, IdP
 * metadata, OIDC discovery): `checkOutboundUrl` refuses addresses that reach into our own or a
 * private network, and `guardedFetch` sends with a timeout, without following redirects, and
 * reads at most a bounded part of the answer.
 *
 * Names are judged by their spelling only: a Worker cannot resolve DNS before `fetch`, and
 * Cloudflare's egress does not route to private networks, so a public name that resolves to a
 * private address is outside what this can check.
 */

export interface OutboundPolicy {
  /** Loopback (127.0.0.0/8, ::1, localhost) and plain `http` allowed: local development only. */
  allowLoopback: boolean;
}

/** Production and everything else: https only, public addresses only. */
export const STRICT: OutboundPolicy = { allowLoopback: false };

/**
 * The policy for a deployment: only `ENVIRONMENT=development` (`npm start`, from .dev.vars) lets a
 * receiver on the same machine be called over http; production never does.
 */
export const outboundPolicyFor = (environment: string | undefined): OutboundPolicy =>
  environment === "development" ? { allowLoopback: true } : STRICT;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const BLOCKED_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan"];

/** Whether `raw` may be called under `policy`; `reason` says why not, for a 400 or a failed attempt. */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid absolute URL" };
  }
  if (url.protocol !== "https:" && !(policy.allowLoopback && url.protocol === "http:")) {
    return {
      ok: false,
      reason: policy.allowLoopback ? "only http and https URLs are allowed" : "only https URLs are allowed",
    };
  }
  if (url.username || url.password) return { ok: false, reason: "URLs with credentials are not allowed" };
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  const reason = hostRefusal(host, policy);
  return reason ? { ok: false, reason } : { ok: true, url };
}

function hostRefusal(host: string, policy: OutboundPolicy): string | undefined {
  if (host === "") return "the host is empty";
  if (host.startsWith("[")) return ipv6Refusal(host.slice(1, -1), policy);
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return ipv4Refusal(v4, policy);
  if (host === "localhost" || host.endsWith(".localhost"))
    return policy.allowLoopback ? undefined : "loopback names are not allowed";
  if (BLOCKED_SUFFIXES.some((s) => host.endsWith(s))) return "local and internal names are not allowed";
  if (!host.includes(".")) return "single-label (intranet) names are not allowed";
  return undefined;
}

/**
 * An IPv4 address in any spelling `inet_aton` accepts (what the URL parser and resolvers take):
 * 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes.
 */
export function parseIpv4(host: string): number | undefined {
  const parts = host.split(".");
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = Number(p);
    else return undefined;
    if (!Number.isFinite(n)) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return undefined;
  return nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
}

const cidr4 = (a: number, b: number, c: number, d: number, bits: number) => ({
  base: ((a << 24) >>> 0) + (b << 16) + (c << 8) + d,
  bits,
});
const V4_BLOCKED = [
  cidr4(0, 0, 0, 0, 8), // "this network"
  cidr4(10, 0, 0, 0, 8), // private
  cidr4(100, 64, 0, 0, 10), // CGNAT
  cidr4(169, 254, 0, 0, 16), // link-local (cloud metadata)
  cidr4(172, 16, 0, 0, 12), // private
  cidr4(192, 0, 0, 0, 24), // IETF protocol assignments
  cidr4(192, 0, 2, 0, 24), // documentation
  cidr4(192, 88, 99, 0, 24), // 6to4 relay
  cidr4(192, 168, 0, 0, 16), // private
  cidr4(198, 18, 0, 0, 15), // benchmarking
  cidr4(198, 51, 100, 0, 24), // documentation
  cidr4(203, 0, 113, 0, 24), // documentation
  cidr4(224, 0, 0, 0, 4), // multicast
  cidr4(240, 0, 0, 0, 4), // reserved and broadcast
];
const inCidr4 = (ip: number, { base, bits }: { base: number; bits: number }) =>
  Math.floor(ip / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

function ipv4Refusal(ip: number, policy: OutboundPolicy): string | undefined {
  if (inCidr4(ip, cidr4(127, 0, 0, 0, 8)))
    return policy.allowLoopback ? undefined : "loopback addresses are not allowed";
  if (V4_BLOCKED.some((r) => inCidr4(ip, r)))
    return "private, link-local, multicast and reserved addresses are not allowed";
  return undefined;
}

/** The 8 groups of an IPv6 literal (with `::` and a dotted IPv4 tail expanded), or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  let s = text.toLowerCase().split("%")[0]!;
  const dotted = s.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]!);
    if (v4 === undefined) return undefined;
    s = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return undefined;
  const all = [...head, ...Array<string>(fill).fill("0"), ...tail];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

/**
 * IPv6: only global unicast (2000::/3) is reachable, and every form that embeds an IPv4 address
 * is judged by that address (`::ffff:0:a9fe:a9fe` is 169.254.169.254 to a translator).
 */
function ipv6Refusal(text: string, policy: OutboundPolicy): string | undefined {
  const g = parseIpv6(text);
  if (!g) return "not a valid IPv6 address";
  const embedded = ipv4Refusal(g[6]! * 65536 + g[7]!, policy);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7] === 1) return policy.allowLoopback ? undefined : "loopback addresses are not allowed";
  if (zeros(8)) return "the unspecified address is not allowed";
  if (zeros(5) && g[5] === 0xffff) return embedded; // IPv4-mapped ::ffff:0:0/96
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return embedded; // IPv4-translated ::ffff:0:0:0/96 (RFC 2765)
  if (zeros(6)) return embedded; // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) return embedded; // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
  if (g[0] === 0x2002) return ipv4Refusal(g[1]! * 65536 + g[2]!, policy); // 6to4
  // ISATAP interface ids (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) reach the embedded address.
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe && embedded) return embedded;
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique local addresses are not allowed";
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0)
    return "link-local and site-local addresses are not allowed";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast addresses are not allowed";
  // Everything else outside 2000::/3 (the rest of ::/8 and 64:ff9b:1::/48 local-use NAT64 included)
  // is reserved or translates to addresses we cannot judge.
  if ((g[0]! & 0xe000) !== 0x2000) return "reserved and translated IPv6 addresses are not allowed";
  if (g[0] === 0x2001 && (g[1] === 0x0db8 || g[1]! < 0x0200))
    return "documentation, Teredo and IETF special-purpose addresses are not allowed"; // 2001:db8::/32, 2001::/23
  return undefined;
}

/** What `fetch` looks like to this module; tests and benchmarks swap it with `setOutboundTransport`. */
export type Transport = (request: Request) => Promise<Response>;

let transport: Transport = (request) => fetch(request);

/**
 * Replaces the function that actually sends (the test harness installs one that never reaches the
 * network). Returns a function restoring the previous one.
 */
export function setOutboundTransport(next: Transport): () => void {
  const previous = transport;
  transport = next;
  return () => {
    transport = previous;
  };
}

export interface OutboundResult {
  /** HTTP status, absent when no answer arrived (refused, timeout, network error). */
  status?: number;
  headers?: Headers;
  /** The first `maxBodyBytes` of the answer, decoded as UTF-8. */
  body: string;
  latencyMs: number;
  /** Why the call failed before an HTTP answer, e.g. `timeout after 15000 ms`. */
  error?: string;
}

export interface GuardedFetchOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
  maxBodyBytes: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Checks the address, then sends once with `redirect: "manual"` (a 3xx comes back as the answer,
 * never followed) under a timeout, and reads at most `maxBodyBytes` of the body. Never throws.
 */
export async function guardedFetch(rawUrl: string, opts: GuardedFetchOptions): Promise<OutboundResult> {
  const started = Date.now();
  const check = checkOutboundUrl(rawUrl, opts.policy);
  if (!check.ok) return { body: "", latencyMs: 0, error: `address refused: ${check.reason}` };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    const request = new Request(check.url, {
      method: opts.method ?? "POST",
      headers: opts.headers,
      body: opts.body,
      redirect: "manual",
      signal: controller.signal,
    });
    const res = await transport(request);
    const body = await readLimited(res, opts.maxBodyBytes);
    return { status: res.status, headers: res.headers, body, latencyMs: Date.now() - started };
  } catch (err) {
    const error = controller.signal.aborted
      ? `timeout after ${opts.timeoutMs} ms`
      : `network error: ${err instanceof Error ? err.message : String(err)}`;
    return { body: "", latencyMs: Date.now() - started, error };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads up to `max` bytes and cancels the rest, so a huge or endless answer costs nothing more. */
export async function readLimited(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - at));
    all.set(part, at);
    at += part.byteLength;
    if (at >= all.byteLength) break;
  }
  return new TextDecoder().decode(all);
}
