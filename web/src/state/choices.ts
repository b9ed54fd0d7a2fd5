/**
 * The lists the scanner's forms choose from (the state floor between its components and the API):
 * active sessions to audit, places to move to or scope a session with, people to check out to.
 * Each answers `{ items }` or `{ items: [], message }` (the API's message, or "unreachable").
 */
import { messageOf } from "../api/client";
import * as api from "../api/sessions";
import { t } from "../strings";

export type Choice = { id: string; name: string };
type Listed = { items: Choice[]; message?: string };

async function list(call: () => Promise<{ data?: { items: Choice[] }; error?: unknown }>): Promise<Listed> {
  try {
    const { data, error } = await call();
    return data
      ? { items: data.items.map((i) => ({ id: i.id, name: i.name })) }
      : { items: [], message: messageOf(error, t.unreachable) };
  } catch {
    return { items: [], message: t.unreachable };
  }
}

export const activeSessions = () => list(api.activeSessions);
export const places = () => list(api.locations);
export const people = () => list(api.people);

/** Starts an audit at once (POST /sessions, status "active"): its id, or why not. */
export async function startAudit(
  name: string,
  locationId: string | null,
): Promise<{ id: string } | { message: string }> {
  try {
    const { data, error } = await api.startSession(name, locationId);
    return data ? { id: data.id } : { message: messageOf(error, t.unreachable) };
  } catch {
    return { message: t.unreachable };
  }
}
