// The outputs a walk-through promises, and the check that it prints them (docs/local-development.md,
// "Walk-throughs are tested"). A promise is a `# => ` comment: at the end of a command's last line, or
// on the comment lines right after it (one `# => ` line per line of output). A comment line of `#` and
// two or more spaces right after a promise line continues that output line (a long JSON answer wrapped
// for reading); a trailing `  (…)` after two or more spaces is a remark, not output. `…` stands for any
// text, line breaks included; everything else must match the command's standard output exactly (lines
// compared without trailing blanks, leading and trailing blank lines dropped). Any other comment is prose.
import { spawn } from "node:child_process";

const TRAILING = /\s# => (.*)$/;
const PROMISE_LINE = /^\s*# => (.*)$/;
const CONTINUATION = /^\s*#\s{2,}(\S.*)$/;
const REMARK = /\s{2,}\(.*\)$/;
const MARK = "\u001ewt:";

const isComment = (line) => /^\s*#/.test(line);
const withoutRemark = (text) => text.replace(REMARK, "").trimEnd();

/**
 * Which of the prefixes (the first `n` lines, for each `n` asked) are whole commands: no quote, `$(`,
 * `\` continuation, pipe, loop or brace left open. Bash decides: each prefix is parsed as the body of
 * a function that is defined, never called (so nothing runs), in a subshell of its own (bash can
 * crash on some unfinished input).
 */
async function probe(lines, ns, known) {
  const asked = [...new Set(ns)].filter((n) => n > 0 && !known.has(n));
  if (asked.length === 0) return;
  const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
  const body = (n) => `__wt_probe() { :\n${lines.slice(0, n).join("\n")}\n}`;
  // A subshell is slow to start here (tens of ms), so the prefixes are shared among a few processes.
  const per = Math.ceil(asked.length / PROBE_PROCESSES);
  const chunks = Array.from({ length: Math.ceil(asked.length / per) }, (_, i) => asked.slice(i * per, (i + 1) * per));
  await Promise.all(
    chunks.map(async (chunk) => {
      const script = [
        `__wt_try() { if ( eval "$1" ) >/dev/null 2>&1; then echo 1; else echo 0; fi; }`,
        ...chunk.map((n) => `__wt_try ${quote(body(n))}`),
      ].join("\n");
      const answers = (await bashOutput(`${script}\n`)).split("\n");
      for (const [i, n] of chunk.entries()) known.set(n, answers[i] === "1");
    }),
  );
}

const PROBE_PROCESSES = 6;

function bashOutput(input) {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(input);
  });
}

/**
 * The promises of a block: `{line, expected, from, to}` with `line` the promise's first line (0-based,
 * in the block), `expected` its output lines, and the command printing it spanning lines `from`..`to`.
 * Rejects when a promise follows no whole command (its message counts lines from `firstLine`, the line
 * before the block in its file).
 */
export async function promisesOf(code, firstLine = 0) {
  const lines = code.split("\n");
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
      if (to < 0) throw new Error(`line ${firstLine + i + 1}: a promise (# => …) with no command above it`);
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
  // A promised command ends on line `to` and starts after the longest whole prefix before it
  // (`from` = that prefix's length). Most commands are one line, so one round settles nearly all;
  // a longer one asks 8 lines further back per round.
  const known = new Map([[0, true]]);
  await probe(
    lines,
    out.flatMap((p) => [p.to + 1, p.to]),
    known,
  );
  const startOf = (p) => {
    for (let n = p.to; n >= 0; n--) if (known.get(n) !== false) return known.has(n) ? n : -n - 1;
    return 0;
  };
  for (let pending = out.filter((p) => startOf(p) < 0); pending.length > 0; pending = out.filter((p) => startOf(p) < 0))
    await probe(
      lines,
      pending.flatMap((p) => Array.from({ length: 8 }, (_, k) => -startOf(p) - 1 - k)),
      known,
    );
  for (const p of out) {
    if (!known.get(p.to + 1))
      throw new Error(
        `line ${firstLine + p.line + 1}: a promise (# => …) after line ${firstLine + p.to + 1}, which does not end a command`,
      );
    p.from = startOf(p);
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
