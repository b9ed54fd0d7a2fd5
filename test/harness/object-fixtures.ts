import type { ObjectUpload } from "../../src/modules/files";
import { workerFetch } from "./contract";
import { fileBytes } from "./files";
import type { FixtureContext } from "./fixtures";

/** `objectKey` of the security suite: an uploaded object (POST /objects, then PUT to its signed URL). */
export async function uploadedObjectKey(ctx: FixtureContext): Promise<string> {
  const res = await ctx.api<ObjectUpload>("/objects", { body: { contentType: "image/png", size: 64 } });
  const key: unknown = res.body?.objectKey;
  if (res.status !== 201 || typeof key !== "string")
    throw new Error(`fixture POST /objects answered ${res.status}: ${JSON.stringify(res.body)}`);
  const put = await workerFetch(new Request(res.body.uploadUrl, { method: "PUT", body: fileBytes("png", 64) }));
  if (put.status !== 201) throw new Error(`fixture upload answered ${put.status}: ${await put.text()}`);
  return key;
}
