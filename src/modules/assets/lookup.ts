import { and, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";

// Crockford base32 without I, L, O, U: unambiguous when read off a label and typed by hand.
const TAG_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `AST-` + 6 random base32 characters (~1 billion values). Collisions are retried by the caller. */
export function generateTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let out = "AST-";
  for (const b of bytes) out += TAG_ALPHABET[b % 32];
  return out;
}

/** Tags compare case-insensitively (ASCII), matching the unique index on lower(unique_tag). */
export const tagEquals = (tag: string) =>
  and(eq(sql`lower(${assets.uniqueTag})`, tag.toLowerCase()), isNull(assets.deletedAt));

export async function tagTaken(db: TenantDb, tag: string): Promise<boolean> {
  return Boolean(await db.select({ id: assets.id }).from(assets).where(tagEquals(tag)).get());
}
