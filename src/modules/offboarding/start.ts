import { sql } from "drizzle-orm";
import { type OffboardingSource, offboardingCases, offboardingItems } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";
import { requireLivePerson } from "../../domain/catalog";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed, insertJsonRows } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { DEFAULT_SETTINGS } from "../../tenancy/registry";
import { BOOKINGS_RESERVED_GUARD, cancelReservedBookingsOf } from "../bookings";
import { endCredentials, usersOfPerson } from "./credentials";
import { holdingsOf } from "./holdings";
import type { OffboardingCase } from "./schemas";
import { type CaseRow, countsOf, openCaseOf, presentCase, toCase } from "./view";

export interface LifecycleOptions {
  source: OffboardingSource;
  /** The HTTP or SCIM request that asked, kept on the case and its events. */
  requestId?: string;
}

const PERSON_GUARD = "offboarding_person_active";
const DAY_MS = 86_400_000;

/**
 * Starts an offboarding case for a person (docs/offboarding.md), or returns the open one (SCIM
 * may deprovision twice). In one write: the case and a snapshot of everything the person holds
 * (assets and the assets inside them, kits, open stock issues, open requests), the end of their
 * users' sign-ins, refresh tokens and API keys, the cancellation of their reserved bookings, and
 * `offboarding.started`. Nothing is checked in. 409 when the person is deactivated already.
 */
export async function startOffboarding(
  ctx: ServiceCtx,
  personId: string,
  opts: LifecycleOptions & { dueAt?: string },
): Promise<OffboardingCase> {
  return (await openCase(ctx, personId, opts)).case;
}

export async function openCase(
  ctx: ServiceCtx,
  personId: string,
  opts: LifecycleOptions & { dueAt?: string },
): Promise<{ case: OffboardingCase; created: boolean }> {
  const { db } = ctx;
  const person = await requireLivePerson(db, personId);
  const existing = await openCaseOf(db, personId);
  if (existing) return { case: await presentCase(db, existing), created: false };
  if (person.status !== "active")
    throw conflict("The person is deactivated already; there is nothing to offboard", { personId });
  const at = nowIso();
  const dueAt = dueDate(ctx, at, opts.dueAt);
  const row: CaseRow = {
    id: newId("offboardingCase"),
    personId,
    state: "open",
    source: opts.source,
    requestId: opts.requestId ?? null,
    dueAt,
    startedBy: ctx.actor,
    startedAt: at,
    overdueAt: null,
    closedAt: null,
    cancelledAt: null,
    cancelledBy: null,
    receipt: null,
    createdAt: at,
    updatedAt: at,
  };
  const items = await holdingsOf(db, row.id, personId);
  const out = toCase(row, person.name, countsOf(items));
  const bookings = await cancelReservedBookingsOf(ctx, personId, at);
  const credentials = await endCredentials(
    db,
    (await usersOfPerson(db, person.email)).map((u) => u.id),
    at,
  );
  const write = joinWrites(
    {
      guards: [
        batchGuard(
          db,
          PERSON_GUARD,
          sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)`,
        ),
      ],
      writes: [
        db.insert(offboardingCases).values(row),
        ...(items.length ? [insertJsonRows(db, offboardingItems, items)] : []),
      ],
      audits: [{ entityType: "offboarding_case", entityId: row.id, action: "start", actor: ctx.actor, at, after: row }],
      events: [
        {
          type: "offboarding.started",
          subjectId: row.id,
          payload: { ...out, cancelledBookingIds: bookings.bookingIds },
        },
      ],
    },
    bookings.write,
    credentials,
  );
  try {
    await commitWrite(ctx, write, (err) => {
      if (guardFailed(err, PERSON_GUARD))
        throw conflict("The person was deactivated or deleted meanwhile", { personId });
      if (guardFailed(err, BOOKINGS_RESERVED_GUARD))
        throw conflict("A booking of the person was picked up or cancelled meanwhile; retry", { personId });
      throw err;
    });
  } catch (err) {
    // Two starts at once: the one open case per person (a unique index) wins; answer with it.
    if (!isUniqueViolation(err)) throw err;
    const winner = await openCaseOf(db, personId);
    if (!winner) throw err;
    return { case: await presentCase(db, winner), created: false };
  }
  return { case: out, created: true };
}

function dueDate(ctx: ServiceCtx, at: string, given: string | undefined): string {
  if (given !== undefined) {
    const due = new Date(given).toISOString();
    if (due <= at) throw invalidField("body.dueAt", "must be in the future");
    return due;
  }
  const days = ctx.settings?.offboardingDueDays ?? DEFAULT_SETTINGS.offboardingDueDays;
  return new Date(Date.parse(at) + days * DAY_MS).toISOString();
}
