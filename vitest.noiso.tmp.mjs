import base from "/work/main/vitest.browser.config.mjs";
export default { ...base, test: { ...base.test, isolate: false } };
