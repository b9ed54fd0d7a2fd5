// How `npm start` keeps its process tree whole: npm → sh → node (→ node 22 re-exec) → wrangler →
// workerd. A signal sent to npm's PID alone reaches only npm and sh, so each node layer of ours
// also stops when its parent is gone, and stops its children on every catchable signal.
import { readFileSync } from "node:fs";

/** Signals that end a terminal program (SIGKILL cannot be caught: the parent watch covers it). */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

/** The current parent PID. `process.ppid` is read once at start-up, so ask the kernel where we can. */
function currentParent() {
  try {
    // /proc/self/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function parentAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/**
 * Calls `onGone` once when this process's parent exits (we are re-parented, or the parent's PID no
 * longer answers). Polls every `everyMs`; the timer does not keep the process alive.
 */
export function whenParentGone(onGone, everyMs = 500) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    const now = currentParent();
    if ((now !== null && now !== parent) || !parentAlive(parent)) {
      clearInterval(timer);
      onGone();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Holds a child's output lines while `holding` (start-up chatter: the bindings table, request logs of
 * the seeding), writing them to `logStream` instead; `release()` lets the rest through to `to`, and
 * `dump()` prints what was held (when start-up fails, the user needs it).
 */
export function outputGate(logStream) {
  const held = [];
  let holding = true;
  const pipe = (from, to) => {
    from.on("data", (chunk) => {
      if (!holding) return void to.write(chunk);
      held.push([to, chunk]);
      logStream.write(chunk);
    });
  };
  return {
    pipe,
    release() {
      holding = false;
      held.length = 0;
    },
    dump() {
      holding = false;
      for (const [to, chunk] of held.splice(0)) to.write(chunk);
    },
  };
}
