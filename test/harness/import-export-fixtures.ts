import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import type { Bindings } from "../../src/env";
import worker from "../../src/index";
import { IMPORT_QUEUE, type ImportJob, type ImportMessage } from "../../src/modules/import-export";
import { fetchWith } from "./contract";
import type { FixtureContext } from "./fixtures";
import type { TestTenant } from "./tenant";

/** Security-suite fixture of the imports module: a (small, finished) people import of the workspace. */
export async function importJob(ctx: FixtureContext): Promise<string> {
  const res = await ctx.api<Partial<ImportJob>>("/imports/people", {
    body: `name\r\n${ctx.unique("Imported")}\r\n`,
    headers: { "content-type": "text/csv" },
  });
  if (res.status !== 202 || typeof res.body?.id !== "string")
    throw new Error(`import fixture answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/**
 * The imports Queue as the tests drive it: `queue` records each link instead of sending it (so no
 * background consumer races the test), `run()` hands the recorded links to the Worker's queue
 * handler as one batch, as the Queue would, and returns its acks and retries.
 */
export function importLinks() {
  const sent: ImportMessage[] = [];
  const queue = {
    send: async (body: ImportMessage) => void sent.push(body),
    sendBatch: async (msgs: Iterable<MessageSendRequest<ImportMessage>>) => {
      for (const m of msgs) sent.push(m.body);
    },
  } as unknown as Queue<ImportMessage>;
  let seq = 0;
  return {
    queue,
    sent,
    /** Delivers the links recorded so far (and forgets them); `bindings` replaces the environment. */
    async run(bindings: Bindings) {
      const batch = createMessageBatch<ImportMessage>(
        IMPORT_QUEUE,
        sent.splice(0).map((body) => ({ id: `link-${seq++}`, timestamp: new Date(), attempts: 1, body })),
      );
      await worker.queue(batch, bindings);
      return getQueueResult(batch, createExecutionContext());
    },
  };
}

/** POSTs a CSV file to an import route with `bindings` as the environment, waiting for its after-response work. */
export async function postCsvWith(t: TestTenant, path: string, csv: string, bindings: Bindings) {
  const ctx = createExecutionContext();
  const res = await fetchWith(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
      body: csv,
    }),
    bindings,
    ctx,
  );
  const body = (await res.json()) as ImportJob;
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}
