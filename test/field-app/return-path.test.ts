import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../web/src/state/return-path";

/** Where sign-in may send a person back to (docs/field-app.md "Sign-in and the return path"). */
const ORIGIN = "https://acme.example.com";

describe("the field app's return path after sign-in", () => {
  it("keeps a page of the app, with its query and fragment", () => {
    for (const [next, kept] of [
      ["/", "/"],
      ["/a/DRL-001", "/a/DRL-001"],
      ["/a/odd%20tag", "/a/odd%20tag"],
      ["/s/STK-7K2M9Q", "/s/STK-7K2M9Q"],
      ["/k/kit_01jd3k4m5n6p7q8r9s0t1v2w3x", "/k/kit_01jd3k4m5n6p7q8r9s0t1v2w3x"],
      ["/l/loc_01jd3k4m5n6p7q8r9s0t1v2w3x", "/l/loc_01jd3k4m5n6p7q8r9s0t1v2w3x"],
      ["/scan/holder/DRL-001", "/scan/holder/DRL-001"],
      ["/scan", "/scan"],
      ["/scan/audit/abc?x=1#y", "/scan/audit/abc?x=1#y"],
    ])
      expect(safeReturnPath(next, ORIGIN), next).toBe(kept);
  });

  it("refuses every form that leaves the origin, as written in ?next= (decoded) and as the parser would read it", () => {
    const hostile = [
      // What `?next=%2F%09%2Fevil.example%2Fx` (and %0A, %0D, %09%5C) decodes to: the parser deletes
      // the control character and would read "//evil.example/x".
      "/\t/evil.example/x",
      "/\n/evil.example/x",
      "/\r/evil.example/x",
      "/\t\\evil.example/x",
      "\t//evil.example/x",
      "/\u0000/evil.example",
      "/\u001f/evil.example",
      "/\u007f/evil.example",
      "/a/X\n",
      "//evil.example/x",
      "/\\evil.example/x",
      "\\/evil.example/x",
      "https://evil.example/x",
      "http://acme.example.com.evil.example/a/X",
      "HTTPS://evil.example",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "evil.example",
      "a/X",
      "",
    ];
    for (const next of hostile) expect(safeReturnPath(next, ORIGIN), JSON.stringify(next)).toBeNull();
    for (const encoded of [
      "%2F%09%2Fevil.example%2Fx",
      "%2F%0A%2Fevil.example",
      "%2F%0D%2Fevil.example",
      "%2F%09%5Cevil.example",
    ])
      expect(safeReturnPath(new URLSearchParams(`next=${encoded}`).get("next"), ORIGIN), encoded).toBeNull();
    expect(safeReturnPath(null, ORIGIN)).toBeNull();
    expect(safeReturnPath(undefined, ORIGIN)).toBeNull();
  });

  it("refuses a path of this origin that is not a page of the app (the API, the sign-in page itself)", () => {
    for (const next of [
      "/api/v1/auth/logout",
      "/auth/sso-login",
      "/login",
      "/login?next=%2F",
      "/docs",
      "/a/X/Y",
      "/s/X/Y",
      "/x/X",
      "/sw.js",
    ])
      expect(safeReturnPath(next, ORIGIN), next).toBeNull();
  });
});
