// vitest globalSetup (runs in Node, outside workerd): test identity providers on 127.0.0.1.
//  - a SAML IdP made with samlify that signs login responses on request (RSA-SHA256): the
//    Assertion, as our SP metadata asks (WantAssertionsSigned="true"), unless the test asks for
//    the Response alone or both;
//  - panva's oidc-provider (a certified OpenID provider) with open dynamic client registration,
//    plus a helper that plays the user's browser through its login and consent interactions.
// Tests in workerd reach them over loopback; their URLs are handed over with `provide`.

import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import Provider from "oidc-provider";
import * as samlify from "samlify";

const here = new URL("../fixtures/sso/", import.meta.url);
const IDP_KEY = readFileSync(new URL("idp-key.pem", here), "utf8");
const IDP_CERT = readFileSync(new URL("idp-cert.pem", here), "utf8");
export const SAML_IDP_ENTITY = "https://saml-idp.test/entity";

samlify.setSchemaValidator({ validate: async () => "skipped" });

function listen(handler) {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The SP as the IdP sees it. `assertion` (the default) reads our metadata as it is, so samlify signs
 * the Assertion only. `response` plays an IdP that ignores WantAssertionsSigned: the same SP with
 * WantAssertionsSigned="false" and a signed message, so only the Response carries a signature.
 * `both` signs the Assertion and the Response.
 */
function serviceProvider(spMetadata, signing) {
  if (signing === "assertion") return samlify.ServiceProvider({ metadata: spMetadata });
  if (signing === "both") return samlify.ServiceProvider({ metadata: spMetadata, wantMessageSigned: true });
  if (signing !== "response") throw new Error(`signing: assertion, response or both, not ${signing}`);
  const unsigned = spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"');
  if (unsigned === spMetadata) throw new Error('the SP metadata no longer says WantAssertionsSigned="true"');
  return samlify.ServiceProvider({ metadata: unsigned, wantMessageSigned: true });
}

// POST /saml/sign { spMetadata, inResponseTo, email, signing? } → { samlResponse (base64) }
async function samlHandler(req, res) {
  try {
    if (req.method !== "POST" || req.url !== "/saml/sign") {
      res.writeHead(404).end();
      return;
    }
    const { spMetadata, inResponseTo, email, signing = "assertion" } = JSON.parse(await readBody(req));
    const idp = samlify.IdentityProvider({
      entityID: SAML_IDP_ENTITY,
      privateKey: IDP_KEY,
      signingCert: IDP_CERT,
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
      singleSignOnService: [
        { Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: "https://saml-idp.test/sso" },
      ],
      requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    });
    const sp = serviceProvider(spMetadata, signing);
    const out = await idp.createLoginResponse(sp, { extract: { request: { id: inResponseTo } } }, "post", { email });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ samlResponse: out.context }));
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(String(err?.stack ?? err));
  }
}

function oidcProvider(issuer) {
  const provider = new Provider(issuer, {
    clients: [],
    features: { devInteractions: { enabled: false }, registration: { enabled: true } },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["test-cookie-key-0123456789"] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Accounts are made up from the login hint: "unverified-…" addresses are not verified.
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: sub,
        email_verified: !sub.startsWith("unverified-"),
        name: `User ${sub.split("@")[0]}`,
      }),
    }),
    ttl: { AccessToken: 600, AuthorizationCode: 120, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  provider.proxy = false;
  return provider;
}

// The user's browser at the provider: follow redirects with a cookie jar, completing the login
// (as the login_hint) and consent interactions, until the provider sends us to the client.
async function playBrowser(issuer, authorizationUrl, clientPrefix) {
  const jar = new Map();
  let url = authorizationUrl;
  for (let i = 0; i < 20; i++) {
    if (!url.startsWith(issuer)) return url; // left the provider: the client's redirect URI
    const res = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get("location");
    if (!location)
      throw new Error(`provider answered ${res.status} without a redirect: ${(await res.text()).slice(0, 500)}`);
    url = new URL(location, url).toString();
    if (url.startsWith(clientPrefix)) return url;
  }
  throw new Error("too many redirects");
}

async function interaction(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === "login") {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: String(params.login_hint) } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  grant.addOIDCScope(String(params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

export default async function setup({ provide }) {
  const saml = await listen(samlHandler);
  let provider;
  let issuer;
  const oidc = await listen(async (req, res) => {
    try {
      if (req.url.startsWith("/interaction/")) return await interaction(provider, req, res);
      if (req.method === "POST" && req.url === "/test/browser") {
        const { authorizationUrl, clientPrefix } = JSON.parse(await readBody(req));
        const landed = await playBrowser(issuer, authorizationUrl, clientPrefix);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ url: landed }));
        return;
      }
      return provider.callback()(req, res);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err?.stack ?? err));
    }
  });
  issuer = `http://127.0.0.1:${oidc.address().port}`;
  provider = oidcProvider(issuer);
  provide("samlIdpUrl", `http://127.0.0.1:${saml.address().port}`);
  provide("samlIdpEntity", SAML_IDP_ENTITY);
  provide("samlIdpCert", IDP_CERT);
  provide("oidcIssuer", issuer);
  return async () => {
    await new Promise((r) => saml.close(r));
    await new Promise((r) => oidc.close(r));
  };
}
