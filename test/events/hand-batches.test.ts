/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * Every module write goes through the write recipe (`commitWrite`, docs/architecture.md "Writes"):
 * no module builds a `db.batch` by hand. The few batches that are bookkeeping, not domain writes
 * (they record no event and no audit row), are listed here with the reason; a new `.batch(` in any
 * other module file fails this test.
 */
const SOURCES = import.meta.glob("../../src/modules/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const BOOKKEEPING: Record<string, string> = {
  "analytics/read-batch.ts": "reads only: several SELECTs in one round trip",
  "auth/service.ts": "sign-in credentials: the last-login stamp and refresh-token rotation",
  "sso/users.ts": "sign-in credentials: the last-login stamp and a refresh token",
  "auth/password-reset.ts": "sign-in credentials: a one-time reset, and the new password with its refresh token",
  "sso/requests.ts": "sign-in bookkeeping: consuming a one-time SSO request",
  "sso/config.ts": "sign-in credentials: ending password sessions under the SSO-only gate",
  "notifications/tickets.ts": "sign-in credentials: a single-use realtime ticket",
  "import-export/import/jobs.ts": "import job staging and progress; the rows are written by the aggregates' own verbs",
  "admin/move/run.ts": "a workspace move: the control database's switch and the move's own state, no workspace write",
  "admin/move/tables.ts":
    "a workspace move: pages of rows copied as they are into the new database (their events were sent)",
};

/** Module files (relative to src/modules) with a hand-built batch. */
function handBatches(sources: Record<string, string>): string[] {
  return Object.entries(sources)
    .filter(([, text]) => /\.batch\s*\(/.test(text))
    .map(([path]) => path.replace(/^.*src\/modules\//, ""))
    .sort();
}

describe("no hand-built batches in the modules", () => {
  it("finds a hand-built batch when there is one", () => {
    const sources = {
      "../../src/modules/licences/service.ts": "await ctx.db\n  .batch([insert, recordEvent(db, e)]);",
      "../../src/modules/licences/view.ts": "await commitWrite(ctx, { writes: [insert] });",
    };
    expect(handBatches(sources)).toEqual(["licences/service.ts"]);
  });

  it("every module write goes through commitWrite, but for the listed bookkeeping", () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(handBatches(SOURCES).filter((f) => !(f in BOOKKEEPING))).toEqual([]);
    // The list holds only files that still batch by hand: a moved one leaves it.
    expect(Object.keys(BOOKKEEPING).filter((f) => !handBatches(SOURCES).includes(f))).toEqual([]);
  });
});
