// A local mail catcher: a real SMTP server (the `smtp-server` package) on loopback that keeps every
// mail it accepts, parsed with `mailparser`, plus a small HTTP side on loopback to look at them.
// `npm start` runs it for the local Worker (mails also written as .eml files to a folder), and the
// test suite's global setup runs it for the tests (test/global/smtp-catcher.mjs).
//
// HTTP side (127.0.0.1 only):
//   GET    /            a page listing the mails, newest first, each with a link to its HTML part
//   GET    /mails       JSON: every mail parsed (from, to, cc, bcc, subject, text, html, headers, links)
//   GET    /mails/:n    the HTML part of mail n, as text/html (what a mail client would show)
//   GET    /mails/:n.eml  the raw message
//   DELETE /mails       forget the mails received so far
//   POST   /refuse?count=N  answer the next N mail transactions with a temporary failure (451)

import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const escapeHtml = (s) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

const addressList = (a) => (a ? (Array.isArray(a) ? a : [a]).flatMap((x) => x.value.map((v) => v.address)) : []);

async function toRecord(n, raw, envelope) {
  const parsed = await simpleParser(raw);
  const headers = {};
  for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(":") + 1).trim();
  const html = typeof parsed.html === "string" ? parsed.html : "";
  return {
    n,
    receivedAt: new Date().toISOString(),
    envelope: { from: envelope.mailFrom ? envelope.mailFrom.address : null, to: envelope.rcptTo.map((r) => r.address) },
    from: addressList(parsed.from),
    to: addressList(parsed.to),
    cc: addressList(parsed.cc),
    bcc: addressList(parsed.bcc),
    subject: parsed.subject ?? "",
    messageId: parsed.messageId ?? null,
    inReplyTo: parsed.inReplyTo ?? null,
    references: parsed.references ? [parsed.references].flat() : [],
    text: parsed.text ?? "",
    html,
    links: [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&")),
    headers,
    raw: raw.toString("utf8"),
  };
}

/**
 * Starts the catcher. `smtpPort`/`httpPort` 0 pick free ports; `folder`, when given, receives each
 * mail as `<n>.eml`. Returns the ports, the mails list, and `close()`.
 */
export async function startMailCatcher({ smtpPort = 0, httpPort = 0, folder } = {}) {
  const mails = [];
  let refuse = 0;
  let counter = 0;
  if (folder) mkdirSync(folder, { recursive: true });

  const smtp = new SMTPServer({
    // Loopback only and no credentials: a development catcher, never a relay.
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    banner: "inventory mail catcher",
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (refuse > 0) {
        refuse--;
        const err = new Error("Try again later (mail catcher told to refuse)");
        err.responseCode = 451;
        return callback(err);
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", async () => {
        try {
          const raw = Buffer.concat(chunks);
          const n = ++counter;
          if (folder) writeFileSync(join(folder, `${String(n).padStart(5, "0")}.eml`), raw);
          mails.push(await toRecord(n, raw, session.envelope));
          callback();
        } catch (err) {
          callback(err);
        }
      });
    },
  });
  await new Promise((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(smtpPort, "127.0.0.1", resolve);
  });

  const http = createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const send = (status, type, body) => res.writeHead(status, { "content-type": type }).end(body);
    if (req.method === "GET" && url.pathname === "/mails") return send(200, "application/json", JSON.stringify(mails));
    if (req.method === "DELETE" && url.pathname === "/mails") {
      mails.length = 0;
      return send(204, "text/plain", "");
    }
    if (req.method === "POST" && url.pathname === "/refuse") {
      refuse = Number(url.searchParams.get("count") ?? "1");
      return send(200, "application/json", JSON.stringify({ refuse }));
    }
    const one = url.pathname.match(/^\/mails\/(\d+)(\.eml)?$/);
    if (req.method === "GET" && one) {
      const mail = mails.find((m) => m.n === Number(one[1]));
      if (!mail) return send(404, "text/plain", "no such mail");
      return one[2] ? send(200, "message/rfc822", mail.raw) : send(200, "text/html; charset=utf-8", mail.html);
    }
    if (req.method === "GET" && url.pathname === "/") {
      const rows = [...mails]
        .reverse()
        .map(
          (m) =>
            `<tr><td>${m.n}</td><td>${escapeHtml(m.receivedAt)}</td><td>${escapeHtml(m.to.join(", "))}</td><td><a href="/mails/${m.n}">${escapeHtml(m.subject)}</a></td><td><a href="/mails/${m.n}.eml">.eml</a></td></tr>`,
        )
        .join("");
      return send(
        200,
        "text/html; charset=utf-8",
        `<!doctype html><meta charset="utf-8"><title>Local mail</title><h1>Mails received (${mails.length})</h1><table border="1" cellpadding="4"><tr><th>#</th><th>received</th><th>to</th><th>subject</th><th>raw</th></tr>${rows}</table>`,
      );
    }
    return send(404, "text/plain", "not found");
  });
  await new Promise((resolve) => http.listen(httpPort, "127.0.0.1", resolve));

  return {
    smtpPort: smtp.server.address().port,
    httpPort: http.address().port,
    mails,
    async close() {
      await new Promise((resolve) => smtp.close(resolve));
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
