/**
 * File types by their magic bytes (docs/files.md): a file's name and its declared Content-Type
 * are never trusted, only its first bytes. Feedback takes images only (PNG, JPEG, GIF); uploads through
 * /objects also take WebP and PDF (scan photos from phones, manuals and receipts).
 */
export const FILE_TYPES = {
  "image/png": { ext: "png", image: true },
  "image/jpeg": { ext: "jpg", image: true },
  "image/gif": { ext: "gif", image: true },
  "image/webp": { ext: "webp", image: true },
  "application/pdf": { ext: "pdf", image: false },
} as const;

export type FileType = keyof typeof FILE_TYPES;

export const isFileType = (value: string): value is FileType => Object.hasOwn(FILE_TYPES, value);

export const FEEDBACK_TYPES = ["image/png", "image/jpeg", "image/gif"] as const satisfies readonly FileType[];
export const OBJECT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
] as const satisfies readonly FileType[];

/** Bytes `sniff` needs to decide (the longest signature: RIFF....WEBP). */
export const SNIFF_BYTES = 12;

const startsWith = (head: Uint8Array, sig: readonly number[], at = 0) =>
  head.byteLength >= at + sig.length && sig.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

const SIGNATURES: { type: FileType; test: (h: Uint8Array) => boolean }[] = [
  { type: "image/png", test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: "image/jpeg", test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { type: "image/gif", test: (h) => startsWith(h, ascii("GIF87a")) || startsWith(h, ascii("GIF89a")) },
  { type: "image/webp", test: (h) => startsWith(h, ascii("RIFF")) && startsWith(h, ascii("WEBP"), 8) },
  { type: "application/pdf", test: (h) => startsWith(h, ascii("%PDF-")) },
];

/** The type of a file from its first bytes (at least SNIFF_BYTES of them when the file is that long), or null. */
export function sniff(head: Uint8Array): FileType | null {
  return SIGNATURES.find((s) => s.test(head))?.type ?? null;
}

/** Human list for error messages: "PNG, JPEG, GIF". */
export const describeTypes = (types: readonly FileType[]) =>
  types.map((t) => FILE_TYPES[t].ext.toUpperCase().replace("JPG", "JPEG")).join(", ");
