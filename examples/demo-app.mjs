// The demo app: createAuth with a "Demo" OpenID Connect provider and passkeys, mounted at /auth on
// a plain node:http server, and a home page that shows the signed-in user as a card, what the
// session cookie holds (a JWT's decoded claims, or, for a database session, why there is nothing
// to decode) and the user's passkeys, with a button to add one (the handler's passkey script runs it).
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

/** The signed-in user as a card: picture (or initial), name, email, and when the session ends. */
function sessionCard(session) {
  const { name, email, image } = session.user ?? {}
  const initial = escape((name ?? email ?? "?").trim().charAt(0).toUpperCase())
  const avatar = image ? `<img class="avatar" src="${escape(image)}" alt="">` : `<span class="avatar" aria-hidden="true">${initial}</span>`
  const expires = session.expires ? new Date(session.expires) : undefined
  const until = expires && !Number.isNaN(expires.getTime()) ? `<time datetime="${escape(expires.toISOString())}">${escape(expires.toUTCString())}</time>` : "unknown"
  return `<section class="card" id="user-card">${avatar}<div><p class="name" id="user-name">${escape(name ?? "(no name)")}</p><p class="muted" id="user-email">${escape(email ?? "(no email)")}</p><p class="muted">Session ends ${until}</p></div></section>`
}

/**
 * What the session cookie holds: a JWT session's claims, decoded with the secret; a database
 * session's cookie is an opaque key to its row, with nothing in it to decode.
 */
function tokenSection(claims, databaseSessions) {
  if (databaseSessions) {
    return `<h2>Session cookie</h2><p id="claims-note">Database session: the cookie holds only an opaque key to a row in the <code>sessions</code> table (in PGlite), so there is no token to decode. Sign-out deletes the row.</p>`
  }
  return `<h2>Session cookie</h2><p>A JWT session: the cookie is the session itself, encrypted with <code>AUTH_SECRET</code>. Decoded:</p><details open><summary>Token claims</summary><pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre></details>`
}

const STYLE = `:root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--text:#18181b;--muted:#52525b;--border:#d4d4d8;--accent:#4338ca;--accent-text:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#09090b;--card:#18181b;--text:#fafafa;--muted:#a1a1aa;--border:#3f3f46;--accent:#6366f1}}
body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;background:var(--bg);color:var(--text)}
.card{display:flex;gap:1rem;align-items:center;background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:1.25rem;margin:1rem 0}
.card p{margin:0}.name{font-weight:600;font-size:1.125rem}.muted{color:var(--muted)}
.avatar{flex:none;width:3.5rem;height:3.5rem;border-radius:50%;display:grid;place-items:center;background:var(--accent);color:var(--accent-text);font-weight:700;font-size:1.5rem;object-fit:cover}
pre{background:var(--card);border:1px solid var(--border);padding:1rem;border-radius:.5rem;overflow:auto;font-size:.875rem}summary{cursor:pointer;color:var(--muted)}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.5rem;border:0;background:var(--accent);color:var(--accent-text);text-decoration:none;cursor:pointer}
a{color:inherit}[hidden]{display:none}`

function homePage(session, claims, passkeys, databaseSessions) {
  const body = session
    ? `<h1>Signed in</h1>${sessionCard(session)}<details><summary>The session as JSON (GET /auth/session)</summary><pre id="session">${escape(JSON.stringify(session, null, 2))}</pre></details>${tokenSection(claims, databaseSessions)}${passkeysSection(passkeys)}<p><a class="button" href="/auth/signout">Sign out</a></p>`
    : `<h1>latchkey demo</h1><p>You are not signed in.</p><p><a class="button" href="/auth/signin?callbackUrl=%2F">Sign in</a></p>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>latchkey demo</title>
<style>${STYLE}</style>
<script src="/auth/webauthn-client.js" defer></script></head><body>${body}</body></html>`
}

/** A port nothing listens on right now on localhost (for `port` 0). */
async function freePort() {
  const probe = createServer()
  await new Promise((resolve, reject) => probe.once("error", reject).listen(0, "localhost", resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/**
 * Starts the provider and the app; `port` 0 picks a free one. The app listens last, once its
 * handler exists: a server that listened first would accept a request it could never answer.
 */
export async function startDemo({ port = 3000, secret = "latchkey-demo-secret-not-for-production-0123456789", database } = {}) {
  const appPort = port === 0 ? await freePort() : port
  const origin = `http://localhost:${appPort}`
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
  const server = createServer(async (req, res) => {
    if (req.url?.startsWith("/auth")) return authRoutes(req, res)
    const request = new Request(new URL(req.url ?? "/", origin), { headers: req.headers })
    const [session, claims] = await Promise.all([auth(request), database ? null : getToken({ req: request, secret })])
    // The user's passkeys, through the handler's own management API (GET /auth/passkeys).
    const listed = session ? await handler(new Request(`${origin}/auth/passkeys`, { headers: { cookie: req.headers.cookie ?? "" } })) : undefined
    const passkeys = listed?.ok ? (await listed.json()).passkeys : []
    res.setHeader("content-type", "text/html; charset=utf-8")
    res.end(homePage(session, claims, passkeys, Boolean(database)))
  })
  try {
    await new Promise((resolve, reject) => server.once("error", reject).listen(appPort, "localhost", resolve))
  } catch (error) {
    await provider.close()
    throw error
  }
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
