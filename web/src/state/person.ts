/**
 * A person's page (`/p/<id>`): who they are and what they hold, each asset linking to its page (their
 * software is the Software section's, loaded beside). The server's answer is what is shown.
 */
import { signal } from "@preact/signals";
import { messageOf } from "../api/client";
import * as people from "../api/people";

export type Held = { id: string; name: string; uniqueTag: string; dueBackAt: string | null };
export type PersonView = { name: string; detail: string[]; deactivated: boolean; held: Held[] };
export type PersonState =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "error"; message: string }
  | { status: "ready"; view: PersonView };

export const personPage = signal<PersonState>({ status: "loading" });

export async function loadPerson(id: string, unreachable: string): Promise<void> {
  personPage.value = { status: "loading" };
  try {
    const { data, error, response } = await people.person(id);
    if (response.status === 404) {
      personPage.value = { status: "missing" };
      return;
    }
    if (!data) {
      personPage.value = { status: "error", message: messageOf(error, unreachable) };
      return;
    }
    const held = (await people.heldBy(id)).data?.items ?? [];
    personPage.value = {
      status: "ready",
      view: {
        name: data.name,
        detail: [data.title, data.department, data.email].filter((d): d is string => !!d),
        deactivated: data.status === "deactivated",
        held: held.map((a) => ({ id: a.id, name: a.name, uniqueTag: a.uniqueTag, dueBackAt: a.dueBackAt })),
      },
    };
  } catch {
    personPage.value = { status: "error", message: unreachable };
  }
}
