// The demo company `npm start` seeds into the demo workspace, through the public API with its API key:
// ~200 assets over categories and locations with custom fields, people holding some of them (one
// overdue), an active inventory session half scanned, maintenance overdue / due today / upcoming, and
// the health states that follow (lost, nearing end of life, warranty expiring, retired).
// Idempotent: it stops at once when the marker asset DEMO-0001 exists.
import { request } from "./http.mjs";

export const DEMO_ASSET_COUNT = 200;
const MARKER = "DEMO-0001";

/** Deterministic pseudo-random numbers, so every fresh demo looks the same. */
function rng(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const day = (offsetDays) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const MODELS = {
  Laptops: [
    ["MacBook Pro 14", "Apple", 2399],
    ["ThinkPad X1 Carbon", "Lenovo", 1899],
    ["Latitude 7450", "Dell", 1599],
  ],
  Monitors: [
    ["UltraSharp U2723QE", "Dell", 619],
    ["ProArt PA278CV", "ASUS", 449],
  ],
  Phones: [
    ["iPhone 15", "Apple", 899],
    ["Pixel 8", "Google", 699],
  ],
  Tools: [
    ["Cordless drill DCD796", "DeWalt", 189],
    ["Laser level PLL 360", "Bosch", 139],
  ],
  Vehicles: [
    ["Forklift Linde E16", "Linde", 24500],
    ["Pallet truck EJE 116", "Jungheinrich", 3400],
  ],
  Furniture: [
    ["Standing desk", "Flexispot", 549],
    ["Office chair Aeron", "Herman Miller", 1395],
  ],
};
const PEOPLE = [
  ["Ada Lovelace", "R&D"],
  ["Grace Hopper", "R&D"],
  ["Alan Turing", "R&D"],
  ["Katherine Johnson", "Finance"],
  ["Linus Torvalds", "IT"],
  ["Margaret Hamilton", "IT"],
  ["Tim Berners-Lee", "Sales"],
  ["Radia Perlman", "Operations"],
  ["Dennis Ritchie", "Operations"],
  ["Barbara Liskov", "Sales"],
  ["Ken Thompson", "Warehouse"],
  ["Frances Allen", "Warehouse"],
];

async function pool(items, size, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

export async function seedDemoCompany(tenantUrl, apiKey, log) {
  const api = (path, opts = {}) =>
    request(`${tenantUrl}/api/v1${path}`, { ...opts, headers: { authorization: `ApiKey ${apiKey}`, ...opts.headers } });
  const marker = await api(`/inventory-items/unique-tag/${MARKER}`, { okStatuses: [404] });
  if (marker.status === 200) return false;

  const random = rng(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const byName = async (collection) =>
    new Map((await api(`/${collection}?limit=100`)).body.items.map((r) => [r.name, r.id]));

  // Categories and locations beyond the basic samples (409 = there already).
  for (const c of [
    { name: "Vehicles", expectedLifeMonths: 96 },
    { name: "Furniture", expectedLifeMonths: 120 },
  ]) {
    await api("/categories", { method: "POST", body: c, okStatuses: [409] });
  }
  const locs0 = await byName("locations");
  for (const name of ["Shelf A", "Shelf B"]) {
    await api("/locations", { method: "POST", body: { name, parentId: locs0.get("Warehouse") }, okStatuses: [409] });
  }
  const categories = await byName("categories");
  const locations = await byName("locations");
  const places = ["Room 201", "Floor 2", "Reception", "Headquarters", "Shelf A", "Shelf B", "Warehouse"].filter((n) =>
    locations.has(n),
  );

  // Custom fields: a cost center for every asset, insurance for some.
  await api("/custom-fields", {
    method: "POST",
    body: {
      entity: "asset",
      key: "cost_center",
      label: "Cost center",
      type: "dropdown",
      options: ["CC-100 R&D", "CC-200 Sales", "CC-300 Operations", "CC-400 IT"],
    },
    okStatuses: [409],
  });
  await api("/custom-fields", {
    method: "POST",
    body: { entity: "asset", key: "insured", label: "Insured", type: "checkbox" },
    okStatuses: [409],
  });

  // An interrupted seed left some of them: find those instead of duplicating them.
  const existingPeople = new Map((await api("/people?limit=100")).body.items.map((p) => [p.name, p]));
  const people = await pool(
    PEOPLE,
    4,
    async ([name, department], i) =>
      existingPeople.get(name) ??
      (
        await api("/people", {
          method: "POST",
          body: {
            name,
            department,
            employeeNumber: `E-${1001 + i}`,
            email: `${name.split(" ")[0].toLowerCase()}@demo.local`,
          },
        })
      ).body,
  );

  const categoryNames = Object.keys(MODELS).filter((c) => categories.has(c));
  const specs = Array.from({ length: DEMO_ASSET_COUNT }, (_, i) => {
    const category = categoryNames[i % categoryNames.length];
    const [model, manufacturer, cost] = pick(MODELS[category]);
    const ageDays = Math.floor(random() * 5 * 365);
    return {
      name: `${model} #${String(i + 1).padStart(3, "0")}`,
      uniqueTag: `DEMO-${String(i + 1).padStart(4, "0")}`,
      serialNumber: `SN${(1e8 + Math.floor(random() * 9e8)).toString(36).toUpperCase()}`,
      model,
      manufacturer,
      categoryId: categories.get(category),
      locationId: locations.get(
        category === "Vehicles" || category === "Tools" ? pick(["Warehouse", "Shelf A", "Shelf B"]) : pick(places),
      ),
      purchaseDate: day(-ageDays),
      purchaseCost: cost,
      currency: "EUR",
      // Some warranties run out within the month (WARRANTY_EXPIRING).
      warrantyExpiresAt: i % 17 === 0 ? day(10 + (i % 15)) : day(-ageDays + 2 * 365),
      customFields: {
        cost_center: pick(["CC-100 R&D", "CC-200 Sales", "CC-300 Operations", "CC-400 IT"]),
        insured: random() < 0.5,
      },
    };
  });
  // The marker (DEMO-0001) is created last of all: an interrupted seed is finished on the next start.
  const assets = await pool(specs.slice(1), 6, async (body) => {
    const res = await api("/inventory-items", { method: "POST", body, okStatuses: [409] });
    return res.status === 201 ? res.body : (await api(`/inventory-items/unique-tag/${body.uniqueTag}`)).body;
  });
  log(`Seeded ${people.length} people and ${assets.length + 1} assets.`);
  const laptops = assets.filter((a) => a.categoryId === categories.get("Laptops"));

  // Checkouts: 14 assets with people; one due back in two seconds, so it is overdue when you look.
  await pool(laptops.slice(0, 14), 4, (a, i) =>
    api(`/inventory-items/${a.id}/checkout`, {
      method: "POST",
      okStatuses: [409],
      body: {
        personId: people[i % people.length].id,
        ...(i === 0
          ? { dueBackAt: new Date(Date.now() + 2000).toISOString() }
          : { dueBackAt: `${day(30 + i)}T17:00:00Z` }),
      },
    }),
  );
  // Statuses and their health: two lost (AT_RISK), two retired, two in maintenance.
  const others = assets.filter((a) => a.categoryId !== categories.get("Laptops"));
  for (const [a, toStatus, reason] of [
    [others[0], "lost", "Not found at the last audit"],
    [others[1], "lost", "Reported missing"],
    [others[2], "retired", "End of life"],
    [others[3], "retired", "Damaged beyond repair"],
    [others[4], "maintenance", "Screen flicker"],
    [others[5], "maintenance", "Battery swap"],
  ]) {
    await api(`/inventory-items/${a.id}/status`, { method: "POST", body: { toStatus, reason }, okStatuses: [409] });
  }

  // Maintenance: overdue, due today and upcoming.
  const vehicles = assets.filter((a) => a.categoryId === categories.get("Vehicles"));
  const schedules = [
    {
      title: "Annual safety inspection",
      type: "inspection",
      recurrence: { every: 12, unit: "month" },
      nextDueDate: day(-5),
    },
    { title: "Battery check", type: "inspection", recurrence: { every: 1, unit: "month" }, nextDueDate: day(-2) },
    { title: "Oil and filters", type: "service", recurrence: { every: 6, unit: "month" }, nextDueDate: day(0) },
    { title: "Tyre replacement", type: "replacement", nextDueDate: day(4) },
    { title: "Hydraulics service", type: "service", recurrence: { every: 12, unit: "month" }, nextDueDate: day(12) },
  ];
  await pool(schedules, 3, (s, i) =>
    api("/maintenance/schedules", {
      method: "POST",
      body: { ...s, itemId: vehicles[i % vehicles.length].id, reminderDays: 7 },
    }),
  );

  // An active inventory session over Shelf A, half scanned.
  const session = (
    await api("/sessions", { method: "POST", body: { name: "Shelf A audit", locationId: locations.get("Shelf A") } })
  ).body;
  const started = (await api(`/sessions/${session.id}`, { method: "PATCH", body: { status: "active" } })).body;
  const expected = (await api(`/sessions/${session.id}/items?limit=100`)).body.items;
  await pool(expected.slice(0, Math.ceil(expected.length / 2)), 4, (item) =>
    api(`/sessions/${session.id}/scan`, { method: "POST", body: { itemId: item.itemId } }),
  );
  await api("/inventory-items", { method: "POST", body: specs[0] });
  log(
    `Seeded maintenance schedules and an active session '${started.name}' (${Math.ceil(expected.length / 2)}/${expected.length} scanned).`,
  );
  return true;
}
