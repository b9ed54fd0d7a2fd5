import { useEffect, useRef, useState } from "preact/hooks";
import { Layout } from "../components/Layout";
import { Button, Field, Notice, Spinner } from "../components/ui";
import { type HandoverDetail, loadHandover } from "../state/handover";
import { isQueued, pendingSignatures, sign } from "../state/signature-queue";

/**
 * Signing a hand-over in person (docs/handovers.md "In person"): the person reads the agreement and
 * the items on this phone and signs with a finger (a canvas, sent as PNG) or types their name.
 * The signature goes through the offline queue, so it is kept when the network is not there.
 */
export function HandoverPage({ id }: { id: string }) {
  const [h, setH] = useState<HandoverDetail | null>(null);
  const [error, setError] = useState("");
  const [name, setName] = useState("");
  const [drawn, setDrawn] = useState(false);
  const [done, setDone] = useState<"" | "sent" | "queued">("");
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    loadHandover(id)
      .then((r) => ("handover" in r ? setH(r.handover) : setError(r.error)))
      .catch(() => setError("Offline: open this hand-over again when the network is back."));
  }, [id]);

  // Finger drawing: pointer events cover touch, pen and mouse alike.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const g = c.getContext("2d");
    if (!g) return;
    g.lineWidth = 3;
    g.lineCap = "round";
    g.strokeStyle = "#000";
    let down = false;
    const at = (e: PointerEvent) => {
      const r = c.getBoundingClientRect();
      return [((e.clientX - r.left) * c.width) / r.width, ((e.clientY - r.top) * c.height) / r.height] as const;
    };
    const start = (e: PointerEvent) => {
      down = true;
      c.setPointerCapture?.(e.pointerId);
      const [x, y] = at(e);
      g.beginPath();
      g.moveTo(x, y);
      e.preventDefault();
    };
    const move = (e: PointerEvent) => {
      if (!down) return;
      const [x, y] = at(e);
      g.lineTo(x, y);
      g.stroke();
      setDrawn(true);
      e.preventDefault();
    };
    const end = () => {
      down = false;
    };
    c.addEventListener("pointerdown", start);
    c.addEventListener("pointermove", move);
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    return () => {
      c.removeEventListener("pointerdown", start);
      c.removeEventListener("pointermove", move);
      c.removeEventListener("pointerup", end);
      c.removeEventListener("pointercancel", end);
    };
  }, [h]);

  const clear = () => {
    const c = canvas.current;
    c?.getContext("2d")?.clearRect(0, 0, c.width, c.height);
    setDrawn(false);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const png = drawn ? canvas.current?.toDataURL("image/png") : undefined;
    await sign(id, name.trim(), png);
    setDone((await isQueued(id)) ? "queued" : "sent");
  };

  if (error)
    return (
      <Layout title="Hand-over">
        <Notice tone="error">{error}</Notice>
      </Layout>
    );
  if (!h)
    return (
      <Layout title="Hand-over">
        <Spinner label="Loading the hand-over" />
      </Layout>
    );
  const pending = h.state === "pending_acceptance" && !done;
  return (
    <Layout title={h.kind === "return" ? "Return" : "Hand-over"}>
      <h2>For {h.personName}</h2>
      <ul id="handover-items">
        {h.items.map((i) => (
          <li key={i.assetId}>
            {i.name}
            {i.tag ? ` (${i.tag})` : ""}
            {i.serial ? `, serial ${i.serial}` : ""}
          </li>
        ))}
      </ul>
      {h.agreementText && (
        <section aria-label="Agreement">
          <h3>Agreement, version {h.agreementVersion}</h3>
          <div id="agreement-text" style={{ whiteSpace: "pre-wrap" }}>
            {h.agreementText}
          </div>
        </section>
      )}
      {done === "sent" && <Notice tone="ok">Signed. The receipt was issued.</Notice>}
      {done === "queued" && (
        <Notice tone="info">
          Signed on this phone; it is sent when the network is back ({pendingSignatures.value} waiting).
        </Notice>
      )}
      {!pending && !done && <Notice tone="info">This hand-over is {h.state.replace("_", " ")}.</Notice>}
      {pending && (
        <form onSubmit={submit}>
          <Field id="signer-name" label="Full name of the person signing">
            <input
              id="signer-name"
              required
              maxLength={200}
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </Field>
          <p id="signature-label">Sign with a finger below (or leave it empty to sign with the typed name).</p>
          <canvas
            ref={canvas}
            id="signature-pad"
            aria-labelledby="signature-label"
            width={320}
            height={160}
            style={{ border: "1px solid #333", touchAction: "none", width: "100%", maxWidth: "320px" }}
          />
          <Button onClick={clear}>Clear signature</Button>
          <Button variant="primary" type="submit">
            Accept and sign
          </Button>
        </form>
      )}
    </Layout>
  );
}
