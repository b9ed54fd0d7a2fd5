// What the field app's roles need to show something (docs/field-app.md "Roles"): stock items
// (some low), requestable assets and stock, a kit, bookings, a requester user with a person and
// an open request. Through the public API like the rest of the demo; idempotent (it stops when
// the requester user exists).
import { request } from "./http.mjs";

export const DEMO_REQUESTER = {
  email: "requester@demo.local",
  password: "demo-requester-password",
  name: "Rae Requester",
};

const STOCK = [
  { name: "Toner cartridge HP 59A", unit: "piece", reorderLevel: 10, requestable: false, onHand: 4 },
  { name: "USB-C cable 2 m", unit: "piece", reorderLevel: 20, requestable: true, returnable: true, onHand: 60 },
  { name: "AA batteries", unit: "pack", reorderLevel: 15, requestable: true, onHand: 6 },
  { name: "Safety gloves", unit: "pair", reorderLevel: 10, requestable: true, onHand: 40 },
];

const inHours = (h) => new Date(Date.now() + h * 3_600_000).toISOString();

export async function seedDemoRoles(tenantUrl, apiKey, owner, log) {
  const api = (path, opts = {}) =>
    request(`${tenantUrl}/api/v1${path}`, { ...opts, headers: { authorization: `ApiKey ${apiKey}`, ...opts.headers } });
  const login = await request(`${tenantUrl}/api/v1/auth/login`, { method: "POST", body: owner });
  const asOwner = { authorization: `Bearer ${login.body.accessToken}` };
  const users = (await request(`${tenantUrl}/api/v1/users?limit=100`, { headers: asOwner })).body.items;
  if (users.some((u) => u.email === DEMO_REQUESTER.email)) return false;

  const warehouse = (await api("/locations?q=Warehouse&limit=10")).body.items.find((l) => l.name === "Warehouse");
  const stock = [];
  for (const { onHand, ...item } of STOCK) {
    const created = await api("/stock-items", { method: "POST", body: item, okStatuses: [409] });
    const row =
      created.status === 201
        ? created.body
        : (await api(`/stock-items?q=${encodeURIComponent(item.name)}`)).body.items.find((s) => s.name === item.name);
    if (created.status === 201)
      await api(`/stock-items/${row.id}/receive`, {
        method: "POST",
        body: { locationId: warehouse.id, quantity: onHand, note: "Opening stock" },
      });
    stock.push(row);
  }

  // Requestable assets: monitors, phones and tools that are available; two of them lent as a kit.
  const available = (await api("/inventory-items?status=available&limit=100")).body.items.filter(
    (a) => !/MacBook|ThinkPad|Latitude|Forklift|Pallet/.test(a.name),
  );
  const requestable = available.slice(0, 8);
  for (const a of requestable) await api(`/inventory-items/${a.id}`, { method: "PATCH", body: { requestable: true } });
  await api("/kits", {
    method: "POST",
    body: {
      name: "Presentation kit",
      description: "A monitor and a phone for a client visit",
      assetIds: [requestable[0].id, requestable[1].id],
    },
    okStatuses: [409],
  });

  // Bookings: one tomorrow, one next week, for people of the demo company.
  const people = (await api("/people?limit=5")).body.items;
  await api("/bookings", {
    method: "POST",
    body: {
      personId: people[0].id,
      assetIds: [available[9].id],
      startsAt: inHours(24),
      endsAt: inHours(30),
      notes: "Trade fair",
    },
  });
  await api("/bookings", {
    method: "POST",
    body: { personId: people[1].id, assetIds: [available[10].id], startsAt: inHours(24 * 7), endsAt: inHours(24 * 9) },
  });

  // The requester: a user (invited, accepted) and the person with the same email.
  await api("/people", {
    method: "POST",
    body: { name: DEMO_REQUESTER.name, email: DEMO_REQUESTER.email, department: "Sales" },
    okStatuses: [409],
  });
  const invite = await request(`${tenantUrl}/api/v1/users/invites`, {
    method: "POST",
    headers: asOwner,
    body: { email: DEMO_REQUESTER.email, role: "requester" },
  });
  const joined = await request(`${tenantUrl}/api/v1/auth/invites/accept`, {
    method: "POST",
    body: { token: invite.body.token, password: DEMO_REQUESTER.password, name: DEMO_REQUESTER.name },
  });
  const asRequester = { authorization: `Bearer ${joined.body.accessToken}` };
  // Open requests waiting for an owner or admin: an asset now, and a quantity of stock.
  await request(`${tenantUrl}/api/v1/requests`, {
    method: "POST",
    headers: asRequester,
    body: { assetId: requestable[2].id, dueBackAt: inHours(24 * 5), note: "For the customer workshop" },
  });
  await request(`${tenantUrl}/api/v1/requests`, {
    method: "POST",
    headers: asRequester,
    body: { stockItemId: stock[1].id, quantity: 2, note: "Cables for the meeting room" },
  });
  log(
    `Seeded ${stock.length} stock items (2 low), ${requestable.length} requestable assets, a kit, 2 bookings, the requester ${DEMO_REQUESTER.email} and 2 open requests.`,
  );
  return true;
}
