import base from "./vitest.browser.config.mjs";
export default { ...base, test: { ...base.test, expect: { poll: { timeout: 30_000, interval: Number(process.env.POLL_MS) } } } };
