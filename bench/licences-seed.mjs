// Generated seed data for bench/licences.mjs, as SQL that SQLite expands itself (recursive CTEs), so
// a million usage rows cost a few kilobytes of SQL instead of a hundred megabytes:
// PRODUCTS products with one lot each (SEATS_PER_LOT seats, all assigned to PEOPLE people), the
// lots' ends spread over the next three years (a third renew themselves), costs in EUR and USD, and
// USAGE usage rows spread over the seats and the last 200 days; a seat's last use is its newest
// row, so about a third of the seats were last used more than 90 days ago.

const nums = (n) => `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
const pad = (expr) => `printf('%026d', ${expr})`;

export function seedSql({ products, seatsPerLot, people, usage }) {
  const now = new Date().toISOString();
  const day = (offset) => `date('${now.slice(0, 10)}', printf('%+d days', ${offset}))`;
  const seats = products * seatsPerLot;
  return [
    `${nums(people)} INSERT INTO people (id, name, department, status, created_at, updated_at)
      SELECT 'per_' || ${pad("i")}, 'Bench person ' || i, 'Dept ' || (i % 12), 'active', '${now}', '${now}' FROM n;`,
    `${nums(products)} INSERT INTO licence_products (id, name, vendor, created_at, updated_at)
      SELECT 'lic_' || ${pad("i")}, 'Product ' || printf('%05d', i), 'Vendor ' || (i % 50), '${now}', '${now}' FROM n;`,
    `${nums(products)} INSERT INTO licence_lots (id, product_id, kind, seats, cost_minor, currency, start_date, end_date,
        renewal, auto_renew, notice_days, assigned_count, created_at, updated_at)
      SELECT 'lot_' || ${pad("i")}, 'lic_' || ${pad("i")}, 'per_user', ${seatsPerLot}, 1000 + (i * 7919) % 500000,
        CASE WHEN i % 4 = 0 THEN 'USD' ELSE 'EUR' END, ${day("-(i % 365)")}, ${day("(i * 37) % 1095")},
        'annual', i % 3 = 0, 30, ${seatsPerLot}, '${now}', '${now}' FROM n;`,
    // Seat s of lot l goes to person (l * seatsPerLot + s) % people: no holder twice in a lot.
    `${nums(seats)} INSERT INTO licence_seats (id, lot_id, product_id, holder_kind, holder_id, assigned_at, cost_minor, updated_at)
      SELECT 'sea_' || ${pad("i")}, 'lot_' || ${pad(`i / ${seatsPerLot}`)}, 'lic_' || ${pad(`i / ${seatsPerLot}`)},
        'person', 'per_' || ${pad(`i % ${people}`)}, '${new Date(Date.now() - 300 * 86_400_000).toISOString()}',
        (1000 + ((i / ${seatsPerLot}) * 7919) % 500000) / ${seatsPerLot}, '${now}' FROM n;`,
    // Usage row u is of seat u % seats, used (u * 13) % 200 days ago, at a time of day from u.
    `${nums(usage)} INSERT INTO licence_usage (product_id, holder_kind, holder_id, used_at, source, seat_id, recorded_at)
      SELECT 'lic_' || ${pad(`(i % ${seats}) / ${seatsPerLot}`)}, 'person', 'per_' || ${pad(`(i % ${seats}) % ${people}`)},
        strftime('%Y-%m-%dT%H:%M:%fZ', '${now}', printf('-%d seconds', ((i % ${seats}) % 3) * 8640000 + (i * 13) % 7776000 + i % 86400)),
        'bench', 'sea_' || ${pad(`i % ${seats}`)}, '${now}' FROM n;`,
    `UPDATE licence_seats SET last_used_at = (SELECT max(used_at) FROM licence_usage u WHERE u.seat_id = licence_seats.id);`,
  ].join("\n");
}
