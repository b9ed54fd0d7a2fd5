/**
 * The small building blocks of every page: buttons and links sized for thumbs (44 px and up),
 * labelled fields, and notices that say what they are in words (an icon-free text prefix), so
 * colour is never the only signal.
 */
import type { ComponentChildren, ComponentProps } from "preact";

type ButtonProps = ComponentProps<"button"> & { variant?: "primary" | "plain" | "danger" };

export function Button({ variant = "plain", class: cls, type = "button", ...rest }: ButtonProps) {
  return <button type={type} class={`btn btn-${variant} ${cls ?? ""}`} {...rest} />;
}

export function LinkButton({ variant = "plain", ...rest }: ComponentProps<"a"> & { variant?: "primary" | "plain" }) {
  return <a class={`btn btn-${variant}`} {...rest} />;
}

export function Field(props: { id: string; label: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export type Tone = "ok" | "info" | "warn" | "error";
const PREFIX: Record<Tone, string> = { ok: "Done:", info: "Note:", warn: "Warning:", error: "Error:" };

/** A message; errors are announced at once (role=alert), the rest politely (role=status). */
export function Notice({ tone, children }: { tone: Tone; children: ComponentChildren }) {
  return (
    <p class={`notice notice-${tone}`} role={tone === "error" ? "alert" : "status"}>
      <strong>{PREFIX[tone]}</strong> {children}
    </p>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <p class="spinner" role="status">
      {label}
    </p>
  );
}
