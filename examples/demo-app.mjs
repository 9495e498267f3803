// The demo app: createAuth with one "Demo" OpenID Connect provider, mounted at /auth on a plain
// node:http server, and a home page that shows the session and the decoded token claims.
import { createServer } from "node:http"
import { createAuth } from "latchkey"
import { getToken } from "latchkey/jwt"
import { toWebHandler } from "latchkey/node"
import { startDemoProvider } from "./demo-provider.mjs"

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

function homePage(session, claims) {
  const body = session
    ? `<h1>Signed in</h1><h2>Session</h2><pre id="session">${escape(JSON.stringify(session, null, 2))}</pre><h2>Decoded session token</h2><pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre><p><a href="/auth/signout">Sign out</a></p>`
    : `<h1>latchkey demo</h1><p>You are not signed in.</p><p><a href="/auth/signin?callbackUrl=%2F">Sign in</a></p>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>latchkey demo</title>
<style>:root{color-scheme:light dark}body{font:16px system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}pre{background:#8881;padding:1rem;border-radius:.5rem;overflow:auto}</style></head><body>${body}</body></html>`
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
  // With a database, sessions are rows (the default with an adapter), and the cookie holds an opaque token.
  const { handler, auth } = createAuth({ providers: [demo], secret, trustHost: true, ...(database ? { adapter: database.adapter } : {}) })
  const authRoutes = toWebHandler(handler)
  server.on("request", async (req, res) => {
    if (req.url?.startsWith("/auth")) return authRoutes(req, res)
    const request = new Request(new URL(req.url ?? "/", origin), { headers: req.headers })
    const [session, claims] = await Promise.all([auth(request), getToken({ req: request, secret })])
    res.setHeader("content-type", "text/html; charset=utf-8")
    res.end(homePage(session, claims))
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
