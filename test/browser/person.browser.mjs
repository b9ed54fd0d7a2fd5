// A person's page in the field app (/p/<id>): what they hold and their software, reached from an
// asset page's holder; a role that may not read people is told so and makes no refused call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, workspace } from "./browser.mjs";

let browser;
let ws;
const data = {};

const must = (res, what) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

beforeAll(async () => {
  browser = await launch();
  ws = await workspace("person");
  const post = (path, body) => ws.api(path, { method: "POST", body });
  data.person = must(
    await post("/people", { name: "Grace Hopper", email: "grace@example.com", title: "Engineer" }),
    "person",
  );
  data.asset = must(await post("/inventory-items", { name: "Laptop 9", uniqueTag: "LT-9" }), "asset");
  must(await post(`/inventory-items/${data.asset.id}/checkout`, { personId: data.person.id }), "checkout");
  const product = must(await post("/licence-products", { name: "Office Suite", vendor: "Acme" }), "product");
  const lot = must(
    await post(`/licence-products/${product.id}/lots`, { kind: "per_user", seats: 2, cost: 100, currency: "EUR" }),
    "lot",
  );
  must(await post(`/licence-lots/${lot.id}/seats`, { personId: data.person.id }), "seat");
  data.requester = await invitedUser(ws, "requester");
});

afterAll(async () => {
  await browser?.close();
});

async function phoneFor(user) {
  const page = await openPage(browser, { viewport: PHONE });
  page.refused = [];
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith("/api/v1/") && res.status() >= 400 && !url.pathname.endsWith("/auth/refresh"))
      page.refused.push(`${res.request().method()} ${url.pathname} ${res.status()}`);
  });
  await page.goto(`${ws.base}/login`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect.poll(() => page.getByText(`Signed in as ${user.email}`).isVisible()).toBe(true);
  return page;
}

describe("a person's page", () => {
  it("from an asset's holder: what the person holds and their software, with the seat's dates", async () => {
    const page = await phoneFor(ws.owner);
    await page.goto(`${ws.base}/a/LT-9`);
    await page.getByRole("link", { name: "Grace Hopper" }).click();
    await page.waitForURL(`${ws.base}/p/${data.person.id}`);
    await expect.poll(() => page.getByRole("heading", { name: "Grace Hopper", level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Engineer · grace@example.com").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Laptop 9" }).count()).toBe(1);
    await expect.poll(() => page.getByRole("heading", { name: "Software" }).isVisible()).toBe(true);
    expect(await page.locator("#software + ul li").textContent()).toMatch(
      /^Office Suite · since \w{3} \d{1,2}, \d{4}$/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "person-page");
    expect(page.refused).toEqual([]);
    expect(page.cspViolations).toEqual([]);
    await page.context().close();
  });

  it("a requester is told the page is not theirs to see, and no call is refused", async () => {
    const page = await phoneFor(data.requester);
    await page.goto(`${ws.base}/p/${data.person.id}`);
    await expect
      .poll(() => page.getByText("You cannot see this person's page.", { exact: false }).isVisible())
      .toBe(true);
    expect(await page.getByText("Grace Hopper").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(page.refused).toEqual([]);
    await page.context().close();
  });
});
