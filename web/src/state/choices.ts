/**
 * The lists the forms choose from (the state floor between components and the API): active
 * sessions to audit, places (the location tree, searchable), people to check out to. Pickers
 * start with what this person chose recently (kept on this phone, per workspace) and, for places,
 * what is near the asset; typing searches.
 */
import { messageOf } from "../api/client";
import * as api from "../api/sessions";
import { t } from "../strings";

export type Choice = { id: string; name: string; detail?: string | null };
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

/** People matching `q`; with an empty `q`, the recent choices first, then the first by name. */
export async function findPeople(q: string): Promise<Choice[]> {
  const { data } = await api.people(q.trim()).catch(() => ({ data: undefined }));
  const found = (data?.items ?? []).map((p) => ({ id: p.id, name: p.name, detail: p.email ?? p.department ?? null }));
  return q.trim() ? found : withRecent("person", found);
}

type Place = Choice & { parentId: string | null };
let tree: Promise<Place[]> | null = null;

/**
 * Every location with its path ("Site › Room › Shelf"), sorted by path, so a choice reads as
 * where it is in the tree. Loaded once per page view (at most 20 pages of 100).
 */
export function locationTree(): Promise<Place[]> {
  tree ??= (async () => {
    const rows: { id: string; name: string; parentId: string | null }[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const { data } = await api.locationsPage(cursor);
      if (!data) break;
      rows.push(...data.items.map((l) => ({ id: l.id, name: l.name, parentId: l.parentId ?? null })));
      if (!data.nextCursor) break;
      cursor = data.nextCursor;
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const pathOf = (r: (typeof rows)[number]): string => {
      const names = [r.name];
      let up = r.parentId ? byId.get(r.parentId) : undefined;
      for (let depth = 0; up && depth < 20; depth++) {
        names.unshift(up.name);
        up = up.parentId ? byId.get(up.parentId) : undefined;
      }
      return names.join(" › ");
    };
    return rows
      .map((r) => ({ id: r.id, name: pathOf(r), parentId: r.parentId }))
      .sort((a, b) => a.name.localeCompare(b.name));
  })().catch(() => {
    tree = null;
    return [];
  });
  return tree;
}

/**
 * Places matching `q` anywhere in their path. With an empty `q`: recent choices, then the places
 * near `near` (that location, its parent and its children), then the rest of the tree.
 */
export async function findPlaces(q: string, near?: string | null): Promise<Choice[]> {
  const all = await locationTree();
  const lower = q.trim().toLowerCase();
  if (lower) return all.filter((p) => p.name.toLowerCase().includes(lower)).slice(0, 20);
  const here = all.find((p) => p.id === near);
  const nearby = here ? all.filter((p) => p.id === here.id || p.id === here.parentId || p.parentId === here.id) : [];
  return withRecent("place", [...nearby, ...all]).slice(0, 20);
}

const RECENT_KEY = (kind: string) => `inventory.recent.${kind}`;

function recent(kind: string): Choice[] {
  try {
    return JSON.parse(localStorage.getItem(RECENT_KEY(kind)) ?? "[]") as Choice[];
  } catch {
    return [];
  }
}

function withRecent(kind: string, rest: Choice[]): Choice[] {
  const seen = new Set<string>();
  return [...recent(kind), ...rest].filter((c) => !seen.has(c.id) && seen.add(c.id));
}

/** Remembers a choice, so the picker offers it first next time (five per kind). */
export function chose(kind: "person" | "place", choice: Choice): void {
  const next = [
    { id: choice.id, name: choice.name, detail: choice.detail ?? null },
    ...recent(kind).filter((c) => c.id !== choice.id),
  ].slice(0, 5);
  localStorage.setItem(RECENT_KEY(kind), JSON.stringify(next));
}

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
