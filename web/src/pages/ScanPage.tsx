import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { Layout } from "../components/Layout";
import { Button, Field, Notice } from "../components/ui";
import { listenForWedge } from "../platform/wedge";
import { assetPath, parseCode } from "../state/codes";
import { navigate } from "../state/router";
import { t } from "../strings";

/**
 * The scanner. Mode "look up": a typed code or a keyboard-wedge scan opens the asset's page.
 * (The camera, audit and batch modes build on this page: docs/field-app.md.)
 */
export function ScanPage() {
  const message = useSignal("");
  const input = useRef<HTMLInputElement>(null);

  function lookUp(raw: string) {
    const code = parseCode(raw);
    if (code.kind === "empty") {
      message.value = t.scan.empty;
      input.current?.focus();
    } else if (code.kind === "otherWorkspace") {
      message.value = t.scan.otherWorkspace(code.host);
    } else {
      navigate(assetPath(code.tag));
    }
  }

  useEffect(() => listenForWedge(lookUp), []);

  return (
    <Layout title={t.scan.title}>
      <h2>{t.scan.lookUp}</h2>
      {message.value && <Notice tone="warn">{message.value}</Notice>}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          lookUp(input.current?.value ?? "");
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
          {t.scan.open}
        </Button>
      </form>
    </Layout>
  );
}
