import { describe, expect, it } from "vitest";
import { ftsQuery, MAX_TERMS } from "../../src/modules/search/query";

describe("ftsQuery", () => {
  it("quotes every term as a prefix phrase, doubling quotes, so input is never FTS syntax", () => {
    expect(ftsQuery("dell lat")).toBe('"dell"* "lat"*');
    expect(ftsQuery('dell "lat')).toBe('"dell"* """lat"*');
    expect(ftsQuery("name:x OR NEAR(a b)")).toBe('"name:x"* "OR"* "NEAR(a"* "b)"*');
    expect(ftsQuery("AST-0543")).toBe('"AST-0543"*');
  });

  it("matches one-character terms as whole tokens and drops terms without letters or digits", () => {
    expect(ftsQuery("d")).toBe('"d"');
    expect(ftsQuery("- * dell")).toBe('"dell"*');
    expect(ftsQuery("- * ()")).toBeNull();
    expect(ftsQuery("ü")).toBe('"ü"');
  });

  it("keeps at most MAX_TERMS terms", () => {
    const q = Array.from({ length: MAX_TERMS + 3 }, (_, i) => `t${i}`).join(" ");
    expect(ftsQuery(q)!.split(" ")).toHaveLength(MAX_TERMS);
  });
});
