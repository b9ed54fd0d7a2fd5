import bwip from "bwip-js/generic";
import type { Symbology } from "../../db/tenant/labels";
import { invalidField } from "../../platform/errors";

/** bwip-js's encoder for each symbology (we never encode a barcode ourselves). */
const BCID: Record<Symbology, string> = {
  qr: "qrcode",
  datamatrix: "datamatrix",
  code128: "code128",
  code39: "code39",
  ean13: "ean13",
  upca: "upca",
};

/** A printable symbol in module units: a grid (QR, DataMatrix) or bars (the linear codes), quiet zone included. */
export type EncodedSymbol =
  | { kind: "matrix"; width: number; height: number; dark: (x: number, y: number) => boolean; quiet: number }
  | { kind: "bars"; width: number; bars: [x: number, w: number][]; quiet: number };

type RawSymbol = { sbs: number[] } | { pixs: number[]; pixx: number; pixy: number };

export const MAX_CODE_LENGTH = 128;

/** GS1 mod-10 check digit of the digits before it. */
function gs1Check(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

/**
 * The value as stored for its symbology, or a 400 naming `path` with what the symbology holds.
 * EAN-13 and UPC-A take the digits without their check digit too (it is added); with it, it must be right.
 */
export function normaliseCodeValue(symbology: Symbology, raw: string, path: string): string {
  const value = raw.trim();
  if (!value) throw invalidField(path, "must not be empty");
  if (value.length > MAX_CODE_LENGTH) throw invalidField(path, `must be at most ${MAX_CODE_LENGTH} characters`);
  const gtin = (len: number, name: string) => {
    if (!new RegExp(`^\\d{${len - 1},${len}}$`).test(value))
      throw invalidField(path, `${name} holds ${len - 1} digits, or ${len} with its check digit`);
    const body = value.slice(0, len - 1);
    const check = gs1Check(body);
    if (value.length === len && value[len - 1] !== check)
      throw invalidField(path, `${name} check digit is wrong: ${body} ends in ${check}`);
    return body + check;
  };
  switch (symbology) {
    case "ean13":
      return gtin(13, "EAN-13");
    case "upca":
      return gtin(12, "UPC-A");
    case "code39":
      if (!/^[0-9A-Z \-.$/+%]+$/.test(value))
        throw invalidField(path, "Code 39 holds digits, upper-case A-Z, space and - . $ / + % only");
      return value;
    case "code128":
      if (!/^[\x20-\x7e]+$/.test(value))
        throw invalidField(path, "Code 128 holds printable ASCII only (letters, digits, punctuation, space)");
      return value;
    default:
      if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
        throw invalidField(path, "must not contain control characters");
      return value;
  }
}

/**
 * Values a scanner may report for one printed code: a UPC-A is read as the 13-digit EAN with a
 * leading 0 by many scanners, and the other way round.
 */
export function scanVariants(value: string): string[] {
  const v = value.trim();
  if (/^0\d{12}$/.test(v)) return [v, v.slice(1)];
  if (/^\d{12}$/.test(v)) return [v, `0${v}`];
  return [v];
}

/** Encodes `text` with bwip-js. The text must already be valid for the symbology (normaliseCodeValue). */
export function encodeSymbol(symbology: Symbology, text: string): EncodedSymbol {
  const opts: Record<string, unknown> = { bcid: BCID[symbology], text };
  if (symbology === "qr") opts.eclevel = "M";
  if (symbology === "code128" || symbology === "code39") opts.includetext = false;
  let out: RawSymbol[];
  try {
    out = bwip.raw(opts as { bcid: string; text: string }) as RawSymbol[];
  } catch (err) {
    throw invalidField("code", `cannot be encoded as ${symbology}: ${String((err as Error).message ?? err)}`);
  }
  const first = out[0]!;
  if ("pixs" in first) {
    const { pixs, pixx, pixy } = first;
    return {
      kind: "matrix",
      width: pixx,
      height: pixy,
      dark: (x, y) => pixs[y * pixx + x] === 1,
      quiet: symbology === "qr" ? 4 : 2,
    };
  }
  const bars: [number, number][] = [];
  let x = 0;
  first.sbs.forEach((w, i) => {
    if (i % 2 === 0) bars.push([x, w]);
    x += w;
  });
  return { kind: "bars", width: x, bars, quiet: 10 };
}
