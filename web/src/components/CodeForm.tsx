import { useRef } from "preact/hooks";
import { t } from "../strings";
import { Button, Field } from "./ui";

/**
 * A typed code (or a keyboard-wedge scanner typing into the focused field): submitted on Enter or
 * the button; the field is emptied and keeps the focus for the next code.
 */
export function CodeForm({ onCode, submitLabel }: { onCode: (raw: string) => void; submitLabel: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const el = input.current;
        if (!el) return;
        onCode(el.value);
        el.value = "";
        el.focus();
      }}
    >
      <Field id="code" label={t.scan.code} hint={t.scan.codeHint}>
        <input
          id="code"
          ref={input}
          name="code"
          autoComplete="off"
          autoCapitalize="characters"
          spellcheck={false}
          aria-describedby="code-hint"
          enterKeyHint="go"
        />
      </Field>
      <Button type="submit" variant="primary">
        {submitLabel}
      </Button>
    </form>
  );
}
