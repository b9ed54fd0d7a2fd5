import { seedId as id, seededRandom as rng } from "./lib.mjs";

// Generated seed data for bench/search.mjs: realistic asset names (a product catalogue where one
// word, "Laptop", is in about a fifth of all names), tags AST-000000.., random serials, people and
// sessions. Multi-row INSERTs of 200 rows keep each statement far below D1's statement size limit.

export const PRODUCTS = [
  ["Laptop", "Dell", "Latitude 5440"],
  ["Laptop", "Apple", "MacBook Pro 14"],
  ["Laptop", "Lenovo", "ThinkPad X1 Carbon"],
  ["Laptop", "HP", "EliteBook 840"],
  ["Monitor", "Dell", "UltraSharp U2723QE"],
  ["Monitor", "LG", "27UK850"],
  ["Phone", "Apple", "iPhone 15"],
  ["Phone", "Samsung", "Galaxy S24"],
  ["Drill", "Makita", "DHP486"],
  ["Drill", "Bosch", "GSR 18V"],
  ["Projector", "Epson", "EB-L200F"],
  ["Chair", "Herman Miller", "Aeron"],
  ["Forklift", "Toyota", "8FBE15"],
  ["Switch", "Cisco", "Catalyst 9200"],
  ["Access point", "Ubiquiti", "U6 Pro"],
  ["Scanner", "Zebra", "TC52"],
  ["Label printer", "Brother", "QL-820NWB"],
  ["Camera", "Canon", "EOS R6"],
  ["Multimeter", "Fluke", "87V"],
  ["Hammer drill", "Hilti", "TE 30"],
];
export const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Edsger",
  "Barbara",
  "Donald",
  "Margaret",
  "Ken",
  "Dennis",
  "Frances",
  "John",
  "Radia",
  "Tim",
  "Hedy",
  "Linus",
  "Katherine",
];
export const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Hamilton",
  "Thompson",
  "Ritchie",
  "Allen",
  "Backus",
  "Perlman",
  "Berners-Lee",
  "Lamarr",
  "Torvalds",
  "Johnson",
];

const q = (v) => (v === null ? "NULL" : `'${String(v).replace(/'/g, "''")}'`);

function inserts(table, columns, rows) {
  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows
      .slice(i, i + 200)
      .map((r) => `(${r.map(q).join(",")})`)
      .join(",\n");
    out.push(`INSERT INTO ${table} (${columns.join(",")}) VALUES\n${values};`);
  }
  return out;
}

export function seedSql({ assets, people, sessions, categoryId, locationId }) {
  const rand = rng(42);
  const now = new Date().toISOString();
  const assetRows = [];
  let sampleTag = "";
  let sampleSerial = "";
  for (let i = 0; i < assets; i++) {
    const [kind, brand, model] = PRODUCTS[i % PRODUCTS.length];
    const tag = `AST-${String(i).padStart(6, "0")}`;
    let serial = "SN";
    for (let k = 0; k < 10; k++) serial += "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"[Math.floor(rand() * 34)];
    if (i === Math.floor(assets / 2)) [sampleTag, sampleSerial] = [tag, serial];
    assetRows.push([
      id("ast", i, rand),
      `${kind} ${brand} ${model} #${i}`,
      tag,
      serial,
      model,
      brand,
      categoryId,
      locationId,
      now,
      now,
    ]);
  }
  const peopleRows = [];
  for (let i = 0; i < people; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
    peopleRows.push([
      id("per", i, rand),
      `${first} ${last} ${i}`,
      `${first}.${last}.${i}@example.com`.toLowerCase(),
      `E-${10000 + i}`,
      now,
      now,
    ]);
  }
  const sessionRows = [];
  for (let i = 0; i < sessions; i++)
    sessionRows.push([
      id("ses", i, rand),
      `${["Quarterly", "Annual", "Spot", "Floor"][i % 4]} audit ${i}`,
      "usr_bench",
      now,
      now,
    ]);
  const sql = [
    ...inserts(
      "assets",
      [
        "id",
        "name",
        "unique_tag",
        "serial_number",
        "model",
        "manufacturer",
        "category_id",
        "location_id",
        "created_at",
        "updated_at",
      ],
      assetRows,
    ),
    ...inserts("people", ["id", "name", "email", "employee_number", "created_at", "updated_at"], peopleRows),
    ...inserts("sessions", ["id", "name", "created_by", "created_at", "updated_at"], sessionRows),
  ].join("\n");
  return { sql, sampleTag, sampleSerial };
}
