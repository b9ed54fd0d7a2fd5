import { z } from "@hono/zod-openapi";
import type { AppContext } from "../../env";
import { PAGE_HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import type { ServiceCtx } from "../../http/service-context";
import { escapeXml, htmlPage, newNonce, pageHeaders } from "../sso";
import { acceptHandover, declineHandover } from "./decide";
import { resolveLink } from "./link";
import { handoverDetail } from "./read";
import { itemLine } from "./render";
import { DeclineBody, HandoverSchema, LinkAcceptBody, LinkParams, ReceiptSchema, tags } from "./schemas";

/**
 * A link's caller has no credential: the link is the credential, and it speaks for the person it
 * was made for, so audits and events name them (`person:<id>`) once the link is resolved.
 */
async function linkContext(c: AppContext, token: string) {
  const base: ServiceCtx = { db: c.var.db, actor: "handover-link", tenantId: c.var.tenant.id, files: c.env.FILES };
  const { row, nonce } = await resolveLink(base, c.env.FILES_SIGNING_SECRET, token);
  return { ctx: { ...base, actor: `person:${row.personId}` }, row, nonce };
}

const AcceptedByLink = z.object({ handover: HandoverSchema, receipt: ReceiptSchema }).openapi("AcceptedHandoverByLink");

const linkErrors =
  "403 when the link is not genuine or has expired (`details.reason`); 409 once it is used or replaced.";

// The page's script: accept with the typed name or decline with a reason, then show the outcome.
const SCRIPT = `const base=location.pathname;const ag=document.getElementById('agreement');if(ag)ag.style.whiteSpace='pre-wrap';const out=document.getElementById('outcome');
async function send(path,body){out.textContent='Sending...';const r=await fetch(base+path,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(body)});
const j=await r.json().catch(()=>({}));if(r.ok){document.getElementById('forms').hidden=true;out.className='';out.textContent=path==='/accept'?'Accepted. Thank you; your receipt is '+j.receipt.id+'.':'Declined. The workspace has your reason.';}
else{out.className='error';out.textContent=j.message||('Failed ('+r.status+')');}}
document.getElementById('accept').addEventListener('submit',e=>{e.preventDefault();send('/accept',{signerName:document.getElementById('name').value});});
document.getElementById('decline').addEventListener('submit',e=>{e.preventDefault();send('/decline',{reason:document.getElementById('reason').value});});`;

export const handoverLinksRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/handover-links/{token}",
      operationId: "getHandoverLinkPage",
      tags,
      summary: "The signing page of a hand-over link",
      description: `An HTML page, no account needed: the agreement as filled in, the items, and forms to accept (typed name) or decline (with a reason). ${linkErrors}`,
      request: { params: LinkParams },
      responses: {
        200: { description: "The page", headers: PAGE_HEADERS, content: { "text/html": { schema: z.string() } } },
        ...errorResponses(403, 409),
      },
    }),
    async (c) => {
      const { ctx, row } = await linkContext(c, c.req.valid("param").token);
      const detail = await handoverDetail(ctx, row);
      const nonce = newNonce();
      const items = row.items.map((i) => `<li>${escapeXml(itemLine(i))}</li>`).join("");
      const page = htmlPage(
        "Hand-over",
        `<h1>${row.kind === "return" ? "Return" : "Hand-over"} for ${escapeXml(row.personName)}</h1>
<h2>Items</h2><ul id="items">${items}</ul>
${detail.agreementText ? `<h2>Agreement (version ${detail.agreementVersion})</h2><div id="agreement">${escapeXml(detail.agreementText)}</div>` : ""}
<div id="forms"><form id="accept"><label for="name">Your full name</label><input id="name" required maxlength="200" autocomplete="name"><button class="primary" type="submit">Accept and sign</button></form>
<form id="decline"><label for="reason">Or decline, with a reason</label><input id="reason" required maxlength="1000"><button type="submit">Decline</button></form></div>
<p id="outcome" role="status"></p>`,
        nonce,
        SCRIPT,
      );
      return c.body(page, 200, pageHeaders(nonce));
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handover-links/{token}/accept",
      operationId: "acceptHandoverByLink",
      tags,
      summary: "Accept a hand-over by link",
      description: `The person signs with their typed name; the receipt is issued as for an in-person signature (method \`link\`). ${linkErrors}`,
      request: { params: LinkParams, ...body(LinkAcceptBody) },
      responses: { 200: json(AcceptedByLink, "Accepted; the receipt was issued"), ...errorResponses(403, 409, 415) },
    }),
    async (c) => {
      const { ctx, row, nonce } = await linkContext(c, c.req.valid("param").token);
      const { signerName } = c.req.valid("json");
      return c.json(await acceptHandover(ctx, row, { method: "link", signerName, linkNonce: nonce }), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handover-links/{token}/decline",
      operationId: "declineHandoverByLink",
      tags,
      summary: "Decline a hand-over by link",
      description: `With a reason; the items stay where they are and the workspace sees the reason. ${linkErrors}`,
      request: { params: LinkParams, ...body(DeclineBody) },
      responses: { 200: json(HandoverSchema, "Declined"), ...errorResponses(403, 409, 415) },
    }),
    async (c) => {
      const { ctx, row, nonce } = await linkContext(c, c.req.valid("param").token);
      return c.json(await declineHandover(ctx, row, c.req.valid("json").reason, nonce), 200);
    },
  );
