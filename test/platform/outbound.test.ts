import { afterEach, describe, expect, it } from "vitest";
import {
  checkOutboundUrl,
  guardedFetch,
  outboundPolicyFor,
  parseIpv4,
  STRICT,
  setOutboundTransport,
  type Transport,
} from "../../src/platform/outbound";

/*
 * Nothing here reaches the network: every send goes to a transport stub (the harness default
 * refuses all sends; tests install their own and restore it).
 */
const DEV = outboundPolicyFor("development");
let restore: (() => void) | undefined;
afterEach(() => restore?.());
const stub = (fn: Transport) => {
  restore = setOutboundTransport(fn);
};

const REFUSED_EVERYWHERE = [
  // private, CGNAT, link-local (cloud metadata), multicast, reserved, "this network"
  "https://10.0.0.1/",
  "https://172.16.5.4/",
  "https://172.31.255.255/",
  "https://192.168.1.1/",
  "https://100.64.0.1/",
  "https://169.254.169.254/latest/meta-data",
  "https://224.0.0.1/",
  "https://239.255.255.250/",
  "https://255.255.255.255/",
  "https://0.0.0.0/",
  "https://198.18.0.1/",
  "https://192.0.2.10/",
  // the same addresses in other spellings: decimal, octal, hex, short forms, trailing dots
  "https://167772161/",
  "https://012.0.0.1/",
  "https://0xa.0.0.1/",
  "https://0xa9fea9fe/",
  "https://10.1/",
  "https://192.168.1.1./",
  // IPv6: ULA, link-local, multicast, unspecified, IPv4-mapped/compatible/NAT64/6to4 of private v4, documentation
  "https://[fc00::1]/",
  "https://[fd12:3456::1]/",
  "https://[fe80::1]/",
  "https://[ff02::1]/",
  "https://[::]/",
  "https://[::ffff:10.0.0.1]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[::10.0.0.1]/",
  "https://[64:ff9b::c0a8:101]/",
  "https://[2002:c0a8:0101::1]/",
  "https://[2001:db8::1]/",
  // IPv4-translated (::ffff:0:0/96) and the other embedded-IPv4 forms
  "https://[::ffff:0:a9fe:a9fe]/",
  "https://[::ffff:0:a00:1]/",
  "https://[::ffff:0:10.0.0.1]/",
  "https://[::ffff:0:0:0]/",
  "https://[64:ff9b:1::a00:1]/",
  "https://[64:ff9b::a9fe:a9fe]/",
  "https://[2002:a9fe:a9fe::1]/",
  "https://[2001:470:1:2:0:5efe:a9fe:a9fe]/",
  "https://[2001:470:1:2:200:5efe:10.0.0.1]/",
  "https://[2001::a9fe:a9fe]/",
  "https://[100::1]/",
  "https://[::1:0:0:1]/",
  // names
  "https://printer.local/",
  "https://db.internal/",
  "https://intranet/",
  "https://router.home.arpa/",
  "https://metadata.google.internal./",
  // credentials in the URL, non-http schemes, garbage
  "https://user:pass@hooks.example.com/",
  "ftp://hooks.example.com/",
  "file:///etc/passwd",
  "javascript:alert(1)",
  "not a url",
];

const LOOPBACK = [
  "https://127.0.0.1/",
  "https://127.1/",
  "https://2130706433/",
  "https://017700000001/",
  "https://0x7f000001/",
  "https://0x7f.0.0.1/",
  "https://127.0.0.1./",
  "https://[::1]/",
  "https://[0:0:0:0:0:0:0:1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:7f00:1]/",
  "https://[::ffff:0:7f00:1]/",
  "https://[::ffff:0:127.0.0.1]/",
  "https://localhost/",
  "https://LOCALHOST./",
  "https://api.localhost/",
  "https://a.b.localhost../",
];

describe("checkOutboundUrl", () => {
  it.each(REFUSED_EVERYWHERE)("refuses %s in production and in development", (url) => {
    const prod = checkOutboundUrl(url, STRICT);
    expect(prod.ok, url).toBe(false);
    expect(checkOutboundUrl(url, DEV).ok, url).toBe(false);
    if (!prod.ok) expect(prod.reason).toEqual(expect.any(String));
  });

  it.each(LOOPBACK)("refuses loopback %s in production, allows it only in development", (url) => {
    expect(checkOutboundUrl(url, STRICT)).toMatchObject({ ok: false, reason: expect.stringMatching(/loopback/) });
    expect(checkOutboundUrl(url, DEV).ok).toBe(true);
  });

  it("allows public https URLs, and http only in development", () => {
    for (const url of [
      "https://hooks.example.com/in",
      "https://93.184.216.34:8443/x",
      "https://[2606:4700::1111]/",
      "https://[2001:4860:4860::8888]/",
    ]) {
      expect(checkOutboundUrl(url, STRICT).ok, url).toBe(true);
    }
    expect(checkOutboundUrl("http://hooks.example.com/in", STRICT)).toMatchObject({
      ok: false,
      reason: "only https URLs are allowed",
    });
    expect(checkOutboundUrl("http://127.0.0.1:9000/in", DEV).ok).toBe(true);
  });

  it("only the development environment relaxes the policy", () => {
    for (const env of ["production", "test", "staging", "", undefined]) expect(outboundPolicyFor(env)).toEqual(STRICT);
    expect(outboundPolicyFor("development").allowLoopback).toBe(true);
  });

  it("parses inet_aton spellings and rejects overflow", () => {
    expect(parseIpv4("127.1")).toBe(0x7f000001);
    expect(parseIpv4("0x7f.0.0.01")).toBe(0x7f000001);
    expect(parseIpv4("4294967295")).toBe(0xffffffff);
    expect(parseIpv4("4294967296")).toBeUndefined();
    expect(parseIpv4("1.256.0.0")).toBeUndefined();
    expect(parseIpv4("hooks.example.com")).toBeUndefined();
  });
});

describe("guardedFetch", () => {
  const opts = { policy: STRICT, timeoutMs: 200, maxBodyBytes: 16 };

  it("never calls the transport for a refused address", async () => {
    let calls = 0;
    stub(async () => {
      calls++;
      return new Response("no");
    });
    const res = await guardedFetch("https://169.254.169.254/", opts);
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/^address refused/);
    for (const url of ["https://[::ffff:0:a9fe:a9fe]/", "http://[::ffff:0:a00:1]/"]) {
      expect((await guardedFetch(url, opts)).error, url).toMatch(/^address refused/);
      expect((await guardedFetch(url, { ...opts, policy: DEV })).error, url).toMatch(/^address refused/);
    }
    expect(calls).toBe(0);
  });

  it("sends without following redirects and returns the 3xx as the answer", async () => {
    let seen: Request | undefined;
    stub(async (req) => {
      seen = req;
      return new Response(null, { status: 302, headers: { location: "https://10.0.0.1/" } });
    });
    const res = await guardedFetch("https://hooks.example.com/in", {
      ...opts,
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(302);
    expect(seen!.redirect).toBe("manual");
    expect(seen!.method).toBe("POST");
    expect(await seen!.text()).toBe("{}");
  });

  it("reads at most maxBodyBytes of the answer", async () => {
    stub(async () => new Response("x".repeat(10_000)));
    const res = await guardedFetch("https://hooks.example.com/in", opts);
    expect(res.body).toBe("x".repeat(16));
  });

  it("gives up after the timeout", async () => {
    stub((req) => new Promise((_, reject) => req.signal.addEventListener("abort", () => reject(new Error("aborted")))));
    const res = await guardedFetch("https://hooks.example.com/slow", opts);
    expect(res.error).toBe("timeout after 200 ms");
    expect(res.latencyMs).toBeGreaterThanOrEqual(150);
  });

  it("reports a network error without throwing", async () => {
    stub(async () => {
      throw new Error("connection refused");
    });
    expect((await guardedFetch("https://hooks.example.com/in", opts)).error).toBe("network error: connection refused");
  });
});
