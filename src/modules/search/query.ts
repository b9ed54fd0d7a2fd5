/**
 * Turns what a user typed into an FTS5 MATCH expression that cannot be a syntax error: each
 * whitespace-separated term becomes a quoted phrase (quotes doubled), so FTS5 operators, column
 * filters and punctuation in the input are plain text; each phrase gets `*`, a prefix match on its
 * last token, so results come while typing. Terms are AND-ed (FTS5's implicit operator).
 *
 * A term without a letter or digit (`-`, `***`) has no tokens and is dropped; null when nothing is
 * left. Terms of one character match whole tokens only: a one-letter prefix would expand to a
 * large share of the vocabulary and be slow on big workspaces without helping anyone find a thing.
 *
 * @example ftsQuery('dell "lat') // => '"dell"* """lat"*'
 */
export const MAX_TERMS = 8;

export function ftsQuery(q: string): string | null {
  const terms = q
    .split(/\s+/)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"${[...t].length > 1 ? "*" : ""}`).join(" ");
}
