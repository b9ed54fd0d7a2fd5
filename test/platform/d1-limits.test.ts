import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1_MAX_PARAMS } from "../../src/platform/d1";

/** Every test runs under production D1's cap on bound parameters: local D1 refuses more, as D1 does. */
describe("D1 limits in tests", () => {
  const select = (n: number) =>
    env.CONTROL_DB.prepare(`SELECT ${Array.from({ length: n }, () => "?").join(", ")}`).bind(
      ...Array.from({ length: n }, (_, i) => i),
    );

  it(`accepts ${D1_MAX_PARAMS} bound parameters and refuses ${D1_MAX_PARAMS + 1}`, async () => {
    await expect(select(D1_MAX_PARAMS).raw()).resolves.toHaveLength(1);
    await expect(select(D1_MAX_PARAMS + 1).raw()).rejects.toThrow(/too many SQL variables/);
  });
});
