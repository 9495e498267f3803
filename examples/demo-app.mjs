// The demo app: createAuth with a "Demo" OpenID Connect provider and passkeys, mounted at /auth on
// a plain node:http server, and a home page that shows the session, the decoded token claims and
// the user's passkeys, with a button to add one (the handler's own passkey script runs it).
import { createServer } from "node:http"
import { createAuth } from "latchkey"
import { getToken } from "latchkey/jwt"
import { toWebHandler } from "latchkey/node"
import { memoryAdapter } from "latchkey/adapters"
import Passkey from "latchkey/providers/passkey"
import { webauthn } from "latchkey/webauthn"
import { startDemoProvider } from "./demo-provider.mjs"

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

/** The passkeys section of the home page: the user's passkeys, and "Add a passkey" (wired by /auth/webauthn-client.js). */
function passkeysSection(passkeys) {
  const items = passkeys.map((passkey) => `<li>${escape(passkey.name ?? `Passkey ${passkey.id.slice(0, 8)}`)} (${escape(passkey.deviceType)})</li>`).join("")
  return `<h2>Passkeys</h2><ul id="passkeys">${items || "<li>None yet.</li>"}</ul>
<div data-latchkey-passkey="passkey" data-base="/auth" data-callback-url="/" hidden><button type="button" data-passkey-action="register">Add a passkey</button><p data-passkey-status hidden></p></div>`
}

function homePage(session, claims, passkeys) {
  const body = session
    ? `<h1>Signed in</h1><h2>Session</h2><pre id="session">${escape(JSON.stringify(session, null, 2))}</pre><h2>Decoded session token</h2><pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre>${passkeysSection(passkeys)}<p><a href="/auth/signout">Sign out</a></p>`
    : `<h1>latchkey demo</h1><p>You are not signed in.</p><p><a href="/auth/signin?callbackUrl=%2F">Sign in</a></p>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>latchkey demo</title>
<style>:root{color-scheme:light dark}body{font:16px system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}pre{background:#8881;padding:1rem;border-radius:.5rem;overflow:auto}[hidden]{display:none}</style>
<script src="/auth/webauthn-client.js" defer></script></head><body>${body}</body></html>`
}

/** Starts the provider and the app; `port` 0 picks a free one. */
export async function startDemo({ port = 3000, secret = "latchkey-demo-secret-not-for-production-0123456789", database } = {}) {
  const server = createServer()
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, "localhost", resolve))
  const origin = `http://localhost:${server.address().port}`
  const provider = await startDemoProvider({ redirectUris: [`${origin}/auth/callback/demo`] })
  const demo = {
    id: "demo",
    name: "Demo",
    type: "oidc",
    issuer: provider.issuer,
    clientId: "latchkey-demo",
    clientSecret: "latchkey-demo-secret",
    authorization: { params: { scope: "openid email profile" } },
    style: { brandColor: "#4338CA" },
  }
  // Passkeys need users in an adapter: the database's, else one in memory with JWT sessions. With a
  // database, sessions are rows (the default with an adapter), and the cookie holds an opaque token.
  const storage = database ? { adapter: database.adapter } : { adapter: memoryAdapter(), session: { strategy: "jwt" } }
  const passkey = Passkey({ allowSignUp: true })
  const { handler, auth } = createAuth({ providers: [demo, passkey], webauthn, secret, trustHost: true, ...storage })
  const authRoutes = toWebHandler(handler)
  server.on("request", async (req, res) => {
    if (req.url?.startsWith("/auth")) return authRoutes(req, res)
    const request = new Request(new URL(req.url ?? "/", origin), { headers: req.headers })
    const [session, claims] = await Promise.all([auth(request), getToken({ req: request, secret })])
    // The user's passkeys, through the handler's own management API (GET /auth/passkeys).
    const listed = session ? await handler(new Request(`${origin}/auth/passkeys`, { headers: { cookie: req.headers.cookie ?? "" } })) : undefined
    const passkeys = listed?.ok ? (await listed.json()).passkeys : []
    res.setHeader("content-type", "text/html; charset=utf-8")
    res.end(homePage(session, claims, passkeys))
  })
  return {
    url: origin,
    issuer: provider.issuer,
    close: async () => {
      await provider.close()
      await database?.close()
      await new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)))
    },
  }
}
