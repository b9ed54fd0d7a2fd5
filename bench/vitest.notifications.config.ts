import { defineConfig } from "vitest/config";
import base from "../vitest.config";

/** The notification digest benchmark (bench/notification-digests.bench.ts) in the tests' workerd pool, alone. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["bench/notification-digests.bench.ts"], testTimeout: 1_800_000 },
});
