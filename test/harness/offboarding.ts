import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src/index";
import type { OffboardingCase, OffboardingItem } from "../../src/modules/offboarding";
import type { Page } from "../../src/platform/pagination";
import { eventually } from "./outbox";
import { api, type TestTenant } from "./tenant";

/** POST /offboarding-cases as the workspace's API key; expects 201. */
export async function startCase(t: TestTenant, personId: string, body: Record<string, unknown> = {}) {
  const res = await api<OffboardingCase>(t, "/offboarding-cases", { body: { personId, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export const getCase = async (t: TestTenant, id: string) =>
  (await api<OffboardingCase>(t, `/offboarding-cases/${id}`)).body;

export async function caseItems(t: TestTenant, id: string): Promise<OffboardingItem[]> {
  const res = await api<Page<OffboardingItem>>(t, `/offboarding-cases/${id}/items?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

/** Waits (on the Queue consumer's hook) until the case's item is in `state`. */
export const itemBecomes = (t: TestTenant, caseId: string, itemId: string, state: OffboardingItem["state"]) =>
  eventually(
    async () => ((await caseItems(t, caseId)).find((i) => i.itemId === itemId)?.state === state ? true : undefined),
    15_000,
  );

/** Runs the Worker's scheduled() handler as the cron would at `at`. */
export async function runCron(at: Date) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at.getTime(), cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}
