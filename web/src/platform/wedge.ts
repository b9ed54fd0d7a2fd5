/**
 * A keyboard-wedge scanner types a code quickly and presses Enter. When no field has the focus,
 * keys that arrive fast enough (under `gapMs` apart) are collected and handed over on Enter; slow
 * typing is ignored (a person pressing keys is not a scanner). In a focused field the field itself
 * receives the code and its form submits on Enter.
 */
export function listenForWedge(onCode: (code: string) => void, gapMs = 60): () => void {
  let buffer = "";
  let last = 0;
  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    // When the key was pressed, not when this handler got to run: a busy phone's main thread does
    // not turn a scanner's burst into slow typing.
    const now = event.timeStamp;
    if (now - last > gapMs) buffer = "";
    last = now;
    if (event.key === "Enter") {
      if (buffer.length >= 2) {
        event.preventDefault();
        onCode(buffer);
      }
      buffer = "";
    } else if (event.key.length === 1) {
      buffer += event.key;
    }
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
