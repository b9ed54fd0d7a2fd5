// The outputs a walk-through promises, and the check that it prints them (docs/local-development.md,
// "Walk-throughs are tested"). A promise is a `# => ` comment: at the end of a command's last line, or
// on the comment lines right after it (one `# => ` line per line of output). A comment line of `#` and
// two or more spaces right after a promise line continues that output line (a long JSON answer wrapped
// for reading); a trailing `  (…)` after two or more spaces is a remark, not output. `…` stands for any
// text, line breaks included; everything else must match the command's standard output exactly (lines
// compared without trailing blanks, leading and trailing blank lines dropped). Any other comment is prose.
import { spawnSync } from "node:child_process";

const TRAILING = /\s# => (.*)$/;
const PROMISE_LINE = /^\s*# => (.*)$/;
const CONTINUATION = /^\s*#\s{2,}(\S.*)$/;
const REMARK = /\s{2,}\(.*\)$/;
const MARK = "\u001ewt:";

const isComment = (line) => /^\s*#/.test(line);
const withoutRemark = (text) => text.replace(REMARK, "").trimEnd();

/** True when the first `n` lines of the block are whole commands (nothing open: quote, `\`, brace, here-doc). */
function completeAt(lines, n, cache) {
  if (n <= 0) return true;
  // bash -n takes a trailing `\` at the end of its input for a whole line
  if (!isComment(lines[n - 1]) && lines[n - 1].endsWith("\\")) return false;
  if (!cache.has(n)) {
    const res = spawnSync("bash", ["-n"], { input: `${lines.slice(0, n).join("\n")}\n`, encoding: "utf8" });
    cache.set(n, res.status === 0 && res.stderr === "");
  }
  return cache.get(n);
}

/**
 * The promises of a block: `{line, expected, from, to}` with `line` the promise's first line (0-based,
 * in the block), `expected` its output lines, and the command printing it spanning lines `from`..`to`.
 * Throws when a promise follows no whole command.
 */
export function promisesOf(code) {
  const lines = code.split("\n");
  const cache = new Map();
  const out = [];
  let open = null; // the promise the next continuation or `# => ` line extends
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const own = PROMISE_LINE.exec(line);
    const cont = CONTINUATION.exec(line);
    if (open && own) {
      open.expected.push(withoutRemark(own[1]));
      continue;
    }
    if (open && cont && !own) {
      open.expected[open.expected.length - 1] += withoutRemark(cont[1]);
      continue;
    }
    open = null;
    if (own) {
      // On its own line: the promise of the command that ends on the last line of code above it.
      let to = i - 1;
      while (to >= 0 && (lines[to].trim() === "" || isComment(lines[to]))) to--;
      if (to < 0) throw new Error(`line ${i + 1}: a promise (# => …) with no command above it`);
      open = { line: i, expected: [withoutRemark(own[1])], to };
      out.push(open);
      continue;
    }
    const trailing = isComment(line) ? null : TRAILING.exec(line);
    if (trailing) {
      open = { line: i, expected: [withoutRemark(trailing[1])], to: i };
      out.push(open);
    }
  }
  for (const p of out) {
    if (!completeAt(lines, p.to + 1, cache))
      throw new Error(`line ${p.line + 1}: a promise (# => …) after line ${p.to + 1}, which does not end a command`);
    let from = p.to;
    while (from > 0 && !completeAt(lines, from, cache)) from--;
    p.from = from;
  }
  return out;
}

/**
 * The block with a marker printed before and after each promised command, so that its standard output
 * can be told from the rest: `MARK<n>` on a line of its own.
 */
export function instrument(code, promises) {
  const lines = code.split("\n");
  const before = new Map();
  const after = new Map();
  promises.forEach((p, n) => {
    before.set(p.from, [...(before.get(p.from) ?? []), `${n}<`]);
    after.set(p.to, [...(after.get(p.to) ?? []), `${n}>`]);
  });
  const mark = (tags) => `printf '\\n${MARK}%s\\n' ${tags.map((t) => `'${t}'`).join(" ")}`;
  return lines
    .flatMap((line, i) => [
      ...(before.has(i) ? [mark(before.get(i))] : []),
      line,
      ...(after.has(i) ? [mark(after.get(i))] : []),
    ])
    .join("\n");
}

/** Standard output of each promised command, by promise index (undefined when it never ran). */
export function outputsOf(stdout) {
  const outputs = [];
  const openAt = new Map();
  const re = new RegExp(`\\n?${MARK}(\\d+)([<>])\\n`, "g");
  let last = 0;
  const pieces = [];
  for (let m = re.exec(stdout); m; m = re.exec(stdout)) {
    pieces.push(stdout.slice(last, m.index));
    last = re.lastIndex;
    const n = Number(m[1]);
    if (m[2] === "<") openAt.set(n, pieces.length);
    else if (openAt.has(n)) outputs[n] = pieces.slice(openAt.get(n)).join("");
  }
  return outputs;
}

const normal = (text) =>
  text
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .replace(/^\n+|\n+$/g, "");

/** True when `actual` is what `expected` (lines, `…` for any text) promises. */
export function keeps(expected, actual) {
  const pattern = normal(expected.join("\n"))
    .split("…")
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*?");
  return new RegExp(`^${pattern}$`).test(normal(actual));
}

/** The broken promises of a run: `line N: promised …, printed …`. */
export function brokenPromises(promises, stdout, firstLine) {
  const outputs = outputsOf(stdout);
  const broken = [];
  promises.forEach((p, n) => {
    const where = `line ${firstLine + p.line + 1}`;
    if (outputs[n] === undefined) broken.push(`${where}: promised ${p.expected.join("⏎")}, but the command never ran`);
    else if (!keeps(p.expected, outputs[n]))
      broken.push(
        `${where}: promised ${p.expected.join("⏎")}\n       printed ${normal(outputs[n]).slice(0, 400).replaceAll("\n", "⏎")}`,
      );
  });
  return broken;
}

/** The output without the markers (for showing a failed block's tail). */
export const withoutMarkers = (stdout) => stdout.replace(new RegExp(`\\n?${MARK}\\d+[<>]\\n`, "g"), "");
