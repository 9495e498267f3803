// The demo's embedded OpenID Provider: oidc-provider on 127.0.0.1 with one demo user and a plain
// login page of its own (pre-filled, so a newcomer only clicks). Consent is granted on the user's
// behalf, as a first-party provider would.
import { createServer } from "node:http"
import { exportJWK, generateKeyPair } from "jose"
import Provider from "oidc-provider"

export const DEMO_USER = { sub: "demo-user-1", name: "Ada Lovelace", email: "ada@example.com", email_verified: true, picture: null, username: "ada", password: "demo" }

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

function loginPage(uid, error) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo OpenID Provider</title><meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px system-ui,sans-serif;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0;background:#eef2ff}
main{background:#fff;padding:2rem;border-radius:.75rem;width:20rem;box-shadow:0 1px 3px #0002}h1{font-size:1.1rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;width:100%;padding:.6rem;background:#4338ca;color:#fff;border:0;border-radius:.4rem;font-weight:600}p{color:#555}</style></head>
<body><main><h1>Demo OpenID Provider</h1><p>Sign in as the demo user (pre-filled).</p>${error ? `<p role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login"><label for="username">Username</label><input id="username" name="username" value="${DEMO_USER.username}" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" value="${DEMO_USER.password}" autocomplete="current-password"><button type="submit">Continue</button></form></main></body></html>`
}

async function readForm(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return new URLSearchParams(Buffer.concat(chunks).toString())
}

/** Starts the provider; `redirectUris` are the app's callback URLs. */
export async function startDemoProvider({ redirectUris, port = 0 }) {
  const server = createServer()
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${server.address().port}`
  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  const provider = new Provider(issuer, {
    clients: [{ client_id: "latchkey-demo", client_secret: "latchkey-demo-secret", redirect_uris: redirectUris, grant_types: ["authorization_code"] }],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "demo", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["latchkey-demo-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) =>
      sub === DEMO_USER.sub ? { accountId: sub, claims: async () => ({ sub, name: DEMO_USER.name, email: DEMO_USER.email, email_verified: true }) } : undefined,
  })
  const callback = provider.callback()
  server.on("request", async (req, res) => {
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? "")
    if (!match) return callback(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      if (details.prompt.name === "consent") {
        const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id })
        grant.addOIDCScope(String(details.params.scope))
        return await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
      }
      if (!match[2]) {
        res.setHeader("content-type", "text/html; charset=utf-8")
        return res.end(loginPage(details.uid))
      }
      const form = await readForm(req)
      if (form.get("username") !== DEMO_USER.username || form.get("password") !== DEMO_USER.password) {
        res.setHeader("content-type", "text/html; charset=utf-8")
        return res.end(loginPage(details.uid, "Unknown user or wrong password."))
      }
      await provider.interactionFinished(req, res, { login: { accountId: DEMO_USER.sub } }, { mergeWithLastSubmission: false })
    } catch (error) {
      res.statusCode = 500
      res.end(String(error))
    }
  })
  return { issuer, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) }
}
