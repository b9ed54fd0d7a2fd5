import { ApiError, badRequest } from "../../platform/errors";
import { concat, describeTypes, FEEDBACK_TYPES, FILE_TYPES, type FileType, SNIFF_BYTES, sniff } from "../files";
import { multipartBoundary, type PartInfo, type PartSink, readMultipart } from "./multipart";

/**
 * Limits of POST /feedback (documented on the route). "5 MB" is 5 MiB = 5,242,880 bytes.
 * The request cap is every attachment at its maximum plus room for the text fields and framing.
 */
export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_FEEDBACK_REQUEST_BYTES = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + 64 * 1024;
/** Raw bytes of one text field; the schema's character limits are checked afterwards. */
const MAX_TEXT_BYTES = 32 * 1024;
export const ATTACHMENT_FIELD = "attachments";
const TEXT_FIELDS = new Set(["title", "message"]);

export interface ReceivedFile {
  contentType: FileType;
  size: number;
  chunks: Uint8Array[];
  fileName: string | null;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

const field = (name: string, message: string) =>
  badRequest(`body.${name}: ${message}`, [{ path: `body.${name}`, message }]);
const decoder = new TextDecoder();

function textSink(name: string, form: ReceivedForm): PartSink {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    write(b) {
      size += b.byteLength;
      if (size > MAX_TEXT_BYTES) throw field(name, `longer than ${MAX_TEXT_BYTES} bytes`);
      chunks.push(b);
    },
    end() {
      form.fields[name] = decoder.decode(concat(chunks));
    },
  };
}

/** Checks an attachment while it streams in: the type on its first bytes, the size on every chunk. */
function fileSink(info: PartInfo, form: ReceivedForm): PartSink {
  const file = { chunks: [] as Uint8Array[], size: 0, contentType: null as FileType | null };
  const n = form.files.length + 1;
  const decide = () => {
    const type = sniff(concat(file.chunks));
    if (!type || !(FEEDBACK_TYPES as readonly FileType[]).includes(type)) {
      throw new ApiError(
        "unsupported_media_type",
        `Attachment ${n}${info.fileName ? ` (${info.fileName})` : ""} is not ${describeTypes(FEEDBACK_TYPES)} (checked by its content, not its name or declared type)`,
        {
          details: [{ path: `body.${ATTACHMENT_FIELD}[${n - 1}]`, message: `accepted: ${FEEDBACK_TYPES.join(", ")}` }],
        },
      );
    }
    file.contentType = type;
  };
  return {
    write(b) {
      file.size += b.byteLength;
      if (file.size > MAX_ATTACHMENT_BYTES) {
        throw new ApiError("payload_too_large", `Attachment ${n} exceeds ${MAX_ATTACHMENT_BYTES} bytes (5 MB)`, {
          details: [{ path: `body.${ATTACHMENT_FIELD}[${n - 1}]`, message: `at most ${MAX_ATTACHMENT_BYTES} bytes` }],
        });
      }
      file.chunks.push(b);
      if (!file.contentType && file.size >= SNIFF_BYTES) decide();
    },
    end() {
      // A browser sends an unselected file input as an empty part with filename="": not an attachment.
      if (file.size === 0 && !info.fileName) return;
      if (!file.contentType) decide();
      form.files.push({
        contentType: file.contentType!,
        size: file.size,
        chunks: file.chunks,
        fileName: baseName(info.fileName),
      });
    },
  };
}

/**
 * Reads the feedback form from the request stream. Refusals happen as early as the bytes allow:
 * a wrong Content-Type or a Content-Length over the cap before reading, an attachment of the
 * wrong type after its first 12 bytes, an oversized attachment at the chunk that passes 5 MB,
 * the 6th attachment at its part header. Unknown or repeated fields are a 400.
 */
export async function readFeedbackForm(req: Request): Promise<ReceivedForm> {
  const boundary = multipartBoundary(req.headers.get("content-type") ?? undefined);
  if (!boundary)
    throw new ApiError(
      "unsupported_media_type",
      "Send the feedback as multipart/form-data (fields title, message and attachments)",
    );
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_FEEDBACK_REQUEST_BYTES)
    throw new ApiError("payload_too_large", `The request body exceeds ${MAX_FEEDBACK_REQUEST_BYTES} bytes`);
  if (!req.body) throw badRequest("The request has no body", [{ path: "body", message: "required" }]);

  const form: ReceivedForm = { fields: {}, files: [] };
  let fileParts = 0;
  await readMultipart(
    req.body,
    boundary,
    { maxBytes: MAX_FEEDBACK_REQUEST_BYTES, maxParts: MAX_ATTACHMENTS * 2 + TEXT_FIELDS.size },
    (info) => {
      if (info.name === ATTACHMENT_FIELD) {
        if (++fileParts > MAX_ATTACHMENTS) throw field(ATTACHMENT_FIELD, `at most ${MAX_ATTACHMENTS} attachments`);
        return fileSink(info, form);
      }
      if (!TEXT_FIELDS.has(info.name))
        throw field(info.name, `unknown field (expected title, message, ${ATTACHMENT_FIELD})`);
      if (info.fileName !== null) throw field(info.name, "must be a text field, not a file");
      if (info.name in form.fields) throw field(info.name, "given more than once");
      return textSink(info.name, form);
    },
  );
  return form;
}

export const extensionOf = (type: FileType) => FILE_TYPES[type].ext;

/**
 * The client's file name without any directory part (`../../../evil.png` -> `evil.png`, either
 * slash), control characters removed, at most 255 characters; null when nothing is left.
 */
export function baseName(name: string | null): string | null {
  const base = (name ?? "")
    .split(/[\\/]/)
    .pop()!
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return base === "" || base === "." || base === ".." ? null : base.slice(0, 255);
}
