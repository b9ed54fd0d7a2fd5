import type { ApiError, ErrorDetail } from "../../../platform/errors";

/** A written row's result, as `processChunk` records it. */
export interface RowResult {
  r: number;
  status: "created" | "updated" | "refused";
  id: string | null;
  errors: ErrorDetail[] | null;
}

/** An ApiError as the row's errors by column (`body.` dropped: a CSV has columns, not a body). */
export function errorsOf(err: ApiError): ErrorDetail[] {
  const details = Array.isArray(err.details)
    ? (err.details as ErrorDetail[])
    : [{ path: "(row)", message: err.message }];
  return details.map((d) => ({ path: d.path.replace(/^body\./, ""), message: d.message }));
}
