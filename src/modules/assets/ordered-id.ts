import { ID_PREFIXES, newId, type IdKind } from "../../platform/ids";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const last = new Map<IdKind, string>();

/** Adds one to a Crockford base32 string (same length; the ulid's random part never overflows in practice). */
function increment(s: string): string {
  const chars = s.split("");
  for (let i = chars.length - 1; i >= 0; i--) {
    const v = ALPHABET.indexOf(chars[i]!);
    if (v < 31) {
      chars[i] = ALPHABET[v + 1]!;
      return chars.join("");
    }
    chars[i] = "0";
  }
  return chars.join("");
}

/**
 * A `newId(kind)` that is strictly increasing within this isolate (monotonic ULID), so history
 * rows written in the same millisecond (several rows of one batch, or two quick requests) keep
 * their write order when lists sort by id.
 */
export function orderedId(kind: IdKind): string {
  let id = newId(kind);
  const prev = last.get(kind);
  if (prev && id <= prev) id = `${ID_PREFIXES[kind]}_${increment(prev.slice(ID_PREFIXES[kind].length + 1))}`;
  last.set(kind, id);
  return id;
}
