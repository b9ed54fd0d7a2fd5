import { and, isNull, sql } from "drizzle-orm";
import { people } from "../db/tenant/people";
import type { AppContext } from "../env";

/**
 * The self-service role's reach (docs/requests.md#the-self-service-role-requester). A `requester` is a user; what it may hold is a person,
 * matched by email (people's live email is unique), so an admin's checkout to that person and the
 * requester's own view agree. Null for every other caller: they see the workspace.
 */
export interface SelfService {
  userId: string;
  /** The live person with the user's email, or null (then nothing is theirs yet). */
  personId: string | null;
  personActive: boolean;
}

/** The live person with this email (people's live email is unique), if any. */
export const personWithEmail = (db: AppContext["var"]["db"], email: string) =>
  db
    .select({ id: people.id, status: people.status })
    .from(people)
    .where(and(sql`lower(${people.email}) = ${email.toLowerCase()}`, isNull(people.deletedAt)))
    .get();

export async function selfServiceOf(c: AppContext): Promise<SelfService | null> {
  const p = c.var.principal;
  if (p.kind !== "user" || p.role !== "requester") return null;
  const person = await personWithEmail(c.var.db, p.email);
  return { userId: p.userId, personId: person?.id ?? null, personActive: person?.status === "active" };
}
